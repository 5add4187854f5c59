//! Issue 45, point 1: `allPages` on every paged read, in-process (rmcp client over an in-memory pipe → the tools →
//! the real adapters → a local fake upstream on 127.0.0.1). Each of the seven tools (and Jira's and Bitbucket Data
//! Center's start-index forms) reads a book of pages in its vendor's own form of "next", and every way of stopping is
//! seen: the last page, `allPages`, `maxItems`, a next link read before, a later page failing upstream (the pages
//! before it kept, the error redacted); `jq` runs over the merged value; a merge over the bound is an artifact that
//! reads back whole; every result validates against the tool's `outputSchema` (drafts 7 and 2020-12).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::common;

use common::{Client, assert_valid, call, connect, listed_tool, structured, text};
use recorded_upstream::RecordedUpstream;
use recorded_upstream::wiremock::matchers::{method, path};
use recorded_upstream::wiremock::{Mock, Request, Respond, ResponseTemplate};
use rmcp::model::Tool;
use serde_json::{Value, json};

/// The placeholder credential of [`RecordedUpstream::env`] (every vendor's): an upstream that quotes it back must
/// not reach the result.
const TOKEN: &str = "recorded-upstream-token";

/// A vendor's paged list, in its own form of "next".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `github_list_workflow_runs`: `{total_count, workflow_runs}`, `Link` with `page`.
    Runs,
    /// `github_list_workflow_jobs`: `{total_count, jobs}`, `Link` with `page`.
    Jobs,
    /// `github_get` of a cursor list: a top-level array, `Link` with `after` (no page number).
    GithubGet,
    /// `circleci_get`: `{items, next_page_token}`.
    Circleci,
    /// `jira_get` of `/search/jql`: `{issues, nextPageToken, isLast}`.
    JiraToken,
    /// `jira_get` of a start-index list: `{startAt, maxResults, total, comments}`.
    JiraStartAt,
    /// `conf_get`: `{results, _links: {next}}` (relative to the site).
    Confluence,
    /// `bb_get` on Cloud: `{values, page, next}` (absolute).
    Bitbucket,
    /// `bb_get` on Data Center: `{values, start, isLastPage, nextPageStart}`.
    BitbucketDc,
}

