//! Issue 43, point 1: one redaction for every byte that comes in, in-process (rmcp client over an in-memory pipe →
//! the tools → the recorded upstream and its downloads host). A job log that prints our own tokens (as a script
//! echoing its environment does), a signed URL quoted in a log, a blob host's error quoting the presigned URL's
//! signature and session token, and CircleCI step output cutting a token across two messages: none of it reaches
//! the result (text, `structuredContent`, the log artifact) or the log (every line of this process, captured at
//! `trace`); `[redacted NAME]` and `[redacted]` stand in their place.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use base64::Engine as _;
use common::{call, connect};
use mcp_devtools_tools::ToolsConfig;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path, path_regex};
use recorded_upstream::wiremock::{Mock, ResponseTemplate};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};

const GITHUB_TOKEN: &str = "ghp_leakGITHUB0123456789abcdef";
const CIRCLECI_TOKEN: &str = "circleLEAK_cci_0123456789abcdef";
/// The failed job of run 2802600146 (`github/run-jobs-failure`) and its stored log.
const JOB: u64 = 28_026_001_462;
/// Credentials of signed URLs, quoted in logs and error bodies.
const SIG: &str = "AzureSasLeak0001%2Bx%3D";
const AMZ_SIG: &str = "f00dfacade5ea1ed0002";
const AMZ_CRED: &str = "AKIAIOSFODNN7LEAK0003";
const AMZ_SESSION: &str = "FwoGZXIvYXdzLEAK0004";

/// What must never come out: the tokens in the forms an upstream may echo, and the signed URLs' credentials.
fn leaks() -> Vec<String> {
    let mut out = vec![
        SIG.to_owned(),
        AMZ_SIG.to_owned(),
        AMZ_CRED.to_owned(),
        AMZ_SESSION.to_owned(),
    ];
    out.push(GITHUB_TOKEN.to_owned());
    out.push(CIRCLECI_TOKEN.to_owned());
    out.push(git_basic());
    out
}

/// The GitHub token as git sends it (`AUTHORIZATION: basic …`, the header actions/checkout configures).
fn git_basic() -> String {
    base64::engine::general_purpose::STANDARD.encode(format!("x-access-token:{GITHUB_TOKEN}"))
}

/// GitHub and CircleCI (`/api/v2`) on `upstream` with their tokens; structured output on. Starts capturing the log.
fn config(upstream: &RecordedUpstream) -> ToolsConfig {
    common::capture_log();
    let circleci = format!("{}/api/v2", upstream.uri());
    common::unconfigured()
        .with_structured_output(true)
        .with_github(common::github(&upstream.uri(), Some(GITHUB_TOKEN)))
        .with_circleci(common::circleci(&circleci, Some(CIRCLECI_TOKEN)))
}

/// The whole result as the client received it: every content block, `structuredContent`, `_meta`.
fn wire(result: &CallToolResult) -> String {
    serde_json::to_string(result).unwrap()
}

fn assert_clean(what: &str, text: &str) {
    for leak in leaks() {
        assert!(!text.contains(&leak), "{what}: {leak:?} came out:\n{text}");
    }
}

/// Log lines a leaky script prints, stamped as the runner stamps them.
fn leaky_lines(stamp: &str) -> String {
    let b64 = git_basic();
    [
        format!("{stamp} GITHUB_TOKEN={GITHUB_TOKEN}"),
        format!("{stamp} export CIRCLECI_TOKEN=\"{CIRCLECI_TOKEN}\""),
        format!("{stamp} git -c http.extraheader=\"AUTHORIZATION: basic {b64}\" fetch"),
        format!("{stamp} GET https://results.blob.core.windows.net/logs/1.txt?sv=2021-08-06&sig={SIG}&se=2023 403"),
        format!(
            "{stamp} curl 'https://b.s3.amazonaws.com/k?X-Amz-Credential={AMZ_CRED}&X-Amz-Signature={AMZ_SIG}&X-Amz-Security-Token={AMZ_SESSION}&x=1'"
        ),
    ]
    .join("\n")
        + "\n"
}

