//! The crate's TOON encoder against `toon-format` 0.7 (the oracle): byte for byte the same text for every JSON
//! value, through `render`, `render_serialize` and the whole pipeline (`prepare`, where the envelope is rendered
//! without a copy of `data`), and the same failure past 256 levels.
//!
//! The oracle is what the crate did before it had its own encoder: `toon_format::encode` with the default options,
//! each number that `toon-format` would round (past 64 bits, decimals, exponents) first replaced by a marked string
//! holding its canonical decimal digits, the markers removed afterwards.
#![allow(clippy::unwrap_used, missing_docs)]

use std::path::Path;

use mcp_envelope::{
    OutputFormat, PageMeta, Rest, SizeBound, TEXT_LIMIT_BYTES, View, prepare, render, render_serialize,
    truncate_text_noting,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// `toon-format`'s text of `value`, every number with its digits; `None` where `toon-format` fails.
fn oracle(value: &Value) -> Option<String> {
    let mut value = value.clone();
    let marker = protect(&mut value);
    let text = toon_format::encode(&value, &toon_format::EncodeOptions::default()).ok()?;
    Some(match marker {
        Some(marker) => text.replace(marker, ""),
        None => text,
    })
}

/// Replaces each number that is not a 64-bit integer by `"<marker><canonical digits><marker>"`, with a private-use
/// marker that occurs nowhere in `value`.
fn protect(value: &mut Value) -> Option<char> {
    let used = value.to_string();
    let marker = (0xE000..=0xE0FF)
        .filter_map(char::from_u32)
        .find(|c| !used.contains(*c))?;
    let mut pending = vec![value];
    let mut any = false;
    while let Some(v) = pending.pop() {
        match v {
            Value::Number(n) if !(n.is_i64() || n.is_u64()) => {
                *v = Value::String(format!("{marker}{}{marker}", canonical(&n.to_string())));
                any = true;
            }
            Value::Array(items) => pending.extend(items.iter_mut()),
            Value::Object(map) => pending.extend(map.values_mut()),
            _ => {}
        }
    }
    any.then_some(marker)
}

/// TOON's canonical decimal form of a JSON number literal (no exponent up to ±1000, no leading zeros, no trailing
/// fractional zeros, `-0` as `0`), written independently of the crate's.
fn canonical(literal: &str) -> String {
    let (sign, unsigned) = literal.strip_prefix('-').map_or(("", literal), |rest| ("-", rest));
    let (mantissa, exponent) = unsigned.split_once(['e', 'E']).unwrap_or((unsigned, "0"));
    let exponent: i64 = exponent.trim_start_matches('+').parse().unwrap();
    if exponent.abs() > 1000 {
        return literal.to_owned();
    }
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{int}{frac}");
    let point = int.len() as i64 + exponent;
    let padded = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else if point as usize >= digits.len() {
        format!("{digits}{}", "0".repeat(point as usize - digits.len()))
    } else {
        format!("{}.{}", &digits[..point as usize], &digits[point as usize..])
    };
    let mut body = padded.trim_start_matches('0').to_owned();
    if body.contains('.') {
        body = body.trim_end_matches('0').trim_end_matches('.').to_owned();
    }
    if body.is_empty() || body.starts_with('.') {
        body.insert(0, '0');
    }
    if body == "0" { body } else { format!("{sign}{body}") }
}

fn assert_same(value: &Value) {
    let ours = render(value, OutputFormat::Toon).ok();
    assert_eq!(ours, oracle(value), "value: {value}");
    assert_eq!(render_serialize(value, OutputFormat::Toon).ok(), ours);
}

/// The text `prepare` gives for `data` in a paged envelope equals the oracle's text of the envelope value, truncated.
fn assert_same_through_prepare(data: &Value, next_page: Option<u64>) {
    let envelope = json!({"data": data, "nextPage": next_page});
    let prepared = prepare(
        data.clone(),
        PageMeta::new(next_page),
        &View::new(None, OutputFormat::Toon),
        &SizeBound::default(),
    );
    // Over the bound, the text's omission marker points at `incomplete` (the artifact is not saved yet).
    let oversized = serde_json::to_vec(&envelope).map_or(0, |bytes| bytes.len()) > SizeBound::default().bytes();
    let rest = if oversized {
        Rest::Oversized
    } else {
        Rest::StructuredContent
    };
    let expected = oracle(&envelope).map(|text| truncate_text_noting(text, TEXT_LIMIT_BYTES, rest));
    assert_eq!(prepared.ok().map(|p| p.text), expected, "envelope: {envelope}");
}

fn parse(literal: &str) -> Value {
    serde_json::from_str(literal).unwrap()
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        "-?(0|[1-9][0-9]{0,40})(\\.[0-9]{1,30})?([eE][+-]?[0-9]{1,4})?".prop_map(|l| parse(&l)),
        text().prop_map(Value::String),
    ]
}