impl Kind {
    fn tool(self) -> &'static str {
        match self {
            Kind::Runs => "github_list_workflow_runs",
            Kind::Jobs => "github_list_workflow_jobs",
            Kind::GithubGet => "github_get",
            Kind::Circleci => "circleci_get",
            Kind::JiraToken | Kind::JiraStartAt => "jira_get",
            Kind::Confluence => "conf_get",
            Kind::Bitbucket | Kind::BitbucketDc => "bb_get",
        }
    }

    /// Where the upstream serves the book named `book`.
    fn at(self, book: &str) -> String {
        match self {
            Kind::Runs => format!("/repos/pager/{book}/actions/runs"),
            Kind::Jobs => format!("/repos/pager/{book}/actions/runs/7/jobs"),
            Kind::GithubGet => format!("/repos/pager/{book}/dependabot/alerts"),
            Kind::Circleci => format!("/api/v2/project/gh/pager/{book}/pipeline"),
            Kind::JiraToken => format!("/rest/api/3/pager/{book}/search/jql"),
            Kind::JiraStartAt => format!("/rest/api/3/pager/{book}/comment"),
            Kind::Confluence => format!("/wiki/api/v2/pager/{book}"),
            Kind::Bitbucket => format!("/2.0/repositories/pager/{book}/pullrequests"),
            Kind::BitbucketDc => format!("/2.0/repositories/pager/{book}/dc"),
        }
    }

    /// The tool's arguments for the book `book`, plus `more`.
    fn args(self, book: &str, more: Value) -> Value {
        let mut args = match self {
            Kind::Runs => json!({"owner": "pager", "repo": book, "perPage": 2}),
            Kind::Jobs => json!({"owner": "pager", "repo": book, "runId": 7, "perPage": 2}),
            Kind::GithubGet => json!({"path": self.at(book)}),
            Kind::Circleci => json!({"path": format!("/project/gh/pager/{book}/pipeline")}),
            Kind::JiraToken | Kind::JiraStartAt | Kind::Bitbucket | Kind::BitbucketDc => {
                json!({"path": self.at(book)})
            }
            Kind::Confluence => json!({"path": format!("/api/v2/pager/{book}")}),
        };
        args.as_object_mut().unwrap().extend(more.as_object().unwrap().clone());
        args
    }

    /// The member of `data` that holds the items (`None`: `data` is the list).
    fn list(self) -> Option<&'static str> {
        match self {
            Kind::Runs => Some("workflow_runs"),
            Kind::Jobs => Some("jobs"),
            Kind::GithubGet => None,
            Kind::Circleci => Some("items"),
            Kind::JiraToken => Some("issues"),
            Kind::JiraStartAt => Some("comments"),
            Kind::Confluence => Some("results"),
            Kind::Bitbucket | Kind::BitbucketDc => Some("values"),
        }
    }

    /// The ids of the items of `data`.
    fn ids(self, data: &Value) -> Vec<u64> {
        let list = match self.list() {
            Some(member) => &data[member],
            None => data,
        };
        list.as_array()
            .unwrap_or_else(|| panic!("{self:?}: no list in {data}"))
            .iter()
            .map(|item| item["id"].as_u64().unwrap())
            .collect()
    }

    /// The page number a request asks for.
    fn page_of(self, request: &Request) -> u64 {
        let param = |name: &str| {
            request
                .url
                .query_pairs()
                .find(|(key, _)| key == name)
                .map(|(_, value)| value.into_owned())
        };
        let numbered =
            |name: &str| param(name).map_or(1, |v| v.trim_start_matches(char::is_alphabetic).parse().unwrap());
        let started = |name: &str| param(name).map_or(1, |v| v.parse::<u64>().unwrap() / 2 + 1);
        match self {
            Kind::Runs | Kind::Jobs | Kind::Bitbucket => numbered("page"),
            Kind::GithubGet => numbered("after"),
            Kind::Circleci => numbered("page-token"),
            Kind::JiraToken => numbered("nextPageToken"),
            Kind::Confluence => numbered("cursor"),
            Kind::JiraStartAt => started("startAt"),
            Kind::BitbucketDc => started("start"),
        }
    }

    /// The marker of page `n` in a `nextLink` (its query parameter).
    fn marker(self, n: u64) -> String {
        let start = 2 * (n - 1);
        match self {
            Kind::Runs | Kind::Jobs | Kind::Bitbucket => format!("page={n}"),
            Kind::GithubGet => format!("after=c{n}"),
            Kind::Circleci => format!("page-token=t{n}"),
            Kind::JiraToken => format!("nextPageToken=j{n}"),
            Kind::Confluence => format!("cursor=c{n}"),
            Kind::JiraStartAt => format!("startAt={start}"),
            Kind::BitbucketDc => format!("start={start}"),
        }
    }

    /// Checks that the result `value` continues at page `n` (`None`: it says there is nothing after), in the
    /// envelope's `nextPage` / `nextLink` and in the body's own continuation fields (those of the last page read).
    fn assert_continues_at(self, value: &Value, n: Option<u64>) {
        let data = &value["data"];
        if matches!(self, Kind::Runs | Kind::Jobs) {
            assert_eq!(value["nextPage"], json!(n), "{self:?}: {value}");
            return;
        }
        match n {
            None => assert_eq!(value["nextLink"], Value::Null, "{self:?}: {value}"),
            Some(n) => {
                let link = value["nextLink"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{self:?}: {value}"));
                assert!(link.ends_with(&self.marker(n)), "{self:?}: {link}");
            }
        }
        if data.is_null() {
            return;
        }
        let token = |value: &Value| value.as_str().map(str::to_owned);
        let (body_next, expected) = match self {
            Kind::Circleci => (token(&data["next_page_token"]), n.map(|n| format!("t{n}"))),
            Kind::JiraToken => (token(&data["nextPageToken"]), n.map(|n| format!("j{n}"))),
            Kind::Confluence => (
                token(&data["_links"]["next"]).map(|l| l.rsplit('=').next().unwrap().to_owned()),
                n.map(|n| format!("c{n}")),
            ),
            Kind::Bitbucket => (
                token(&data["next"]).map(|l| l.rsplit('=').next().unwrap().to_owned()),
                n.map(|n| n.to_string()),
            ),
            Kind::BitbucketDc => (
                data["nextPageStart"].as_u64().map(|s| s.to_string()),
                n.map(|n| (2 * (n - 1)).to_string()),
            ),
            Kind::Runs | Kind::Jobs | Kind::GithubGet | Kind::JiraStartAt => return,
        };
        assert_eq!(body_next, expected, "{self:?}: the last page's continuation in {data}");
        if self == Kind::JiraToken {
            assert_eq!(data["isLast"], json!(n.is_none()), "{data}");
        }
        if self == Kind::BitbucketDc {
            assert_eq!(data["isLastPage"], json!(n.is_none()), "{data}");
        }
    }
}

/// A book of pages served in a vendor's form: pages `1..=last` of two items each (ids 1, 2 on page 1, 3, 4 on
/// page 2, ...), each item padded with `pad` bytes. With `loop_back`, the last page's next is page 2 again; with
/// `fail_at`, that page answers `404` quoting the credential. Absolute links are on `origin`.
#[derive(Debug, Clone)]
struct Book {
    origin: String,
    kind: Kind,
    last: u64,
    loop_back: bool,
    fail_at: Option<u64>,
    pad: usize,
}

impl Book {
    fn new(upstream: &RecordedUpstream, kind: Kind, last: u64) -> Self {
        Book {
            origin: upstream.uri(),
            kind,
            last,
            loop_back: false,
            fail_at: None,
            pad: 0,
        }
    }
}

