//! `ListWriter` (a list given in parts) against `prepare` of the whole value: the same text, the same
//! `structuredContent`, the same artifact bytes, the same errors, whatever the list's items, how they are cut into
//! parts, the format, what the text is rendered from and the bound.

use mcp_envelope::{
    EnvelopeError, ListAt, ListWriter, OutputFormat, PageMeta, Prepared, Rest, SizeBound, TextSource, View, prepare,
    prepare_text,
};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A short or long string (long ones make the text pass its 40,000-byte limit and the result the bound).
fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-z ]{0,8}",
        1 => "[a-z,:\"\\-]{0,6}",
        2 => (0usize..6000).prop_map(|n| "x".repeat(n)),
    ]
    .boxed()
}

/// Long strings, so that texts pass their limit.
fn long_text() -> BoxedStrategy<String> {
    prop_oneof![1 => "[a-z ]{0,8}", 2 => (1500usize..3000).prop_map(|n| "y".repeat(n))].boxed()
}

fn primitive(text: fn() -> BoxedStrategy<String>) -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        1 => any::<i64>().prop_map(Value::from),
        1 => Just(json!(1.50)),
        6 => text().prop_map(Value::String),
    ]
}

/// Items of every form TOON knows, mostly uniform so that a list keeps its form for a while.
fn item(kind: u8, text: fn() -> BoxedStrategy<String>) -> BoxedStrategy<Value> {
    match kind {
        0 => primitive(text).boxed(),
        1 => prop::collection::vec(primitive(text), 0..4)
            .prop_map(Value::Array)
            .boxed(),
        2 => (any::<i64>(), text())
            .prop_map(|(id, name)| json!({"id": id, "name": name}))
            .boxed(),
        3 => (any::<i64>(), text())
            .prop_map(|(id, login)| json!({"id": id, "actor": {"login": login, "id": id}}))
            .boxed(),
        _ => (any::<i64>(), text(), prop::collection::vec(primitive(text), 0..3))
            .prop_map(|(id, name, tags)| json!({"id": id, "name": name, "tags": tags, "head": {"sha": "abc"}}))
            .boxed(),
    }
}

/// A list: mostly items of one kind, sometimes another kind among them.
fn items(text: fn() -> BoxedStrategy<String>) -> impl Strategy<Value = Vec<Value>> {
    (0u8..5, 0u8..5, 1usize..60).prop_flat_map(move |(kind, other, len)| {
        prop::collection::vec(prop_oneof![8 => item(kind, text), 1 => item(other, text)], 1..=len)
    })
}

/// The items cut into parts at these points (some parts empty).
fn parts(items: Vec<Value>, cuts: &[usize]) -> Vec<Vec<Value>> {
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| cut % (items.len() + 1)).collect();
    cuts.sort_unstable();
    let mut parts = Vec::new();
    let mut rest = items;
    let mut taken = 0;
    for cut in cuts {
        let part: Vec<Value> = rest.drain(..cut - taken).collect();
        taken = cut;
        parts.push(part);
    }
    parts.push(rest);
    parts
}

/// The body around the list: the list itself, or a member between other fields.
fn body(at: &ListAt, items: Vec<Value>, next: Option<&str>) -> Value {
    match at {
        ListAt::Whole => Value::Array(items),
        ListAt::Field(name) => {
            let mut body = json!({"total_count": 7, "next": next});
            body[name.as_str()] = Value::Array(items);
            body["_links"] = json!({"self": "/x", "odd key": [1, 2]});
            body
        }
    }
}

/// A writer made by `make` from the first part's body, given the other parts, the last page's continuation (a field
/// before the list) put in place of the first's.
fn fill(
    at: &ListAt,
    parts: Vec<Vec<Value>>,
    make: impl FnOnce(Value) -> Result<ListWriter, Value>,
) -> Result<ListWriter, EnvelopeError> {
    let mut parts = parts.into_iter();
    let mut writer = make(body(at, parts.next().unwrap_or_default(), Some("page=2"))).expect("a list");
    for part in parts {
        writer.push(part)?;
    }
    if let Some(object) = writer.frame_mut().as_object_mut() {
        object.insert("next".into(), Value::Null);
    }
    Ok(writer)
}

fn streamed(
    at: &ListAt,
    parts: Vec<Vec<Value>>,
    view: &View,
    bound: SizeBound,
    max_depth: usize,
    meta: PageMeta,
) -> Result<Prepared<PageMeta>, EnvelopeError> {
    fill(at, parts, |first| {
        ListWriter::new(first, at.clone(), view, bound, max_depth)
    })?
    .finish(meta)
}

