//! Upstream bodies exactly as the vendor sent them, and writes that never turn into reads (CONTRACT §8),
//! in-process: rmcp client (over an in-memory pipe) → the tools → wiremock upstream. One test per row of the issue,
//! each across vendors, verbs, statuses, charsets or media types. Results nested deeper than rmcp's parser accepts
//! are read from the wire by a raw JSON-RPC session (`server/tests/it/upstream_bodies.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use std::io::Write as _;

use base64::Engine;
use common::{Client, assert_valid, call, connect, listed_tool, structured, text};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::check::{body, nested, serve};
use recorded_upstream::wiremock::ResponseTemplate;
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

const TOKEN: &str = "ATATT-bodies-SECRET";

/// Every vendor on `upstream` (CircleCI at its root), GitHub with `common::GITHUB_TOKEN`, the others with
/// [`TOKEN`]; structured output on.
fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    let uri = upstream.uri();
    common::github_config(&uri)
        .with_structured_output(true)
        .with_atlassian(common::atlassian(&uri, "mia@example.com", TOKEN))
        .with_circleci(common::circleci(&uri, Some(TOKEN)))
}

fn assert_error(result: &CallToolResult, includes: &[&str]) {
    assert_eq!(result.is_error, Some(true), "{}", text(result));
    assert!(result.structured_content.is_none());
    let text = text(result);
    for part in includes {
        assert!(text.contains(part), "{part:?} not in {text}");
    }
    assert!(!text.contains(TOKEN), "{text}");
}

/// Row 1: valid JSON of any depth parses, projects and renders, for every vendor.
#[tokio::test]
async fn json_of_any_depth_parses_projects_and_renders_for_every_vendor() {
    let upstream = RecordedUpstream::start().await;
    let deep = nested(130);
    serve(
        &upstream,
        "GET",
        "/rest/api/3/deep",
        body(deep.clone(), "application/json"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/wiki/api/v2/deep",
        body(deep.clone(), "application/json"),
    )
    .await;
    serve(&upstream, "GET", "/2.0/deep", body(deep.clone(), "application/json")).await;
    serve(&upstream, "GET", "/deep", body(deep.clone(), "application/json")).await;
    let runs = format!("{{\"total_count\":1,\"workflow_runs\":{deep}}}");
    serve(
        &upstream,
        "GET",
        "/repos/o/r/actions/runs",
        body(runs, "application/json"),
    )
    .await;
    let client = connect(config(&upstream)).await;
    for (tool, args) in [
        ("jira_get", json!({"path": "/rest/api/3/deep", "jq": "flatten"})),
        ("conf_get", json!({"path": "/wiki/api/v2/deep", "jq": "flatten"})),
        ("bb_get", json!({"path": "/deep", "jq": "flatten"})),
        ("circleci_get", json!({"path": "/deep", "jq": "flatten"})),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r", "jq": ".workflow_runs | flatten"}),
        ),
    ] {
        let result = call(&client, tool, args).await;
        assert_eq!(structured(&result)["data"], json!([1]), "{tool}");
    }
    client.cancel().await.unwrap();
}

