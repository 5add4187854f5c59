//! Issue 43, point 5: the free `path` of `github_get`, `circleci_get`, `jira_get`, `conf_get` and `bb_get` never
//! leaves its product's prefix on the same host, whichever decoding step would remove a dot segment (`..`,
//! `%2e%2e`, `%252e%252e`, `..;`, `\`), and `jira_get` never reaches Confluence (`/wiki`) on the site they share, so
//! a policy rule on one product cannot be got around through another. Each refusal says what to do, and nothing is
//! sent upstream.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{all_config, call, connect, text};
use recorded_upstream::RecordedUpstream;
use serde_json::json;

#[tokio::test]
async fn dot_segments_in_any_encoding_and_other_products_prefixes_are_refused_before_sending() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect(all_config(&upstream).with_structured_output(false)).await;
    let refused = [
        (
            "conf_get",
            "%252e%252e/rest/api/3/myself",
            "must not contain `.` or `..` segments",
        ),
        (
            "conf_get",
            "rest/api/content/..;/..;/..;/rest/api/3/myself",
            "must not contain `.` or `..` segments",
        ),
        (
            "conf_get",
            "rest%2fapi%2f..%2f..%2f..%2frest/api/3/myself",
            "must not contain `.` or `..` segments",
        ),
        ("jira_get", "/wiki/rest/api/content", "conf_get"),
        (
            "jira_get",
            "/rest/api/3/%2e%2e/%2e%2e/%2e%2e/wiki/rest/api/content",
            "must not contain",
        ),
        (
            "github_get",
            "/repos/octo-org/octo-repo/..\\..\\user",
            "must not contain",
        ),
        (
            "github_get",
            "/repos/octo-org/octo-repo/%25252e%25252e/x",
            "must not contain",
        ),
        ("circleci_get", "/me/%2E%2E/%2E%2E/api/v1.1/me", "must not contain"),
        (
            "bb_get",
            "/repositories/ws/%2e%2e/%2e%2e/rest/api/3/myself",
            "must not contain",
        ),
    ];
    let before = upstream.server().received_requests().await.unwrap().len();
    for (tool, path, says) in refused {
        let result = call(&client, tool, json!({"path": path})).await;
        assert_eq!(result.is_error, Some(true), "{tool} {path}: {}", text(&result));
        assert!(text(&result).contains(says), "{tool} {path}: {}", text(&result));
    }
    let after = upstream.server().received_requests().await.unwrap().len();
    assert_eq!(after, before, "nothing was sent upstream");

    // Dots that are not segments, and the products' own paths, still go through.
    for (tool, path) in [
        ("jira_get", "/rest/api/3/issue/ED-1"),
        ("conf_get", "/api/v2/pages?title=a..b"),
    ] {
        let result = call(&client, tool, json!({"path": path})).await;
        assert!(
            !text(&result).contains("must not contain") && !text(&result).contains("is not under"),
            "{tool} {path}: {}",
            text(&result)
        );
    }
    client.cancel().await.unwrap();
}
