//! Differential test of the jq projection against real jq (libjq, through
//! the `jq` package on PyPI, installed by `scripts/test` into
//! `tests/clients/python/.venv`).
//!
//! A seeded (deterministic) generator writes programs from a small grammar
//! (paths, pipes, `map`/`select`/`sort_by`/`group_by`, string functions,
//! arithmetic, comparisons, `try`, `//`, `reduce`, object construction) over
//! the keys of real upstream bodies (`tests/fixtures`). Each program runs as
//! `[PROGRAM]` on every body, here through [`mcp_envelope::Projection`] (the
//! path the tools use) and in ONE Python process with libjq
//! (`tests/clients/python/jq_oracle.py`). Values must be equal (numbers by
//! value, objects without regard to key order); where jq fails we must fail
//! too (messages are not compared). The grammar stays clear of the known
//! differences listed in the README (numeric indexes on objects and null,
//! evaluation order when one operand is empty and another fails), so what
//! it finds is new. 2,000 cases by default; set
//! `JQ_DIFF_CASES=20000` (and `JQ_DIFF_SEED` for other programs) for the
//! longer run.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::PathBuf;
use std::process::Command;

use mcp_envelope::Projection;
use serde_json::Value;

const BODIES: &[&str] = &[
    include_str!("../../tests/fixtures/github/actions-runs.json"),
    include_str!("../../tests/fixtures/github/run-jobs.json"),
    include_str!("../../tests/fixtures/circleci/pipelines.json"),
];

/// xorshift64*: small, deterministic, good enough to pick grammar rules.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).unwrap()
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

/// Object keys found anywhere in the bodies (sorted, deduplicated).
fn keys(bodies: &[Value]) -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    out.push(k.clone());
                    walk(v, out);
                }
            }
            Value::Array(items) => items.iter().for_each(|v| walk(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    bodies.iter().for_each(|b| walk(b, &mut out));
    out.sort();
    out.dedup();
    out
}

struct Gen<'k> {
    rng: Rng,
    keys: &'k [String],
}

