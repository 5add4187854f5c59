//! Differential test of the jq projection against real jq (libjq, through
//! the `jq` package on PyPI, installed by `scripts/test` into
//! `clients/python/.venv`).
//!
//! A seeded (deterministic) generator writes programs from a small grammar
//! (paths, pipes, `map`/`select`/`sort_by`/`group_by`, string functions,
//! arithmetic, comparisons, `try`, `//`, `reduce`, object construction) over
//! the keys of real upstream bodies (`fixtures`). Each program runs as
//! `[PROGRAM]` on every body, here through [`mcp_envelope::Projection`] (the
//! path the tools use) and in ONE Python process with libjq
//! (`clients/python/jq_oracle.py`). Values must be equal (numbers by
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
    include_str!("../../../fixtures/github/actions-runs.json"),
    include_str!("../../../fixtures/github/run-jobs.json"),
    include_str!("../../../fixtures/circleci/pipelines.json"),
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
    let cut: String = text.chars().take(400).collect();
    if cut.len() < text.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What a case gives: the array of its outputs, or `None` for an error.
type Outcome = Option<Value>;

/// The marker a batch yields for a program that failed (see [`compare_with_libjq`]).
const FAILED: &str = r#"{"__jq_differential_error": true}"#;

/// Programs per batch: one compiled program (here and in libjq) runs this many cases.
const BATCH: usize = 25;

/// Evaluates `(program, input index)` cases with libjq in ONE Python process (`jq_oracle.py`): each program
/// runs as `[PROGRAM]`; an error gives `None`.
fn libjq(python: &PathBuf, script: &PathBuf, inputs: &[Value], cases: &[(String, usize)]) -> Vec<Outcome> {
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("jq-differential-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (inputs_path, cases_path, out_path) = (dir.join("inputs.json"), dir.join("cases.jsonl"), dir.join("out.jsonl"));
    std::fs::write(&inputs_path, serde_json::to_string(inputs).unwrap()).unwrap();
    let mut lines = String::new();
    for (program, input) in cases {
        lines.push_str(&serde_json::json!({"program": program, "input": input}).to_string());
        lines.push('\n');
    }
    std::fs::write(&cases_path, lines).unwrap();
    let status = Command::new(python)
        .arg(script)
        .args([&inputs_path, &cases_path, &out_path])
        .status()
        .unwrap();
    assert!(status.success(), "jq_oracle.py failed: {status}");
    let oracle: Vec<Outcome> = std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap().get("ok").cloned())
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(oracle.len(), cases.len(), "jq_oracle.py answers every case");
    oracle
}

/// The same here, through [`Projection`] (the path the tools use).
fn ours(inputs: &[Value], (program, input): &(String, usize)) -> Result<Value, String> {
    match Projection::compile(&format!("[{program}\n]")) {
        Ok(Some(p)) => p.apply(inputs[*input].clone()).map_err(|e| e.to_string()),
        Ok(None) => Ok(inputs[*input].clone()),
        Err(e) => Err(e.to_string()),
    }
}

