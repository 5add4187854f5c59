//! `github_get` with the rmcp client (in-process, over an in-memory pipe): the four reads a triage needs (a commit's pull
//! requests, check runs and detail, a run's artifacts) with their structured values validated against the
//! advertised `outputSchema`; `nextPage` from `Link`; a diff as a JSON string; `jq` over a paged list; GitHub's
//! headers sent; an absolute URL on another host refused with nothing sent; bad arguments refused before sending.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{assert_valid, call, connect, fixture_json, github_config, text};
use recorded_upstream::RecordedUpstream;
use serde_json::{Value, json};

const SHA: &str = "1e59b61ec3662be30b817d3125fca946231f0b0f";
const REPO: &str = "/repos/octo-org/octo-repo";

#[tokio::test]
async fn the_four_triage_reads_give_the_recorded_answers() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let listed = client.list_all_tools().await.unwrap();
    let tool = listed
        .iter()
        .find(|t| t.name == "github_get")
        .expect("github_get is listed");
    assert_eq!(tool.annotations.as_ref().unwrap().read_only_hint, Some(true));
    let cases = [
        (format!("{REPO}/commits/{SHA}/pulls"), "github/commit-pulls"),
        (format!("{REPO}/commits/{SHA}/check-runs"), "github/commit-check-runs"),
        (format!("{REPO}/commits/{SHA}"), "github/commit"),
        (
            format!("{REPO}/actions/runs/2802600146/artifacts"),
            "github/run-artifacts",
        ),
    ];
    for (path, fixture) in cases {
        let result = call(&client, "github_get", json!({"path": path})).await;
        assert_ne!(result.is_error, Some(true), "{path}: {}", text(&result));
        let structured = result.structured_content.clone().expect("structuredContent");
        assert_eq!(
            structured,
            json!({"data": fixture_json(fixture), "nextPage": null, "nextLink": null}),
            "{fixture}"
        );
        assert_valid(tool, &structured);
    }
    // The pull request of a failed run of page 1, projected, with a leading-slash-less path.
    let result = call(
        &client,
        "github_get",
        json!({"path": "repos/octo-org/octo-repo/commits/55ad2de96c546d2718844102ee8bafd419e315d3/pulls",
               "jq": "[.[] | {number, state, merged: (.merged_at != null)}]"}),
    )
    .await;
    assert_eq!(
        result.structured_content.unwrap()["data"],
        json!([{"number": 2322, "state": "closed", "merged": true}])
    );
    // GitHub's own answer for a SHA it does not know: a clear error.
    let result = call(
        &client,
        "github_get",
        json!({"path": format!("{REPO}/commits/deadbeef/pulls")}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    assert!(
        text(&result).contains("No commit found for SHA: deadbeef"),
        "{}",
        text(&result)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn pages_come_from_link_and_jq_projects_a_page() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let runs = format!("{REPO}/actions/runs");
    let result = call(
        &client,
        "github_get",
        json!({"path": runs, "jq": "[.workflow_runs[].id]"}),
    )
    .await;
    let mut structured = result.structured_content.unwrap();
    let next_link = structured.as_object_mut().unwrap().remove("nextLink").unwrap();
    assert!(next_link.as_str().unwrap().contains("page=2"), "{next_link}");
    assert_eq!(
        structured,
        json!({"data": [3519037359u64, 2803043628u64, 2802601342u64, 2802600146u64], "nextPage": 2})
    );
    // perPage and page go to GitHub as per_page and page; the last page has no next.
    let result = call(
        &client,
        "github_get",
        json!({"path": runs, "perPage": 100, "page": "2", "jq": ".workflow_runs | length"}),
    )
    .await;
    assert_eq!(
        result.structured_content.unwrap(),
        json!({"data": 4, "nextPage": null, "nextLink": null})
    );
    let sent = upstream.server().received_requests().await.unwrap();
    let last = sent.last().unwrap();
    assert_eq!(last.url.query(), Some("per_page=100&page=2"));
    assert_eq!(last.headers.get("accept").unwrap(), "application/vnd.github+json");
    assert_eq!(last.headers.get("x-github-api-version").unwrap(), "2022-11-28");
    assert_eq!(last.headers.get("authorization").unwrap(), "Bearer test-token");
    // Paging in one place only.
    let result = call(
        &client,
        "github_get",
        json!({"path": format!("{runs}?page=2"), "page": 3}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("invalid page"), "{}", text(&result));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_diff_or_a_patch_is_a_string() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let path = format!("{REPO}/commits/{SHA}");
    let result = call(&client, "github_get", json!({"path": path, "mediaType": "diff"})).await;
    let diff = String::from_utf8(recorded_upstream::fixture("github/commit.diff").unwrap().body.to_vec()).unwrap();
    assert_eq!(
        result.structured_content.unwrap(),
        json!({"data": diff, "nextPage": null, "nextLink": null})
    );
    let sent = upstream.server().received_requests().await.unwrap();
    assert_eq!(
        sent.last().unwrap().headers.get("accept").unwrap(),
        "application/vnd.github.diff"
    );

    let result = call(
        &client,
        "github_get",
        json!({"path": path, "mediaType": "patch", "jq": "split(\"\\n\") | .[0:4]"}),
    )
    .await;
    assert_eq!(
        result.structured_content.unwrap()["data"],
        json!([
            format!("From {SHA} Mon Sep 17 00:00:00 2001"),
            "From: The Octocat <octocat@example.com>",
            "Date: Fri, 5 Aug 2022 08:44:49 +0000",
            "Subject: [PATCH] Update docs"
        ])
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn another_host_and_bad_arguments_are_refused_before_anything_is_sent() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    // Same port, another host name: a different origin, so the token must not go there.
    let port = url::Url::parse(&upstream.uri()).unwrap().port().unwrap();
    let cases: [(Value, &str); 7] = [
        (
            json!({"path": format!("http://localhost:{port}{REPO}/commits/{SHA}/pulls")}),
            "refused to call `localhost`",
        ),
        (
            json!({"path": "https://api.github.com/user"}),
            "refused to call `api.github.com`",
        ),
        (json!({"path": "  "}), "must not be empty"),
        (json!({"path": "/user#x"}), "must not contain a fragment"),
        (json!({"path": "/user", "perPage": 101}), "perPage"),
        (json!({"path": "/user", "mediaType": "html"}), "mediaType"),
        (json!({"path": "/user", "jq": ".["}), "jq"),
    ];
    for (args, needle) in cases {
        let result = call(&client, "github_get", args.clone()).await;
        assert_eq!(result.is_error, Some(true), "{args}");
        assert!(result.structured_content.is_none(), "{args}");
        assert!(text(&result).contains(needle), "{args}: {}", text(&result));
    }
    assert!(
        upstream.server().received_requests().await.unwrap().is_empty(),
        "nothing was sent"
    );
    // The same path on the configured host works.
    let result = call(
        &client,
        "github_get",
        json!({"path": format!("{}{REPO}/commits/{SHA}/pulls", upstream.uri()), "jq": ".[0].number"}),
    )
    .await;
    assert_eq!(result.structured_content.unwrap()["data"], json!(2402));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn read_only_keeps_it_and_toolsets_select_it() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let names = |toolsets: Option<&str>, read_only: bool| {
        let selection = mcp_devtools_tools::vendors::parse_toolsets(toolsets, read_only).unwrap();
        let config = github_config(&upstream.uri()).with_selection(selection);
        async move {
            let client = connect(config).await;
            let names: Vec<String> = client
                .list_all_tools()
                .await
                .unwrap()
                .into_iter()
                .map(|t| t.name.to_string())
                .collect();
            client.cancel().await.unwrap();
            names
        }
    };
    assert!(names(None, true).await.contains(&"github_get".to_string()));
    assert!(names(Some("github"), false).await.contains(&"github_get".to_string()));
    assert!(!names(Some("jira"), false).await.contains(&"github_get".to_string()));
}

#[tokio::test]
async fn an_artifact_zip_after_its_redirect_is_a_binary_artifact_fetched_without_the_token() {
    let upstream = RecordedUpstream::github().await.unwrap();
    let client = connect(github_config(&upstream.uri()).with_structured_output(true)).await;
    let listed = client.list_all_tools().await.unwrap();
    let tool = listed.iter().find(|t| t.name == "github_get").unwrap();
    // The archive of the first artifact of github/run-artifacts: GitHub answers 302 to a signed URL on another host.
    let path = format!("{REPO}/actions/artifacts/28026001465/zip");
    let result = call(&client, "github_get", json!({"path": path})).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let structured = result.structured_content.clone().unwrap();
    assert_valid(tool, &structured);
    let zip = recorded_upstream::fixture("github/artifact-test-results.zip")
        .unwrap()
        .body;
    let incomplete = &structured["incomplete"];
    assert_eq!(structured["data"], Value::Null);
    assert_eq!(incomplete["reason"], "binary");
    assert_eq!(incomplete["mimeType"], "application/zip");
    assert_eq!(incomplete["bytes"], json!(zip.len()));
    let chunk = call(
        &client,
        "artifact_read",
        json!({"artifactId": incomplete["artifactId"], "maxBytes": 1048576}),
    )
    .await;
    let chunk = chunk.structured_content.unwrap();
    assert_eq!(chunk["mimeType"], "application/zip");
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(chunk["data"].as_str().unwrap())
        .unwrap();
    assert_eq!(bytes, zip, "the archive byte for byte");
    // The token went to the API only; the other host got no credential and no GitHub header.
    let sent = upstream.server().received_requests().await.unwrap();
    let api = sent.iter().find(|r| r.url.path() == path).unwrap();
    assert_eq!(api.headers.get("authorization").unwrap(), "Bearer test-token");
    let blob = sent
        .iter()
        .find(|r| r.url.path().starts_with("/artifact-blobs/"))
        .unwrap();
    let host = blob.headers.get("host").unwrap().to_str().unwrap();
    assert!(host.starts_with("localhost:"), "{host}");
    assert!(blob.headers.get("authorization").is_none(), "{:?}", blob.headers);
    assert!(blob.headers.get("x-github-api-version").is_none(), "{:?}", blob.headers);
    // An artifact no run uploaded: GitHub's 404.
    let result = call(
        &client,
        "github_get",
        json!({"path": format!("{REPO}/actions/artifacts/7/zip")}),
    )
    .await;
    assert_eq!(result.is_error, Some(true));
    assert!(text(&result).contains("404"), "{}", text(&result));
    client.cancel().await.unwrap();
}