impl Respond for Book {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let kind = self.kind;
        let n = kind.page_of(request);
        if self.fail_at == Some(n) {
            return ResponseTemplate::new(404).set_body_json(json!({
                "message": format!("Not Found (token {TOKEN} has no access)"),
                "errorMessages": [format!("Not Found (token {TOKEN} has no access)")],
            }));
        }
        let items: Vec<Value> = (1..=2)
            .map(|i| json!({"id": (n - 1) * 2 + i, "pad": "x".repeat(self.pad)}))
            .collect();
        let next = if n < self.last {
            Some(n + 1)
        } else if self.loop_back {
            Some(2)
        } else {
            None
        };
        let here = format!("{}{}", self.origin, request.url.path());
        let total = 2 * self.last;
        let start = 2 * (n - 1);
        let mut response = ResponseTemplate::new(200);
        let body = match kind {
            Kind::Runs | Kind::Jobs => {
                if let Some(next) = next {
                    let link = format!("<{here}?per_page=2&page={next}>; rel=\"next\"");
                    response = response.insert_header("link", link.as_str());
                }
                json!({"total_count": total, kind.list().unwrap(): items})
            }
            Kind::GithubGet => {
                if let Some(next) = next {
                    let link = format!("<{here}?after=c{next}>; rel=\"next\"");
                    response = response.insert_header("link", link.as_str());
                }
                Value::Array(items)
            }
            Kind::Circleci => json!({"items": items, "next_page_token": next.map(|m| format!("t{m}"))}),
            Kind::JiraToken => match next {
                Some(m) => json!({"issues": items, "nextPageToken": format!("j{m}"), "isLast": false}),
                None => json!({"issues": items, "isLast": true}),
            },
            Kind::JiraStartAt => {
                // A start index loops only by saying it starts where an earlier page did.
                let start = if self.loop_back && n == self.last { 0 } else { start };
                let total = if self.loop_back { 1000 } else { total };
                json!({"startAt": start, "maxResults": 2, "total": total, "comments": items})
            }
            Kind::Confluence => {
                let mut links = json!({"base": "https://example.atlassian.net/wiki"});
                if let Some(m) = next {
                    links["next"] = json!(format!("{}?cursor=c{m}", request.url.path()));
                }
                json!({"results": items, "_links": links})
            }
            Kind::Bitbucket => {
                let mut body = json!({"pagelen": 2, "size": total, "page": n, "values": items});
                if let Some(m) = next {
                    body["next"] = json!(format!("{here}?page={m}"));
                }
                body
            }
            Kind::BitbucketDc => {
                let mut body =
                    json!({"size": 2, "limit": 2, "start": start, "isLastPage": next.is_none(), "values": items});
                if let Some(m) = next {
                    body["nextPageStart"] = json!(2 * (m - 1));
                }
                body
            }
        };
        response.set_body_json(body)
    }
}

/// Serves `book` as the book named `name` on `upstream`.
async fn serve(upstream: &RecordedUpstream, name: &str, book: Book) {
    Mock::given(method("GET"))
        .and(path(book.kind.at(name)))
        .respond_with(book)
        .with_priority(1)
        .mount(upstream.server())
        .await;
}

/// The upstream (every vendor, recorded), a client of the tools (structured output on, the default bound) and one
/// with the bound at 16 KiB.
async fn setup() -> (RecordedUpstream, Client, Client) {
    let upstream = RecordedUpstream::all().await.unwrap();
    let client = connect(common::all_config(&upstream)).await;
    let small = connect(common::with_max_bytes(common::all_config(&upstream), 16384)).await;
    (upstream, client, small)
}

/// Calls `kind`'s tool on the book `book` with `more` arguments; the result validates against `schema`.
async fn read(client: &Client, schema: &Tool, kind: Kind, book: &str, more: Value) -> Value {
    let result = call(client, kind.tool(), kind.args(book, more)).await;
    let value = structured(&result);
    assert_valid(schema, &value);
    value
}