/// Row 2: text bodies decoded per their declared charset, for every vendor; JSON stays UTF-8.
#[tokio::test]
async fn text_bodies_are_decoded_per_their_charset() {
    let upstream = RecordedUpstream::start().await;
    let latin1 = b"caf\xe9\n".to_vec();
    serve(
        &upstream,
        "GET",
        "/2.0/repositories/w/r/src/main/latin1.txt",
        body(latin1, "text/plain; charset=ISO-8859-1"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/rest/api/3/sjis",
        body(b"\x93\xfa\x96\x7b".to_vec(), "text/plain; charset=Shift_JIS"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/wiki/api/v2/utf16",
        body(b"\xff\xfeh\0i\0".to_vec(), "text/html; charset=utf-16"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/cp1252",
        body(b"\x80 5".to_vec(), "text/csv; charset=windows-1252"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/rest/api/3/json-latin1",
        body(
            "{\"name\":\"José\"}".as_bytes().to_vec(),
            "application/json; charset=ISO-8859-1",
        ),
    )
    .await;
    let client = connect(config(&upstream)).await;
    for (tool, at, expected) in [
        ("bb_get", "/repositories/w/r/src/main/latin1.txt", json!("café\n")),
        ("jira_get", "/rest/api/3/sjis", json!("日本")),
        ("conf_get", "/wiki/api/v2/utf16", json!("hi")),
        ("circleci_get", "/cp1252", json!("€ 5")),
        ("jira_get", "/rest/api/3/json-latin1", json!({"name": "José"})),
    ] {
        let result = call(&client, tool, json!({"path": at, "outputFormat": "json"})).await;
        assert_eq!(structured(&result)["data"], expected, "{tool} {at}");
        assert!(!text(&result).contains('\u{FFFD}'), "{}", text(&result));
    }
    let length = call(
        &client,
        "bb_get",
        json!({"path": "/repositories/w/r/src/main/latin1.txt", "jq": "length"}),
    )
    .await;
    assert_eq!(structured(&length)["data"], json!(5));
    client.cancel().await.unwrap();
}

/// Row 3: binary bodies become artifacts with their media type, read back byte for byte, for every vendor; results
/// validate against the output schemas.
#[tokio::test]
async fn binary_bodies_are_saved_as_artifacts_byte_for_byte() {
    let upstream = RecordedUpstream::start().await;
    let png: Vec<u8> = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"
        .iter()
        .copied()
        .chain((0..=255u8).cycle().take(70_000))
        .collect();
    let zip = b"PK\x03\x04\x14\0\0\0\x08\0".to_vec();
    let not_utf8 = b"caf\xe9 is not UTF-8".to_vec();
    serve(
        &upstream,
        "GET",
        "/2.0/repositories/w/r/src/main/logo.png",
        body(png.clone(), "image/png"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/project/gh/o/r/artifacts.zip",
        body(zip.clone(), "application/zip"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/rest/api/3/attachment/content/1",
        body(not_utf8.clone(), "text/plain; charset=utf-8"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/wiki/download/attachments/1/blob",
        body(b"\x00\x01\x02".to_vec(), "application/octet-stream"),
    )
    .await;
    serve(
        &upstream,
        "POST",
        "/2.0/repositories/w/r/thumbnail",
        body(png.clone(), "image/png"),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/repos/o/png/actions/runs",
        body(png.clone(), "image/png"),
    )
    .await;
    let client = connect(config(&upstream)).await;
    // A typed list tool follows the same rule (a proxy or a wrong base URL can answer anything).
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "o", "repo": "png"}),
    )
    .await;
    let value = structured(&result);
    assert_valid(&listed_tool(&client, "github_list_workflow_runs").await, &value);
    assert_eq!(value["data"], Value::Null);
    assert_eq!(value["nextPage"], Value::Null);
    assert_eq!(value["incomplete"]["reason"], "binary");
    assert_eq!(value["incomplete"]["mimeType"], "image/png");
    let id = value["incomplete"]["artifactId"].as_str().expect("saved").to_owned();
    assert_eq!(read_back(&client, id).await, (png.clone(), "image/png".to_owned()));
    for (tool, at, sent, media) in [
        ("bb_get", "/repositories/w/r/src/main/logo.png", &png, "image/png"),
        ("circleci_get", "/project/gh/o/r/artifacts.zip", &zip, "application/zip"),
        (
            "jira_get",
            "/rest/api/3/attachment/content/1",
            &not_utf8,
            "text/plain; charset=utf-8",
        ),
        (
            "conf_get",
            "/wiki/download/attachments/1/blob",
            &b"\x00\x01\x02".to_vec(),
            "application/octet-stream",
        ),
    ] {
        for format in ["toon", "json"] {
            let result = call(&client, tool, json!({"path": at, "outputFormat": format})).await;
            let value = structured(&result);
            assert_valid(&listed_tool(&client, tool).await, &value);
            assert_eq!(value["data"], Value::Null, "{tool}");
            let incomplete = &value["incomplete"];
            assert_eq!(incomplete["reason"], "binary", "{tool}");
            assert_eq!(incomplete["bytes"], json!(sent.len()), "{tool}");
            assert_eq!(incomplete["limitBytes"], json!(262_144), "{tool}");
            assert_eq!(incomplete["mimeType"], media, "{tool}");
            let id = incomplete["artifactId"].as_str().expect("saved").to_owned();
            assert!(
                text(&result).contains(&id),
                "the text names the artifact: {}",
                text(&result)
            );
            assert!(!text(&result).contains('\u{FFFD}'));
            if format == "json" {
                assert_eq!(serde_json::from_str::<Value>(&text(&result)).unwrap(), value);
            }
            let (bytes, mime) = read_back(&client, id).await;
            assert_eq!(&bytes, sent, "{tool}: byte for byte");
            assert_eq!(mime, media);
        }
    }
    let write = call(
        &client,
        "bb_write",
        json!({"method": "POST", "path": "/repositories/w/r/thumbnail", "body": {}}),
    )
    .await;
    assert_ne!(write.is_error, Some(true));
    let said = text(&write);
    assert!(
        said.contains(&format!("binary (image/png, {} bytes)", png.len())) && said.contains("artifact_read"),
        "{said}"
    );
    assert!(write.structured_content.is_none());
    client.cancel().await.unwrap();
}

/// Reads artifact `id` whole through `artifact_read`: its bytes and media type.
async fn read_back(client: &Client, id: String) -> (Vec<u8>, String) {
    common::read_artifact(client, &id).await
}

/// Row 4: a write answered by 301/302/303 is not followed (error naming status and Location, nothing re-sent);
/// 307/308 on the same host re-send the same method and body. Every write verb, every status.
#[tokio::test]
async fn writes_never_become_reads() {
    let upstream = RecordedUpstream::start().await;
    let verbs = ["POST", "PUT", "PATCH", "DELETE"];
    for verb in verbs {
        for status in [301u16, 302, 303, 307, 308] {
            let from = format!("/rest/api/3/issue/{verb}/{status}");
            let to = format!("/rest/api/3/moved/{verb}/{status}");
            serve(
                &upstream,
                verb,
                &from,
                ResponseTemplate::new(status).insert_header("location", to.as_str()),
            )
            .await;
            for landing in ["GET", verb] {
                serve(
                    &upstream,
                    landing,
                    &to,
                    ResponseTemplate::new(200).set_body_json(json!({"landed": landing})),
                )
                .await;
            }
        }
    }
    let client = connect(config(&upstream)).await;
    let sent = json!({"fields": {"summary": "once"}});
    for verb in verbs {
        for status in [301u16, 302, 303, 307, 308] {
            let from = format!("/rest/api/3/issue/{verb}/{status}");
            let to = format!("/rest/api/3/moved/{verb}/{status}");
            let mut args = json!({"method": verb, "path": from});
            if verb != "DELETE" {
                args["body"] = sent.clone();
            }
            let result = call(&client, "jira_write", args).await;
            let received = upstream.server().received_requests().await.unwrap();
            let at = |p: &str| received.iter().filter(|r| r.url.path() == p).collect::<Vec<_>>();
            assert_eq!(at(&from).len(), 1, "{verb} {status}: sent once");
            assert_eq!(at(&from)[0].method.as_str(), verb);
            if status <= 303 {
                assert_error(
                    &result,
                    &[&status.to_string(), &to, verb, "not followed", "nothing was re-sent"],
                );
                assert!(at(&to).is_empty(), "{verb} {status}: nothing re-sent");
            } else {
                assert_ne!(result.is_error, Some(true), "{verb} {status}: {}", text(&result));
                assert!(text(&result).contains(&format!("landed: {verb}")), "{}", text(&result));
                let landed = at(&to);
                assert_eq!(landed.len(), 1, "{verb} {status}");
                assert_eq!(landed[0].method.as_str(), verb, "{verb} {status}: same method");
                if verb != "DELETE" {
                    assert_eq!(
                        landed[0].body_json::<Value>().unwrap(),
                        sent,
                        "{verb} {status}: same body"
                    );
                }
            }
        }
    }
    client.cancel().await.unwrap();
}

/// Row 6: integer arguments accept a string of digits; the schema keeps the integer type; anything else is a clear
/// error.
#[tokio::test]
async fn integer_arguments_accept_strings_of_digits() {
    let upstream = RecordedUpstream::start().await;
    let jobs = json!({"total_count": 0, "jobs": []});
    serve(
        &upstream,
        "GET",
        "/repos/o/r/actions/runs/123/jobs",
        ResponseTemplate::new(200).set_body_json(jobs.clone()),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/repos/o/r/actions/workflows/456/runs",
        ResponseTemplate::new(200).set_body_json(json!({"total_count": 0, "workflow_runs": []})),
    )
    .await;
    serve(
        &upstream,
        "GET",
        "/2.0/blob",
        body(b"\x00\x01\x02\x03\x04\x05".to_vec(), "application/octet-stream"),
    )
    .await;
    let client = connect(config(&upstream)).await;
    let jobs_tool = listed_tool(&client, "github_list_workflow_jobs").await;
    assert_eq!(jobs_tool.input_schema["properties"]["runId"]["type"], "integer");
    let per_page = jobs_tool.input_schema["properties"]["perPage"].to_string();
    assert!(
        per_page.contains("\"integer\"") && !per_page.contains("\"string\""),
        "{per_page}"
    );

    let result = call(
        &client,
        "github_list_workflow_jobs",
        json!({"owner": "o", "repo": "r", "runId": "123", "perPage": "5", "page": "2"}),
    )
    .await;
    assert_eq!(structured(&result)["data"], jobs);
    let runs = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "o", "repo": "r", "workflowId": "456", "perPage": 7}),
    )
    .await;
    assert_eq!(structured(&runs)["data"]["total_count"], 0);
    let received = upstream.server().received_requests().await.unwrap();
    let query = |p: &str| {
        received
            .iter()
            .find(|r| r.url.path() == p)
            .map(|r| r.url.query().unwrap_or_default().to_owned())
    };
    let jobs_query = query("/repos/o/r/actions/runs/123/jobs").unwrap();
    assert!(
        jobs_query.contains("per_page=5") && jobs_query.contains("page=2"),
        "{jobs_query}"
    );
    assert!(
        query("/repos/o/r/actions/workflows/456/runs")
            .unwrap()
            .contains("per_page=7")
    );

    let blob = structured(&call(&client, "bb_get", json!({"path": "/blob"})).await);
    let id = blob["incomplete"]["artifactId"].as_str().unwrap();
    let chunk = call(
        &client,
        "artifact_read",
        json!({"artifactId": id, "offset": "2", "maxBytes": "3"}),
    )
    .await;
    let chunk = structured(&chunk);
    assert_eq!(
        (chunk["offset"].clone(), chunk["nextOffset"].clone()),
        (json!(2), json!(5))
    );
    assert_eq!(
        chunk["data"],
        base64::engine::general_purpose::STANDARD.encode([2u8, 3, 4])
    );

    for (args, field) in [
        (json!({"owner": "o", "repo": "r", "runId": "12x"}), "runId"),
        (json!({"owner": "o", "repo": "r", "runId": -3}), "runId"),
        (
            json!({"owner": "o", "repo": "r", "runId": "123", "perPage": "five"}),
            "perPage",
        ),
        (json!({"owner": "o", "repo": "r", "runId": 1.5}), "runId"),
    ] {
        let result = call(&client, "github_list_workflow_jobs", args).await;
        assert_error(&result, &[field, "expected a whole number >= 0"]);
    }
    let result = call(&client, "artifact_read", json!({"artifactId": id, "maxBytes": "lots"})).await;
    assert_error(&result, &["maxBytes", "expected a whole number >= 0"]);
    client.cancel().await.unwrap();
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(data).unwrap();
    encoder.finish().unwrap()
}

fn brotli(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        encoder.write_all(data).unwrap();
    }
    out
}