impl Gen<'_> {
    fn key(&mut self) -> String {
        let k = &self.keys[self.rng.below(self.keys.len())];
        if k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !k.starts_with(|c: char| c.is_ascii_digit()) {
            format!(".{k}")
        } else {
            format!(".[{}]", serde_json::to_string(k).unwrap())
        }
    }

    fn literal(&mut self) -> String {
        self.rng
            .pick(&[
                "0",
                "1",
                "2",
                "-3",
                "0.5",
                "10",
                "\"a\"",
                "\"success\"",
                "null",
                "true",
                "false",
            ])
            .to_owned()
    }

    /// A path from the input into the body (`.a | (arrays | .[0]) | .b`).
    /// Numeric indexes and slices apply to arrays only: on objects and null
    /// jaq differs from jq there (see the README's table of known
    /// differences), and this test looks for differences not yet known.
    fn path(&mut self) -> String {
        let mut parts = Vec::new();
        for _ in 0..=self.rng.below(3) {
            parts.push(match self.rng.below(6) {
                0..=2 => self.key(),
                3 => ".[]?".to_owned(),
                4 => format!("(arrays | .[{}])", self.rng.pick(&["0", "1", "-1", "5"])),
                _ => format!(
                    "(arrays | .[{}:{}])",
                    self.rng.pick(&["0", "1", "-2"]),
                    self.rng.pick(&["2", "3", ""])
                ),
            });
        }
        parts.join(" | ")
    }

    fn condition(&mut self, depth: usize) -> String {
        let a = self.filter(depth + 1);
        match self.rng.below(7) {
            0 => format!("{a} == {}", self.literal()),
            1 => format!("{a} != null"),
            2 => format!("({a}) < {}", self.literal()),
            3 => format!("({a} | type) == \"string\""),
            4 => format!("({}) and ({})", self.condition(depth + 1), self.condition(depth + 1)),
            5 => format!(
                "({}) or ({} | not)",
                self.condition(depth + 1),
                self.condition(depth + 1)
            ),
            _ => format!("has({})", self.rng.pick(&["\"id\"", "\"name\"", "\"status\"", "0"])),
        }
    }

    fn filter(&mut self, depth: usize) -> String {
        if depth > 3 {
            return self.path();
        }
        let d = depth + 1;
        match self.rng.below(40) {
            0..=5 => self.path(),
            6 => format!("{} | {}", self.filter(d), self.filter(d)),
            7 => format!("map({})", self.filter(d)),
            8 => format!("[.[]? | select({})]", self.condition(d)),
            9 => format!("sort_by({})", self.filter(d)),
            10 => format!("group_by({}) | map(length)", self.filter(d)),
            11 => format!("unique_by({}) | length", self.filter(d)),
            12 => format!("(try ({}) catch \"caught\")", self.filter(d)),
            13 => format!("({}) // {}", self.filter(d), self.literal()),
            14 => format!("{{a: ({}), b: {}}}", self.filter(d), self.literal()),
            15 => format!("[{}]", self.filter(d)),
            16 => self
                .rng
                .pick(&[
                    "length",
                    "keys",
                    "type",
                    "tostring",
                    "tojson",
                    "to_entries",
                    "add",
                    "reverse",
                    "sort",
                    "unique",
                    "flatten",
                    "min",
                    "max",
                    "any",
                    "all",
                    "arrays | first",
                    "arrays | last",
                    "keys_unsorted",
                    "[paths] | length",
                    "tostream",
                    "[.. | numbers]",
                    "[.. | strings] | length",
                    "values",
                    "arrays",
                    "objects",
                    "scalars",
                    "not",
                    "isempty(.[]?)",
                    "to_entries | from_entries",
                    "with_entries(select(.value | type == \"string\"))",
                    "length > 2",
                    "[splits(\"-\")]?",
                ])
                .to_owned(),
            17 => format!(
                "{} | {}",
                self.path(),
                self.rng.pick(&[
                    "ascii_downcase",
                    "ascii_upcase",
                    "split(\"-\")",
                    "split(\"/\") | join(\",\")",
                    "test(\"a\")",
                    "test(\"^[a-z]+$\"; \"i\")",
                    "ltrimstr(\"c\")",
                    "rtrimstr(\"s\")",
                    "startswith(\"s\")",
                    "endswith(\"e\")",
                    "(strings | .[0:3])",
                    "explode | length",
                    "sub(\"a\"; \"b\")",
                    "gsub(\"[aeiou]\"; \"\")",
                    "@base64",
                    "@base64 | @base64d",
                    "@uri",
                    "@html",
                    "@text",
                    "@json",
                    "tostring | length",
                    "utf8bytelength",
                    "ascii_downcase | contains(\"e\")",
                    "[match(\"[0-9]+\"; \"g\") | .string]",
                    "capture(\"(?<first>[a-z])\")",
                    "[scan(\"[a-z]+\")]",
                    "indices(\"-\")",
                    "index(\"e\")",
                    "tonumber? // 0",
                    "fromjson? // \"no\"",
                    "trim",
                    "@sh",
                ])
            ),
            18 => format!(
                "{} | {}",
                self.path(),
                self.rng.pick(&[
                    ". + 1",
                    ". * 2",
                    ". - 3",
                    ". / 4",
                    ". % 7",
                    "floor",
                    "sqrt | floor",
                    "-(.)",
                    "abs",
                    ". + .",
                    "tostring",
                    "[., 1] | max",
                    "length + 1",
                    ". / 1000 | floor",
                    "log10 | floor",
                    "pow(.; 2)",
                ])
            ),
            19 => format!("{} as $v | {}", self.path(), self.filter(d).replace(".[]?", "$v")),
            20 => format!("reduce ({}) as $x (0; . + 1)", self.filter(d)),
            21 => format!("[limit({}; {})]", self.rng.pick(&["0", "1", "3"]), self.filter(d)),
            22 => format!("first({}) // null", self.filter(d)),
            23 => format!(
                "if {} then {} else {} end",
                self.condition(d),
                self.filter(d),
                self.literal()
            ),
            24 => format!("del({})", self.key()),
            25 => format!(
                "[{}] | @csv",
                self.rng.pick(&[".[]? | scalars", "1, \"a\", null", "(.. | numbers)"])
            ),
            26 => format!("[{}] | @tsv", self.rng.pick(&[".[]? | strings", "\"a\\tb\", 2"])),
            27 => format!("{} | join(\",\")?", self.filter(d)),
            28 => format!("[{} | tostring] | join(\"-\")", self.filter(d)),
            29 => format!(
                "to_entries | map(.key) | {}",
                self.rng.pick(&["length", "sort", "join(\" \")"])
            ),
            30 => format!("[{}] | length", self.filter(d)),
            31 => format!(
                "{} | {}",
                self.path(),
                self.rng
                    .pick(&["min_by(.id)?", "max_by(.id)?", "sort_by(.name)? | map(.name)?"])
            ),
            32 => format!("any({}; {})", self.filter(d), self.condition(d)),
            33 => format!("all({}; {})", self.filter(d), self.condition(d)),
            34 => format!("{} | getpath([\"a\", 0])?", self.filter(d)),
            35 => format!("[{} | numbers] | add", self.filter(d)),
            36 => format!("{{({} | tostring): 1}}", self.path()),
            37 => format!("{} | {} ", self.filter(d), self.literal()),
            38 => format!("[{}] | IN([], [null])", self.filter(d)),
            _ => format!("{} | length", self.path()),
        }
    }
}