/// Every way of reading `kind`'s pages with `allPages`, through its tool.
async fn every_stop(kind: Kind) {
    let (upstream, client, small) = setup().await;
    let schema = listed_tool(&client, kind.tool()).await;
    serve(&upstream, "three", Book::new(&upstream, kind, 3)).await;
    let pages = |read: u64, stopped: &str| json!({"read": read, "stoppedBy": stopped, "error": null});

    // Without allPages: one page, no `pages`.
    let one = read(&client, &schema, kind, "three", json!({})).await;
    assert_eq!(kind.ids(&one["data"]), [1, 2]);
    assert!(one.get("pages").is_none(), "{kind:?}: {one}");
    kind.assert_continues_at(&one, Some(2));

    // The last page.
    let all = read(&client, &schema, kind, "three", json!({"allPages": 10})).await;
    assert_eq!(kind.ids(&all["data"]), [1, 2, 3, 4, 5, 6], "{kind:?}");
    assert_eq!(all["pages"], pages(3, "last_page"), "{kind:?}");
    kind.assert_continues_at(&all, None);
    if kind == Kind::Runs {
        assert_eq!(all["data"]["total_count"], 6, "totals are kept");
    }

    // allPages pages.
    let two = read(&client, &schema, kind, "three", json!({"allPages": "2"})).await;
    assert_eq!(kind.ids(&two["data"]), [1, 2, 3, 4], "{kind:?}");
    assert_eq!(two["pages"], pages(2, "max_pages"), "{kind:?}");
    kind.assert_continues_at(&two, Some(3));

    // maxItems items: the list cut to exactly that many, continuing after the last page read.
    let three = read(&client, &schema, kind, "three", json!({"allPages": 10, "maxItems": 3})).await;
    assert_eq!(kind.ids(&three["data"]), [1, 2, 3], "{kind:?}");
    assert_eq!(three["pages"], pages(2, "max_items"), "{kind:?}");
    kind.assert_continues_at(&three, Some(3));

    // A next link read before.
    let looping = Book {
        loop_back: true,
        ..Book::new(&upstream, kind, 3)
    };
    serve(&upstream, "loop", looping).await;
    let looped = read(&client, &schema, kind, "loop", json!({"allPages": 10})).await;
    assert_eq!(kind.ids(&looped["data"]), [1, 2, 3, 4, 5, 6], "{kind:?}");
    assert_eq!(looped["pages"], pages(3, "repeated_link"), "{kind:?}");
    kind.assert_continues_at(&looped, Some(2));

    // A later page fails: the pages before it are kept, the error says which page and why (redacted), and the
    // continuation names the failed page.
    let failing = Book {
        fail_at: Some(2),
        ..Book::new(&upstream, kind, 3)
    };
    serve(&upstream, "flaky", failing).await;
    let kept = read(&client, &schema, kind, "flaky", json!({"allPages": 10})).await;
    assert_eq!(kind.ids(&kept["data"]), [1, 2], "{kind:?}");
    assert_eq!(kept["pages"]["read"], 1);
    assert_eq!(kept["pages"]["stoppedBy"], "upstream_error");
    let error = kept["pages"]["error"].as_str().expect("the failed page's error");
    assert!(
        error.starts_with("page 2: ") && error.contains("404"),
        "{kind:?}: {error}"
    );
    assert!(
        error.contains("[redacted") && !error.contains(TOKEN),
        "{kind:?}: {error}"
    );
    kind.assert_continues_at(&kept, Some(2));

    // The first page failing is the ordinary error result.
    let broken = Book {
        fail_at: Some(1),
        ..Book::new(&upstream, kind, 3)
    };
    serve(&upstream, "broken", broken).await;
    let result = call(&client, kind.tool(), kind.args("broken", json!({"allPages": 10}))).await;
    assert_eq!(result.is_error, Some(true), "{kind:?}");
    assert!(result.structured_content.is_none());
    assert!(text(&result).contains("404"), "{}", text(&result));

    // jq sees the merged value.
    let jq = match kind.list() {
        Some(member) => format!("[.{member}[].id]"),
        None => "map(.id)".to_owned(),
    };
    let projected = read(&client, &schema, kind, "three", json!({"allPages": 10, "jq": jq})).await;
    assert_eq!(projected["data"], json!([1, 2, 3, 4, 5, 6]), "{kind:?}");
    assert_eq!(projected["pages"], pages(3, "last_page"));

    // A merge over the bound is an artifact holding the whole merged envelope; each page alone is inline.
    let padded = Book {
        pad: 3000,
        ..Book::new(&upstream, kind, 3)
    };
    serve(&upstream, "padded", padded).await;
    let schema = listed_tool(&small, kind.tool()).await;
    let page = read(&small, &schema, kind, "padded", json!({})).await;
    assert!(
        page.get("incomplete").is_none(),
        "{kind:?}: one page is under the bound"
    );
    let big = read(&small, &schema, kind, "padded", json!({"allPages": 10})).await;
    assert_eq!(big["data"], Value::Null, "{kind:?}");
    assert_eq!(big["incomplete"]["reason"], "size");
    assert_eq!(big["pages"], pages(3, "last_page"));
    let artifact = read_artifact(&small, big["incomplete"]["artifactId"].as_str().unwrap()).await;
    assert_eq!(big["incomplete"]["bytes"].as_u64(), Some(artifact.len() as u64));
    let full: Value = serde_json::from_slice(&artifact).unwrap();
    assert_eq!(kind.ids(&full["data"]), [1, 2, 3, 4, 5, 6], "{kind:?}");
    assert_eq!(full["pages"], big["pages"]);
    // Written as the pages arrived (no jq), it is what merging in memory gives (the identity jq merges first):
    // the same text, structuredContent and artifact bytes, in TOON and JSON, whole and cut by maxItems.
    for more in [
        json!({"allPages": 10}),
        json!({"allPages": 10, "outputFormat": "json"}),
        json!({"allPages": 10, "maxItems": 5}),
    ] {
        let streamed = call(&small, kind.tool(), kind.args("padded", more.clone())).await;
        let mut identity = more.clone();
        identity["jq"] = json!(".");
        let merged = call(&small, kind.tool(), kind.args("padded", identity)).await;
        let (streamed_value, merged_value) = (structured(&streamed), structured(&merged));
        let id = |value: &Value| value["incomplete"]["artifactId"].as_str().unwrap_or("none").to_owned();
        let (streamed_id, merged_id) = (id(&streamed_value), id(&merged_value));
        assert_eq!(
            streamed_value["incomplete"].is_null(),
            more.get("maxItems").is_some(),
            "{kind:?} {more}: over the bound unless cut to 5 items"
        );
        let (streamed_bytes, merged_bytes) = if streamed_id == "none" {
            (Vec::new(), Vec::new())
        } else {
            (
                read_artifact(&small, &streamed_id).await,
                read_artifact(&small, &merged_id).await,
            )
        };
        // CircleCI's `cache` differs between two calls (the second is a hit): compared without it.
        let without = |mut value: Value| {
            if kind == Kind::Circleci
                && let Some(object) = value.as_object_mut()
            {
                object.remove("cache");
            }
            value["incomplete"]["artifactId"] = Value::Null;
            value
        };
        if kind == Kind::Circleci {
            if streamed_id != "none" {
                let parsed = |bytes: &[u8]| without(serde_json::from_slice(bytes).unwrap());
                assert_eq!(parsed(&streamed_bytes), parsed(&merged_bytes), "{kind:?} {more}");
            }
        } else {
            assert!(streamed_bytes == merged_bytes, "{kind:?} {more}: the artifacts differ");
            assert_eq!(
                text(&streamed).replace(&streamed_id, "ID"),
                text(&merged).replace(&merged_id, "ID"),
                "{kind:?} {more}"
            );
        }
        assert_eq!(without(streamed_value), without(merged_value), "{kind:?} {more}");
    }

    // With structured output off, the text alone, written as the pages arrived: what merging in memory renders.
    let plain = connect(common::with_max_bytes(
        common::all_config(&upstream).with_structured_output(false),
        16384,
    ))
    .await;
    for more in [
        json!({"allPages": 10}),
        json!({"allPages": 10, "outputFormat": "json", "maxItems": 5}),
    ] {
        let streamed = call(&plain, kind.tool(), kind.args("padded", more.clone())).await;
        let mut identity = more.clone();
        identity["jq"] = json!(".");
        let merged = call(&plain, kind.tool(), kind.args("padded", identity)).await;
        assert!(streamed.structured_content.is_none(), "{kind:?}");
        assert!(
            more.get("maxItems").is_some() || text(&streamed).len() > 16384,
            "{kind:?}: past the bound, so written as it came"
        );
        if kind != Kind::Circleci {
            assert_eq!(text(&streamed), text(&merged), "{kind:?} {more}");
        }
    }
    plain.cancel().await.unwrap();

    // maxItems alone is refused before anything is sent.
    let before = upstream.server().received_requests().await.unwrap().len();
    let refused = call(&client, kind.tool(), kind.args("three", json!({"maxItems": 3}))).await;
    assert_eq!(refused.is_error, Some(true));
    assert!(
        text(&refused).contains("maxItems: only with allPages; add allPages"),
        "{}",
        text(&refused)
    );
    assert_eq!(refused.meta.unwrap().0["code"], "invalid_argument");
    assert_eq!(upstream.server().received_requests().await.unwrap().len(), before);

    client.cancel().await.unwrap();
    small.cancel().await.unwrap();
}

