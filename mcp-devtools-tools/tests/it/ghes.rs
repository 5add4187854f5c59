//! The GitHub tools against a GitHub Enterprise Server: an rmcp client → the tools → a local fake GHES whose API is
//! under `http://127.0.0.1:PORT/api/v3` (as `GITHUB_API_BASE` names it), answering with the response examples of
//! GitHub's REST description for GHES 3.22 (`fixtures/github/ghes/`, see `fixtures/SOURCES.md`) and GHES's own forms:
//! no `X-RateLimit-*` headers (rate limiting is off by default on GHES), `Link` next URLs that carry `/api/v3`,
//! errors whose `documentation_url` is under `docs.github.com/enterprise-server@3.x`, and job logs and artifact
//! archives handed off with `302` to a storage host of its own (another origin: it must get no token) or to a path
//! of the same host (`/_services/…`, `/storage/…`).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{Cursor, Write as _};

use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

use crate::common;
use common::{assert_valid, call, connect, listed_tool, structured, text};

const TOKEN: &str = "ghp_ghes_SECRET_0123456789";
const REPO: &str = "/api/v3/repos/octo-org/octo-repo";
/// The commit of the description's `combined-commit-status` example.
const SHA: &str = "6dcb09b5b57875f334f61aebed695e2e4193db5e";

/// A GHES 3.22 response example of `fixtures/github/ghes/` as JSON.
fn example(name: &str) -> Value {
    let text = match name {
        "workflow-run-paginated" => include_str!("../../../fixtures/github/ghes/workflow-run-paginated.json"),
        "job-paginated" => include_str!("../../../fixtures/github/ghes/job-paginated.json"),
        "job" => include_str!("../../../fixtures/github/ghes/job.json"),
        "artifact-paginated" => include_str!("../../../fixtures/github/ghes/artifact-paginated.json"),
        "check-run-paginated" => include_str!("../../../fixtures/github/ghes/check-run-paginated.json"),
        "combined-commit-status" => include_str!("../../../fixtures/github/ghes/combined-commit-status.json"),
        "pull-request-simple-items" => include_str!("../../../fixtures/github/ghes/pull-request-simple-items.json"),
        "commit" => include_str!("../../../fixtures/github/ghes/commit.json"),
        "error-404" => include_str!("../../../fixtures/github/ghes/error-404.json"),
        other => panic!("no GHES example {other}"),
    };
    serde_json::from_str(text).unwrap()
}

/// A GHES answer: `body` as JSON with the headers a GHES with rate limiting off sends (no `X-RateLimit-*`).
fn ghes_json(status: u16, body: Value) -> ResponseTemplate {
    ResponseTemplate::new(status)
        .insert_header("content-type", "application/json; charset=utf-8")
        .insert_header("x-github-enterprise-version", "3.22.0")
        .insert_header("x-github-media-type", "github.v3; format=json")
        .insert_header("x-github-request-id", "0000:1111:2222:3333:44444444")
        .set_body_json(body)
}

async fn get(server: &MockServer, at: &str, answer: ResponseTemplate) {
    Mock::given(method("GET"))
        .and(path(at))
        .respond_with(answer)
        .mount(server)
        .await;
}

/// The tools with GitHub at `<ghes>/api/v3` and [`TOKEN`]; structured output on.
async fn client(ghes: &MockServer) -> common::Client {
    let base = format!("{}/api/v3", ghes.uri());
    connect(
        common::unconfigured()
            .with_structured_output(true)
            .with_github(common::github(&base, Some(TOKEN))),
    )
    .await
}

/// Every request `server` received, as `(path, Authorization)`.
async fn received(server: &MockServer) -> Vec<(String, Option<String>)> {
    let requests: Vec<Request> = server.received_requests().await.unwrap();
    requests
        .iter()
        .map(|r| {
            let auth = r.headers.get("authorization").map(|v| v.to_str().unwrap().to_owned());
            (r.url.path().to_owned(), auth)
        })
        .collect()
}

