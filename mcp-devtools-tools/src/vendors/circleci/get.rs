//! `circleci_get` (`{data, cache, nextLink, pages?, incomplete?}`): any CircleCI API v2 GET, through the HTTP cache
//! partitioned by the calling principal; with `allPages`, the pages of a list (`items`, continued by
//! `next_page_token`) merged.

use std::collections::BTreeMap;

use adapters_circleci::GetRequest;
use adapters_http::decode::Payload;
use mcp_envelope::Envelope;
use mcp_results::WithView;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Principal;
use crate::app::App;
use crate::args;
use crate::tools::all_pages::{self, AllPages, Fetched, ListAt, ListShape, MergeMeta, Next, WithPages};
use crate::tools::record_upstream_status;

/// Tool name.
pub const NAME: &str = "circleci_get";

/// Metadata of `circleci_get` beside `data`: wire `"cache": {hit, ageMs, fetchedAt}`. It lives with
/// the tool, not in `mcp-envelope` (generic) nor in `adapters-circleci` (which returns data, not result shapes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacheMeta {
    /// Whether the body came from the server's HTTP cache, and how old it is.
    #[schemars(description = "The server's HTTP cache: hit, age (ms), fetch time")]
    pub cache: CacheInfo,
    /// As [`mcp_envelope::NextLinkMeta::next_link`]: the request's URL with `page-token` set to the body's
    /// `next_page_token`.
    #[schemars(description = "Next page: pass as path alone; null on the last")]
    pub next_link: Option<String>,
}

/// HTTP cache information of a `circleci_get` result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CacheInfo {
    /// True when the body was served from the server's cache.
    pub hit: bool,
    /// Milliseconds since the entry was stored; 0 when fetched now.
    pub age_ms: u64,
    /// When the body was read from upstream: RFC 3339 UTC with milliseconds, e.g. `2026-10-07T16:20:11.402Z`.
    /// Unchanged on cache hits.
    pub fetched_at: String,
}

impl MergeMeta for CacheMeta {
    /// The pages' cache together: a hit only when every page was one, the age and fetch time of the oldest page;
    /// the later page's `nextLink`.
    fn followed_by(self, later: Self) -> Self {
        let hit = self.cache.hit && later.cache.hit;
        let oldest = if later.cache.age_ms > self.cache.age_ms {
            later.cache
        } else {
            self.cache
        };
        CacheMeta {
            cache: CacheInfo { hit, ..oldest },
            next_link: later.next_link,
        }
    }
}

/// A CircleCI page's list: `items`, continued by `next_page_token` (API v2's one paging form).
const LIST: ListShape = ListShape {
    find: find_list,
    continuation: &["/next_page_token"],
};

fn find_list(body: &Value) -> Result<ListAt, String> {
    ListShape::named(body, &["items"])
}

/// `structuredContent` of `circleci_get`: `{data, cache, nextLink, pages?, incomplete?}`.
pub type CircleCiEnvelope = Envelope<Value, WithPages<CacheMeta>>;

/// `outputSchema` of `circleci_get`.
pub fn output_schema() -> Map<String, Value> {
    mcp_envelope::with_title(
        CircleCiEnvelope::output_schema(),
        "CircleCiEnvelope",
        "A CircleCI response: `data` is the (projected) body, `cache` says whether it came from the server's HTTP cache. `incomplete` appears only when `data` is not the whole result.",
    )
}

/// Arguments of `circleci_get`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CircleciGetArgs {
    /// API v2 path, e.g. /project/gh/ORG/REPO/pipeline, /pipeline/{id}/workflow, /workflow/{id}/job.
    #[schemars(length(max = crate::args::MAX_PATH_CHARS))]
    pub path: String,
    /// Query parameters, unencoded; continue a list with page-token = the body's next_page_token.
    pub query_params: Option<BTreeMap<String, String>>,
    /// Bypass the HTTP cache (default false).
    pub fresh: Option<bool>,
}