/// The artifact `id`, read whole with `artifact_read`.
async fn read_artifact(client: &Client, id: &str) -> Vec<u8> {
    common::read_artifact(client, id).await.0
}

#[tokio::test]
async fn github_list_workflow_runs_reads_every_page() {
    every_stop(Kind::Runs).await;
}

#[tokio::test]
async fn github_list_workflow_jobs_reads_every_page() {
    every_stop(Kind::Jobs).await;
}

/// GitHub's numbered lists download page N+1 while page N parses: never a page the merge does not read, whatever
/// stops it (the last page, `allPages`, `maxItems`), and the same merged items.
#[tokio::test]
async fn numbered_github_lists_ask_only_for_the_pages_they_merge() {
    let (upstream, client, _) = setup().await;
    for kind in [Kind::Runs, Kind::Jobs] {
        let schema = listed_tool(&client, kind.tool()).await;
        serve(&upstream, "four", Book::new(&upstream, kind, 4)).await;
        let at = kind.at("four");
        let mut asked = 0;
        for (more, pages, ids) in [
            (json!({"allPages": 10}), 4, vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (json!({"allPages": 2}), 2, vec![1, 2, 3, 4]),
            (json!({"allPages": 10, "maxItems": 3}), 2, vec![1, 2, 3]),
            (json!({"allPages": 3, "page": 2}), 3, vec![3, 4, 5, 6, 7, 8]),
        ] {
            let merged = read(&client, &schema, kind, "four", more.clone()).await;
            assert_eq!(kind.ids(&merged["data"]), ids, "{kind:?} {more}");
            let requests = upstream.server().received_requests().await.unwrap();
            let now = requests.iter().filter(|r| r.url.path() == at).count();
            assert_eq!(now - asked, pages, "{kind:?} {more}: pages asked for");
            asked = now;
        }
    }
}

#[tokio::test]
async fn github_get_reads_every_page_of_a_cursor_list() {
    every_stop(Kind::GithubGet).await;
}

#[tokio::test]
async fn circleci_get_reads_every_page() {
    every_stop(Kind::Circleci).await;
}

#[tokio::test]
async fn jira_get_reads_every_page_by_token_and_by_start_index() {
    every_stop(Kind::JiraToken).await;
    every_stop(Kind::JiraStartAt).await;
}

#[tokio::test]
async fn conf_get_reads_every_page() {
    every_stop(Kind::Confluence).await;
}

#[tokio::test]
async fn bb_get_reads_every_page_on_cloud_and_data_center() {
    every_stop(Kind::Bitbucket).await;
    every_stop(Kind::BitbucketDc).await;
}

#[tokio::test]
async fn all_pages_with_page_continues_from_that_page() {
    common::capture_log();
    let (upstream, client, small) = setup().await;
    let schema = listed_tool(&client, Kind::Runs.tool()).await;
    serve(&upstream, "three", Book::new(&upstream, Kind::Runs, 3)).await;
    let rest = read(
        &client,
        &schema,
        Kind::Runs,
        "three",
        json!({"page": 2, "allPages": 10}),
    )
    .await;
    assert_eq!(Kind::Runs.ids(&rest["data"]), [3, 4, 5, 6]);
    assert_eq!(
        rest["pages"],
        json!({"read": 2, "stoppedBy": "last_page", "error": null})
    );
    // The call's log line carries one upstream status (the first page's), not one per page read.
    let log = common::log();
    let finished: Vec<&str> = log
        .lines()
        .filter(|line| line.contains("tool call finished") && line.contains("github_list_workflow_runs"))
        .collect();
    assert_eq!(finished.len(), 1, "{log}");
    assert_eq!(finished[0].matches("upstream_status=").count(), 1, "{}", finished[0]);
    client.cancel().await.unwrap();
    small.cancel().await.unwrap();
}

#[tokio::test]
async fn the_recorded_runs_merge_and_a_single_resource_is_refused() {
    let (_upstream, client, small) = setup().await;
    // The recorded 100-run page (1.2 MB) and its last page (4 runs): 104 runs, total_count of the first page.
    let schema = listed_tool(&client, "github_list_workflow_runs").await;
    let args = json!({"owner": "octo-org", "repo": "octo-repo", "perPage": 100, "allPages": 5,
        "jq": "{n: (.workflow_runs | length), total: .total_count}"});
    let merged = structured(&call(&client, "github_list_workflow_runs", args).await);
    assert_valid(&schema, &merged);
    assert_eq!(merged["data"], json!({"n": 104, "total": 2417}));
    assert_eq!(merged["nextPage"], Value::Null);
    assert_eq!(
        merged["pages"],
        json!({"read": 2, "stoppedBy": "last_page", "error": null})
    );

    // An issue is no list: the call says to drop allPages.
    let issue = call(
        &client,
        "jira_get",
        json!({"path": "/rest/api/3/issue/ED-1", "allPages": 3}),
    )
    .await;
    assert_eq!(issue.is_error, Some(true));
    let said = text(&issue);
    assert!(
        said.contains("allPages needs a paged list")
            && said.contains("call without allPages")
            && said.contains("found"),
        "{said}"
    );
    // A diff neither.
    let diff = call(
        &small,
        "bb_get",
        json!({"path": "/repositories/octo-org/octo-repo/diff/main..topic", "allPages": 3}),
    )
    .await;
    assert!(
        text(&diff).contains("the answer is text, not a JSON list"),
        "{}",
        text(&diff)
    );
    client.cancel().await.unwrap();
    small.cancel().await.unwrap();
}

/// Pages given whole (`pages[n - 1]` is page `n`'s list), served in `kind`'s form of "next" (Bitbucket Cloud's
/// `next` before `values`, padded with `next_pad` bytes; GitHub's `Link` for a top-level array; Jira's
/// `nextPageToken` after `issues`).
#[derive(Debug, Clone)]
struct Served {
    origin: String,
    kind: Kind,
    pages: Vec<Vec<Value>>,
    next_pad: usize,
}

impl Respond for Served {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let n = self.kind.page_of(request);
        let items = Value::Array(self.pages[usize::try_from(n).unwrap() - 1].clone());
        let next = (n < self.pages.len() as u64).then_some(n + 1);
        let here = format!("{}{}", self.origin, request.url.path());
        let mut response = ResponseTemplate::new(200);
        let body = match self.kind {
            Kind::Bitbucket => {
                let mut body = serde_json::Map::new();
                if let Some(m) = next {
                    let pad = "q".repeat(self.next_pad);
                    body.insert("next".into(), json!(format!("{here}?page={m}&pad={pad}")));
                }
                body.insert("pagelen".into(), json!(2));
                body.insert("values".into(), items);
                Value::Object(body)
            }
            Kind::GithubGet => {
                if let Some(m) = next {
                    let link = format!("<{here}?after=c{m}>; rel=\"next\"");
                    response = response.insert_header("link", link.as_str());
                }
                items
            }
            Kind::JiraToken => match next {
                Some(m) => json!({"issues": items, "nextPageToken": format!("j{m}"), "isLast": false}),
                None => json!({"issues": items, "isLast": true}),
            },
            other => panic!("{other:?} is not served"),
        };
        // Written by hand: `set_body_json` would go through serde_json's own limits only on reading back.
        response.set_body_raw(serde_json::to_vec(&body).unwrap(), "application/json")
    }
}

