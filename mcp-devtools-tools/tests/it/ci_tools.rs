//! The ci tools (`ci_test_results`, `ci_artifact_entries`, `ci_artifact_entry`) through an rmcp client over an
//! in-memory pipe, against the recorded upstream: GitHub's artifact zip behind its `302` to another origin, CircleCI's
//! tests endpoint (two pages), a job's artifacts and their bodies; and zips of the tests' own (bombs, a malformed
//! report, a `..` name, a body that is no zip) served the same way. Every call spools to a temporary directory of
//! the test's, which is empty again after it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Cursor, Write};

use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{header, method, path};
use recorded_upstream::wiremock::{Mock, MockServer, ResponseTemplate};
use serde_json::{Value, json};
use test_reports::ParseOptions;

use crate::common::{self, Client, assert_valid, call, listed_tool, structured, text};
use mcp_devtools_tools::{ArchiveLimits, ToolsConfig};

/// The `test-results` artifact of the failed run 2802600146 (`github/run-artifacts`).
const ARTIFACT: u64 = 28_026_001_465;
const SLUG: &str = "gh/CircleCI-Public/api-preview-docs";

/// The reports in `github/artifact-test-results.zip`, and the summary beside them.
const REPORTS: [(&str, &str); 4] = [
    ("test-results.xml", "junit-xml"),
    ("jest/jest-junit.xml", "junit-xml"),
    ("dotnet/dotnet-trx.trx", "trx"),
    ("mocha/mocha-json.json", "mocha-json"),
];

struct Setup {
    upstream: RecordedUpstream,
    client: Client,
    temp: tempfile::TempDir,
}

async fn setup_with(limits: ArchiveLimits, config: impl FnOnce(ToolsConfig) -> ToolsConfig) -> Setup {
    let upstream = RecordedUpstream::all().await.unwrap();
    let temp = tempfile::tempdir().unwrap();
    let limits = limits.with_temp_dir(Some(temp.path().to_owned()));
    let client = common::connect(config(common::all_config(&upstream).with_archive(limits))).await;
    Setup { upstream, client, temp }
}

async fn setup() -> Setup {
    setup_with(ArchiveLimits::default(), |config| config).await
}

impl Setup {
    /// Calls `tool`, then checks that the temporary directory is empty again.
    async fn call(&self, tool: &str, args: Value) -> rmcp::model::CallToolResult {
        let result = call(&self.client, tool, args).await;
        let left: Vec<_> = std::fs::read_dir(self.temp.path()).unwrap().collect();
        assert!(left.is_empty(), "{tool} left {left:?} in the temporary directory");
        result
    }

    /// `structuredContent` of a successful call, validated against the tool's `outputSchema`.
    async fn data(&self, tool: &str, args: Value) -> Value {
        let result = self.call(tool, args).await;
        let content = structured(&result);
        assert_valid(&listed_tool(&self.client, tool).await, &content);
        content["data"].clone()
    }

    /// The text of a call that failed.
    async fn error(&self, tool: &str, args: Value) -> String {
        let result = self.call(tool, args).await;
        assert_eq!(result.is_error, Some(true), "{}", text(&result));
        text(&result)
    }

    /// Serves `body` as GitHub artifact `id`: GitHub's `302` to the downloads origin, which answers it.
    async fn serve_artifact(&self, id: u64, body: Vec<u8>) {
        let downloads = self.upstream.downloads().uri();
        Mock::given(method("GET"))
            .and(path(format!("/repos/octo-org/octo-repo/actions/artifacts/{id}/zip")))
            .respond_with(
                ResponseTemplate::new(302).insert_header("location", format!("{downloads}/blobs/{id}.zip?sig=s3cr3t")),
            )
            .with_priority(1)
            .mount(self.upstream.server())
            .await;
        Mock::given(method("GET"))
            .and(path(format!("/blobs/{id}.zip")))
            .respond_with(ResponseTemplate::new(200).set_body_raw(body, "application/zip"))
            .with_priority(2)
            .mount(self.upstream.downloads())
            .await;
    }
}

fn github(id: u64, more: Value) -> Value {
    let mut args = json!({"owner": "octo-org", "repo": "octo-repo", "artifactId": id});
    args.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
    args
}