/// Runs `circleci_get`.
pub(super) async fn call(
    app: &App,
    principal: &Principal,
    args: AllPages<WithView<CircleciGetArgs>>,
) -> CallToolResult {
    let AllPages {
        args: WithView { args, view },
        group: all,
    } = args;
    let all = match all.check(NAME) {
        Ok(all) => all,
        Err(err) => return err.into_result(),
    };
    if let Err(err) = args::check_jq(NAME, view.jq.as_deref()).await {
        return err.into_result();
    }
    let view = view.into_view();
    let query: Vec<(String, String)> = args.query_params.unwrap_or_default().into_iter().collect();
    let fresh = args.fresh.unwrap_or(false);
    let request = GetRequest::new(&args.path, principal.as_str())
        .with_query(&query)
        .with_fresh(fresh);
    let circleci = match &app.circleci {
        Ok(circleci) => circleci,
        Err(setup) => return mcp_results::coded_error(format!("{NAME} failed: {setup}"), "invalid_setting"),
    };
    let first = match circleci.get(&request).await {
        Ok(response) => {
            record_upstream_status(Some(200));
            fetched(response)
        }
        Err(err) => return failed(&err),
    };
    let Some(limits) = all else {
        return match first.body {
            Payload::Data(data) => app.results.respond(principal.as_str(), data, first.meta, &view).await,
            Payload::Binary(body) => {
                app.results
                    .binary(principal.as_str(), body.media_type, body.bytes, first.meta, &view)
                    .await
            }
        };
    };
    let start = (query.is_empty() && args.path.contains("://")).then(|| Next::Link(args.path.clone()));
    let fetch = |next| async move {
        let Next::Link(link) = next else {
            return Err("CircleCI continues by next_page_token, not by page number".to_owned());
        };
        let request = GetRequest::new(&link, principal.as_str()).with_fresh(fresh);
        circleci.get(&request).await.map(fetched).map_err(|err| {
            tracing::info!(tool = NAME, status = err.status(), "a later page failed upstream");
            err.to_string()
        })
    };
    all_pages::respond(app, principal, NAME, &LIST, limits, start, first, &view, fetch).await
}

/// A page as the merge reads it: its body, its metadata and its `nextLink`.
fn fetched(response: adapters_circleci::CircleciResponse) -> Fetched<CacheMeta> {
    let meta = CacheMeta {
        cache: CacheInfo {
            hit: response.cache.hit,
            age_ms: response.cache.age_ms(),
            fetched_at: response.cache.fetched_at_rfc3339(),
        },
        next_link: response.next_link,
    };
    Fetched {
        next: meta.next_link.clone().map(Next::Link),
        meta,
        body: response.body,
    }
}

/// The error result of a failed first page, its status on the span and a log line.
fn failed(err: &adapters_circleci::CircleciError) -> CallToolResult {
    record_upstream_status(err.status());
    if let adapters_circleci::CircleciError::Http(adapters_http::HttpError::MissingCredential { setting, .. }) = err {
        tracing::info!(tool = NAME, "no request sent: set {setting}");
    } else {
        tracing::info!(tool = NAME, status = err.status(), "upstream call failed");
    }
    mcp_results::error_with_meta(format!("{NAME} failed: {err}"), err.info().to_meta())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(hit: bool, age_ms: u64, fetched_at: &str, next: Option<&str>) -> CacheMeta {
        CacheMeta {
            cache: CacheInfo {
                hit,
                age_ms,
                fetched_at: fetched_at.to_owned(),
            },
            next_link: next.map(str::to_owned),
        }
    }

    #[test]
    fn merged_pages_report_the_oldest_page_and_a_hit_only_when_every_page_was_one() {
        let first = meta(true, 5_000, "2026-12-05T10:00:00.000Z", Some("p2"));
        let fresh = meta(false, 0, "2026-12-05T10:00:05.000Z", None);
        assert_eq!(
            first.clone().followed_by(fresh.clone()),
            meta(false, 5_000, "2026-12-05T10:00:00.000Z", None)
        );
        let older = meta(true, 9_000, "2026-12-05T09:59:56.000Z", Some("p3"));
        assert_eq!(
            first.followed_by(older),
            meta(true, 9_000, "2026-12-05T09:59:56.000Z", Some("p3"))
        );
        assert_eq!(fresh.clone().followed_by(fresh.clone()), fresh);
    }
}