/// The result of `tool` called in-process (no client parses it: items may nest past a client's 128 levels).
async fn call_in(server: &mcp_devtools_tools::DevtoolsServer, tool: &str, args: Value) -> rmcp::model::CallToolResult {
    let request =
        rmcp::model::CallToolRequestParams::new(tool.to_owned()).with_arguments(args.as_object().cloned().unwrap());
    server
        .call_tool_as(&common::principal(), request)
        .await
        .expect("known tool")
}

async fn artifact_in(server: &mcp_devtools_tools::DevtoolsServer, id: &str) -> Vec<u8> {
    common::read_artifact_with(|args| call_in(server, "artifact_read", args), id)
        .await
        .0
}

/// `args` with `allPages` (written as the pages arrive) and with the identity `jq` too (merged in memory): the same
/// text (but the artifact id), structuredContent (but `artifactId`), artifact bytes. Returns the streamed value.
async fn same_as_merged(server: &mcp_devtools_tools::DevtoolsServer, tool: &str, args: Value, what: &str) -> Value {
    let streamed = call_in(server, tool, args.clone()).await;
    let mut identity = args;
    identity["jq"] = json!(".");
    let merged = call_in(server, tool, identity).await;
    assert_eq!(
        streamed.is_error,
        merged.is_error,
        "{what}: streamed {:?}\nmerged {:?}",
        text(&streamed).chars().take(300).collect::<String>(),
        text(&merged).chars().take(300).collect::<String>()
    );
    let (streamed_value, merged_value) = (structured(&streamed), structured(&merged));
    let id = |value: &Value| value["incomplete"]["artifactId"].as_str().unwrap_or("none").to_owned();
    let (streamed_id, merged_id) = (id(&streamed_value), id(&merged_value));
    if streamed_id != "none" || merged_id != "none" {
        assert!(
            artifact_in(server, &streamed_id).await == artifact_in(server, &merged_id).await,
            "{what}: the artifacts differ"
        );
    }
    let (streamed_text, merged_text) = (
        text(&streamed).replace(&streamed_id, "ID"),
        text(&merged).replace(&merged_id, "ID"),
    );
    if streamed_text != merged_text {
        let at = streamed_text
            .bytes()
            .zip(merged_text.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let around = |t: &str| {
            t.get(at.saturating_sub(60)..(at + 60).min(t.len()))
                .unwrap_or("?")
                .to_owned()
        };
        panic!(
            "{what}: texts differ at byte {at} (lengths {} and {}):\nstreamed ...{}...\nmerged   ...{}...",
            streamed_text.len(),
            merged_text.len(),
            around(&streamed_text),
            around(&merged_text)
        );
    }
    let without = |mut value: Value| {
        if value.get("incomplete").is_some() {
            value["incomplete"]["artifactId"] = Value::Null;
        }
        value
    };
    assert_eq!(without(streamed_value.clone()), without(merged_value), "{what}");
    streamed_value
}

/// A nested value `levels` deep, built without recursion.
fn nested(levels: usize) -> Value {
    (0..levels).fold(json!(1), |inner, _| Value::Array(vec![inner]))
}

/// Bitbucket Cloud's first page has a long `next` (before `values`), its last none: the items' bytes pass the 16 KiB
/// bound on the way, the merged value is within it. An item nested 200 levels deep (past `serde_json`'s default
/// recursion limit of 128) is still the merged value, inline, as the identity `jq` gives it.
#[tokio::test]
async fn a_merge_within_the_bound_after_all_with_a_deep_item() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let server = common::server(common::with_max_bytes(common::all_config(&upstream), 16384)).await;
    let pages = vec![
        vec![json!({"id": 1, "deep": nested(200), "pad": "x".repeat(15_500)})],
        vec![json!({"id": 2})],
    ];
    let served = Served {
        origin: upstream.uri(),
        kind: Kind::Bitbucket,
        pages,
        next_pad: 600,
    };
    serve_any(&upstream, "deep", served).await;
    for format in ["toon", "json"] {
        let args = Kind::Bitbucket.args("deep", json!({"allPages": 10, "outputFormat": format}));
        let value = same_as_merged(&server, "bb_get", args, format).await;
        assert!(
            value.get("incomplete").is_none(),
            "{format}: within the bound: {}",
            text_of_value(&value)
        );
        assert_eq!(Kind::Bitbucket.ids(&value["data"]), [1, 2]);
    }
}