/// The storage host got requests, none of them with the token or any `Authorization`.
async fn assert_storage_got_no_credential(storage: &MockServer) {
    let requests: Vec<Request> = storage.received_requests().await.unwrap();
    assert!(!requests.is_empty(), "the download came from the storage host");
    for request in &requests {
        for (name, value) in &request.headers {
            let value = value.to_str().unwrap_or_default();
            assert!(!value.contains(TOKEN), "the storage host got the token in {name}");
            assert_ne!(
                name.as_str(),
                "authorization",
                "the storage host got an Authorization header"
            );
        }
    }
}

#[tokio::test]
async fn runs_jobs_artifacts_and_a_commit_s_checks_are_read_under_api_v3() {
    let ghes = MockServer::start().await;
    let next = format!("{}/api/v3/repositories/1296269/actions/runs?page=2", ghes.uri());
    let last = format!("{}/api/v3/repositories/1296269/actions/runs?page=3", ghes.uri());
    get(
        &ghes,
        &format!("{REPO}/actions/runs"),
        ghes_json(200, example("workflow-run-paginated")).insert_header(
            "link",
            format!("<{next}>; rel=\"next\", <{last}>; rel=\"last\"").as_str(),
        ),
    )
    .await;
    get(
        &ghes,
        "/api/v3/repositories/1296269/actions/runs",
        ghes_json(200, json!({"total_count": 1, "workflow_runs": []})),
    )
    .await;
    for (at, name) in [
        ("/actions/runs/30433642/jobs", "job-paginated"),
        ("/actions/runs/30433642/artifacts", "artifact-paginated"),
        ("/commits/{SHA}/check-runs", "check-run-paginated"),
        ("/commits/{SHA}/status", "combined-commit-status"),
        ("/commits/{SHA}/pulls", "pull-request-simple-items"),
        ("/commits/{SHA}", "commit"),
    ] {
        let at = format!("{REPO}{}", at.replace("{SHA}", SHA));
        get(&ghes, &at, ghes_json(200, example(name))).await;
    }
    let client = client(&ghes).await;

    let runs_tool = listed_tool(&client, "github_list_workflow_runs").await;
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo"}),
    )
    .await;
    let sc = structured(&result);
    assert_eq!(sc, json!({"data": example("workflow-run-paginated"), "nextPage": 2}));
    assert_valid(&runs_tool, &sc);

    // The `Link` next URL, with its /api/v3, given back whole as github_get's path.
    let result = call(&client, "github_get", json!({"path": next})).await;
    assert_eq!(
        structured(&result),
        json!({"data": {"total_count": 1, "workflow_runs": []}, "nextPage": null, "nextLink": null})
    );

    let result = call(
        &client,
        "github_list_workflow_jobs",
        json!({"owner": "octo-org", "repo": "octo-repo", "runId": 30433642}),
    )
    .await;
    assert_eq!(
        structured(&result),
        json!({"data": example("job-paginated"), "nextPage": null})
    );

    let get_tool = listed_tool(&client, "github_get").await;
    for (path, name) in [
        (
            "/repos/octo-org/octo-repo/actions/runs/30433642/artifacts",
            "artifact-paginated",
        ),
        (
            &format!("repos/octo-org/octo-repo/commits/{SHA}/check-runs") as &str,
            "check-run-paginated",
        ),
        (
            &format!("/repos/octo-org/octo-repo/commits/{SHA}/status"),
            "combined-commit-status",
        ),
        (
            &format!("/repos/octo-org/octo-repo/commits/{SHA}/pulls"),
            "pull-request-simple-items",
        ),
        (&format!("/repos/octo-org/octo-repo/commits/{SHA}"), "commit"),
    ] {
        let result = call(&client, "github_get", json!({"path": path})).await;
        let sc = structured(&result);
        assert_eq!(
            sc,
            json!({"data": example(name), "nextPage": null, "nextLink": null}),
            "{path}"
        );
        assert_valid(&get_tool, &sc);
    }
    // An absolute URL on the GHES host is read when it is under /api/v3 …
    let absolute = format!("{}{REPO}/commits/{SHA}/status", ghes.uri());
    let result = call(&client, "github_get", json!({"path": absolute})).await;
    assert_eq!(structured(&result)["data"], example("combined-commit-status"));
    // … and refused, with nothing sent, outside it (the web UI's paths on the same host).
    let before = received(&ghes).await.len();
    let outside = format!("{}/octo-org/octo-repo/actions/runs/30433642", ghes.uri());
    let result = call(&client, "github_get", json!({"path": outside})).await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("/api/v3"), "{}", text(&result));
    assert_eq!(received(&ghes).await.len(), before, "nothing sent");

    // ci_status over the GHES examples: the neutral check run and the two successful statuses.
    let result = call(
        &client,
        "ci_status",
        json!({"owner": "octo-org", "repo": "octo-repo", "sha": SHA}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let data = &structured(&result)["data"];
    assert_eq!(data["state"], "success", "{data}");
    assert_eq!(data["branch"], "new-topic", "the open pull request's head: {data}");
    let names: Vec<&str> = data["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["mighty_readme", "continuous-integration/jenkins", "security/brakeman"],
        "{data}"
    );

    // Every request went under /api/v3 with the token.
    let requests = received(&ghes).await;
    assert!(requests.len() >= 12, "{requests:?}");
    for (path, auth) in &requests {
        assert!(path.starts_with("/api/v3/"), "{path}");
        assert_eq!(auth.as_deref(), Some(format!("Bearer {TOKEN}").as_str()), "{path}");
    }
    client.cancel().await.unwrap();
}

/// A job log of the description's `job` example: its steps as GitHub's log groups them.
const LOG: &str = "\u{feff}2020-01-20T17:42:40.0000000Z ##[group]Run Tests\n\
2020-01-20T17:42:53.0000000Z bundle exec rake test\n\
2020-01-20T17:42:59.0000000Z 42 runs, 97 assertions, 0 failures, 0 errors, 0 skips\n\
2020-01-20T17:42:59.0000000Z ##[endgroup]\n";

/// Mounts job 399444496 (the GHES `job` example) on `ghes`, its log answered with a `302` to the signed URL
/// `{host}{path}?{query}`; returns that path.
async fn job_with_log_at(ghes: &MockServer, host: &str, query: &str) -> &'static str {
    const SIGNED: &str = "/_services/pipelines/_apis/pipelines/1/runs/19/signedlogcontent/4";
    get(
        ghes,
        &format!("{REPO}/actions/jobs/399444496"),
        ghes_json(200, example("job")),
    )
    .await;
    let location = format!("{host}{SIGNED}?{query}");
    get(
        ghes,
        &format!("{REPO}/actions/jobs/399444496/logs"),
        ResponseTemplate::new(302).insert_header("location", location.as_str()),
    )
    .await;
    SIGNED
}