/// Compares every `(program, input index)` case here and in libjq; returns the number of cases, of errors on
/// both sides, and the differences. Cases on one input run in batches of [`BATCH`]: one program
/// `(try ([P1]) catch FAILED), (try ([P2]) catch FAILED), …` per batch, so each side compiles once per batch
/// (compiling loads the whole standard library); a batch whose results differ (one program jq refuses to
/// compile fails its whole batch there) runs again case by case, in one more Python process.
fn compare_with_libjq(inputs: &[Value], cases: &[(String, usize)]) -> (usize, usize, Vec<String>) {
    let clients = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../clients/python");
    let python = clients.join(".venv/bin/python");
    let script = clients.join("jq_oracle.py");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {} with the `jq` package (libjq)",
        python.display()
    );
    let failed: Value = serde_json::from_str(FAILED).unwrap();
    let mut batches: Vec<(usize, Vec<usize>)> = Vec::new();
    for input in 0..inputs.len() {
        let on_input: Vec<usize> = (0..cases.len()).filter(|i| cases[*i].1 == input).collect();
        batches.extend(on_input.chunks(BATCH).map(|c| (input, c.to_vec())));
    }
    let batch_programs: Vec<(String, usize)> = batches
        .iter()
        .map(|(input, members)| {
            let parts: Vec<String> = members
                .iter()
                .map(|i| format!("(try ([{}\n]) catch {FAILED})", cases[*i].0))
                .collect();
            (parts.join(",\n"), *input)
        })
        .collect();
    let jq_batches = libjq(&python, &script, inputs, &batch_programs);

    let mut outcomes: Vec<Option<(Outcome, Result<Value, String>)>> = vec![None; cases.len()];
    let mut again = Vec::new();
    for (((_, members), batch), jq) in batches.iter().zip(&batch_programs).zip(&jq_batches) {
        let here = ours(inputs, batch);
        let split = |v: &Value| v.as_array().filter(|a| a.len() == members.len()).cloned();
        match (jq.as_ref().and_then(split), here.as_ref().ok().and_then(split)) {
            (Some(want), Some(got)) if same(&Value::Array(want.clone()), &Value::Array(got.clone())) => {
                for ((i, w), g) in members.iter().zip(want).zip(got) {
                    let to_outcome = |v: Value| if v == failed { None } else { Some(v) };
                    let g = to_outcome(g).ok_or_else(|| "error".to_owned());
                    outcomes[*i] = Some((to_outcome(w), g));
                }
            }
            _ => again.extend(members.iter().copied()),
        }
    }
    if !again.is_empty() {
        let single: Vec<(String, usize)> = again.iter().map(|i| cases[*i].clone()).collect();
        let jq_single = libjq(&python, &script, inputs, &single);
        for ((i, case), jq) in again.iter().zip(&single).zip(jq_single) {
            outcomes[*i] = Some((jq, ours(inputs, case)));
        }
    }

    let (mut both_failed, mut differences) = (0, Vec::new());
    for ((program, input), outcome) in cases.iter().zip(outcomes) {
        let (jq, ours) = outcome.unwrap();
        match (&jq, ours) {
            (Some(want), Ok(got)) if same(want, &got) => {}
            (None, Err(_)) => both_failed += 1,
            (_, got) => differences.push(format!(
                "{program}\n    input {}\n    jq:   {}\n    ours: {}",
                short(&inputs[*input].to_string()),
                short(&serde_json::to_string(&jq).unwrap_or_default()),
                short(&serde_json::to_string(&got).unwrap_or_default())
            )),
        }
    }
    (cases.len(), both_failed, differences)
}