/// The stored log of [`JOB`], 200 KB of output first and the leaky lines at its start, in its middle and just
/// before the failed step's error, so that they fall across the reads of the download.
fn leaky_log() -> Vec<u8> {
    let stored = String::from_utf8(
        recorded_upstream::fixture("github/job-log-28026001462")
            .unwrap()
            .body
            .to_vec(),
    )
    .unwrap();
    let (head, tail) = stored.split_at(stored.find("2023-01-10T08:25:24.7500275Z ##[error]").unwrap());
    let mut log = b"\xef\xbb\xbf".to_vec();
    let stamp = "2023-01-10T08:24:00.0000000Z";
    for i in 0..2_000 {
        if i % 500 == 7 {
            log.extend_from_slice(leaky_lines(stamp).as_bytes());
        }
        log.extend_from_slice(
            format!("{stamp} filler line {i:05} of a chatty build step, padded to 100 bytes ......\n").as_bytes(),
        );
    }
    log.extend_from_slice(head.as_bytes());
    log.extend_from_slice(leaky_lines("2023-01-10T08:25:24.7400000Z").as_bytes());
    log.extend_from_slice(tail.as_bytes());
    log
}

async fn github_upstream(log: ResponseTemplate) -> RecordedUpstream {
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    Mock::given(method("GET"))
        .and(path(format!("/actions-results/{JOB}/logs.txt")))
        .respond_with(log)
        .with_priority(1)
        .mount(upstream.downloads())
        .await;
    upstream
}

async fn read_artifact(client: &common::Client, id: &Value) -> Vec<u8> {
    let mut read = Vec::new();
    loop {
        let chunk = call(
            client,
            "artifact_read",
            json!({"artifactId": id, "offset": read.len(), "maxBytes": 60000}),
        )
        .await;
        let chunk = chunk.structured_content.expect("structuredContent");
        read.extend(
            base64::engine::general_purpose::STANDARD
                .decode(chunk["data"].as_str().unwrap())
                .unwrap(),
        );
        if chunk["eof"] == true {
            return read;
        }
    }
}

#[tokio::test]
async fn a_job_log_that_prints_our_tokens_and_signed_urls_comes_out_redacted() {
    let log = ResponseTemplate::new(200).set_body_raw(leaky_log(), "text/plain; charset=utf-8");
    let upstream = github_upstream(log).await;
    let client = connect(common::with_max_bytes(config(&upstream), 16384)).await;
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "tailLines": 8});
    let result = call(&client, "github_get_job_logs", args).await;
    assert_ne!(result.is_error, Some(true), "{}", wire(&result));
    let wire_text = wire(&result);
    assert_clean("github_get_job_logs", &wire_text);
    for shown in [
        "GITHUB_TOKEN=[redacted GITHUB_TOKEN]",
        "export CIRCLECI_TOKEN=\\\"[redacted CIRCLECI_TOKEN]\\\"",
        "&sig=[redacted]&se=2023",
        "X-Amz-Credential=[redacted]&X-Amz-Signature=[redacted]&X-Amz-Security-Token=[redacted]&x=1",
    ] {
        assert!(wire_text.contains(shown), "{shown:?} not in {wire_text}");
    }

    // The whole log, as the artifact a program reads when it is over the bound.
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB, "failedOnly": false, "tailLines": 0, "raw": true});
    let result = call(&client, "github_get_job_logs", args).await;
    assert_clean("github_get_job_logs raw", &wire(&result));
    let sc = result.structured_content.clone().expect("structuredContent");
    let whole = read_artifact(&client, &sc["incomplete"]["artifactId"]).await;
    let whole = String::from_utf8(whole).unwrap();
    assert_clean("the log artifact", &whole);
    assert_eq!(
        whole.matches("[redacted GITHUB_TOKEN]").count(),
        10,
        "the token and its git header, five times each"
    );

    // The same download through the free read.
    let result = call(
        &client,
        "github_get",
        json!({"path": format!("/repos/octo-org/octo-repo/actions/jobs/{JOB}/logs")}),
    )
    .await;
    assert_clean("github_get", &wire(&result));
    assert!(wire(&result).contains("[redacted GITHUB_TOKEN]"), "{}", wire(&result));

    client.cancel().await.unwrap();
    let logged = common::log();
    assert!(logged.contains("upstream"), "the tools logged at debug level");
    assert_clean("the log", &logged);
}

