//! Every builtin and operator named in jq 1.8.1's manual, over edge inputs, against libjq.
//!
//! `jq_builtins.txt` lists each name of the manual (a `== name` line) with the programs that
//! exercise it, or with `!` and the reason it is a deliberate difference (the names must appear in
//! `docs/code-mode.md`). A program line may start with the classes of [`INPUTS`] it runs on
//! (`n:` null, booleans and numbers; `s:` strings; `a:` arrays; `o:` objects; `-:` only `null`, for
//! programs that ignore their input); without one it runs on every input. A program line that
//! starts with `~` is a known difference (in the docs' table): it must differ on at least one input
//! (else the list is stale), and no other program may differ.
//!
//! Each case runs as `[PROGRAM]` through [`mcp_envelope::Projection`] and, in ONE Python process,
//! with libjq (`clients/python/jq_oracle.py --text`: libjq parses the input text itself and prints
//! the result with its own `tojson`, so `-0`, NaN (`null`) and every digit of a literal reach the
//! comparison as jq writes them). Values must be equal, numbers by value AND sign (`-0` is not
//! `0`), objects without regard to key order; an error must meet an error (messages are not
//! compared). Programs on one input run 40 to a compiled program; a batch that fails as a whole
//! on either side (a program one side refuses to compile) runs again case by case.
#![allow(clippy::unwrap_used, missing_docs)]

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::process::Command;

use mcp_envelope::Projection;
use serde_json::Value;

const LIST: &str = include_str!("jq_builtins.txt");
const DOCS: &str = include_str!("../../../docs/code-mode.md");