fn text_of_value(value: &Value) -> String {
    let text = value.to_string();
    text.get(..300).unwrap_or(&text).to_owned()
}

/// Serves `served` as the book named `name` on `upstream`.
async fn serve_any(upstream: &RecordedUpstream, name: &str, served: Served) {
    Mock::given(method("GET"))
        .and(path(served.kind.at(name)))
        .respond_with(served)
        .with_priority(1)
        .mount(upstream.server())
        .await;
}

/// Items whose text is hard to cut and render (multi-byte characters across the 40,000-byte cut, U+2028, control
/// characters, a leading U+FEFF, TOON's delimiters, placeholder-like text, numbers with many digits and exponents,
/// keys needing quotes), pages that are empty first, between or last, `maxItems` inside the first page: through a
/// tool whose text is the envelope's (`github_get`, a top-level array) and one whose text is the data's (`jira_get`,
/// `issues` before `nextPageToken`; Bitbucket Cloud, `next` before `values`), TOON and JSON, inline and oversized.
#[tokio::test]
async fn odd_items_and_pages_give_what_merging_in_memory_gives() {
    let upstream = RecordedUpstream::all().await.unwrap();
    let small = common::server(common::with_max_bytes(common::all_config(&upstream), 16384)).await;
    let big = common::server(common::all_config(&upstream)).await;
    let number = |literal: &str| serde_json::from_str::<Value>(literal).unwrap();
    let odd = |id: u64, fill: usize| {
        let mut item = serde_json::Map::new();
        item.insert("id".into(), json!(id));
        item.insert("odd key".into(), json!("a: b, c\u{2028}\u{0}\t\"\\"));
        item.insert("\u{feff}k".into(), json!("\u{feff}lead"));
        item.insert("n".into(), number("123456789012345678901234567890.5000"));
        item.insert("e".into(), number("1E400"));
        item.insert("z".into(), number("-0"));
        item.insert("mcplist".into(), json!("mcplist0123456789abcdef0123456789abcdef"));
        item.insert(
            "text".into(),
            json!(format!("{}{}", "é".repeat(id as usize % 3), "€😀".repeat(fill))),
        );
        Value::Object(item)
    };
    let rows = |id: u64, fill: usize| json!({"id": id, "name": "é€😀".repeat(fill), "n": number("1.50")});
    let books: Vec<(&str, Vec<Vec<Value>>)> = vec![
        (
            "odd",
            vec![vec![odd(1, 1000), odd(2, 3000)], vec![odd(3, 2000)], vec![odd(4, 10)]],
        ),
        (
            "emptyfirst",
            vec![vec![], vec![rows(1, 2000), rows(2, 1999)], vec![], vec![rows(3, 2001)]],
        ),
        (
            "emptylast",
            vec![vec![rows(1, 3000), rows(2, 3000)], vec![rows(3, 3000)], vec![]],
        ),
        (
            "primitives",
            vec![
                vec![json!("é".repeat(9000)), json!(1)],
                vec![json!("😀".repeat(5000)), json!(null)],
                vec![json!("- x")],
            ],
        ),
        (
            "arrays",
            vec![
                vec![json!([1, "é".repeat(7000)])],
                vec![json!([])],
                vec![json!(["😀".repeat(4000), 2])],
            ],
        ),
        ("allempty", vec![vec![], vec![], vec![]]),
    ];
    let (mut oversized, mut inline) = (0, 0);
    for kind in [Kind::GithubGet, Kind::JiraToken, Kind::Bitbucket] {
        for (name, pages) in &books {
            let book = format!("{name}{}", kind.tool());
            let served = Served {
                origin: upstream.uri(),
                kind,
                pages: pages.clone(),
                next_pad: 10,
            };
            serve_any(&upstream, &book, served).await;
            for (server, bound) in [(&small, "16k"), (&big, "256k")] {
                for more in [
                    json!({"allPages": 10}),
                    json!({"allPages": 10, "outputFormat": "json"}),
                    json!({"allPages": 10, "maxItems": 1}),
                    json!({"allPages": 2, "outputFormat": "json"}),
                ] {
                    let what = format!("{kind:?} {name} {bound} {more}");
                    let value = same_as_merged(server, kind.tool(), kind.args(&book, more), &what).await;
                    if value.get("incomplete").is_some() {
                        oversized += 1;
                    } else {
                        inline += 1;
                    }
                }
            }
        }
    }
    assert!(oversized > 20 && inline > 20, "{oversized} oversized, {inline} inline");
}