/// jq's equality for outputs: numbers by value, objects unordered.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.to_string() == y.to_string() || x.as_f64().zip(y.as_f64()).is_some_and(|(x, y)| x == y)
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn short(text: &str) -> String {
    let cut: String = text.chars().take(200).collect();
    if cut.len() < text.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[test]
fn generated_programs_agree_with_libjq() {
    let clients = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/clients/python");
    let python = clients.join(".venv/bin/python");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {} with the `jq` package (libjq)",
        python.display()
    );
    let cases = usize::try_from(env_number("JQ_DIFF_CASES", 2_000)).unwrap();
    let mut rng = Rng(env_number("JQ_DIFF_SEED", 0x5EED_0011).max(1));
    let bodies: Vec<Value> = BODIES.iter().map(|b| serde_json::from_str(b).unwrap()).collect();
    let keys = keys(&bodies);
    let mut generator = Gen {
        rng: Rng(rng.next() | 1),
        keys: &keys,
    };
    let programs: Vec<String> = (0..cases.div_ceil(bodies.len())).map(|_| generator.filter(0)).collect();

    let dir = std::env::temp_dir().join(format!("jq-differential-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (inputs_path, cases_path, out_path) = (dir.join("inputs.json"), dir.join("cases.jsonl"), dir.join("out.jsonl"));
    std::fs::write(&inputs_path, serde_json::to_string(&bodies).unwrap()).unwrap();
    let mut lines = String::new();
    for program in &programs {
        for input in 0..bodies.len() {
            lines.push_str(&serde_json::json!({"program": program, "input": input}).to_string());
            lines.push('\n');
        }
    }
    std::fs::write(&cases_path, lines).unwrap();
    let status = Command::new(&python)
        .arg(clients.join("jq_oracle.py"))
        .args([&inputs_path, &cases_path, &out_path])
        .status()
        .unwrap();
    assert!(status.success(), "jq_oracle.py failed: {status}");
    let oracle: Vec<Value> = std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    std::fs::remove_dir_all(&dir).ok();

    let (mut compared, mut both_failed, mut differences) = (0, 0, Vec::new());
    let mut expected = oracle.iter();
    for program in &programs {
        let compiled = Projection::compile(&format!("[{program}\n]"));
        for body in &bodies {
            let jq = expected.next().unwrap();
            compared += 1;
            let ours = match &compiled {
                Ok(Some(p)) => p.apply(body.clone()).map_err(|e| e.to_string()),
                Ok(None) => Ok(body.clone()),
                Err(e) => Err(e.to_string()),
            };
            match (jq.get("ok"), ours) {
                (Some(want), Ok(got)) if same(want, &got) => {}
                (None, Err(_)) => both_failed += 1,
                (_, got) => differences.push(format!(
                    "{program}\n    jq:   {}\n    ours: {}",
                    short(&jq.to_string()),
                    short(&format!("{got:?}"))
                )),
            }
        }
    }
    println!(
        "{compared} generated cases compared with libjq: {} equal values, {both_failed} errors on both sides, {} differences",
        compared - both_failed - differences.len(),
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} differences from jq, first ones:\n{}",
        differences.len(),
        differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}
