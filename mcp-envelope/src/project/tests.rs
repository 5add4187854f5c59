#![allow(clippy::unwrap_used)]
use super::*;
use serde_json::json;

fn runs() -> Value {
    json!({
        "total_count": 3,
        "workflow_runs": [
            {"id": 30433642, "name": "CI", "conclusion": "failure", "run_number": 1},
            {"id": 30433643, "name": "Docs", "conclusion": "success", "run_number": 2},
            {"id": 9007199254740993u64, "name": "BIG", "conclusion": "failure", "run_number": 3}
        ]
    })
}

fn jq(data: Value, expr: &str) -> Result<Value, ProjectionError> {
    project(data, Some(expr))
}

#[test]
fn jq_results_of_every_kind() {
    assert_eq!(jq(runs(), ".total_count").unwrap(), json!(3));
    assert_eq!(jq(runs(), ".missing").unwrap(), Value::Null);
    assert_eq!(
        jq(runs(), "[.workflow_runs[].name]").unwrap(),
        json!(["CI", "Docs", "BIG"])
    );
    assert_eq!(
        jq(runs(), ".workflow_runs[0] | {id, name}").unwrap(),
        json!({"id": 30433642, "name": "CI"})
    );
    assert_eq!(jq(runs(), ".").unwrap(), runs());
    assert_eq!(jq(json!("abc"), "length").unwrap(), json!(3));
    assert_eq!(jq(json!(null), "1.5").unwrap(), json!(1.5));
}

#[test]
fn jq_keeps_object_key_order() {
    let v = json!({"z": 1, "a": 2, "m": {"y": 1, "b": 2}});
    assert_eq!(
        serde_json::to_string(&jq(v.clone(), ".").unwrap()).unwrap(),
        serde_json::to_string(&v).unwrap()
    );
}