fn circleci(more: Value) -> Value {
    let mut args = json!({"projectSlug": SLUG, "jobNumber": 102});
    args.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
    args
}

/// A zip of `files` (deflated).
fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in files {
        writer
            .start_file(*name, zip::write::SimpleFileOptions::default())
            .unwrap();
        writer.write_all(bytes).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

fn fixture_zip() -> zip::ZipArchive<Cursor<&'static [u8]>> {
    zip::ZipArchive::new(Cursor::new(
        recorded_upstream::fixture("github/artifact-test-results.zip")
            .unwrap()
            .body,
    ))
    .unwrap()
}

fn entry_bytes(name: &str) -> Vec<u8> {
    let mut zip = fixture_zip();
    let mut bytes = Vec::new();
    std::io::Read::read_to_end(&mut zip.by_name(name).unwrap(), &mut bytes).unwrap();
    bytes
}

/// The entry names of a `ci_artifact_entries` result's `data`.
fn entry_names(data: &Value) -> Vec<&str> {
    data["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect()
}

/// What `test-reports` reads from `bytes` with the tool's limits.
fn parsed(bytes: &[u8]) -> test_reports::TestReport {
    test_reports::parse(
        bytes,
        &ParseOptions::default()
            .with_message_limit(1_000)
            .with_details_limit(1_000_000),
    )
    .unwrap()
}

#[tokio::test]
async fn a_github_artifact_lists_its_files_and_reads_one_without_sending_the_token_to_the_blob_host() {
    let s = setup().await;
    let data = s.data("ci_artifact_entries", github(ARTIFACT, json!({}))).await;
    assert_eq!(
        data["source"],
        format!("GitHub artifact {ARTIFACT} of octo-org/octo-repo")
    );
    let zip = recorded_upstream::fixture("github/artifact-test-results.zip")
        .unwrap()
        .body;
    assert_eq!(data["archiveBytes"], zip.len());
    let mut archive = fixture_zip();
    let expected: Vec<Value> = (0..archive.len())
        .map(|i| {
            let file = archive.by_index(i).unwrap();
            json!({"name": file.name().unwrap(), "size": file.size(), "compressedSize": file.compressed_size()})
        })
        .collect();
    assert_eq!(data["entries"], Value::Array(expected));

    let data = s
        .data("ci_artifact_entry", github(ARTIFACT, json!({"entry": "summary.md"})))
        .await;
    assert_eq!(data["format"], "text");
    assert_eq!(data["content"], String::from_utf8(entry_bytes("summary.md")).unwrap());
    let data = s
        .data(
            "ci_artifact_entry",
            github(ARTIFACT, json!({"entry": "mocha/mocha-json.json", "format": "json"})),
        )
        .await;
    let mocha: Value = serde_json::from_slice(&entry_bytes("mocha/mocha-json.json")).unwrap();
    assert_eq!(data["content"], mocha);
    assert_eq!(data["size"], entry_bytes("mocha/mocha-json.json").len());
    // Not JSON: the entry and the place are named.
    let err = s
        .error(
            "ci_artifact_entry",
            github(ARTIFACT, json!({"entry": "summary.md", "format": "jsonl"})),
        )
        .await;
    assert!(err.contains("`summary.md` is not JSON Lines: line 1"), "{err}");
    let err = s
        .error("ci_artifact_entry", github(ARTIFACT, json!({"entry": "nope.txt"})))
        .await;
    assert!(err.contains("no entry `nope.txt`"), "{err}");

    // The token went to the API only; the blob host (another origin) got no credential.
    let sent = s.upstream.server().received_requests().await.unwrap();
    let api: Vec<_> = sent
        .iter()
        .filter(|r| r.url.path().ends_with(&format!("/actions/artifacts/{ARTIFACT}/zip")))
        .collect();
    assert!(!api.is_empty());
    assert!(api.iter().all(|r| r.headers.get("authorization").is_some()));
    let blobs: Vec<_> = sent
        .iter()
        .filter(|r| r.url.path().starts_with("/artifact-blobs/"))
        .collect();
    assert_eq!(blobs.len(), api.len());
    for blob in blobs {
        assert!(blob.headers.get("authorization").is_none(), "{:?}", blob.headers);
        assert!(blob.headers.get("x-github-api-version").is_none());
        assert!(
            blob.headers
                .get("host")
                .unwrap()
                .to_str()
                .unwrap()
                .starts_with("localhost:")
        );
    }
}

#[tokio::test]
async fn the_test_results_of_a_github_artifact_are_what_test_reports_reads_from_each_report() {
    let s = setup().await;
    let data = s.data("ci_test_results", github(ARTIFACT, json!({}))).await;
    let reports = data["reports"].as_array().unwrap();
    let found: Vec<(&str, &str)> = reports
        .iter()
        .map(|r| (r["entry"].as_str().unwrap(), r["format"].as_str().unwrap()))
        .collect();
    assert_eq!(found, REPORTS);
    assert_eq!(data["skippedEntries"][0]["entry"], "summary.md");
    let reason = data["skippedEntries"][0]["reason"].as_str().unwrap();
    assert!(reason.starts_with("not a test report"), "{reason}");

    let (mut passed, mut failed, mut skipped, mut duration) = (0, 0, 0, 0.0);
    let mut expected_failed = Vec::new();
    for (report, (entry, _)) in reports.iter().zip(REPORTS) {
        let want = parsed(&entry_bytes(entry));
        assert_eq!(report["totals"], serde_json::to_value(want.totals).unwrap(), "{entry}");
        passed += want.totals.passed;
        failed += want.totals.failed;
        skipped += want.totals.skipped;
        duration += want.duration_ms.unwrap_or(0.0);
        for test in &want.failed {
            expected_failed.push(json!({
                "report": entry, "suite": test.suite, "group": test.group, "name": test.name, "file": test.file,
                "line": test.line, "message": test.message,
            }));
        }
    }
    assert_eq!(
        data["totals"],
        json!({"passed": passed, "failed": failed, "skipped": skipped, "total": passed + failed + skipped})
    );
    assert!(
        (data["durationMs"].as_f64().unwrap() - duration).abs() < 1e-6,
        "{}",
        data["durationMs"]
    );
    let got: Vec<Value> = data["failed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            json!({"report": t["report"], "suite": t["suite"], "group": t["group"], "name": t["name"],
                   "file": t["file"], "line": t["line"], "message": t["message"]})
        })
        .collect();
    assert!(!got.is_empty());
    assert_eq!(got, expected_failed);
    assert_eq!(data["failedOmitted"], 0);

    // pathPattern: only the TRX report; maxFailed: at most that many listed, the rest counted.
    let data = s
        .data(
            "ci_test_results",
            github(ARTIFACT, json!({"pathPattern": "**/*.trx", "maxFailed": 1})),
        )
        .await;
    assert_eq!(data["reports"].as_array().unwrap().len(), 1);
    assert_eq!(data["reports"][0]["format"], "trx");
    assert_eq!(data["skippedEntries"], json!([]));
    let trx = parsed(&entry_bytes("dotnet/dotnet-trx.trx"));
    assert_eq!(data["failed"].as_array().unwrap().len(), 1);
    assert_eq!(data["failedOmitted"], trx.totals.failed - 1);
}

