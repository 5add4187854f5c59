//! Issue 43, point 2, in-process (rmcp client over an in-memory pipe → the tools → a local upstream): headers in
//! the forms their RFCs allow besides the common one. A `Link` whose `rel` holds several relation types, in
//! capitals, after other parameters (RFC 8288 §3.3: a space-separated, case-insensitive list); `Retry-After` as an
//! asctime date (RFC 9110 §5.6.7, the obsolete form a recipient must read); `Content-Type` with whitespace before
//! `;` (RFC 9110 §5.6.6) naming a Latin-1 charset.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::{Duration, Instant, SystemTime};

use crate::common;

use common::{call, connect_to_all, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use serde_json::{Value, json};

#[tokio::test]
async fn link_retry_after_and_content_type_in_their_other_forms() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect_to_all(&upstream).await;
    let json_body = |body: Value| {
        ResponseTemplate::new(200)
            .insert_header("content-type", "application/json; charset=utf-8")
            .set_body_json(body)
    };

    // Link: `rel` after `title*`, quoted, two relation types, in capitals.
    let next = format!("{}/repos/o/r/issues?page=3", upstream.uri());
    Mock::given(method("GET"))
        .and(path("/repos/o/r/issues"))
        .respond_with(json_body(json!([])).insert_header(
            "link",
            format!("<{}/repos/o/r/issues?page=1>; rel=\"first\", <{next}>; title*=UTF-8'de'n%c3%a4chstes; REL=\"PREV NEXT\"", upstream.uri()).as_str(),
        ))
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let page = call(&client, "github_get", json!({"path": "/repos/o/r/issues"})).await;
    let page = page
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("{}", text(&page)));
    assert_eq!(page["nextPage"], 3, "{page}");
    assert_eq!(page["nextLink"], json!(next));

    // Retry-After as an asctime date 4 s ahead: the retry waits for it (the fallback wait is about a second).
    let when = jiff::Timestamp::try_from(SystemTime::now() + Duration::from_secs(4))
        .unwrap()
        .strftime("%a %b %e %H:%M:%S %Y")
        .to_string();
    Mock::given(method("GET"))
        .and(path("/repos/o/r/busy"))
        .respond_with(
            ResponseTemplate::new(503)
                .insert_header("retry-after", when.as_str())
                .set_body_string("busy"),
        )
        .up_to_n_times(1)
        .with_priority(1)
        .mount(upstream.server())
        .await;
    Mock::given(method("GET"))
        .and(path("/repos/o/r/busy"))
        .respond_with(json_body(json!({"ok": true})))
        .with_priority(2)
        .mount(upstream.server())
        .await;
    let started = Instant::now();
    let result = call(&client, "github_get", json!({"path": "/repos/o/r/busy", "jq": ".ok"})).await;
    assert_eq!(
        result.structured_content.as_ref().map(|s| s["data"].clone()),
        Some(json!(true)),
        "{}",
        text(&result)
    );
    assert!(
        started.elapsed() >= Duration::from_millis(2500),
        "waited {:?} for {when}",
        started.elapsed()
    );

    // Content-Type with whitespace before `;` and a Latin-1 charset: decoded as Latin-1, not refused as binary.
    Mock::given(method("GET"))
        .and(path("/2.0/repositories/w/r/diff/abc"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("content-type", "text/plain ; charset=ISO-8859-1")
                .set_body_bytes(b"-caf\xe9\n+caf\xe8\n".to_vec()),
        )
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let diff = call(&client, "bb_get", json!({"path": "/repositories/w/r/diff/abc"})).await;
    let diff = diff
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("{}", text(&diff)));
    assert_eq!(diff["data"], "-café\n+cafè\n", "{diff}");
    client.cancel().await.unwrap();
}