/// Panics naming where two texts differ.
fn same_texts(written: &str, whole: &str) {
    if written == whole {
        return;
    }
    let at = written.bytes().zip(whole.bytes()).take_while(|(a, b)| a == b).count();
    let around = |text: &str| {
        text.get(at.saturating_sub(80)..(at + 80).min(text.len()))
            .unwrap_or("")
            .to_owned()
    };
    panic!(
        "texts differ at byte {at} (lengths {} and {}):\nwritten ...{}...\nwhole   ...{}...",
        written.len(),
        whole.len(),
        around(written),
        around(whole)
    );
}

fn same(left: Result<Prepared<PageMeta>, EnvelopeError>, right: Result<Prepared<PageMeta>, EnvelopeError>) {
    match (left, right) {
        (Ok(left), Ok(right)) => {
            same_texts(&left.text, &right.text);
            assert_eq!(left.text_truncated, right.text_truncated);
            // The kept ends may hold different spans of the text; what they make is compared.
            let ends = |p: &Prepared<PageMeta>| p.text_ends.as_ref().map(|e| (e.len(), e.noting(Rest::Artifact("a1"))));
            assert!(ends(&left) == ends(&right), "the text naming the artifact differs");
            assert!(
                left.sealed == right.sealed,
                "same text, different structured value or artifact bytes"
            );
        }
        (Err(left), Err(right)) => assert_eq!(left.to_string(), right.to_string()),
        (left, right) => panic!(
            "streamed {:?}\nwhole {:?}",
            left.map(|p| p.text.len()),
            right.map(|p| p.text.len())
        ),
    }
}

