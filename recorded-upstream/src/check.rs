//! What the tests of the tools and of the server check on a result the same way (feature `check`): its text, its
//! `structuredContent`, its validity against the tool's `outputSchema`, and the arguments and fixtures they call
//! with. One copy for both test suites.

use rmcp::model::{CallToolResult, Tool};
use serde_json::{Value, json};

/// The `structuredContent` of a successful result (panics with the text of an error).
pub fn structured(result: &CallToolResult) -> Value {
    assert_ne!(result.is_error, Some(true), "{}", text(result));
    result.structured_content.clone().expect("structuredContent")
}

/// The text of content[0].
pub fn text(result: &CallToolResult) -> String {
    let value = serde_json::to_value(&result.content[0]).expect("a content block serializes");
    value["text"].as_str().expect("content[0] is text").to_string()
}

/// Validates `instance` against `tool`'s `outputSchema` with the `jsonschema` crate (drafts 7 and 2020-12),
/// panicking with every error.
pub fn assert_valid(tool: &Tool, instance: &Value) {
    let schema = Value::Object(
        tool.output_schema
            .as_ref()
            .expect("tool has an outputSchema")
            .as_ref()
            .clone(),
    );
    for draft in [jsonschema::Draft::Draft7, jsonschema::Draft::Draft202012] {
        let validator = jsonschema::options()
            .with_draft(draft)
            .build(&schema)
            .expect("schema compiles");
        let errors: Vec<String> = validator.iter_errors(instance).map(|e| e.to_string()).collect();
        assert!(
            errors.is_empty(),
            "{draft:?}: {} does not validate: {errors:?}",
            tool.name
        );
    }
}

/// The fixture body as JSON (exact numbers, key order kept).
pub fn fixture_json(name: &str) -> Value {
    let fixture = crate::fixture(name).unwrap_or_else(|err| panic!("{err}"));
    serde_json::from_slice(fixture.body).expect("the fixture is JSON")
}

/// `{"owner": "octo-org", "repo": repo}` plus `more`.
pub fn repo_args(repo: &str, more: Value) -> Value {
    let mut args = json!({"owner": "octo-org", "repo": repo});
    if let (Some(args), Some(more)) = (args.as_object_mut(), more.as_object()) {
        args.extend(more.clone());
    }
    args
}

/// Whether `s` is an RFC 3339 UTC timestamp with milliseconds, e.g. `2026-10-07T16:20:11.402Z` (CONTRACT §3
/// `cache.fetchedAt`): it parses as a timestamp (jiff) and has exactly that shape.
pub fn is_rfc3339_millis_utc(s: &str) -> bool {
    s.len() == 24 && s.ends_with('Z') && s.as_bytes().get(19) == Some(&b'.') && s.parse::<jiff::Timestamp>().is_ok()
}

/// Mounts `response` for `verb` requests to `at` on `upstream`'s API origin.
pub async fn serve(upstream: &crate::RecordedUpstream, verb: &str, at: &str, response: wiremock::ResponseTemplate) {
    use wiremock::matchers::{method, path};
    wiremock::Mock::given(method(verb))
        .and(path(at))
        .respond_with(response)
        .mount(upstream.server())
        .await;
}

/// A `200` answer with `bytes` as its body and this `Content-Type`.
pub fn body(bytes: impl Into<Vec<u8>>, content_type: &str) -> wiremock::ResponseTemplate {
    wiremock::ResponseTemplate::new(200).set_body_raw(bytes.into(), content_type)
}

/// A JSON text of `depth` nested arrays around `1`: `[[1]]` for 2.
pub fn nested(depth: usize) -> String {
    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
}
