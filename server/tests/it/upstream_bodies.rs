//! Upstream bodies nested deeper than rmcp's own parser reads (128 levels), on the wire: a raw JSON-RPC session →
//! `mcp-devtools` binary → wiremock upstream. The binary writes results of any depth its runtime's stacks allow, and
//! refuses (as a clear error) only a body deeper than a result can carry. What the tools answer for bodies of every
//! kind (depth, charset, binary, compression, numbers, writes) is tested in-process beside the tools
//! (`mcp-devtools-tools/tests/it/upstream_bodies.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::raw::RawSession;
use common::server_env;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::check::{body, nested, serve};
use serde_json::{Value, json};

const TOKEN: &str = "ATATT-bodies-SECRET";

fn env(upstream: &RecordedUpstream, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let uri = upstream.uri();
    let wiki = format!("{uri}/wiki");
    let mut pairs = vec![
        ("MCP_STRUCTURED_OUTPUT", "true"),
        ("JIRA_BASE_URL", uri.as_str()),
        ("CONFLUENCE_BASE_URL", wiki.as_str()),
        ("BITBUCKET_BASE_URL", uri.as_str()),
        ("ATLASSIAN_USER_EMAIL", "mia@example.com"),
        ("ATLASSIAN_API_TOKEN", TOKEN),
        ("CIRCLECI_TOKEN", TOKEN),
        ("CIRCLECI_API_BASE", uri.as_str()),
    ];
    pairs.extend_from_slice(extra);
    server_env(&uri, &pairs)
}

/// Row 1 on the wire: JSON deeper than rmcp's parser reads comes out whole (JSON and TOON, projected or not); deeper
/// than a result can carry, it is still parsed and projected, and shown whole only as a clear error.
#[tokio::test]
async fn json_deeper_than_rmcp_reads_comes_out_whole_on_the_wire() {
    let upstream = RecordedUpstream::start().await;
    // Deeper than rmcp's own parser reads (128): a raw session reads the lines at any depth.
    for depth in [130usize, 10_000] {
        serve(
            &upstream,
            "GET",
            &format!("/rest/api/3/deep{depth}"),
            body(nested(depth), "application/json"),
        )
        .await;
    }
    let too_deep = 120_000;
    serve(
        &upstream,
        "GET",
        "/rest/api/3/deepest",
        body(nested(too_deep), "application/json"),
    )
    .await;
    let mut raw = RawSession::start(env(&upstream, &[])).await;
    for depth in [130usize, 10_000] {
        for format in ["json", "toon"] {
            let line = raw
                .call(
                    "jira_get",
                    json!({"path": format!("/rest/api/3/deep{depth}"), "outputFormat": format}),
                )
                .await;
            let response = adapters_http::decode::parse_json(line.as_bytes()).unwrap();
            let result = &response["result"];
            assert_eq!(result["isError"], json!(false), "{}", &line[..line.len().min(500)]);
            assert_eq!(
                mcp_envelope::nesting::depth(&result["structuredContent"]["data"]),
                depth
            );
            let text = result["content"][0]["text"].as_str().unwrap();
            // Deeper than INDENTED_MAX_DEPTH the text is compact JSON whatever the format.
            if format == "json" || depth > mcp_envelope::INDENTED_MAX_DEPTH {
                let shown = adapters_http::decode::parse_json(text.as_bytes()).unwrap();
                assert_eq!(mcp_envelope::nesting::depth(&shown), depth);
                mcp_envelope::nesting::drop_flat(shown);
            } else {
                assert!(text.contains('1'), "{}", &text[..text.len().min(200)]);
            }
            mcp_envelope::nesting::drop_flat(response);
        }
        let line = raw
            .call(
                "jira_get",
                json!({"path": format!("/rest/api/3/deep{depth}"), "jq": "flatten"}),
            )
            .await;
        let response: Value = adapters_http::decode::parse_json(line.as_bytes()).unwrap();
        assert_eq!(response["result"]["structuredContent"]["data"], json!([1]), "{depth}");
    }
    // Deeper than a result can carry: parsed and projected, and shown whole only as a clear error.
    let line = raw
        .call(
            "jira_get",
            json!({"path": "/rest/api/3/deepest", "jq": ".[0][0][0] | type"}),
        )
        .await;
    let response: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(
        response["result"]["structuredContent"]["data"],
        json!("array"),
        "{line}"
    );
    let line = raw.call("jira_get", json!({"path": "/rest/api/3/deepest"})).await;
    let response: Value = serde_json::from_str(&line).unwrap();
    assert_eq!(response["result"]["isError"], json!(true), "{line}");
    let message = response["result"]["content"][0]["text"].as_str().unwrap();
    assert!(
        message.contains(&format!("nests {too_deep} levels")) && message.contains("jq"),
        "{message}"
    );
    raw.stop().await;
}