fn zstd(data: &[u8]) -> Vec<u8> {
    zstd::encode_all(data, 3).unwrap()
}

/// Row 7: compressed transfer (gzip, br, zstd) is accepted and decoded; the body cap applies to the decoded size.
#[tokio::test]
async fn compressed_bodies_are_decoded_and_capped_by_their_decoded_size() {
    let upstream = RecordedUpstream::start().await;
    let plain = json!({"summary": "compressed ✓", "n": 1}).to_string();
    for (name, encoded) in [
        ("gzip", gzip(plain.as_bytes())),
        ("br", brotli(plain.as_bytes())),
        ("zstd", zstd(plain.as_bytes())),
    ] {
        serve(
            &upstream,
            "GET",
            &format!("/rest/api/3/{name}"),
            body(encoded, "application/json").insert_header("content-encoding", name),
        )
        .await;
    }
    // 8 KiB on the wire, 4 MiB once inflated.
    let bomb = format!("\"{}\"", "0".repeat(4 * 1024 * 1024));
    serve(
        &upstream,
        "GET",
        "/rest/api/3/bomb",
        body(gzip(bomb.as_bytes()), "application/json").insert_header("content-encoding", "gzip"),
    )
    .await;
    let client = connect(common::with_max_body(config(&upstream), 1_048_576)).await;
    for name in ["gzip", "br", "zstd"] {
        let result = call(&client, "jira_get", json!({"path": format!("/rest/api/3/{name}")})).await;
        assert_eq!(
            structured(&result)["data"],
            json!({"summary": "compressed ✓", "n": 1}),
            "{name}"
        );
    }
    let received = upstream.server().received_requests().await.unwrap();
    let accept = received[0]
        .headers
        .get("accept-encoding")
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned();
    for name in ["gzip", "br", "zstd"] {
        assert!(accept.contains(name), "{accept}");
    }
    let result = call(&client, "jira_get", json!({"path": "/rest/api/3/bomb"})).await;
    assert_error(&result, &["larger than 1048576 bytes", "HTTP_MAX_BODY_BYTES"]);
    client.cancel().await.unwrap();
}