#[tokio::test]
async fn logs_and_artifacts_handed_to_a_storage_host_reach_it_without_the_token() {
    let ghes = MockServer::start().await;
    // Another origin (another port): GHES's blob storage, or its separate storage host name.
    let storage = MockServer::start().await;
    let signed = job_with_log_at(
        &ghes,
        &storage.uri(),
        "urlExpires=2026-12-05T22%3A44%3A54Z&urlSigningMethod=HMACV1&urlSignature=SIG0123456789",
    )
    .await;
    get(
        &storage,
        signed,
        ResponseTemplate::new(200)
            .insert_header("content-type", "text/plain; charset=utf-8")
            .set_body_bytes(LOG.as_bytes()),
    )
    .await;
    let zip = zip_of(&[("junit.xml", JUNIT.as_bytes())]);
    get(
        &ghes,
        &format!("{REPO}/actions/artifacts/11/zip"),
        ResponseTemplate::new(302).insert_header(
            "location",
            format!("{}/storage/artifacts/11.zip?sig=SIG0123456789", storage.uri()).as_str(),
        ),
    )
    .await;
    get(
        &storage,
        "/storage/artifacts/11.zip",
        ResponseTemplate::new(200)
            .insert_header("content-type", "application/zip")
            .set_body_bytes(zip.clone()),
    )
    .await;
    let client = client(&ghes).await;

    let args = json!({"owner": "octo-org", "repo": "octo-repo", "jobId": 399444496, "failedOnly": false,
                      "tailLines": 0, "jq": "[.jobs[0].steps[] | .lines[] | .text]"});
    let result = call(&client, "github_get_job_logs", args).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let lines = structured(&result)["data"].clone();
    assert!(
        lines
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l.as_str().unwrap().contains("42 runs, 97 assertions")),
        "{lines}"
    );

    let artifact = json!({"owner": "octo-org", "repo": "octo-repo", "artifactId": 11});
    let result = call(&client, "ci_artifact_entries", artifact.clone()).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let data = &structured(&result)["data"];
    assert_eq!(data["archiveBytes"], zip.len());
    assert_eq!(data["entries"][0]["name"], "junit.xml");
    let result = call(&client, "ci_test_results", artifact).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let totals = &structured(&result)["data"]["totals"];
    assert_eq!(totals["failed"], 1, "{totals}");
    assert_eq!(totals["total"], 2, "{totals}");

    assert_storage_got_no_credential(&storage).await;
    assert!(!text(&result).contains("SIG0123456789"));
    client.cancel().await.unwrap();
}

