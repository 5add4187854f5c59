//! The Atlassian adapter against wiremock (127.0.0.1 only): bases and Basic auth, product path rules (`/wiki` once,
//! `/2.0` added), query encoding, text and empty bodies, verbatim error bodies, redirects, foreign hosts, missing
//! settings and cache clearing by writes.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use adapters_atlassian::{Atlassian, AtlassianConfig, AtlassianError, Product, Request};
use adapters_http::{ClientOptions, HttpError, Secret, cache::CacheConfig, cache::HttpCache, status::StatusClass};
use http::Method;
use recorded_upstream::RecordedUpstream;
use recorded_upstream::atlassian::JIRA_PAGE2_TOKEN;
use serde_json::{Value, json};
use wiremock::matchers::{header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

const EMAIL: &str = "mia@example.com";
const TOKEN: &str = "ATATT_TEST_SECRET_0123";
/// `Basic base64("mia@example.com:ATATT_TEST_SECRET_0123")`.
const BASIC: &str = "Basic bWlhQGV4YW1wbGUuY29tOkFUQVRUX1RFU1RfU0VDUkVUXzAxMjM=";

fn config(uri: &str) -> AtlassianConfig {
    AtlassianConfig::default()
        .with_jira_base_url(Some(uri.to_owned()))
        .with_confluence_base_url(Some(format!("{uri}/wiki")))
        .with_bitbucket_base_url(uri.to_owned())
        .with_user_email(Some(EMAIL.to_owned()))
        .with_api_token(Some(Secret::new(TOKEN)))
        .with_client(ClientOptions::default().with_timeout(Duration::from_secs(10)))
}

fn fixture_json(name: &str) -> Value {
    serde_json::from_slice(recorded_upstream::fixture(name).unwrap().body).unwrap()
}

async fn send(
    client: &Atlassian,
    product: Product,
    verb: Method,
    path: &str,
    query: &[(&str, &str)],
    body: Option<&Value>,
) -> Result<adapters_atlassian::AtlassianResponse, AtlassianError> {
    let query: Vec<(String, String)> = query.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    client
        .product(product)
        .send(&Request {
            method: &verb,
            path,
            query: &query,
            body,
            partition: "alice",
        })
        .await
}

async fn get(client: &Atlassian, product: Product, path: &str, query: &[(&str, &str)]) -> Value {
    send(client, product, Method::GET, path, query, None)
        .await
        .unwrap()
        .body
        .into_data()
        .unwrap()
}

#[tokio::test]
async fn jira_search_pages_with_basic_auth_and_the_token_encoded_once() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let client = Atlassian::new(&config(&upstream.uri()), None);
    let page1 = get(
        &client,
        Product::Jira,
        "rest/api/3/search/jql",
        &[("jql", "project = EX")],
    )
    .await;
    assert_eq!(page1, fixture_json("jira/search-jql-page1"));
    let token = page1["nextPageToken"].as_str().unwrap();
    assert_eq!(token, JIRA_PAGE2_TOKEN);
    let page2 = get(
        &client,
        Product::Jira,
        "/rest/api/3/search/jql",
        &[("nextPageToken", token)],
    )
    .await;
    assert_eq!(page2, fixture_json("jira/search-jql-page2"));
    assert_eq!(page2["isLast"], true);
    let received = upstream.server().received_requests().await.unwrap();
    assert_eq!(received.len(), 2);
    for request in &received {
        assert_eq!(request.headers["authorization"], BASIC);
        assert_eq!(request.headers["accept"], "application/json");
    }
    let query = received[1].url.query().unwrap();
    assert!(
        query.starts_with("nextPageToken=Cg0j") && query.ends_with("%3D%3D"),
        "{query}"
    );
    assert!(!query.contains("%25"), "encoded once: {query}");
}

#[tokio::test]
async fn confluence_next_link_works_as_path_with_exactly_one_wiki() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let client = Atlassian::new(&config(&upstream.uri()), None);
    let pages = get(&client, Product::Confluence, "/wiki/api/v2/pages", &[("limit", "3")]).await;
    let next = pages["_links"]["next"].as_str().unwrap().to_owned();
    assert!(next.starts_with("/wiki/api/v2/pages?cursor="));
    get(&client, Product::Confluence, &next, &[]).await;
    let page = get(
        &client,
        Product::Confluence,
        "/api/v2/pages/7700526",
        &[("body-format", "storage")],
    )
    .await;
    assert_eq!(page["body"]["storage"]["representation"], "storage");
    let received = upstream.server().received_requests().await.unwrap();
    let urls: Vec<String> = received
        .iter()
        .map(|r| format!("{}?{}", r.url.path(), r.url.query().unwrap_or_default()))
        .collect();
    assert_eq!(
        urls,
        [
            "/wiki/api/v2/pages?limit=3".to_owned(),
            next.clone(),
            "/wiki/api/v2/pages/7700526?body-format=storage".to_owned(),
        ]
    );
    // The same link with a site-root base (no /wiki in the base) still has exactly one /wiki.
    let mut root = config(&upstream.uri());
    root.confluence_base_url = Some(upstream.uri());
    get(&Atlassian::new(&root, None), Product::Confluence, &next, &[]).await;
    let last = upstream.server().received_requests().await.unwrap().pop().unwrap();
    assert_eq!(format!("{}?{}", last.url.path(), last.url.query().unwrap()), next);
}