/// Row 8: the structured bound's top (15 MiB) leaves room for the rest of a result, so an rmcp client (which refuses
/// lines over 16 MiB) reads every result, at the largest setting too.
#[tokio::test]
async fn results_at_the_largest_bound_fit_in_an_rmcp_message() {
    let upstream = RecordedUpstream::start().await;
    let fits = 15 * 1024 * 1024 - 64;
    let over = 16 * 1024 * 1024 - 1024;
    for (at, len) in [("/rest/api/3/fits", fits), ("/rest/api/3/over", over)] {
        serve(
            &upstream,
            "GET",
            at,
            body(format!("\"{}\"", "x".repeat(len)), "application/json"),
        )
        .await;
    }
    let client = connect(common::with_max_bytes(config(&upstream), 16_777_216)).await;
    // JSON text: rendering 15 MiB as TOON takes longer than an unoptimized test build allows.
    let inline = call(
        &client,
        "jira_get",
        json!({"path": "/rest/api/3/fits", "outputFormat": "json"}),
    )
    .await;
    let data = structured(&inline)["data"].as_str().unwrap().len();
    assert_eq!(data, fits);
    let oversized = call(
        &client,
        "jira_get",
        json!({"path": "/rest/api/3/over", "outputFormat": "json"}),
    )
    .await;
    let value = structured(&oversized);
    assert_eq!(value["data"], Value::Null);
    assert_eq!(value["incomplete"]["reason"], "size");
    assert_eq!(value["incomplete"]["limitBytes"], json!(15 * 1024 * 1024));
    client.cancel().await.unwrap();
}