#[tokio::test]
async fn long_details_are_cut_and_kept_whole_in_an_artifact() {
    let s = setup().await;
    let details: String = (0..200)
        .map(|i| format!("    at frame{i} (src/deep.js:{i}:1)\n"))
        .collect();
    let report = format!(
        "<testsuites><testsuite name=\"deep\"><testcase classname=\"deep\" name=\"recurses\">\
         <failure message=\"too deep\">{details}</failure></testcase></testsuite></testsuites>"
    );
    s.serve_artifact(901, zip_of(&[("deep.xml", report.as_bytes())])).await;
    let data = s.data("ci_test_results", github(901, json!({}))).await;
    let test = &data["failed"][0];
    let whole = parsed(report.as_bytes()).failed[0].details.clone().unwrap();
    let full = whole.chars().count() as u64;
    assert_eq!(test["detailsFullChars"], full, "{test}");
    assert_eq!(test["details"].as_str().unwrap().chars().count(), 2_000);
    let id = test["detailsArtifactId"].as_str().expect("an artifact id");
    let chunk = call(
        &s.client,
        "artifact_read",
        json!({"artifactId": id, "maxBytes": 1_048_576}),
    )
    .await;
    let chunk = chunk.structured_content.unwrap();
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(chunk["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(String::from_utf8(bytes).unwrap(), whole);
    assert!(test["details"].as_str().is_some_and(|cut| whole.starts_with(cut)));
}

#[tokio::test]
async fn a_circleci_job_s_tests_are_read_from_every_page_and_agree_with_its_junit_artifact() {
    let s = setup().await;
    let data = s.data("ci_test_results", circleci(json!({}))).await;
    assert_eq!(data["source"], format!("CircleCI job 102 of {SLUG}"));
    assert_eq!(
        data["totals"],
        json!({"passed": 23, "failed": 1, "skipped": 0, "total": 24})
    );
    assert_eq!(data["reports"][0]["format"], "circleci-tests");
    assert_eq!(data["reports"][0]["entry"], Value::Null);
    let failed = &data["failed"][0];
    assert_eq!(failed["name"], "pipeline encodes the page token once");
    assert_eq!(failed["file"], "test/pipeline.test.js");
    assert_eq!(
        failed["message"],
        "Error: expect(received).toBe(expected) // Object.is equality"
    );
    let sent = s.upstream.server().received_requests().await.unwrap();
    let pages: Vec<_> = sent.iter().filter(|r| r.url.path().ends_with("/102/tests")).collect();
    assert_eq!(pages.len(), 2, "both pages");
    assert!(pages[1].url.query().unwrap_or_default().contains("page-token="));

    // The same run's jest-junit report, stored as an artifact: the same counts and failure, with its line.
    let data = s
        .data(
            "ci_test_results",
            circleci(json!({"artifactPath": "test-results/jest/results.xml"})),
        )
        .await;
    assert_eq!(
        data["totals"],
        json!({"passed": 23, "failed": 1, "skipped": 0, "total": 24})
    );
    assert_eq!(data["reports"][0]["entry"], "test-results/jest/results.xml");
    let failed = &data["failed"][0];
    assert_eq!(failed["name"], "pipeline encodes the page token once");
    assert!(
        failed["file"].as_str().unwrap().ends_with("test/pipeline.test.js"),
        "{failed}"
    );
    assert_eq!(failed["line"], 42);

    // A zip artifact: its files, one read as JSON, its reports (the coverage summary is no report).
    let data = s
        .data(
            "ci_artifact_entries",
            circleci(json!({"artifactPath": "test-results.zip"})),
        )
        .await;
    assert_eq!(
        entry_names(&data),
        ["jest/results.xml", "coverage/coverage-summary.json"]
    );
    let data = s
        .data(
            "ci_artifact_entry",
            circleci(json!({"artifactPath": "test-results.zip", "entry": "coverage/coverage-summary.json", "format": "json"})),
        )
        .await;
    assert_eq!(data["content"]["total"]["lines"]["pct"], 90.05);
    let data = s
        .data("ci_test_results", circleci(json!({"artifactPath": "test-results.zip"})))
        .await;
    assert_eq!(data["totals"]["failed"], 1);
    assert_eq!(data["skippedEntries"][0]["entry"], "coverage/coverage-summary.json");

    // An artifact the job does not list: named, with the ones it does.
    let err = s
        .error("ci_artifact_entries", circleci(json!({"artifactPath": "nope.zip"})))
        .await;
    assert!(
        err.contains("no artifact at that path") && err.contains("test-results.zip"),
        "{err}"
    );
    // The artifact host got no token.
    let sent = s.upstream.downloads().received_requests().await.unwrap();
    assert!(sent.iter().any(|r| r.url.path().starts_with("/output/job/")));
    assert!(sent.iter().all(|r| r.headers.get("circle-token").is_none()));
}

#[tokio::test]
async fn bad_input_is_an_error_that_says_what_and_where() {
    let s = setup().await;
    // An artifact no run uploaded: GitHub's 404, naming it.
    let err = s.error("ci_artifact_entries", github(7, json!({}))).await;
    assert!(
        err.contains("GitHub artifact 7 of octo-org/octo-repo") && err.contains("404"),
        "{err}"
    );
    // A malformed report: the entry and the position.
    s.serve_artifact(
        902,
        zip_of(&[(
            "reports/bad.xml",
            b"<testsuites>\n<testsuite name=\"a\">\n</testsuites>",
        )]),
    )
    .await;
    let err = s.error("ci_test_results", github(902, json!({}))).await;
    assert!(
        err.contains("entry `reports/bad.xml`") && err.contains("line 3"),
        "{err}"
    );
    // A body that is no zip.
    s.serve_artifact(903, b"<html><body>Sign in</body></html>".to_vec())
        .await;
    let err = s.error("ci_artifact_entries", github(903, json!({}))).await;
    assert!(err.contains("not a zip archive") && err.contains("<html>"), "{err}");
    // `..` in a name is a name: listed, read and parsed, and nothing is written under it.
    let junit = b"<testsuite name=\"x\"><testcase name=\"t\"/></testsuite>";
    s.serve_artifact(904, zip_of(&[("../../escape/report.xml", junit)]))
        .await;
    let data = s.data("ci_artifact_entries", github(904, json!({}))).await;
    assert_eq!(data["entries"][0]["name"], "../../escape/report.xml");
    let data = s
        .data(
            "ci_artifact_entry",
            github(904, json!({"entry": "../../escape/report.xml"})),
        )
        .await;
    assert_eq!(data["content"], String::from_utf8(junit.to_vec()).unwrap());
    let data = s.data("ci_test_results", github(904, json!({}))).await;
    assert_eq!(data["totals"]["passed"], 1);
    assert!(!s.temp.path().join("../../escape").exists());
    // No source, or half of one: the arguments are refused before anything is sent.
    for args in [
        json!({}),
        json!({"owner": "octo-org", "artifactId": 1}),
        json!({"projectSlug": SLUG, "jobNumber": 1}),
    ] {
        let result = call(&s.client, "ci_artifact_entries", args.clone()).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        assert!(
            text(&result).contains("give owner, repo and artifactId"),
            "{}",
            text(&result)
        );
    }
    let err = s
        .error("ci_test_results", github(ARTIFACT, json!({"pathPattern": "a[b"})))
        .await;
    assert!(err.contains("pathPattern"), "{err}");
}

#[tokio::test]
async fn zip_bombs_are_refused_by_ratio_entry_count_and_total_size_naming_the_limit() {
    let zeros = vec![0u8; 4 * 1024 * 1024];
    let bomb = zip_of(&[("zeros.xml", &zeros)]);
    let many = zip_of(&[("a.xml", b""), ("b.xml", b""), ("c.xml", b""), ("d.xml", b"")]);
    let text_files = (0..3).map(|i| format!("{i}").repeat(20_000)).collect::<Vec<_>>();
    let big = zip_of(
        &text_files
            .iter()
            .enumerate()
            .map(|(i, t)| (["1.txt", "2.txt", "3.txt"][i], t.as_bytes()))
            .collect::<Vec<_>>(),
    );
    let s = setup_with(
        ArchiveLimits::default()
            .with_max_entries(3)
            .with_max_uncompressed_bytes(50_000),
        |config| config,
    )
    .await;
    s.serve_artifact(911, bomb).await;
    s.serve_artifact(912, many).await;
    s.serve_artifact(913, big).await;
    for tool in ["ci_artifact_entries", "ci_test_results"] {
        let err = s.error(tool, github(911, json!({}))).await;
        assert!(
            err.contains("zip bomb") && err.contains("CI_ARCHIVE_MAX_RATIO (100:1)"),
            "{err}"
        );
        let err = s.error(tool, github(912, json!({}))).await;
        assert!(
            err.contains("4 entries") && err.contains("CI_ARCHIVE_MAX_ENTRIES (3)"),
            "{err}"
        );
        let err = s.error(tool, github(913, json!({}))).await;
        assert!(
            err.contains("60000 bytes") && err.contains("CI_ARCHIVE_MAX_UNCOMPRESSED_BYTES (50000"),
            "{err}"
        );
    }
    // A download past the body cap is refused while it streams, naming the cap.
    let s = setup_with(ArchiveLimits::default(), |config| common::with_max_body(config, 1_000)).await;
    let err = s.error("ci_artifact_entries", github(ARTIFACT, json!({}))).await;
    assert!(err.contains("larger than HTTP_MAX_BODY_BYTES (1000 bytes)"), "{err}");
}

/// The CircleCI token of [`common::all_config`] (`RecordedUpstream::env`).
const CIRCLECI_TOKEN: &str = "recorded-upstream-token";

/// A private project's artifact host on 127.0.0.1, as `output.circle-artifacts.com` answers for one: the artifact
/// with `Circle-Token`, `401` without it. `/redirected.zip` answers (with the token) a `302` to a signed URL on
/// the downloads server under `localhost`, which serves the zip and fails the test if it gets a credential.
async fn private_artifact_host(upstream: &RecordedUpstream) -> MockServer {
    let zip = recorded_upstream::fixture("circleci/artifact-test-results.zip")
        .unwrap()
        .body
        .to_vec();
    let host = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/output/job/77/artifacts/0/test-results.zip"))
        .and(header("circle-token", CIRCLECI_TOKEN))
        .respond_with(ResponseTemplate::new(200).set_body_raw(zip.clone(), "application/zip"))
        .with_priority(1)
        .mount(&host)
        .await;
    let downloads = upstream.downloads().address().port();
    Mock::given(method("GET"))
        .and(path("/output/job/77/artifacts/0/redirected.zip"))
        .and(header("circle-token", CIRCLECI_TOKEN))
        .respond_with(ResponseTemplate::new(302).insert_header(
            "location",
            format!("http://localhost:{downloads}/blobs/77.zip?X-Amz-Signature=s3cr3t-signature"),
        ))
        .with_priority(1)
        .mount(&host)
        .await;
    Mock::given(method("GET"))
        .respond_with(
            ResponseTemplate::new(401)
                .set_body_raw(br#"{"message":"You must log in first."}"#.to_vec(), "application/json"),
        )
        .with_priority(2)
        .mount(&host)
        .await;
    Mock::given(method("GET"))
        .and(path("/blobs/77.zip"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(zip, "application/zip"))
        .with_priority(2)
        .mount(upstream.downloads())
        .await;
    host
}

/// Lists, for job 77, `listed.zip` on the private host as `127.0.0.1`, `redirected.zip` there too, and
/// `unlisted.zip` on the same host as `localhost`, a name no setting vouches for.
async fn list_private_artifacts(upstream: &RecordedUpstream, host: &MockServer) {
    let port = host.address().port();
    let item = |name: &str, origin: &str, file: &str| json!({"path": name, "node_index": 0, "url": format!("{origin}/output/job/77/artifacts/0/{file}")});
    let listed = format!("http://127.0.0.1:{port}");
    let unlisted = format!("http://localhost:{port}");
    let body = json!({
        "items": [
            item("listed.zip", &listed, "test-results.zip"),
            item("redirected.zip", &listed, "redirected.zip"),
            item("unlisted.zip", &unlisted, "test-results.zip"),
        ],
        "next_page_token": null,
    });
    Mock::given(method("GET"))
        .and(path(format!("/api/v2/project/{SLUG}/77/artifacts")))
        .respond_with(ResponseTemplate::new(200).set_body_json(body))
        .with_priority(1)
        .mount(upstream.server())
        .await;
}

/// A setup whose config `configure` changes, with the private artifact host and job 77's list on it.
async fn private_setup(configure: impl FnOnce(ToolsConfig) -> ToolsConfig) -> (Setup, MockServer) {
    let s = setup_with(ArchiveLimits::default(), configure).await;
    let host = private_artifact_host(&s.upstream).await;
    list_private_artifacts(&s.upstream, &host).await;
    (s, host)
}

/// `config` with the loopback address listed as an artifact host (the server's `CIRCLECI_ARTIFACT_HOSTS=127.0.0.1`).
fn loopback_listed(mut config: ToolsConfig) -> ToolsConfig {
    config.circleci.artifact_hosts = vec!["127.0.0.1".to_owned()];
    config
}

fn private(artifact: &str) -> Value {
    json!({"projectSlug": SLUG, "jobNumber": 77, "artifactPath": artifact})
}

/// The `Circle-Token` each request to `server` carried (`None`: none), with its path.
async fn tokens_sent(server: &MockServer) -> Vec<(String, Option<String>)> {
    let requests = server.received_requests().await.unwrap();
    requests
        .iter()
        .map(|r| {
            let token = r.headers.get("circle-token").map(|v| v.to_str().unwrap().to_owned());
            (r.url.path().to_owned(), token)
        })
        .collect()
}

#[tokio::test]
async fn a_private_circleci_artifact_is_read_with_the_token_on_its_artifact_host_and_only_there() {
    let (s, host) = private_setup(loopback_listed).await;

    // On a listed host: the token goes with the request, and the zip is read.
    let data = s.data("ci_artifact_entries", private("listed.zip")).await;
    assert_eq!(
        data["source"],
        format!("CircleCI artifact listed.zip of job 77 of {SLUG}")
    );
    assert_eq!(
        entry_names(&data),
        ["jest/results.xml", "coverage/coverage-summary.json"]
    );
    let data = s.data("ci_test_results", private("listed.zip")).await;
    assert_eq!(
        data["totals"],
        json!({"passed": 23, "failed": 1, "skipped": 0, "total": 24})
    );
    assert_eq!(data["failed"][0]["name"], "pipeline encodes the page token once");
    let token = Some(CIRCLECI_TOKEN.to_owned());
    let listed = "/output/job/77/artifacts/0/test-results.zip".to_owned();
    assert_eq!(
        tokens_sent(&host).await,
        [(listed.clone(), token.clone()), (listed.clone(), token.clone())]
    );

    // Redirected to another origin (a signed URL): followed without the token, which never reaches it.
    let data = s.data("ci_test_results", private("redirected.zip")).await;
    assert_eq!(data["totals"]["failed"], 1);
    let blobs: Vec<_> = tokens_sent(s.upstream.downloads())
        .await
        .into_iter()
        .filter(|(path, _)| path == "/blobs/77.zip")
        .collect();
    assert_eq!(blobs, [("/blobs/77.zip".to_owned(), None)]);
    for request in s.upstream.downloads().received_requests().await.unwrap() {
        for (name, value) in &request.headers {
            let value = value.to_str().unwrap_or_default();
            assert!(
                !value.contains(CIRCLECI_TOKEN),
                "the signed URL's host got the token in `{name}`"
            );
        }
    }

    // The same host under a name no setting lists: no token, and the error says why and what to set.
    let err = s.error("ci_artifact_entries", private("unlisted.zip")).await;
    assert!(
        err.contains("CircleCI artifact unlisted.zip of job 77")
            && err.contains("answered 401 Unauthorized: You must log in first.")
            && err.contains("sent no token")
            && err.contains("add it to CIRCLECI_ARTIFACT_HOSTS"),
        "{err}"
    );
    assert!(!err.contains(CIRCLECI_TOKEN), "{err}");
    let sent = tokens_sent(&host).await;
    assert_eq!(sent.len(), 4, "{sent:?}");
    assert_eq!(sent[3], (listed, None), "the unlisted host got no token");
}

#[tokio::test]
async fn a_private_circleci_artifact_refused_with_the_token_says_the_token_could_not_read_it() {
    // The artifact host is not listed at all: only the API's origin and circle-artifacts.com would get the token.
    let (s, host) = private_setup(|config| config).await;
    let result = s.call("ci_test_results", private("listed.zip")).await;
    assert_eq!(result.is_error, Some(true));
    let err = text(&result);
    assert!(
        err.contains("sent no token") && err.contains("add it to CIRCLECI_ARTIFACT_HOSTS"),
        "{err}"
    );
    let meta = serde_json::to_value(&result.meta).unwrap();
    assert_eq!(meta["code"], "unauthorized", "{meta}");
    assert_eq!(meta["status"], 401, "{meta}");
    assert!(tokens_sent(&host).await.iter().all(|(_, token)| token.is_none()));

    // Listed, but the host refuses the token it is sent: the error says so.
    let (s, _host) = private_setup(|config| {
        let mut config = loopback_listed(config);
        config.circleci.http.credential = Some(adapters_http::Secret::new("a-token-the-host-refuses"));
        config
    })
    .await;
    let err = s.error("ci_artifact_entries", private("listed.zip")).await;
    assert!(
        err.contains("answered 401 Unauthorized")
            && err.contains("CIRCLECI_TOKEN was sent and could not read this artifact"),
        "{err}"
    );
    assert!(!err.contains("a-token-the-host-refuses"), "{err}");
}