fn views() -> impl Strategy<Value = View> {
    (
        prop_oneof![Just(OutputFormat::Toon), Just(OutputFormat::Json)],
        any::<bool>(),
    )
        .prop_map(|(format, data)| {
            View::new(None, format).text_from(if data { TextSource::Data } else { TextSource::Envelope })
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn the_list_in_parts_gives_what_the_whole_value_gives(
        items in prop_oneof![items(text), items(long_text)],
        cuts in prop::collection::vec(0usize..64, 0..6),
        whole in any::<bool>(),
        view in views(),
        bound in prop_oneof![Just(1usize), 10usize..3000, Just(1 << 20)],
        next_page in prop::option::of(1u64..9),
    ) {
        let at = if whole { ListAt::Whole } else { ListAt::Field("workflow_runs".into()) };
        let bound = SizeBound::unclamped_for_tests(bound);
        let expected = prepare(body(&at, items.clone(), None), PageMeta::new(next_page), &view, &bound);
        let got = streamed(&at, parts(items.clone(), &cuts), &view, bound, 100_000, PageMeta::new(next_page));
        same(got, expected);
        // Text only (no structuredContent): what prepare_text gives.
        let expected = prepare_text(body(&at, items.clone(), None), PageMeta::new(next_page), &view);
        let got = text_only(&at, parts(items, &cuts), &view, bound, 100_000, PageMeta::new(next_page));
        same_text(got, expected);
    }
}

/// The text of a text-only writer given `parts`, as `streamed` gives the whole result.
fn text_only(
    at: &ListAt,
    parts: Vec<Vec<Value>>,
    view: &View,
    hold: SizeBound,
    max_depth: usize,
    meta: PageMeta,
) -> Result<String, EnvelopeError> {
    fill(at, parts, |first| {
        ListWriter::text_only(first, at.clone(), view, hold, max_depth)
    })?
    .finish_text(meta)
}

fn same_text(left: Result<String, EnvelopeError>, right: Result<String, EnvelopeError>) {
    match (left, right) {
        (Ok(left), Ok(right)) => same_texts(&left, &right),
        (Err(left), Err(right)) => assert_eq!(left.to_string(), right.to_string()),
        (left, right) => panic!(
            "written {:?}\nwhole {:?}",
            left.map(|t| t.len()),
            right.map(|t| t.len())
        ),
    }
}

/// A value `levels` deep.
fn deep(levels: usize) -> Value {
    (0..levels).fold(json!(1), |inner, _| json!([inner]))
}

#[test]
fn deep_items_give_the_whole_values_text_or_error() {
    // Rendering and serializing take a stack frame per level (the server's threads have 256 MiB).
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(deep_items)
        .unwrap()
        .join()
        .unwrap();
}

fn deep_items() {
    // 300 levels: too deep for TOON (an error), pretty JSON as usual; 1,200: compact JSON text; 5,000 past a
    // limit of 3,000: the error saying to select a shallower part.
    for (levels, max_depth) in [(300, 100_000), (1200, 100_000), (5000, 3000)] {
        for view in [
            View::new(None, OutputFormat::Toon),
            View::new(None, OutputFormat::Json).text_from(TextSource::Data),
        ] {
            let items = vec![json!({"a": "x".repeat(30_000)}), deep(levels), json!("tail")];
            let at = ListAt::Field("items".into());
            let bound = SizeBound::unclamped_for_tests(1000);
            let (cuts, meta) = (parts(items.clone(), &[1, 2]), PageMeta::new(None));
            let whole = || body(&at, items.clone(), None);
            let too_deep = mcp_envelope::nesting::TooDeepToCarry {
                depth: levels + 2,
                limit: max_depth,
            };
            let deeper = levels > max_depth;
            let got = streamed(&at, cuts.clone(), &view, bound, max_depth, meta);
            let expected = prepare(whole(), meta, &view, &bound);
            same(got, if deeper { Err(too_deep.clone().into()) } else { expected });
            let got = text_only(&at, cuts, &view, bound, max_depth, meta);
            let expected = prepare_text(whole(), meta, &view);
            same_text(got, if deeper { Err(too_deep.into()) } else { expected });
        }
    }
}

#[test]
fn a_body_without_its_list_is_given_back() {
    let view = View::default();
    let bound = SizeBound::default();
    let body = json!({"id": 1});
    let back = ListWriter::new(body.clone(), ListAt::Field("items".into()), &view, bound, 10).unwrap_err();
    assert_eq!(back, body);
}

/// Item `n` of a list.
type Item<'f> = Box<dyn Fn(usize) -> Value + 'f>;

/// Each TOON form over many pages, kept to the end or broken by the last page's item; texts past their limit.
#[test]
fn each_form_kept_or_broken_on_a_later_page() {
    let long = |n: usize| "z".repeat(700 + n);
    let forms: [(&str, Item<'_>); 4] = [
        ("inline", Box::new(|n| json!(long(n)))),
        ("arrays", Box::new(|n| json!([n, long(n)]))),
        (
            "rows",
            Box::new(|n| json!({"id": n, "name": long(n), "head": {"sha": "abc"}})),
        ),
        ("items", Box::new(|n| json!({"id": n, "steps": [long(n)]}))),
    ];
    let breakers = [json!({"other": 1}), json!(["x", {"y": 2}]), json!(7)];
    for (form, item) in &forms {
        for breaker in [None, Some(&breakers[0]), Some(&breakers[1]), Some(&breakers[2])] {
            let mut items: Vec<Value> = (0..90).map(item).collect();
            items.extend(breaker.cloned());
            for at in [ListAt::Whole, ListAt::Field("values".into())] {
                for view in [
                    View::new(None, OutputFormat::Toon),
                    View::new(None, OutputFormat::Json),
                    View::new(None, OutputFormat::Toon).text_from(TextSource::Data),
                ] {
                    let bound = SizeBound::unclamped_for_tests(20_000);
                    let (cuts, meta) = (parts(items.clone(), &[10, 40, 89]), PageMeta::new(Some(4)));
                    let expected = prepare(body(&at, items.clone(), None), meta, &view, &bound);
                    let got = streamed(&at, cuts.clone(), &view, bound, 100_000, meta);
                    assert!(
                        got.as_ref().is_ok_and(|p| p.text_truncated && p.sealed.is_oversized()),
                        "{form}"
                    );
                    same(got, expected);
                    let expected = prepare_text(body(&at, items.clone(), None), meta, &view);
                    same_text(text_only(&at, cuts, &view, bound, 100_000, meta), expected);
                }
            }
        }
    }
}

/// The bytes pass the bound while the first page's continuation is long, the last page's is short (removed): the
/// whole envelope is within the bound after all. Items nested deeper than `serde_json`'s default recursion limit
/// (128) must still give what `prepare` gives (an inline value), not a parse error.
#[test]
fn within_the_bound_after_all_with_items_deeper_than_128() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            for levels in [100, 130, 200] {
                for view in [
                    View::new(None, OutputFormat::Json),
                    View::new(None, OutputFormat::Toon),
                    View::new(None, OutputFormat::Json).text_from(TextSource::Data),
                ] {
                    let at = ListAt::Field("values".into());
                    let bound = SizeBound::unclamped_for_tests(2000);
                    let first = json!({"next": "n".repeat(1900), "values": [deep(levels)]});
                    let mut writer = ListWriter::new(first, at.clone(), &view, bound, 100_000).expect("a list");
                    writer.push(vec![json!("tail")]).unwrap();
                    if let Some(object) = writer.frame_mut().as_object_mut() {
                        object.shift_remove("next");
                    }
                    let got = writer.finish(PageMeta::new(None));
                    let whole = json!({"values": [deep(levels), "tail"]});
                    let expected = prepare(whole, PageMeta::new(None), &view, &bound);
                    assert!(expected.as_ref().is_ok_and(|p| !p.sealed.is_oversized()), "{levels}");
                    same(got, expected);
                }
            }
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Two parts each nested past the limit, the second deeper: the error names the whole value's depth (the deepest
/// item's), as `prepare`'s caller measures it on the merged value, not the first part's that passed the limit.
#[test]
fn the_depth_error_names_the_deepest_part() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            let at = ListAt::Field("items".into());
            let view = View::new(None, OutputFormat::Json);
            let bound = SizeBound::unclamped_for_tests(1000);
            let got = streamed(
                &at,
                vec![vec![json!(1)], vec![deep(400)], vec![deep(600)]],
                &view,
                bound,
                300,
                PageMeta::new(None),
            );
            let whole = body(&at, vec![json!(1), deep(400), deep(600)], None);
            let expected: Result<Prepared<PageMeta>, EnvelopeError> = Err(mcp_envelope::nesting::TooDeepToCarry {
                depth: mcp_envelope::nesting::depth(&whole),
                limit: 300,
            }
            .into());
            mcp_envelope::nesting::drop_flat(whole);
            same(got, expected);
        })
        .unwrap()
        .join()
        .unwrap();
}