#[tokio::test]
async fn bitbucket_gets_2_0_text_becomes_a_string_and_a_foreign_next_is_refused() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let client = Atlassian::new(&config(&upstream.uri()), None);
    let repos = get(
        &client,
        Product::Bitbucket,
        "/repositories/octo-org",
        &[("pagelen", "3")],
    )
    .await;
    assert_eq!(repos, fixture_json("bitbucket/repositories"));
    let prs = get(
        &client,
        Product::Bitbucket,
        "/2.0/repositories/octo-org/octo-repo/pullrequests",
        &[],
    )
    .await;
    assert_eq!(prs["values"].as_array().unwrap().len(), 5);
    let diff = get(
        &client,
        Product::Bitbucket,
        "repositories/octo-org/octo-repo/diff/main..feature",
        &[],
    )
    .await;
    let text = std::str::from_utf8(recorded_upstream::fixture("bitbucket/diff").unwrap().body).unwrap();
    assert_eq!(diff, Value::String(text.to_owned()));
    let received = upstream.server().received_requests().await.unwrap();
    let paths: Vec<&str> = received.iter().map(|r| r.url.path()).collect();
    assert_eq!(
        paths,
        [
            "/2.0/repositories/octo-org",
            "/2.0/repositories/octo-org/octo-repo/pullrequests",
            "/2.0/repositories/octo-org/octo-repo/diff/main..feature"
        ]
    );
    // The fixture's `next` is on api.bitbucket.org, not this base: refused before anything is sent.
    let next = repos["next"].as_str().unwrap();
    let err = send(&client, Product::Bitbucket, Method::GET, next, &[], None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, AtlassianError::Http(HttpError::ForeignHost { ref host, .. }) if host == "api.bitbucket.org")
    );
    assert!(err.to_string().contains("bitbucket_base_url"), "{err}");
    assert_eq!(upstream.server().received_requests().await.unwrap().len(), 3);
    // An absolute URL on the base's own origin is fine.
    let same = format!("{}/2.0/repositories/octo-org?page=2", upstream.uri());
    get(&client, Product::Bitbucket, &same, &[]).await;
}

#[tokio::test]
async fn error_bodies_are_kept_verbatim() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let client = Atlassian::new(&config(&upstream.uri()), None);
    let cases = [
        (
            Product::Jira,
            "/rest/api/3/issue/EX-404",
            vec![],
            404,
            r#"{"errorMessages":["Issue does not exist or you do not have permission to see it."],"errors":{}}"#,
        ),
        (
            Product::Jira,
            "/rest/api/3/search/jql",
            vec![("jql", "universe = 42")],
            400,
            r#"{"errorMessages":["Field 'universe' does not exist or you do not have permission to view it."],"errors":{}}"#,
        ),
        (
            Product::Confluence,
            "/wiki/api/v2/pages/1",
            vec![],
            404,
            r#"{"errors":[{"status":404,"code":"NOT_FOUND","title":"Not Found","detail":null}]}"#,
        ),
    ];
    for (product, path, query, status, body) in cases {
        let err = send(&client, product, Method::GET, path, &query, None)
            .await
            .unwrap_err();
        assert_eq!(err.status(), Some(status));
        let text = err.to_string();
        assert!(text.contains(body), "{text}");
        assert!(text.starts_with(&format!("{product} API {status}")), "{text}");
        assert!(!text.contains(TOKEN), "{text}");
    }
}