fn report(what: &str, (compared, both_failed, mut differences): (usize, usize, Vec<String>)) {
    println!(
        "{what}: {compared} generated cases compared with libjq: {} equal values, {both_failed} errors on both sides, {} differences",
        compared - both_failed - differences.len(),
        differences.len()
    );
    let count = differences.len();
    differences.sort();
    differences.dedup();
    assert!(
        differences.is_empty(),
        "{count} differences from jq ({} distinct), first ones:\n{}",
        differences.len(),
        differences.iter().take(40).cloned().collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn generated_programs_agree_with_libjq() {
    let cases = usize::try_from(env_number("JQ_DIFF_CASES", 2_000)).unwrap();
    let mut rng = Rng(env_number("JQ_DIFF_SEED", 0x5EED_0011).max(1));
    let bodies: Vec<Value> = BODIES.iter().map(|b| serde_json::from_str(b).unwrap()).collect();
    let keys = keys(&bodies);
    let mut generator = Gen {
        rng: Rng(rng.next() | 1),
        keys: &keys,
    };
    let programs: Vec<String> = (0..cases.div_ceil(bodies.len())).map(|_| generator.filter(0)).collect();
    let cases: Vec<(String, usize)> = programs
        .iter()
        .flat_map(|p| (0..bodies.len()).map(move |i| (p.clone(), i)))
        .collect();
    report("fixture bodies", compare_with_libjq(&bodies, &cases));
}

/// Inputs of the second grammar ([`Corners`]), by index.
const CORNER_INPUTS: &str = r#"[
  "foo bar FOO foo",
  "aé ü bāz Ünï",
  "abcabc ABC",
  "a\nb\nc",
  "feature/123 feature/45",
  "",
  "xyzzy-14, ab-7",
  {"a": [1, {"b": 2}], "c": "x", "d": null},
  [1, 2.5, -3, 1e17, 0.1, 100, 1e-5, 1.0, 12345678901234567890, 0.30000000000000004],
  [0, 1425599507, 951782400, 1e9, 2147483648, -86400, 1425599507.5],
  ["2015-03-05T23:51:47Z", "1970-01-01T00:00:00Z", "2000-02-29T12:00:00Z"],
  ["a,b", "c\"d", "e\tf", "<&>'", "ü 1/2", "x y", "it's"],
  null
]"#;

/// The second grammar: jq's own corners over [`CORNER_INPUTS`]: regular expressions and their
/// flags, dates, formats, number printing and arithmetic edge cases, string functions, paths, and
/// `limit`/`first`/`until`. Each program picks the input it is written for.
struct Corners {
    rng: Rng,
}

const STRING_INPUTS: &[usize] = &[0, 1, 2, 3, 4, 5, 6];

impl Corners {
    fn pick(&mut self, items: &[&str]) -> String {
        self.rng.pick(items).to_owned()
    }

    fn regex(&mut self) -> String {
        let re = self.pick(&[
            r#""foo""#,
            r#""(?i)foo""#,
            r#""[a-z]+""#,
            r#""(?<w>\\w+)""#,
            r#""(?<=feature/)[0-9]+""#,
            r#""[0-9]+(?=,)""#,
            r#""(?<!a)b""#,
            r#""(a|b)\\1""#,
            r#""(?<x>a)?b?""#,
            r#""(?<x>[a-z])(?<y>[0-9])?""#,
            r#""\\p{Lu}""#,
            r#""\\p{L}+""#,
            r#""a++""#,
            r#""(?>a+)b""#,
            r#""""#,
            r#""^""#,
            r#""$""#,
            r#""\\b""#,
            r#"".""#,
            r#""\\s+""#,
            r#""(?<n>a)|(?<m>b)""#,
            r#""[[:alpha:]]+""#,
            r#""é|ü""#,
            r#""(.)(.)""#,
            r#""x*""#,
            r#""\\d+""#,
            r#""c$""#,
            r#""^a""#,
            r#""(?<k>\\w)\\k<k>""#,
            r#""o{2,}+""#,
            r#""[^a-z ]+""#,
            r#""(?<a>.)(?<a>.)""#,
            r#""a b # comment""#,
            r#""\\w+?""#,
            r#""(?m:.)+""#,
            r#""b|ab|abc""#,
        ]);
        let flags = self.pick(&[
            r#""""#, r#""g""#, r#""i""#, r#""gi""#, r#""x""#, r#""n""#, r#""gn""#, r#""s""#, r#""gs""#, r#""p""#,
            r#""gp""#, r#""l""#, r#""gl""#, r#""gx""#, r#""ix""#, "null",
        ]);
        let op = match self.rng.below(14) {
            0 => format!("[match({re}; {flags})]"),
            1 => format!("test({re}; {flags})"),
            2 => format!("[capture({re}; {flags})]"),
            3 => format!("[scan({re}; {flags})]"),
            4 => format!("split({re}; {flags})"),
            5 => format!("[splits({re}; {flags})]"),
            6 => format!(r#"sub({re}; "<\(.)>"; {flags})"#),
            7 => format!(r#"gsub({re}; "-"; {flags})"#),
            8 => format!(r#"[sub({re}; "a", "b"; {flags})]"#),
            9 => format!("[match({re}; {flags}) | .captures | length]"),
            10 => format!("test([{re}, {flags}])"),
            11 => format!("[match({re}; {flags}) | [.offset, .length]]"),
            12 => format!(r#"[gsub({re}; "\(.)"; {flags})]"#),
            _ => format!("[scan({re})] | length"),
        };
        format!("try ({op}) catch \"error\"")
    }

    fn string(&mut self) -> String {
        let s = self.pick(&[r#""a""#, r#""ab""#, r#""foo""#, r#""é""#, r#"" ""#, r#""""#, r#""c""#]);
        match self.rng.below(22) {
            0 => "ascii_downcase".into(),
            1 => "ascii_upcase".into(),
            2 => format!("ltrimstr({s})"),
            3 => format!("rtrimstr({s})"),
            4 => format!("trimstr({s})"),
            5 => self.pick(&["trim", "ltrim", "rtrim"]),
            6 => format!("[startswith({s}), endswith({s})]"),
            7 => "explode".into(),
            8 => "explode | implode".into(),
            9 => format!("split({s})"),
            10 => format!("split({s}) | join(\"|\")"),
            11 => format!("[indices({s}), index({s}), rindex({s})]"),
            12 => self.pick(&[".[1:3]", ".[-2:]", ".[:1]", ".[2:]", ".[5:1]"]),
            13 => "[length, utf8bytelength]".into(),
            14 => ". * 2".into(),
            15 => format!("[contains({s}), ({s} | inside(\"foo bar\"))]"),
            16 => "tojson".into(),
            17 => "[splits(\" \")]".into(),
            18 => "ascii_downcase | ascii_upcase | length".into(),
            19 => "tostring | . + \"!\"".into(),
            20 => "[.[0:1], .[1:]] | add".into(),
            _ => "@json \"<\\(.)>\"".into(),
        }
    }

    fn number(&mut self) -> String {
        let e = self.pick(&[
            ". * 1",
            ". + 0.5",
            ". / 3",
            ". * 1e10",
            "-(.)",
            ". % 3",
            "floor",
            "sqrt",
            "pow(.; 2)",
            ". * 1e300",
            "1 / .",
            "abs",
            "round",
            "ceil",
            ". - 0.1",
            ". * 3 / 3",
            ". + 1e17",
            "[., 1] | max",
            ". > 0.5",
            "tostring | tonumber",
            ". * -1e-10",
            "trunc",
            "fabs",
            ". / 1e300 / 1e300",
            "-. % 7",
        ]);
        let out = self.pick(&[
            "tostring",
            "tojson",
            ".",
            "[.] | tojson",
            "@text",
            "\"n=\\(.)\"",
            "[.] | @csv",
        ]);
        format!("[.[] | try ({e} | {out}) catch \"error\"]")
    }

    fn literal_numbers(&mut self) -> String {
        let list = self.pick(&[
            "[1e17, 1e-5, 100e-2, 1.10, 3.0, 1E2]",
            "[nan, infinite, -infinite]",
            "[0.1 + 0.2, 1 / 3, 2 / 3 * 3, pow(2; 64), pow(2; 53) + 1]",
            "[1e1000, -1e1000, 5e-324, 1.7976931348623157e308]",
            "[5 % 3, -5 % 3, 5 % -3, 5.5 % 2, 1e10 % 7, -1 % 5]",
            "[1e16, 1e16 * 1, 1.5e16 * 1, 1e15 + 0.5, 123456789012 * 1000000]",
            "[0.0001 * 1, 0.00001 * 1, 1.23e-5 * 1, -0.0 * 1]",
            "[9007199254740993, 9007199254740993 + 0, 12345678901234567890 + 1]",
            "[nan < 1, nan > nan, (nan | isnan), (infinite | isinfinite), (1 | isnormal)]",
            "[infinite | floor, -infinite | tostring, (nan | tostring)]",
            "[1, 1.0, 1.5, -0.5] | map(. * 2)",
        ]);
        // Strings only: the oracle's Python conversion turns numbers beyond a double into other numbers.
        let out = self.pick(&["tojson", "map(tostring)", "@csv", "map(tojson) | join(\" \")"]);
        format!("try ({list} | {out}) catch \"error\"")
    }

    fn date(&mut self) -> (String, usize) {
        let fmt = self.pick(&[
            r#""%Y-%m-%dT%H:%M:%SZ""#,
            r#""%A, %B %d, %Y""#,
            r#""%j %a %b %e %y %C""#,
            r#""%H:%M:%S %I %p""#,
            r#""%u %w""#,
            r#""%Y%m%d""#,
            r#""%%|%d""#,
        ]);
        match self.rng.below(10) {
            0 => ("[.[] | todate]".into(), 9),
            1 => ("[.[] | gmtime]".into(), 9),
            2 => ("[.[] | gmtime | mktime]".into(), 9),
            3 => (format!("[.[] | strftime({fmt})]"), 9),
            4 => (format!("[.[] | gmtime | strftime({fmt})]"), 9),
            5 => ("[.[] | fromdate]".into(), 10),
            6 => ("[.[] | strptime(\"%Y-%m-%dT%H:%M:%SZ\")]".into(), 10),
            7 => ("[.[] | strptime(\"%Y-%m-%dT%H:%M:%SZ\") | mktime]".into(), 10),
            8 => ("[.[] | fromdate | todate]".into(), 10),
            _ => ("[.[] | fromdateiso8601 | todateiso8601]".into(), 10),
        }
    }

    fn format(&mut self) -> (String, usize) {
        match self.rng.below(12) {
            0 => ("[.[] | @base64]".into(), 11),
            1 => ("[.[] | @base64 | @base64d]".into(), 11),
            2 => ("[.[] | @uri]".into(), 11),
            3 => ("[.[] | @uri | @urid]".into(), 11),
            4 => ("[.[] | @sh]".into(), 11),
            5 => ("@sh".into(), 11),
            6 => (self.pick(&["@csv", "@tsv"]), 11),
            7 => ("[.[] | @html]".into(), 11),
            8 => ("[.[] | @json, @text]".into(), 11),
            9 => ("@json \"v=\\(.)\"".into(), 11),
            10 => {
                let b64 = self.pick(&[
                    r#""dGVzdA""#,
                    r#""dGVzdA==""#,
                    r#""Zm9v""#,
                    r#""=""#,
                    r#""QUJDa""#,
                    r#""Not base64""#,
                    r#""4pyT""#,
                    r#""YWJj=YWJj""#,
                ]);
                (format!("try ({b64} | @base64d) catch \"error\""), 12)
            }
            _ => {
                let uri = self.pick(&[
                    r#""%41%c3%a9""#,
                    r#""a+b%2x""#,
                    r#""%F0%93%81""#,
                    r#""%""#,
                    r#""x%20y""#,
                ]);
                (format!("try ({uri} | @urid) catch \"error\""), 12)
            }
        }
    }

    fn paths(&mut self) -> String {
        self.pick(&[
            "[paths]",
            "[paths(type == \"number\")]",
            "[path(..)]",
            "getpath([\"a\", 1, \"b\"])",
            "[getpath([\"a\", 0], [\"x\", \"y\"])]",
            "setpath([\"a\", 3]; 9)",
            "delpaths([[\"a\", 0], [\"c\"]])",
            "del(.a[0], .d)",
            "to_entries",
            "with_entries(.value |= tostring)",
            "pick(.a[1].b)",
            "[tostream]",
            "fromstream(tostream)",
            "[path(.a[0].b?)]",
            "[.. | numbers]",
            "[paths] | length",
            "path(.a | .[1])",
            "try path(.a | map(.) | .[0]) catch \"error\"",
            ".a[1:] = [\"z\"]",
            ".a[1].b |= . + 1",
            "[.[] | scalars]",
            "del(.. | nulls?)",
        ])
    }

    fn generators(&mut self) -> String {
        let n = self.pick(&["0", "1", "3", "-1"]);
        let g = self.pick(&["range(10)", "empty", "(1, 2, 3)", "range(0; 10; 3)", "repeat(1)"]);
        match self.rng.below(10) {
            0 => format!("[limit({n}; {g})]"),
            1 => format!("[first({g})]"),
            2 => format!("[nth({n}; {g})]"),
            3 => "[(1, 3, 200) | until(. > 100; . * 2)]".into(),
            4 => format!("[range(0; {n}), range(5; 0; -2)]"),
            5 => format!("isempty({g})"),
            6 => format!("[skip({n}; limit(5; {g}))]"),
            7 => format!("[limit(3; {g})] | last"),
            8 => "[foreach range(5) as $x (0; . + $x)]".into(),
            _ => "[1 | while(. < 100; . * 3)], [2 | recurse(if . < 20 then . * 3 else empty end)]".into(),
        }
    }

    /// A program and the index of its input in [`CORNER_INPUTS`].
    fn program(&mut self) -> (String, usize) {
        let text = STRING_INPUTS[self.rng.below(STRING_INPUTS.len())];
        match self.rng.below(8) {
            0 | 1 => (self.regex(), text),
            2 => (format!("try ({}) catch \"error\"", self.string()), text),
            3 => (self.number(), 8),
            4 => (self.literal_numbers(), 12),
            5 => self.date(),
            6 => self.format(),
            _ if self.rng.below(2) == 0 => (self.paths(), 7),
            _ => (format!("try ({}) catch \"error\"", self.generators()), 12),
        }
    }
}

#[test]
fn jq_corners_agree_with_libjq() {
    let programs = usize::try_from(env_number("JQ_DIFF_PROGRAMS", 5_000)).unwrap();
    let inputs: Vec<Value> = serde_json::from_str(CORNER_INPUTS).unwrap();
    let mut generator = Corners {
        rng: Rng(env_number("JQ_DIFF_SEED", 0x5EED_0027).max(1)),
    };
    let cases: Vec<(String, usize)> = (0..programs).map(|_| generator.program()).collect();
    report("jq corners", compare_with_libjq(&inputs, &cases));
}