/// Strings that exercise quoting: empty, keywords, numeric-like, delimiters, brackets, leading `-`/`#`, outer
/// spaces, controls, quotes, backslashes, non-ASCII, a leading byte-order mark.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z_][a-zA-Z0-9_.]{0,8}",
        "(null|true|false|-|#|[+-]?[0-9]{1,3}(\\.[0-9]{1,2})?([eE][+-]?[0-9])?|05|1\\.|\\.5)",
        "[ \t]?[a-z :,\"\\\\\\[\\]{}#\\-|\t\n\r\u{1}\u{1f}é🚀\u{FEFF}]{0,10}[ \t]?",
        any::<String>(),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![3 => "[a-z]{1,2}", 1 => text()]
}

fn value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((key(), inner.clone()), 0..6).prop_map(|e| Value::Object(e.into_iter().collect())),
            tabular(inner.clone()),
            keyed(inner),
        ]
    })
}

/// Rows with one key set (in varying order), cells primitive, nested uniform objects, or sometimes anything.
fn tabular(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    (prop::collection::vec("[a-c]", 1..4), 1..4usize).prop_flat_map(move |(keys, rows)| {
        let cell = prop_oneof![
            4 => leaf(),
            1 => prop::collection::vec(("[xy]", leaf()), 1..3)
                .prop_map(|e| Value::Object(e.into_iter().collect::<Map<String, Value>>())),
            1 => inner.clone(),
        ];
        prop::collection::vec((prop::collection::vec(cell, keys.len()), any::<bool>()), rows).prop_map(move |rows| {
            let rows = rows.into_iter().map(|(cells, reversed)| {
                let mut entries: Vec<(String, Value)> = keys.iter().cloned().zip(cells).collect();
                if reversed {
                    entries.reverse();
                }
                Value::Object(entries.into_iter().collect())
            });
            Value::Array(rows.collect())
        })
    })
}

/// An object whose values are objects with one key set: the keyed tabular form when there are two or more.
fn keyed(inner: BoxedStrategy<Value>) -> impl Strategy<Value = Value> {
    (tabular(inner), prop::collection::vec(key(), 1..4)).prop_map(|(rows, names)| {
        let rows = rows.as_array().cloned().unwrap_or_default();
        Value::Object(names.into_iter().zip(rows).collect())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn same_text_as_toon_format(v in value()) {
        assert_same(&v);
    }

    #[test]
    fn same_text_through_the_pipeline(v in value(), next in prop::option::of(1u64..5)) {
        assert_same_through_prepare(&v, next);
    }
}

#[test]
fn fixtures_render_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut pending = vec![root];
    let mut seen = 0;
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "json") {
                let body: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                assert_same(&body);
                assert_same_through_prepare(&body, Some(2));
                seen += 1;
            }
        }
    }
    assert!(seen >= 20, "{seen} fixtures");
}

#[test]
fn edge_values_render_alike() {
    let deep = |levels: usize| (0..levels).fold(json!(1), |inner, _| json!({ "a": inner }));
    let deep_list = |levels: usize| (0..levels).fold(json!(1), |inner, _| json!([inner, 2]));
    for value in [
        json!({}),
        json!([]),
        json!([[]]),
        json!([{}]),
        json!({"a": {}}),
        json!([{"a": {}}, {"a": {}}]),
        json!({"a": [{"b": [{"c": 1}, {"c": 2}]}], "z": 1}),
        json!([{"k": {"x": 1, "y": 2}, "l": {"x": 3, "y": 4}, "m": 0}]),
        json!({"a": {"x": {"p": 1}, "y": {"p": 2}}}),
        json!({"\u{feff}a": "\u{feff}b"}),
        json!("\u{feff}root"),
        parse("123456789012345678901234567890"),
        parse("-0"),
        parse("1e400000"),
        parse("[1.0, -0.0, 1E2, 0.1000000000000000055511151231257827, 12.5e-3]"),
        deep(256),
        deep(257),
        deep_list(200),
        deep_list(300),
    ] {
        assert_same(&value);
    }
    // Past the depth both fail.
    assert!(render(&deep(300), OutputFormat::Toon).is_err());
}