/// The edge inputs, as JSON texts, each with its class.
const INPUTS: &[(char, &str)] = &[
    ('n', "null"),
    ('n', "true"),
    ('n', "false"),
    ('n', "0"),
    ('n', "-0"),
    ('n', "-0.0"),
    ('n', "1"),
    ('n', "-1"),
    ('n', "2.5"),
    ('n', "-2.5"),
    ('n', "0.1"),
    ('n', "0.30000000000000004"),
    ('n', "3.7"),
    ('n', "1e308"),
    ('n', "1.7976931348623157e308"),
    ('n', "-1.7976931348623157e308"),
    ('n', "5e-324"),
    ('n', "2.2250738585072014e-308"),
    ('n', "9007199254740991"),
    ('n', "9007199254740993"),
    ('n', "-9007199254740993"),
    ('n', "100000000000000000000"),
    ('n', "1425599507.9"),
    ('n', "-1425599507.9"),
    ('n', "1e-7"),
    ('n', "1.000"),
    ('s', r#""""#),
    ('s', r#""abc""#),
    ('s', r#""ABC déf Ünï""#),
    ('s', r#""\ud83d\ude00x\ud83d\ude00""#),
    ('s', r#""e\u0301\u200d""#),
    ('s', r#""a\u0000b""#),
    ('s', r#""\\u00e9\\n\\x""#),
    ('s', r#"" \t x \n\r""#),
    ('s', r#""2015-03-05T23:51:47Z""#),
    ('s', r#""2015-03-05T23:51:47.877Z""#),
    ('s', r#""2015-03-05T23:51:47+01:00""#),
    ('s', r#""1425599507""#),
    ('s', r#""-1.5e3""#),
    ('s', r#""nan""#),
    ('s', r#""aGVsbG8=""#),
    ('s', r#""%41%c3%a9%F0%9F%98%80+%""#),
    ('s', r#""a,b\"c'd""#),
    ('a', "[]"),
    ('a', "[1,2,3]"),
    ('a', "[3,1,2,1]"),
    ('a', r#"["b","a","c","a"]"#),
    ('a', "[1,[2,[3,[4]]]]"),
    ('a', r#"[null,false,true,0,"",[],{}]"#),
    ('a', "[-0.0,0,1e308,5e-324,9007199254740993,100000000000000000000,-1]"),
    ('a', r#"["\ud83d\ude00","é","e\u0301","\u0000"]"#),
    ('a', "[[1,2],[3,4]]"),
    ('a', "[2015,2,5,23,51,47.877,4,63]"),
    ('a', r#"[{"a":1,"b":"x"},{"a":2,"b":"y"},{"a":1,"b":"z"}]"#),
    (
        'a',
        r#"[{"name":"a","value":1},{"k":"b","v":2},{"key":null,"value":3},{"key":false},{"key":1,"value":-0.0}]"#,
    ),
    ('o', "{}"),
    ('o', r#"{"a":1,"b":[1,2],"c":{"d":null}}"#),
    ('o', r#"{"b":2,"a":1,"ü":3,"":0}"#),
    ('o', r#"{"key":"k","value":-0.0}"#),
];

struct Program {
    name: String,
    text: String,
    classes: String,
    known: bool,
}

/// The list: programs, and the names that are deliberate differences.
fn parse() -> (Vec<Program>, Vec<(String, String)>, BTreeSet<String>) {
    let (mut programs, mut deliberate, mut names) = (Vec::new(), Vec::new(), BTreeSet::new());
    let mut name = None::<String>;
    for line in LIST.lines() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(n) = line.strip_prefix("== ") {
            assert!(names.insert(n.to_owned()), "{n} listed twice");
            name = Some(n.to_owned());
            continue;
        }
        let name = name.clone().expect("a program before the first `== name`");
        if let Some(reason) = line.strip_prefix("! ") {
            deliberate.push((name, reason.to_owned()));
            continue;
        }
        let (known, rest) = line.strip_prefix("~ ").map_or((false, line), |r| (true, r));
        let (classes, text) = match rest.split_once(": ") {
            Some((c, t)) if !c.is_empty() && c.chars().all(|c| "nsao-".contains(c)) => (c.to_owned(), t),
            _ => ("nsao".to_owned(), rest),
        };
        programs.push(Program {
            name,
            text: text.replace('⏎', "\n"),
            classes,
            known,
        });
    }
    (programs, deliberate, names)
}

/// jq's equality for outputs, numbers by value and sign: `-0` is not `0`.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            x.to_string() == y.to_string()
                || x.as_f64()
                    .zip(y.as_f64())
                    .is_some_and(|(x, y)| x == y && x.is_sign_negative() == y.is_sign_negative())
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

fn short(text: &str) -> String {
    let cut: String = text.chars().take(300).collect();
    if cut.len() < text.len() {
        format!("{cut}...")
    } else {
        cut
    }
}

const FAILED: &str = r#"{"__jq_builtins_error": true}"#;
const BATCH: usize = 40;

/// libjq's answers to `(program, input)` cases, in one Python process: the array of outputs, or `None`.
fn libjq(cases: &[(String, usize)]) -> Vec<Option<Value>> {
    let clients = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../clients/python");
    let python = clients.join(".venv/bin/python");
    assert!(
        python.exists(),
        "run scripts/test first: it creates {} with the `jq` package (libjq)",
        python.display()
    );
    static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("jq-builtins-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (inputs_path, cases_path, out_path) = (dir.join("inputs.json"), dir.join("cases.jsonl"), dir.join("out.jsonl"));
    let texts: Vec<&str> = INPUTS.iter().map(|(_, t)| *t).collect();
    std::fs::write(&inputs_path, serde_json::to_string(&texts).unwrap()).unwrap();
    let lines: String = cases
        .iter()
        .map(|(program, input)| format!("{}\n", serde_json::json!({"program": program, "input": input})))
        .collect();
    std::fs::write(&cases_path, lines).unwrap();
    let mut child = Command::new(python)
        .arg(clients.join("jq_oracle.py"))
        .arg("--text")
        .args([&inputs_path, &cases_path, &out_path])
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // A program libjq never finishes must fail the test, not hang it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().ok();
            panic!(
                "jq_oracle.py still running after 120 s: a program loops in libjq ({})",
                cases_path.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "jq_oracle.py failed: {status}");
    let out: Vec<Option<Value>> = std::fs::read_to_string(&out_path)
        .unwrap()
        .lines()
        .map(|l| {
            let answer: Value = serde_json::from_str(l).unwrap();
            answer
                .get("ok")
                .map(|t| serde_json::from_str(t.as_str().unwrap()).unwrap())
        })
        .collect();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.len(), cases.len(), "jq_oracle.py answers every case");
    out
}

/// The same case here, through [`Projection`] (the path the tools use).
fn ours((program, input): &(String, usize)) -> Option<Value> {
    let data: Value = serde_json::from_str(INPUTS[*input].1).unwrap();
    match Projection::compile(&format!("[{program}\n]")) {
        Ok(Some(p)) => p.apply(data).ok(),
        Ok(None) => Some(data),
        Err(_) => None,
    }
}

/// Both sides' outcomes of every case (batched per input, see the module's documentation).
fn run(cases: &[(String, usize)]) -> Vec<(Option<Value>, Option<Value>)> {
    let failed: Value = serde_json::from_str(FAILED).unwrap();
    let mut batches: Vec<Vec<usize>> = Vec::new();
    for input in 0..INPUTS.len() {
        let on_input: Vec<usize> = (0..cases.len()).filter(|i| cases[*i].1 == input).collect();
        batches.extend(on_input.chunks(BATCH).map(<[usize]>::to_vec));
    }
    let batch_cases: Vec<(String, usize)> = batches
        .iter()
        .map(|members| {
            let parts: Vec<String> = members
                .iter()
                .map(|i| format!("(try ([{}\n]) catch {FAILED})", cases[*i].0))
                .collect();
            (parts.join(",\n"), cases[members[0]].1)
        })
        .collect();
    // libjq's process runs while this thread evaluates the same batches here.
    let (jq, here) = std::thread::scope(|scope| {
        let jq = scope.spawn(|| libjq(&batch_cases));
        let here: Vec<Option<Value>> = batch_cases.iter().map(ours).collect();
        (jq.join().unwrap(), here)
    });
    let mut outcomes = vec![None; cases.len()];
    let mut again = Vec::new();
    for ((members, jq), here) in batches.iter().zip(jq).zip(here) {
        let split = |v: Option<Value>| match v {
            Some(Value::Array(a)) if a.len() == members.len() => Some(a),
            _ => None,
        };
        match (split(jq), split(here)) {
            (Some(want), Some(got)) => {
                for ((i, w), g) in members.iter().zip(want).zip(got) {
                    let outcome = |v: Value| if v == failed { None } else { Some(v) };
                    outcomes[*i] = Some((outcome(w), outcome(g)));
                }
            }
            _ => again.extend(members.iter().copied()),
        }
    }
    if !again.is_empty() {
        let single: Vec<(String, usize)> = again.iter().map(|i| cases[*i].clone()).collect();
        for ((i, case), jq) in again.iter().zip(&single).zip(libjq(&single)) {
            outcomes[*i] = Some((jq, ours(case)));
        }
    }
    outcomes.into_iter().map(Option::unwrap).collect()
}

#[test]
fn every_builtin_agrees_with_libjq() {
    let (programs, deliberate, names) = parse();
    let undocumented: Vec<&str> = (deliberate.iter().map(|(n, _)| n))
        .chain(programs.iter().filter(|p| p.known).map(|p| &p.name))
        // In a Markdown table a `|` is written `\|`, in code too.
        .filter(|name| {
            !DOCS.contains(&format!("`{name}`")) && !DOCS.contains(&format!("`{}`", name.replace('|', "\\|")))
        })
        .map(String::as_str)
        .collect();
    for name in &names {
        assert!(
            programs.iter().any(|p| &p.name == name) || deliberate.iter().any(|(n, _)| n == name),
            "{name}: neither programs nor a reason"
        );
    }
    let mut cases = Vec::new();
    let mut owner = Vec::new();
    for (p, program) in programs.iter().enumerate() {
        for (i, (class, _)) in INPUTS.iter().enumerate() {
            let runs = program.classes.contains(*class) || (program.classes.contains('-') && i == 0);
            if runs {
                cases.push((program.text.clone(), i));
                owner.push(p);
            }
        }
    }
    let outcomes = run(&cases);
    let (mut both_failed, mut differences, mut known_hit) = (0, Vec::new(), BTreeSet::new());
    for ((case, p), (jq, got)) in cases.iter().zip(&owner).zip(outcomes) {
        match (&jq, &got) {
            (Some(want), Some(got)) if same(want, got) => {}
            (None, None) => both_failed += 1,
            _ if programs[*p].known => {
                known_hit.insert(*p);
            }
            _ => differences.push(format!(
                "{} ({}) on {}\n    jq:   {}\n    ours: {}",
                case.0,
                programs[*p].name,
                INPUTS[case.1].1,
                short(&jq.map_or("error".into(), |v| v.to_string())),
                short(&got.map_or("error".into(), |v| v.to_string()))
            )),
        }
    }
    let stale: Vec<&str> = programs
        .iter()
        .enumerate()
        .filter(|(p, program)| program.known && !known_hit.contains(p))
        .map(|(_, program)| program.text.as_str())
        .collect();
    println!(
        "jq builtins: {} names ({} deliberate differences), {} programs ({} known differences), {} inputs, {} cases: \
         {both_failed} errors on both sides, {} unexpected differences",
        names.len(),
        deliberate.len(),
        programs.len(),
        programs.iter().filter(|p| p.known).count(),
        INPUTS.len(),
        cases.len(),
        differences.len()
    );
    assert!(
        differences.is_empty(),
        "{} differences from libjq:\n{}",
        differences.len(),
        differences.iter().take(60).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        stale.is_empty(),
        "known differences that no longer differ (update the list and docs): {stale:?}"
    );
    assert!(
        undocumented.is_empty(),
        "differences not in docs/code-mode.md's tables: {undocumented:?}"
    );
}