/// A log of `lines` lines in the `Run Tests` step of the description's `job` example, the last one `last`.
fn long_log(lines: usize, last: &str) -> String {
    let mut log = String::from("\u{feff}2020-01-20T17:42:53.0000000Z ##[group]Run Tests\n");
    for n in 1..lines {
        log.push_str(&format!("2020-01-20T17:42:54.0000000Z test {n:05} passed in 0.01 s\n"));
    }
    log.push_str(&format!("2020-01-20T17:42:58.0000000Z {last}\n"));
    log
}

/// GHES may hand a log off to a path of its own host (`/_services/pipelines/…`) rather than to another host: the log
/// is then read as one from another host is, streamed past `HTTP_MAX_BODY_BYTES` (the cap of API answers), and the
/// signed URL's query appears nowhere.
#[tokio::test]
async fn a_log_handed_to_a_path_of_the_ghes_host_itself_is_streamed_past_the_body_cap() {
    let ghes = MockServer::start().await;
    let signed = job_with_log_at(&ghes, &ghes.uri(), "urlSigningMethod=HMACV1&urlSignature=SIG0123456789").await;
    let log = long_log(600, "600 tests, 0 failures");
    assert!(log.len() > 4 * 8192);
    get(
        &ghes,
        signed,
        ResponseTemplate::new(200)
            .insert_header("content-type", "text/plain; charset=utf-8")
            .set_body_bytes(log.into_bytes()),
    )
    .await;
    let base = format!("{}/api/v3", ghes.uri());
    let config = common::unconfigured()
        .with_structured_output(true)
        .with_github(common::github(&base, Some(TOKEN)));
    let client = connect(common::with_max_body(config, 8192)).await;
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "jobId": 399444496, "failedOnly": false,
                      "tailLines": 0, "jq": "[.jobs[0].steps[] | .lines[] | .text] | {n: length, last: last}"});
    let result = call(&client, "github_get_job_logs", args).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let data = &structured(&result)["data"];
    assert_eq!(data["last"], "600 tests, 0 failures", "{data}");
    assert!(!text(&result).contains("SIG0123456789"));
    let requests = received(&ghes).await;
    let to_storage: Vec<_> = requests.iter().filter(|(p, _)| p == signed).collect();
    assert_eq!(to_storage.len(), 1, "{requests:?}");
    client.cancel().await.unwrap();
}