#[tokio::test]
async fn a_blob_hosts_error_quoting_the_presigned_url_is_redacted() {
    let body = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>SignatureDoesNotMatch</Code><Message>The request \
         signature we calculated does not match the signature you provided. Check your key and signing method.\
         </Message><AWSAccessKeyId>{AMZ_CRED}</AWSAccessKeyId><StringToSign>AWS4-HMAC-SHA256\n20230110T093500Z\n\
         20230110/us-east-1/s3/aws4_request\n{AMZ_SESSION}</StringToSign><SignatureProvided>{AMZ_SIG}\
         </SignatureProvided><CanonicalRequest>GET\n/k\nX-Amz-Credential={AMZ_CRED}&amp;X-Amz-Security-Token=\
         {AMZ_SESSION}&amp;X-Amz-Signature={AMZ_SIG}\n</CanonicalRequest><RequestId>4442587FB7D0A2F9</RequestId>\
         <Note>Authorization: Bearer {GITHUB_TOKEN}</Note></Error>"
    );
    let log = ResponseTemplate::new(403)
        .set_body_raw(body, "application/xml")
        .insert_header("x-amz-request-id", "4442587FB7D0A2F9")
        .insert_header(
            "x-echo",
            format!("https://b.s3.amazonaws.com/k?X-Amz-Signature={AMZ_SIG}"),
        );
    let upstream = github_upstream(log).await;
    let client = connect(config(&upstream)).await;
    for (tool, args) in [
        (
            "github_get_job_logs",
            json!({"owner": "octo-org", "repo": "octo-repo", "jobId": JOB}),
        ),
        (
            "github_get",
            json!({"path": format!("/repos/octo-org/octo-repo/actions/jobs/{JOB}/logs")}),
        ),
    ] {
        let result = call(&client, tool, args).await;
        let wire_text = wire(&result);
        assert_clean(tool, &wire_text);
        assert!(
            wire_text.contains("403"),
            "{tool}: the error says what happened: {wire_text}"
        );
    }
    client.cancel().await.unwrap();
    assert_clean("the log", &common::log());
}

#[tokio::test]
async fn circleci_step_output_cutting_a_token_across_messages_is_redacted() {
    let upstream = RecordedUpstream::github().await.unwrap();
    upstream.mount_circleci().await.unwrap();
    let (first, second) = CIRCLECI_TOKEN.split_at(9);
    let (third, fourth) = GITHUB_TOKEN.split_at(20);
    let messages = json!([
        {"message": format!("$ env\r\nCIRCLECI_TOKEN={first}"), "time": "2024-05-14T09:14:20.112Z", "type": "out"},
        {"message": format!("{second}\r\nGITHUB_TOKEN={third}"), "time": "2024-05-14T09:14:20.113Z", "type": "out"},
        {"message": format!("{fourth}\r\ncurl https://b.s3.amazonaws.com/k?X-Amz-Signature={AMZ_SIG}\r\n"), "time": "2024-05-14T09:14:20.114Z", "type": "out"},
        {"message": "\r\nExited with code exit status 1\r\n", "time": "2024-05-14T09:14:21.000Z", "type": "out"}
    ]);
    Mock::given(method("GET"))
        .and(path_regex("^/circleci/output/[0-9]+$"))
        .respond_with(ResponseTemplate::new(200).set_body_json(messages))
        .with_priority(1)
        .mount(upstream.downloads())
        .await;
    let client = connect(config(&upstream)).await;
    let args = json!({"projectSlug": "gh/CircleCI-Public/api-preview-docs", "jobNumber": 102, "tailLines": 8,
                      "jq": "[.jobs[0].steps[5].lines[].text]"});
    let result = call(&client, "circleci_get_job_logs", args).await;
    assert_ne!(result.is_error, Some(true), "{}", wire(&result));
    assert_clean("circleci_get_job_logs", &wire(&result));
    let lines = &result.structured_content.as_ref().unwrap()["data"];
    assert_eq!(
        lines,
        &json!([
            "$ env",
            "CIRCLECI_TOKEN=[redacted CIRCLECI_TOKEN]",
            "GITHUB_TOKEN=[redacted GITHUB_TOKEN]",
            "curl https://b.s3.amazonaws.com/k?X-Amz-Signature=[redacted]",
            "",
            "Exited with code exit status 1"
        ])
    );
    client.cancel().await.unwrap();
    assert_clean("the log", &common::log());
}