/// A later page whose fields beside the list nest a million levels (what a 2 MB body can hold): the page is freed
/// without recursion once its items are taken, so the call answers instead of overflowing a stack.
#[tokio::test]
async fn a_later_page_nesting_a_million_levels_beside_its_list_is_freed_without_recursion() {
    struct DeepSecondPage;
    impl Respond for DeepSecondPage {
        fn respond(&self, request: &Request) -> ResponseTemplate {
            let body = match Kind::JiraToken.page_of(request) {
                1 => r#"{"issues": [{"id": 1}], "nextPageToken": "j2", "isLast": false}"#.to_owned(),
                _ => {
                    let levels = 1_000_000;
                    format!(
                        r#"{{"issues": [{{"id": 2}}], "isLast": true, "names": {}1{}}}"#,
                        "[".repeat(levels),
                        "]".repeat(levels)
                    )
                }
            };
            ResponseTemplate::new(200).set_body_raw(body, "application/json")
        }
    }
    let upstream = RecordedUpstream::all().await.unwrap();
    let server = common::server(common::all_config(&upstream)).await;
    Mock::given(method("GET"))
        .and(path(Kind::JiraToken.at("deep-page")))
        .respond_with(DeepSecondPage)
        .with_priority(1)
        .mount(upstream.server())
        .await;
    let args = Kind::JiraToken.args("deep-page", json!({"allPages": 5}));
    let result = call_in(&server, "jira_get", args).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let value = structured(&result);
    assert_eq!(Kind::JiraToken.ids(&value["data"]), [1, 2]);
    assert_eq!(value["pages"]["stoppedBy"], "last_page");
}