/// A renamed repository answers `301` to `/api/v3/repositories/{id}/…` on the same host: `github_get` follows it with
/// the token and reads the answer as any other.
#[tokio::test]
async fn a_renamed_repository_s_301_on_the_ghes_host_is_followed() {
    let ghes = MockServer::start().await;
    let moved = format!("{}/api/v3/repositories/1296269/commits/{SHA}/status", ghes.uri());
    get(
        &ghes,
        &format!("/api/v3/repos/octo-org/old-name/commits/{SHA}/status"),
        ghes_json(
            301,
            json!({"message": "Moved Permanently", "url": moved,
                   "documentation_url": "https://docs.github.com/enterprise-server@3.22/rest/guides/best-practices-for-using-the-rest-api#follow-redirects"}),
        )
        .insert_header("location", moved.as_str()),
    )
    .await;
    get(
        &ghes,
        &format!("/api/v3/repositories/1296269/commits/{SHA}/status"),
        ghes_json(200, example("combined-commit-status")),
    )
    .await;
    let client = client(&ghes).await;
    let result = call(
        &client,
        "github_get",
        json!({"path": format!("/repos/octo-org/old-name/commits/{SHA}/status")}),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    assert_eq!(structured(&result)["data"], example("combined-commit-status"));
    let requests = received(&ghes).await;
    assert_eq!(requests.len(), 2, "{requests:?}");
    for (path, auth) in &requests {
        assert_eq!(auth.as_deref(), Some(format!("Bearer {TOKEN}").as_str()), "{path}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn enterprise_errors_and_a_forbidden_answer_without_rate_limit_headers() {
    let ghes = MockServer::start().await;
    get(
        &ghes,
        &format!("{REPO}/actions/runs/1/jobs"),
        ghes_json(404, example("error-404")),
    )
    .await;
    get(
        &ghes,
        &format!("{REPO}/actions/runs"),
        ghes_json(
            403,
            json!({"message": "Resource not accessible by integration",
                   "documentation_url": "https://docs.github.com/enterprise-server@3.22/rest/actions/workflow-runs#list-workflow-runs-for-a-repository",
                   "status": "403"}),
        ),
    )
    .await;
    let client = client(&ghes).await;

    let result = call(
        &client,
        "github_list_workflow_jobs",
        json!({"owner": "octo-org", "repo": "octo-repo", "runId": 1}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(said.contains("404") && said.contains("Not Found"), "{said}");
    assert!(said.contains("docs.github.com/enterprise-server@3.22/rest/"), "{said}");

    // A 403 without X-RateLimit-* headers is a permission answer: one attempt, no rate-limit wording or reset time.
    let result = call(
        &client,
        "github_list_workflow_runs",
        json!({"owner": "octo-org", "repo": "octo-repo"}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    let said = text(&result);
    assert!(said.contains("Resource not accessible by integration"), "{said}");
    assert!(!said.to_lowercase().contains("rate limit"), "{said}");
    assert!(!said.contains("Resets at") && !said.contains("1970"), "{said}");
    let runs: Vec<String> = received(&ghes)
        .await
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| p.ends_with("/actions/runs"))
        .collect();
    assert_eq!(runs.len(), 1, "not retried: {runs:?}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_wait_on_a_finished_run_answers_without_rate_limit_headers() {
    let ghes = MockServer::start().await;
    let mut run = example("workflow-run-paginated")["workflow_runs"][0].clone();
    run["status"] = json!("completed");
    run["conclusion"] = json!("success");
    get(&ghes, &format!("{REPO}/actions/runs/30433642"), ghes_json(200, run)).await;
    get(
        &ghes,
        &format!("{REPO}/actions/runs/30433642/jobs"),
        ghes_json(200, example("job-paginated")),
    )
    .await;
    let client = client(&ghes).await;
    let result = tokio::time::timeout(
        std::time::Duration::from_secs(20),
        call(
            &client,
            "github_wait_for_run",
            json!({"owner": "octo-org", "repo": "octo-repo", "runId": 30433642, "timeoutSeconds": 10}),
        ),
    )
    .await
    .expect("a finished run answers at once");
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let data = &structured(&result)["data"];
    assert_eq!(data["conclusion"], "success", "{data}");
    assert_eq!(data["timedOut"], false, "{data}");
    assert_eq!(data["jobs"][0]["name"], "build", "{data}");
    client.cancel().await.unwrap();
}

/// A JUnit report of two tests, one failed.
const JUNIT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<testsuites><testsuite name="rails" tests="2" failures="1" errors="0" skipped="0" time="0.5">
<testcase classname="UserTest" name="test_valid" time="0.2"/>
<testcase classname="UserTest" name="test_email" time="0.3"><failure message="Expected false to be truthy.">test/models/user_test.rb:12</failure></testcase>
</testsuite></testsuites>
"#;

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