/// Row 5: numbers keep their literal digits end to end without `jq` — in `structuredContent` and in the text, TOON and
/// JSON — for every vendor.
#[tokio::test]
async fn numbers_keep_every_digit_in_text_and_structured_content() {
    let upstream = RecordedUpstream::start().await;
    let numbers = r#"{"n":123456789012345678901234567890,"neg":-98765432109876543210987654321,"d":0.1000000000000000055511151231257827,"one":1.0,"e":1.5e+30,"id":9007199254740993}"#;
    for at in [
        "/rest/api/3/numbers",
        "/wiki/api/v2/numbers",
        "/2.0/numbers",
        "/numbers",
    ] {
        serve(&upstream, "GET", at, body(numbers, "application/json")).await;
    }
    let runs = format!("{{\"total_count\":1,\"workflow_runs\":[{numbers}]}}");
    serve(
        &upstream,
        "GET",
        "/repos/o/r/actions/runs",
        body(runs, "application/json"),
    )
    .await;
    let client = connect(config(&upstream)).await;
    for (tool, args, pointer) in [
        ("jira_get", json!({"path": "/rest/api/3/numbers"}), "/data"),
        ("conf_get", json!({"path": "/wiki/api/v2/numbers"}), "/data"),
        ("bb_get", json!({"path": "/numbers"}), "/data"),
        ("circleci_get", json!({"path": "/numbers"}), "/data"),
        (
            "github_list_workflow_runs",
            json!({"owner": "o", "repo": "r"}),
            "/data/workflow_runs/0",
        ),
    ] {
        for format in ["json", "toon"] {
            let mut args = args.clone();
            args["outputFormat"] = json!(format);
            let result = call(&client, tool, args).await;
            let value = structured(&result);
            let got = value.pointer(pointer).unwrap();
            for (key, literal) in [
                ("n", "123456789012345678901234567890"),
                ("neg", "-98765432109876543210987654321"),
                ("d", "0.1000000000000000055511151231257827"),
                ("one", "1.0"),
                ("e", "1.5e+30"),
                ("id", "9007199254740993"),
            ] {
                assert_eq!(got[key].to_string(), literal, "{tool} structuredContent {key}");
            }
            let text = text(&result);
            if format == "json" {
                for literal in [
                    "123456789012345678901234567890",
                    "0.1000000000000000055511151231257827",
                    "1.5e+30",
                ] {
                    assert!(text.contains(literal), "{tool} {format}: {literal} in {text}");
                }
            } else {
                // TOON's canonical decimal form: every digit, no exponent.
                for literal in [
                    "123456789012345678901234567890",
                    "-98765432109876543210987654321",
                    "0.1000000000000000055511151231257827",
                    "1500000000000000000000000000000",
                    "9007199254740993",
                ] {
                    assert!(text.contains(literal), "{tool} {format}: {literal} in {text}");
                }
                assert!(!text.contains('\u{E000}') && !text.contains("e+"), "{text}");
            }
        }
    }
    client.cancel().await.unwrap();
}