#[test]
fn jq_standard_library() {
    assert_eq!(
        jq(
            runs(),
            r#".workflow_runs | map(select(.conclusion=="failure")) | length"#
        )
        .unwrap(),
        json!(2)
    );
    assert_eq!(jq(runs(), ".workflow_runs | first | .id").unwrap(), json!(30433642));
    assert_eq!(
        jq(runs(), ".workflow_runs | last | .name | ascii_downcase").unwrap(),
        json!("big")
    );
    assert_eq!(
        jq(runs(), r#"[.workflow_runs[] | select(.name | test("^D")) | .id]"#).unwrap(),
        json!([30433643])
    );
    assert_eq!(jq(runs(), "[.workflow_runs[].run_number] | add").unwrap(), json!(6));
    assert_eq!(
        jq(runs(), ".workflow_runs | group_by(.conclusion) | map(length)").unwrap(),
        json!([2, 1])
    );
    assert_eq!(jq(runs(), "keys").unwrap(), json!(["total_count", "workflow_runs"]));
    assert_eq!(jq(json!("a,b"), r#"split(",")"#).unwrap(), json!(["a", "b"]));
    assert_eq!(
        jq(json!({"a": 1}), "to_entries").unwrap(),
        json!([{"key": "a", "value": 1}])
    );
    assert_eq!(jq(json!("x"), r#"sub("x"; "y")"#).unwrap(), json!("y"));
}

#[test]
fn jmespath_fallback() {
    let p = Projection::compile("workflow_runs[*].id").unwrap().unwrap();
    assert_eq!(p.dialect(), Dialect::JmesPath);
    assert_eq!(
        p.apply(runs()).unwrap(),
        json!([30433642, 30433643, 9007199254740993u64])
    );
    let body = json!({"total_count": 1, "workflow_runs": [{"id": 30433642, "conclusion": "failure"}]});
    assert_eq!(jq(body, "workflow_runs[*].id").unwrap(), json!([30433642]));
    assert_eq!(
        jq(
            json!({"issues": [{"key": "PLAT-1"}, {"key": "PLAT-2"}]}),
            "issues[*].key"
        )
        .unwrap(),
        json!(["PLAT-1", "PLAT-2"])
    );
    // A bare identifier parses as jq (a call): an undefined one is a jq
    // error naming it, not a JMESPath field.
    assert_eq!(
        jq(json!({"foo": [1]}), "foo").unwrap_err(),
        ProjectionError::Jq {
            message: "foo/0 is not defined".to_owned()
        }
    );
    let p = Projection::compile(".workflow_runs").unwrap().unwrap();
    assert_eq!(p.dialect(), Dialect::Jq);
}

#[test]
fn neither_dialect_names_both_errors() {
    let err = Projection::compile(".[ | foo(").unwrap_err();
    let ProjectionError::Compile { jq, jmespath } = &err else {
        panic!("{err:?}");
    };
    assert!(!jq.is_empty() && !jmespath.is_empty());
    let text = err.to_string();
    assert!(
        text.contains("not valid jq") && text.contains("nor valid JMESPath"),
        "{text}"
    );
    assert!(text.contains(jq.as_str()) && text.contains(jmespath.as_str()), "{text}");
}

#[test]
fn zero_and_several_outputs_are_errors() {
    let err = jq(runs(), ".workflow_runs[] | .id").unwrap_err();
    assert_eq!(err, ProjectionError::OutputCount { count: 3 });
    let text = err.to_string();
    assert!(text.contains("3 outputs") && text.contains("[ ]"), "{text}");
    let err = jq(runs(), "empty").unwrap_err();
    assert_eq!(err, ProjectionError::OutputCount { count: 0 });
    assert!(err.to_string().contains("no output"));
    assert!(err.to_string().contains("[ ]"));
    let err = jq(json!(1), "1, 2").unwrap_err();
    assert_eq!(err, ProjectionError::OutputCount { count: 2 });
    // Endless streams stop at the cap.
    let err = jq(json!(null), "repeat(1)").unwrap_err();
    assert_eq!(
        err,
        ProjectionError::OutputCount {
            count: MAX_COUNTED_OUTPUTS
        }
    );
    assert!(err.to_string().contains("at least"));
}

#[test]
fn runtime_errors_carry_jq_message() {
    let err = jq(json!({"a": 1}), r#"error("custom failure")"#).unwrap_err();
    assert_eq!(
        err,
        ProjectionError::Runtime {
            message: "custom failure".into()
        }
    );
    let err = jq(json!(5), ".[0]").unwrap_err();
    let ProjectionError::Runtime { message } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(message, "Cannot index number with number");
    assert!(err.to_string().contains(message.as_str()));
    // An error after a first output still fails (no silent first output).
    assert!(matches!(
        jq(json!(1), r#"1, error("x")"#),
        Err(ProjectionError::Runtime { .. })
    ));
}

#[test]
fn halt_and_env_are_contained() {
    let err = jq(json!(1), "halt").unwrap_err();
    assert!(matches!(err, ProjectionError::Runtime { .. }), "{err:?}");
    let err = jq(json!(1), "halt_error").unwrap_err();
    assert!(matches!(err, ProjectionError::Runtime { .. }), "{err:?}");
    let err = jq(json!(1), "env").unwrap_err();
    assert!(err.to_string().contains("not available"), "{err}");
    assert!(Projection::compile("$ENV").is_err());
    assert!(Projection::compile(r#"import "x" as x; ."#).is_err());
}

#[test]
fn big_numbers_stay_exact() {
    let v = json!({
        "a": 9007199254740993u64,
        "b": 18446744073709551615u64,
        "c": -9223372036854775808i64,
        "d": 9223372036854775807i64,
        "e": [0.1, 1e300, -2.5e-8, 1.0],
    });
    let text = serde_json::to_string(&v).unwrap();
    // Without a projection, with `.` and with JMESPath `@`.
    assert_eq!(serde_json::to_string(&project(v.clone(), None).unwrap()).unwrap(), text);
    assert_eq!(serde_json::to_string(&jq(v.clone(), ".").unwrap()).unwrap(), text);
    assert_eq!(jq(v.clone(), ".a").unwrap(), json!(9007199254740993u64));
    assert_eq!(jq(v.clone(), ".b").unwrap(), json!(18446744073709551615u64));
    assert_eq!(jq(v.clone(), ".c").unwrap(), json!(-9223372036854775808i64));
    assert_eq!(
        jq(v.clone(), "[.a, .b]").unwrap().to_string(),
        "[9007199254740993,18446744073709551615]"
    );
    assert_eq!(jq(v.clone(), ".e").unwrap().to_string(), "[0.1,1e+300,-2.5e-8,1.0]");
    // JMESPath (`||` is not jq).
    assert_eq!(jq(v.clone(), "a || b").unwrap(), json!(9007199254740993u64));
    assert_eq!(jq(v.clone(), "b || a").unwrap(), json!(18446744073709551615u64));
    // Arithmetic is jq's: in doubles, so an integer beyond 2^53 is rounded
    // first (jq 1.8.1's own `jq.test`: `13911860366432393 - 10` gives
    // `13911860366432382`); an integral result prints without a fraction.
    assert_eq!(jq(v.clone(), ".a + 1").unwrap().to_string(), "9007199254740992");
    assert_eq!(jq(v.clone(), ".d - 1").unwrap().to_string(), "9.223372036854776e+18");
    assert_eq!(jq(json!(3), ". + 1").unwrap().to_string(), "4");
    assert_eq!(jq(json!(1.5), ". * 2").unwrap().to_string(), "3");
    // Literals in the program.
    assert_eq!(
        jq(json!(null), "18446744073709551615").unwrap(),
        json!(18446744073709551615u64)
    );
    // jq 1.7+ keeps a literal's digits as written (`jq -n '[1.50, 100]'` prints `[1.50,100]`).
    assert_eq!(jq(json!(null), "[1.50, 100]").unwrap().to_string(), "[1.50,100]");
    // Non-finite floats follow jq.
    assert_eq!(jq(json!(null), "nan").unwrap(), Value::Null);
    assert_eq!(jq(json!(null), "infinite").unwrap(), json!(f64::MAX));
}

#[test]
fn empty_or_blank_expression_is_no_projection() {
    for expr in ["", " ", "\n\t "] {
        assert!(Projection::compile(expr).unwrap().is_none());
        assert_eq!(project(runs(), Some(expr)).unwrap(), runs());
    }
    assert_eq!(project(runs(), None).unwrap(), runs());
}

#[test]
fn overlong_expression_is_refused() {
    let expr = format!(".{}", " ".repeat(MAX_EXPRESSION_BYTES));
    assert_eq!(
        Projection::compile(&expr).unwrap_err(),
        ProjectionError::TooLong {
            bytes: MAX_EXPRESSION_BYTES + 1,
            limit: MAX_EXPRESSION_BYTES
        }
    );
}

#[test]
fn too_deep_results_are_refused() {
    let err = jq(json!(null), "reduce range(600) as $i (0; [.])").unwrap_err();
    assert_eq!(
        err,
        ProjectionError::TooDeep {
            limit: MAX_RESULT_DEPTH
        }
    );
}

#[test]
fn projection_is_send_sync_and_reusable() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Projection>();
    let p = Projection::compile(".total_count").unwrap().unwrap();
    assert_eq!(p.apply(runs()).unwrap(), json!(3));
    assert_eq!(p.clone().apply(runs()).unwrap(), json!(3));
}

#[test]
fn real_github_fixture() {
    let body: Value = serde_json::from_str(include_str!("../../../fixtures/github/actions-runs.json")).unwrap();
    let ids = jq(body.clone(), ".workflow_runs | map(.id)").unwrap();
    let ids_jmes = jq(body.clone(), "workflow_runs[*].id").unwrap();
    assert_eq!(ids, ids_jmes);
    assert!(!ids.as_array().unwrap().is_empty());
    let same = jq(body.clone(), ".").unwrap();
    assert_eq!(
        serde_json::to_string(&same).unwrap(),
        serde_json::to_string(&body).unwrap()
    );
}

/// Runs `f` on a thread with a 2 MiB stack, the size of a tokio blocking thread (where the server projects).
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// Fuzz find (projection target): deeply nested expressions overflowed the stack while compiling (jaq and the
/// JMESPath parser recurse per level) and aborted the process. Every shape below, at the full expression limit,
/// must now give a result or an error.
#[test]
fn deeply_nested_expressions_at_the_length_limit_do_not_overflow_the_stack() {
    let half = MAX_EXPRESSION_BYTES / 2;
    let cases: Vec<(&str, String)> = vec![
        ("unclosed brackets", "[".repeat(MAX_EXPRESSION_BYTES)),
        ("brackets", format!("{}{}", "[".repeat(half), "]".repeat(half))),
        (
            "parentheses",
            format!("{}.{}", "(".repeat(half - 1), ")".repeat(half - 1)),
        ),
        ("negations", format!("{}1", "-".repeat(MAX_EXPRESSION_BYTES - 1))),
        ("additions", format!("1{}", "+1".repeat(half - 1))),
        ("pipes", format!("{}.", ".|".repeat(half - 1))),
        (
            "bindings",
            format!("{}$x", "1 as $x | ".repeat(MAX_EXPRESSION_BYTES / 10 - 1)),
        ),
        (
            "objects",
            format!(
                "{}1{}",
                "{a:".repeat(MAX_EXPRESSION_BYTES / 4 - 1),
                "}".repeat(MAX_EXPRESSION_BYTES / 4 - 1)
            ),
        ),
        (
            "interpolations",
            format!(
                "{}1{}",
                "\"\\(".repeat(MAX_EXPRESSION_BYTES / 6),
                ")\"".repeat(MAX_EXPRESSION_BYTES / 6)
            ),
        ),
        ("JMESPath fields", format!("a{}", ".a".repeat(half - 1))),
        (
            "JMESPath indexes",
            format!("a{}", "[0]".repeat(MAX_EXPRESSION_BYTES / 3 - 1)),
        ),
        ("JMESPath nots", format!("{}a", "!".repeat(MAX_EXPRESSION_BYTES - 1))),
    ];
    for (name, expr) in cases {
        assert!(expr.len() <= MAX_EXPRESSION_BYTES, "{name}: {} bytes", expr.len());
        let result = on_small_stack(move || project(json!({"a": [1]}), Some(&expr)).map(|_| ()));
        if let Err(err) = result {
            assert!(!err.to_string().is_empty(), "{name}");
        }
    }
}

/// Fuzz find (projection target): a value nested 100,000 deep, built iteratively by `reduce`, overflowed the stack
/// when it was serialized or dropped.
#[test]
fn deep_values_built_at_run_time_do_not_overflow_the_stack() {
    let deep = "reduce range(100000) as $i (0; [.])";
    let result = on_small_stack(move || project(json!(null), Some(deep)));
    assert_eq!(
        result,
        Err(ProjectionError::TooDeep {
            limit: MAX_RESULT_DEPTH
        })
    );
    let text = on_small_stack(move || project(json!(null), Some(&format!("{deep} | tojson | length"))));
    assert_eq!(text, Ok(json!(200_001)));
}

#[test]
fn user_defined_functions_are_refused_so_recursion_cannot_abort_the_process() {
    for expr in [
        "def f: 1 + f; f",
        "def f: [f]; f",
        "[.[] | def g: .; g]",
        "\"\\(def f: f; f)\"",
    ] {
        let err = project(json!([1]), Some(expr)).expect_err(expr);
        assert!(err.to_string().contains("`def`"), "{expr}: {err}");
    }
    // `def` inside a string literal or as an object key is data, not a definition.
    assert_eq!(project(json!({"def": 2}), Some(".def")).unwrap(), json!(2));
    assert_eq!(
        project(json!(null), Some("\"def f: f; f\"")).unwrap(),
        json!("def f: f; f")
    );
    // Built-in recursion stays available.
    assert_eq!(
        project(json!([[1], [2]]), Some("[recurse | numbers]")).unwrap(),
        json!([1, 2])
    );
}

/// Cases that each were a success with a wrong value (or
/// a wrong refusal) before jq 1.8.1's behaviour was added.
#[test]
fn jq_1_8_1_behaviour_from_the_issue() {
    let runs = json!({"workflow_runs": [
        {"conclusion": "success"}, {"conclusion": null}, {"conclusion": "failure"}, {"conclusion": "success"}
    ]});
    assert_eq!(
        jq(runs, r#"[.workflow_runs[].conclusion]|join(",")"#).unwrap(),
        json!("success,,failure,success")
    );
    let err = jq(json!({}), "lenght").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the jq expression cannot run: lenght/0 is not defined. Fix the expression, e.g. `.workflow_runs | map(.id)`"
    );
    let err = jq(json!({}), ". as $x | $y").unwrap_err();
    assert!(err.to_string().contains("$y is not defined"), "{err}");
    assert_eq!(
        jq(json!({"a": [1, {"b": 2}]}), "[leaf_paths]").unwrap(),
        json!([["a", 0], ["a", 1, "b"]])
    );
    assert_eq!(jq(json!(null), r#""\ud83d\udd14""#).unwrap(), json!("🔔"));
    assert_eq!(jq(json!({"x": {"🔔": 1}}), r#".x["\ud83d\udd14"]"#).unwrap(), json!(1));
    assert_eq!(jq(json!(null), "[nth(5,7; range(9;0;-1))]").unwrap(), json!([4, 2]));
    assert_eq!(
        jq(json!(null), "[limit(-1; 1)] | length").unwrap_err().to_string(),
        "the jq expression failed on this result: limit doesn't support negative count"
    );
    assert_eq!(
        jq(json!(null), "try setpath([-1]; 0) catch .").unwrap(),
        json!("Out of bounds negative array index")
    );
}

#[test]
fn jq_1_8_1_paths_entries_and_formats() {
    assert_eq!(
        jq(json!(null), r#"setpath(["a", 2]; 1)"#).unwrap(),
        json!({"a": [null, null, 1]})
    );
    assert_eq!(
        jq(json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), "del(.[1], .[-6], .[2], .[-3:9])").unwrap(),
        json!([0, 3, 5, 6, 9])
    );
    // Deleting a key keeps the order of the others.
    let out = jq(json!({"b": 1, "a": 2, "c": 3}), "del(.a)").unwrap();
    assert_eq!(serde_json::to_string(&out).unwrap(), r#"{"b":1,"c":3}"#);
    assert_eq!(jq(json!([1, 2]), "pick(first)").unwrap(), json!([1]));
    assert_eq!(
        jq(
            json!([{"name": "a", "value": 1}, {"Key": "b", "Value": 3}]),
            "from_entries"
        )
        .unwrap(),
        json!({"a": 1, "b": 3})
    );
    // jq 1.8.1 takes `key`, `Key`, `name`, `Name` only, and a key must be a string (`k`/`v` are gone).
    assert!(jq(json!([{"k": 2, "v": 3}]), "from_entries").is_err());
    assert!(jq(json!([{"key": 2, "value": 3}]), "from_entries").is_err());
    assert_eq!(
        jq(json!([1, "a\"b", null, true]), "@csv").unwrap(),
        json!(r#"1,"a""b",,true"#)
    );
    assert_eq!(jq(json!(["a\tb", 1]), "@tsv").unwrap(), json!("a\\tb\t1"));
    assert_eq!(jq(json!("oxo"), "trimstr(\"o\")").unwrap(), json!("x"));
    assert_eq!(
        jq(json!(null), "[range(5;10)|IN(range(7))]").unwrap(),
        json!([true, true, false, false, false])
    );
    assert_eq!(
        jq(json!([1, [2]]), "[tostream]|fromstream(.[])").unwrap(),
        json!([1, [2]])
    );
    assert!(jq(json!(null), "builtins | length > 100").unwrap() == json!(true));
}

/// Numbers a program does not compute on keep their literal digits (jq
/// 1.7+) when serde_json keeps them (`arbitrary_precision`); integers that
/// fit `u64`/`i64` always do.
#[test]
fn numbers_keep_their_literal_digits() {
    let big = "123456789012345678901234567890";
    let body: Value = serde_json::from_str(&format!(r#"{{"n":{big},"d":1.000,"u":18446744073709551615}}"#)).unwrap();
    assert_eq!(jq(body.clone(), ".u").unwrap().to_string(), "18446744073709551615");
    if convert::keeps_literal_digits() {
        assert_eq!(jq(body.clone(), ".n").unwrap().to_string(), big);
        assert_eq!(jq(body.clone(), "[.n] | .[0]").unwrap().to_string(), big);
        assert_eq!(jq(body.clone(), ".d").unwrap().to_string(), "1.000");
        assert_eq!(jq(body.clone(), "have_decnum").unwrap(), json!(true));
    } else {
        assert_eq!(jq(body.clone(), "have_decnum").unwrap(), json!(false));
    }
    // Computed numbers are jq's doubles.
    assert_eq!(jq(body, ".u - 1").unwrap().to_string(), "1.8446744073709552e+19");
}

/// What the patched jaq crates (`forks/`, see its README) change, through
/// the projection: each line fails with the upstream crates.
#[test]
fn jq_semantics_of_the_patched_engine() {
    // Updates through null and past the end of an array.
    assert_eq!(jq(json!(null), ".a.b = 1").unwrap(), json!({"a": {"b": 1}}));
    assert_eq!(jq(json!([1]), ".[2] = 3").unwrap(), json!([1, null, 3]));
    // Destructuring alternatives and `$name: pattern`.
    assert_eq!(
        jq(json!([[1], {"a": 2}]), "[.[] as [$a] ?// {$a} | $a]").unwrap(),
        json!([1, 2])
    );
    assert_eq!(
        jq(json!({"b": [7]}), ". as {$b: [$c]} | [$b, $c]").unwrap(),
        json!([[7], 7])
    );
    // Division by zero, error texts, fractional indices, evaluation order.
    let err = jq(json!(0), "1 / .").unwrap_err();
    assert!(
        err.to_string()
            .contains("cannot be divided because the divisor is zero"),
        "{err}"
    );
    assert_eq!(
        jq(json!(123), "try .[] catch .").unwrap(),
        json!("Cannot iterate over number (123)")
    );
    assert_eq!(jq(json!([0, 1, 2]), ".[1.7]").unwrap(), json!(1));
    assert_eq!(jq(json!(null), "[(1,2) + (10,20)]").unwrap(), json!([11, 12, 21, 22]));
    assert_eq!(jq(json!(null), "[.5, (\"ab\" * 1.5)]").unwrap(), json!([0.5, "ab"]));
    // `indices` / `index` of null are null (found by the 20,000-case differential run).
    assert_eq!(
        jq(json!(null), "[indices(\"-\"), index(\"e\"), rindex(\"e\")]").unwrap(),
        json!([null, null, null])
    );
    assert_eq!(
        jq(json!("a-b-"), "[indices(\"-\"), rindex(\"-\")]").unwrap(),
        json!([[1, 3], 3])
    );
}

/// jq 1.8.1's number texts: doubles as `jvp_dtoa_fmt` prints them, literals as decNumber does,
/// NaN and the infinities as jq serializes them.
#[test]
fn jq_prints_numbers_as_jq_1_8_1() {
    let text = |expr: &str| jq(json!(null), expr).unwrap();
    assert_eq!(
        text("[1e17 * 1, 1e16 * 1, 1.5e16 * 1, 1e-5 * 1, 0.0001 * 1, 3.0 * 1, 0.1 + 0.2, 1e300 * 1e10] | tojson"),
        json!("[1e+17,1e+16,15000000000000000,1e-05,0.0001,3,0.30000000000000004,1.7976931348623157e+308]")
    );
    assert_eq!(
        text("[nan, infinite, -infinite] | tojson"),
        json!("[null,1.7976931348623157e+308,-1.7976931348623157e+308]")
    );
    assert_eq!(
        text("[1.10, 100e-2, 1e-5, 1E1000, 1.5e3, 12.5e-8, -0.0] | tojson"),
        json!("[1.10,1.00,0.00001,1E+1000,1.5E+3,1.25E-7,0.0]")
    );
    assert_eq!(text("[1e17 * 1, 2.5] | @csv"), json!("1e+17,2.5"));
    assert_eq!(text("\"\\(1e17 * 1)\""), json!("1e+17"));
    assert_eq!(text("1e17 | floor | tostring"), json!("1e+17"));
    // A literal keeps its digits, even beyond a double.
    assert_eq!(
        jq(json!(null), "9E999999999").unwrap().to_string().to_lowercase(),
        "9e+999999999"
    );
}

/// jq's regular expressions are Oniguruma's: look-around, backreferences, `\p{..}`, possessive
/// groups, unmatched groups as `null` with offset -1, offsets in code points.
#[test]
fn jq_regexes_are_oniguruma() {
    assert_eq!(
        jq(json!("feature/123"), r#"test("(?<=feature/)[0-9]+")"#).unwrap(),
        json!(true)
    );
    assert_eq!(jq(json!("c"), r#"capture("(?<x>a)?b?")"#).unwrap(), json!({"x": null}));
    assert_eq!(
        jq(json!("xaa"), r#"[match("(a)\\1") | .string]"#).unwrap(),
        json!(["aa"])
    );
    assert_eq!(
        jq(json!("abCDé"), r#"[match("\\p{Lu}+") | .string]"#).unwrap(),
        json!(["CD"])
    );
    assert_eq!(jq(json!("aaab"), r#"test("a++a")"#).unwrap(), json!(false));
    assert_eq!(
        jq(json!("é b"), r#"match("(x)?b")"#).unwrap(),
        json!({"offset": 2, "length": 1, "string": "b",
               "captures": [{"offset": -1, "string": null, "length": 0, "name": null}]})
    );
    assert_eq!(
        jq(json!("a1b2"), r#"gsub("(?<d>\\d)"; ":\(.d);")"#).unwrap(),
        json!("a:1;b:2;")
    );
    let bad = jq(json!("a"), r#"test("(")"#).unwrap_err().to_string();
    assert!(bad.contains("is not a valid regex"), "{bad}");
}

/// A catastrophic pattern fails with Oniguruma's retry limit instead of running for ever.
#[test]
fn a_catastrophic_regex_ends_in_an_error() {
    let input = json!(format!("{}!", "a".repeat(5_000)));
    let started = std::time::Instant::now();
    let err = jq(input, r#"test("^(a|a)*$")"#).unwrap_err().to_string();
    assert!(err.contains("retry-limit-in-match over"), "{err}");
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
}

/// What the builtins differential (`tests/it/jq_builtins.rs`) found and the forks now do as jq.
#[test]
fn jq_semantics_found_by_the_builtins_differential() {
    let one = |data: Value, expr: &str| jq(data, expr).unwrap();
    // An update creates a value only where its path expression finds a path.
    assert_eq!(one(json!(null), "(.a | select(. != null)) |= . + 1"), json!(null));
    assert_eq!(one(json!({}), "(.a, (.b | select(false))) |= 1"), json!({"a": 1}));
    assert_eq!(one(json!({}), ".a = 1"), json!({"a": 1}));
    // `|=` takes the first output; `reduce` keeps the last (`null` for none).
    assert_eq!(one(json!([1, 2]), ".[] |= (., 10)"), json!([1, 2]));
    assert_eq!(one(json!(null), "reduce range(3) as $x (0; empty)"), json!(null));
    assert_eq!(
        one(json!(null), "[{a: (1, 2), b: (3, 4)} | [.a, .b]]"),
        json!([[1, 3], [1, 4], [2, 3], [2, 4]])
    );
    assert_eq!(
        one(json!(null), "[-1 * 0, 9007199254740993 % 2] | tojson"),
        json!("[-0,0]")
    );
    assert_eq!(
        one(json!(null), r#"["5.", "nan", "-0"] | map(tonumber) | tojson"#),
        json!("[5,null,-0]")
    );
    assert_eq!(
        one(json!(null), r#"try ("1 2" | fromjson) catch ."#),
        json!("Unexpected extra JSON values (while parsing '1 2')")
    );
    assert_eq!(
        one(json!(null), "9007199254740991 | todate"),
        json!("285428751-11-12T07:36:31Z")
    );
    assert_eq!(one(json!(null), "$__loc__"), json!({"file": "<top-level>", "line": 1}));
}