#[tokio::test]
async fn writes_send_json_and_204_or_empty_gives_an_empty_object() {
    let server = MockServer::start().await;
    Mock::given(method("PUT"))
        .and(path("/rest/api/3/issue/ED-1"))
        .and(header("authorization", BASIC))
        .and(header("content-type", "application/json"))
        .and(wiremock::matchers::body_json(json!({"fields": {"summary": "New"}})))
        .respond_with(ResponseTemplate::new(204))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("PATCH"))
        .and(path("/2.0/x"))
        .respond_with(ResponseTemplate::new(200).insert_header("content-type", "application/json"))
        .expect(1)
        .mount(&server)
        .await;
    let client = Atlassian::new(&config(&server.uri()), None);
    let body = json!({"fields": {"summary": "New"}});
    let put = send(
        &client,
        Product::Jira,
        Method::PUT,
        "/rest/api/3/issue/ED-1",
        &[],
        Some(&body),
    )
    .await
    .unwrap();
    assert_eq!((put.status, put.body.into_data().unwrap()), (204, json!({})));
    let patch = send(&client, Product::Bitbucket, Method::PATCH, "/x", &[], None)
        .await
        .unwrap();
    assert_eq!(patch.body.into_data().unwrap(), json!({}));
    server.verify().await;
}

#[tokio::test]
async fn a_write_clears_only_its_products_cached_reads() {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let cache = HttpCache::new(CacheConfig::default());
    let client = Atlassian::new(&config(&upstream.uri()), Some(cache));
    let count = |path: &'static str| {
        let server = upstream.server();
        async move {
            server
                .received_requests()
                .await
                .unwrap()
                .iter()
                .filter(|r| r.method.as_str() == "GET" && r.url.path() == path)
                .count()
        }
    };
    for _ in 0..2 {
        get(&client, Product::Jira, "/rest/api/3/myself", &[]).await;
        get(&client, Product::Confluence, "/wiki/api/v2/pages", &[]).await;
    }
    assert_eq!(count("/rest/api/3/myself").await, 1, "the second read is a cache hit");
    send(
        &client,
        Product::Jira,
        Method::DELETE,
        "/rest/api/3/issue/ED-1",
        &[],
        None,
    )
    .await
    .unwrap();
    get(&client, Product::Jira, "/rest/api/3/myself", &[]).await;
    get(&client, Product::Confluence, "/wiki/api/v2/pages", &[]).await;
    assert_eq!(
        count("/rest/api/3/myself").await,
        2,
        "the Jira write cleared the Jira entry"
    );
    assert_eq!(count("/wiki/api/v2/pages").await, 1, "Confluence entries stay");
}

#[tokio::test]
async fn redirects_are_followed_on_the_same_origin_only() {
    let server = MockServer::start().await;
    let other = MockServer::start().await;
    Mock::given(path("/rest/api/3/moved"))
        .respond_with(ResponseTemplate::new(302).insert_header("location", "/rest/api/3/myself"))
        .mount(&server)
        .await;
    Mock::given(path("/rest/api/3/myself"))
        .and(header("authorization", BASIC))
        .respond_with(recorded_upstream::fixture("jira/myself").unwrap().response())
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(path("/rest/api/3/away"))
        .respond_with(
            ResponseTemplate::new(302).insert_header("location", format!("{}/rest/api/3/myself", other.uri())),
        )
        .mount(&server)
        .await;
    let client = Atlassian::new(&config(&server.uri()), None);
    let me = get(&client, Product::Jira, "/rest/api/3/moved", &[]).await;
    assert_eq!(me["accountId"], "5b10a2844c20165700ede21g");
    let err = send(&client, Product::Jira, Method::GET, "/rest/api/3/away", &[], None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, AtlassianError::Http(HttpError::Status(ref s)) if s.class == StatusClass::Redirect),
        "{err}"
    );
    assert!(
        other.received_requests().await.unwrap().is_empty(),
        "nothing reached the other host"
    );
    server.verify().await;
}

#[tokio::test]
async fn missing_settings_fail_only_that_product_and_send_nothing() {
    let server = MockServer::start().await;
    let mut partial = AtlassianConfig::default()
        .with_bitbucket_base_url(server.uri())
        .with_bitbucket_username(Some("octocat".into()))
        .with_bitbucket_app_password(Some(Secret::new("app-pw-SECRET")));
    let client = Atlassian::new(&partial, None);
    for product in [Product::Jira, Product::Confluence] {
        let err = send(&client, product, Method::GET, "/x", &[], None).await.unwrap_err();
        assert!(matches!(err, AtlassianError::MissingSetting { .. }), "{err}");
        assert!(err.to_string().contains("site_name"), "{err}");
    }
    assert_eq!(client.bitbucket.credential_label(), Some("bitbucket_app_password"));
    assert_eq!(client.jira.credential_label(), None);
    partial.site_name = Some("your-domain".into());
    let client = Atlassian::new(&partial, None);
    let err = send(&client, Product::Jira, Method::POST, "/rest/api/3/issue", &[], None)
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("user_email and api_token not set"), "{text}");
    assert!(server.received_requests().await.unwrap().is_empty());
    assert!(!format!("{client:?}").contains("SECRET"));
}