/// A part nested past the limit after an earlier one was: freed without recursion as the first one is (a page
/// can nest millions of levels, more than any stack holds frames for), not by an ordinary drop.
#[test]
fn a_deep_part_after_the_limit_was_passed_is_freed_without_recursion() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let view = View::new(None, OutputFormat::Json);
            let bound = SizeBound::unclamped_for_tests(1000);
            let mut writer = ListWriter::new(json!({"items": []}), ListAt::Field("items".into()), &view, bound, 300)
                .expect("a list");
            writer.push(vec![deep(400)]).unwrap();
            // Built without recursion (`json!([inner])` would serialize `inner` again, level by level).
            let deeper = (0..200_000).fold(json!(1), |inner, _| Value::Array(vec![inner]));
            writer.push(vec![deeper]).unwrap();
            let err = writer.finish(PageMeta::new(None)).unwrap_err();
            assert!(err.to_string().contains("more than the 300"), "{err}");
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Strings TOON and the truncation find hard: multi-byte characters (the 40,000-byte cut falls inside them),
/// U+2028, control characters, a leading U+FEFF, TOON's delimiters and `": "`, placeholder-like text, numbers'
/// look-alikes.
fn odd_text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => "[a-zé€😀\u{2028}\u{feff}\u{0}-\u{1f} :,\"\\\\\\-\\[\\]{}#]{0,12}",
        1 => prop_oneof![
            Just("mcplist0123456789abcdef0123456789abcdef".to_owned()),
            Just(": mcplist".to_owned()),
            Just("\u{feff}".to_owned()),
            Just(String::new()),
            Just("-".to_owned()),
            Just("- x".to_owned()),
            Just("1e5".to_owned()),
            Just("true".to_owned()),
            Just("null".to_owned()),
            Just("[3]: a,b".to_owned()),
        ],
        2 => (0usize..4, 500usize..4000).prop_map(|(c, n)| ["é", "€", "😀", "a\u{2028}"][c].repeat(n)),
    ]
    .boxed()
}

/// Numbers with many digits and exponents (literal digits are kept).
fn odd_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just("123456789012345678901234567890"),
        Just("-123456789012345678901234567890.000000000000001"),
        Just("1e400"),
        Just("1E-7"),
        Just("-0"),
        Just("0.0"),
        Just("1.50"),
        Just("18446744073709551616"),
        Just("-9223372036854775809"),
    ]
    .prop_map(|literal| serde_json::from_str::<Value>(literal).unwrap())
}

fn odd_key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("id".to_owned()),
        Just("odd key".to_owned()),
        Just("a: b".to_owned()),
        Just(String::new()),
        Just("x.y".to_owned()),
        Just("123".to_owned()),
        Just("-".to_owned()),
        Just("\u{feff}k".to_owned()),
        Just("é".to_owned()),
    ]
}

fn odd_primitive() -> impl Strategy<Value = Value> {
    prop_oneof![
        1 => Just(Value::Null),
        1 => any::<bool>().prop_map(Value::Bool),
        2 => odd_number(),
        6 => odd_text().prop_map(Value::String),
    ]
}

fn odd_item(kind: u8) -> BoxedStrategy<Value> {
    match kind {
        0 => odd_primitive().boxed(),
        1 => prop::collection::vec(odd_primitive(), 0..4)
            .prop_map(Value::Array)
            .boxed(),
        2 => (odd_key(), odd_primitive(), odd_primitive())
            .prop_map(|(key, a, b)| {
                let mut row = serde_json::Map::new();
                row.insert("id".into(), a);
                row.insert(key, b);
                Value::Object(row)
            })
            .boxed(),
        3 => (odd_key(), odd_primitive())
            .prop_map(|(key, a)| {
                let mut inner = serde_json::Map::new();
                inner.insert(key, a);
                json!({"g": Value::Object(inner), "h": {}})
            })
            .boxed(),
        _ => (odd_primitive(), prop::collection::vec(odd_primitive(), 0..3))
            .prop_map(|(a, tags)| json!({"tags": tags, "rows": [{"a": a}], "a": a, "nested": [[{"x": 1}]]}))
            .boxed(),
    }
}

fn odd_items() -> impl Strategy<Value = Vec<Value>> {
    (0u8..5, 0u8..5, 0usize..40).prop_flat_map(|(kind, other, len)| {
        prop::collection::vec(prop_oneof![8 => odd_item(kind), 1 => odd_item(other)], 0..=len)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Odd strings, keys and numbers; the list under odd names, first, last or alone in the page; a long
    /// continuation on the first page that the last page drops (the bytes pass the bound on the way, the whole may
    /// not); parts empty at the start or the end.
    #[test]
    fn odd_values_and_pages_give_what_the_whole_value_gives(
        items in odd_items(),
        cuts in prop::collection::vec(0usize..48, 0..5),
        name in prop_oneof![Just("values"), Just("odd key"), Just("a: b"), Just(""), Just("mcplist")],
        place in 0u8..4,
        view in views(),
        bound in prop_oneof![Just(1usize), 10usize..5000, 15_000usize..70_000, Just(1 << 20)],
        first_next in prop_oneof![Just(0usize), 1usize..3000, 20_000usize..40_000],
        last_next in prop::option::of(prop::option::of(0usize..40)),
        next_page in prop::option::of(1u64..9),
    ) {
        let at = if place == 3 { ListAt::Whole } else { ListAt::Field(name.into()) };
        // The page: the list first (0), between (1) or alone (2), with a continuation `next` after or before it.
        let page = |list: Vec<Value>, next: Option<Option<String>>| -> Value {
            if let ListAt::Whole = at { return Value::Array(list) }
            let mut page = serde_json::Map::new();
            if place == 1 {
                page.insert("next".into(), json!(next.clone().flatten()));
                page.insert("size".into(), json!(7));
            }
            page.insert(name.into(), Value::Array(list));
            if place == 0 {
                page.insert("\u{feff}odd: key".into(), json!({"self": "/x", "n": [1, {"a": 2}]}));
                if let Some(next) = &next {
                    page.insert("next".into(), json!(next));
                }
            }
            Value::Object(page)
        };
        let last = last_next.map(|n| n.map(|n| "l".repeat(n)));
        let mut whole = page(items.clone(), Some(Some("n".repeat(first_next))));
        // What merging does with the last page's continuation: replaced, or removed when absent.
        if let Some(object) = whole.as_object_mut() && object.contains_key("next") {
            match &last {
                Some(next) => { object.insert("next".into(), json!(next)); }
                None => { object.shift_remove("next"); }
            }
        }
        let bound = SizeBound::unclamped_for_tests(bound);
        let meta = PageMeta::new(next_page);
        let expected = prepare(whole, meta, &view, &bound);
        let mut parts = parts(items, &cuts).into_iter();
        let first = page(parts.next().unwrap_or_default(), Some(Some("n".repeat(first_next))));
        let mut writer = ListWriter::new(first, at.clone(), &view, bound, 100_000).expect("a list");
        for part in parts {
            writer.push(part).unwrap();
        }
        if let Some(object) = writer.frame_mut().as_object_mut() && object.contains_key("next") {
            match &last {
                Some(next) => { object.insert("next".into(), json!(next)); }
                None => { object.shift_remove("next"); }
            }
        }
        same(writer.finish(meta), expected);
    }
}
