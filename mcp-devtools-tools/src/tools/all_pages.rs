//! `allPages` and `maxItems` on every paged read ([`AllPagesArgs`], spliced into a tool's arguments by
//! [`AllPages`]), and the one merge loop they share ([`respond`]): read the first page as usual, follow the vendor's
//! "next" until the last page, `allPages` pages, `maxItems` items, a next link seen before or an upstream error,
//! and answer one value of the same shape as one page whose list holds every item read, with [`PagesRead`] (wire
//! `pages`) saying how many pages were read and why reading stopped (CONTRACT §3, **`allPages`**).
//!
//! What differs per vendor is data, given by the vendor's module: where a page keeps its list and which fields
//! continue it ([`ListShape`]), how to read the page a [`Next`] names (the `fetch` closure of [`respond`]), and how
//! its metadata combines over pages ([`MergeMeta`]). The items are moved from each page into the first, never
//! copied; the merged value then takes the single-page path (`jq`, the size bound, an artifact when oversized).

use std::collections::HashSet;
use std::future::Future;

use adapters_http::decode::Payload;
use mcp_envelope::nesting::drop_flat;
use mcp_envelope::{LinkedPageMeta, NextLinkMeta, PageMeta};
use mcp_results::View;
use mcp_results::splice::{ArgGroup, Spliced};
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::Principal;
use crate::app::App;
use crate::args::{self, ArgumentError};

/// Most pages one call reads (`allPages` is at most this).
pub const MAX_PAGES: u64 = 100;

/// `allPages` and `maxItems` as a client sends them (integers may be digit strings).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AllPagesArgs {
    /// Read and merge up to this many pages.
    #[schemars(range(min = 1, max = 100))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub all_pages: Option<u64>,
    /// With allPages: stop at this many items.
    #[schemars(range(min = 1))]
    #[serde(default, deserialize_with = "crate::args::integer::optional")]
    pub max_items: Option<u64>,
}

/// A paged tool's own arguments `A` plus [`AllPagesArgs`], one JSON object (as [`crate::tools::paging::Paged`]):
/// `allPages` and `maxItems` stand before `jq` in the schema.
pub type AllPages<A> = Spliced<A, AllPagesArgs>;

impl ArgGroup for AllPagesArgs {
    const NAMES: &'static [&'static str] = &["allPages", "maxItems"];
    const BEFORE: Option<&'static str> = Some("jq");
}

/// What a call with `allPages` may read: at most `pages` pages (1..=[`MAX_PAGES`]) and, when given, `items` items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most pages to read, the first included.
    pub pages: u64,
    /// Most items to return; the merged list is cut to exactly this many.
    pub items: Option<u64>,
}

impl AllPagesArgs {
    /// The limits of a call with `allPages`, `None` without it (the single-page call). Checked before anything is
    /// sent: `allPages` 1..=100, `maxItems` >= 1 and only with `allPages`.
    ///
    /// # Errors
    /// [`ArgumentError`] naming the argument (`_meta.code: "invalid_argument"`).
    pub fn check(&self, tool: &'static str) -> Result<Option<Limits>, ArgumentError> {
        args::check_range(tool, "allPages", self.all_pages, 1, MAX_PAGES)?;
        args::check_range(tool, "maxItems", self.max_items, 1, u64::MAX)?;
        match (self.all_pages, self.max_items) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err(ArgumentError::new(
                tool,
                "maxItems: only with allPages; add allPages (1..=100, the most pages to read) to merge pages",
            )),
            (Some(pages), items) => Ok(Some(Limits { pages, items })),
        }
    }
}

/// Why reading pages stopped (wire `pages.stoppedBy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StoppedBy {
    /// The last page was read: `nextPage` / `nextLink` are null, nothing is left.
    LastPage,
    /// `allPages` pages were read; `nextPage` / `nextLink` continue.
    MaxPages,
    /// `maxItems` items were merged (the list is cut to exactly that many; items of the last page read past it are
    /// not returned, and `nextPage` / `nextLink` continue after that page).
    MaxItems,
    /// The upstream's next link was one already read (it would loop); `nextPage` / `nextLink` hold it.
    RepeatedLink,
    /// A later page failed (`error` says how); the pages before it are returned and `nextPage` / `nextLink` name
    /// the failed page, to try again.
    UpstreamError,
}

/// How a call with `allPages` went (wire `pages`, present only when `allPages` was given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PagesRead {
    /// Pages read and merged, the first included (>= 1).
    #[schemars(range(min = 1))]
    pub read: u64,
    /// Why reading stopped.
    pub stopped_by: StoppedBy,
    /// With `upstream_error`: the failed page's error (redacted as every error text); otherwise null.
    pub error: Option<String>,
}

/// A paged tool's metadata `M` (`nextPage`, `nextLink`, `cache`) with `pages` after it, present only when the call
/// gave `allPages`: without it the envelope is byte for byte the single-page one.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct WithPages<M> {
    /// The tool's own metadata (of the last page read, for the continuation).
    #[serde(flatten)]
    pub meta: M,
    /// How the pages were read; absent without `allPages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(
        with = "PagesRead",
        description = "With allPages: pages read, why reading stopped; nextPage/nextLink continue"
    )]
    pub pages: Option<PagesRead>,
}

impl<M> WithPages<M> {
    /// `meta` of a single-page call (no `pages`).
    pub fn single(meta: M) -> Self {
        WithPages { meta, pages: None }
    }
}

/// How a page's metadata combines with the next page's when pages are merged.
pub trait MergeMeta {
    /// This (earlier) page's metadata followed by a `later` page's. The continuation (`nextPage`, `nextLink`) is
    /// always the later page's.
    #[must_use]
    fn followed_by(self, later: Self) -> Self;
}

impl MergeMeta for PageMeta {
    fn followed_by(self, later: Self) -> Self {
        later
    }
}

impl MergeMeta for LinkedPageMeta {
    fn followed_by(self, later: Self) -> Self {
        later
    }
}

impl MergeMeta for NextLinkMeta {
    fn followed_by(self, later: Self) -> Self {
        later
    }
}

/// How to ask for the page after one: its number (GitHub's `page`) or its URL (every vendor's next link).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Next {
    /// A page number, >= 1.
    Page(u64),
    /// An absolute URL on the upstream's host.
    Link(String),
}

/// One page as the vendor's client read it: its body, its metadata and the page after it (`None`: the last).
#[derive(Debug)]
pub struct Fetched<M> {
    /// The decoded body.
    pub body: Payload,
    /// The tool metadata of this page.
    pub meta: M,
    /// The page after this one.
    pub next: Option<Next>,
}

/// Where a page keeps its items (the envelope crate's, which writes a merged list as its pages arrive).
pub use mcp_envelope::ListAt;

/// A vendor's pages: where the list is and which fields continue it.
#[derive(Debug, Clone, Copy)]
pub struct ListShape {
    /// The list of a JSON body, or the text of why there is none (naming the fields found).
    pub find: fn(&Value) -> Result<ListAt, String>,
    /// JSON pointers of the fields that continue a list (e.g. `/next_page_token`, `/_links/next`): the merged value
    /// has those of the last page read (absent there: removed); every other field is the first page's.
    pub continuation: &'static [&'static str],
}

impl ListShape {
    /// The usual vendor rule: a top-level array, else the first of `names` that is an array member.
    pub fn named(body: &Value, names: &[&str]) -> Result<ListAt, String> {
        match body {
            Value::Array(_) => Ok(ListAt::Whole),
            Value::Object(object) => names
                .iter()
                .find(|name| object.get(**name).is_some_and(Value::is_array))
                .map(|name| ListAt::Field((*name).to_owned()))
                .ok_or_else(|| not_a_list(object, names)),
            Value::String(_) => Err("the answer is text, not a JSON list".to_owned()),
            other => Err(format!("the answer is {}, not a list", kind(other))),
        }
    }
}

/// Why an object is not a page of a list: the names looked for and the fields found.
pub fn not_a_list(object: &Map<String, Value>, names: &[&str]) -> String {
    let found: Vec<&str> = object.keys().take(20).map(String::as_str).collect();
    let more = if object.len() > found.len() { ", ..." } else { "" };
    format!(
        "the answer has no list to merge (looked for {}; found {}{more})",
        names.join(", "),
        if found.is_empty() {
            "no field".to_owned()
        } else {
            found.join(", ")
        }
    )
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The merged pages: the first page's body with every item read in its list, and the metadata with `pages`.
#[derive(Debug)]
pub struct Merged<M> {
    /// The merged body.
    pub data: Value,
    /// The last page's metadata (combined by [`MergeMeta`]) and `pages`.
    pub meta: WithPages<M>,
}

/// Where the pages' items go as they are read: a body in memory ([`InMemory`]), or a result written as they arrive
/// ([`mcp_results::ListResult`]).
pub trait Gather {
    /// The merged body beside its list, whose continuation fields each later page replaces (`None`: nothing more is
    /// merged, e.g. the result failed).
    fn frame(&mut self) -> Option<&mut Value>;

    /// Adds a later page's items, already cut to `maxItems`.
    fn add(&mut self, items: Vec<Value>) -> impl Future<Output = ()> + Send;
}

/// The pages merged in memory: the first page's body, every later page's items moved into its list.
#[derive(Debug)]
pub struct InMemory {
    data: Value,
    at: ListAt,
}

impl Gather for InMemory {
    fn frame(&mut self) -> Option<&mut Value> {
        Some(&mut self.data)
    }

    fn add(&mut self, items: Vec<Value>) -> impl Future<Output = ()> + Send {
        if let Some(list) = self.at.list_mut(&mut self.data) {
            list.extend(items);
        }
        std::future::ready(())
    }
}

impl Gather for mcp_results::ListResult {
    fn frame(&mut self) -> Option<&mut Value> {
        self.frame_mut()
    }

    fn add(&mut self, items: Vec<Value>) -> impl Future<Output = ()> + Send {
        self.push(items)
    }
}

/// Reads pages from `first` on and merges them in memory (see the module documentation); [`gather`] with
/// [`InMemory`].
///
/// # Errors
/// The text saying that the first page has no list to merge (a single resource, a text or binary body).
pub async fn merge<M, F, Fut>(
    shape: &ListShape,
    limits: Limits,
    start: Option<Next>,
    first: Fetched<M>,
    fetch: F,
) -> Result<Merged<M>, String>
where
    M: MergeMeta,
    F: FnMut(Next) -> Fut,
    Fut: Future<Output = Result<Fetched<M>, String>>,
{
    let make = |data, at| std::future::ready(Ok(InMemory { data, at }));
    let (merged, meta) = gather(shape, limits, start, first, make, fetch).await?;
    Ok(Merged {
        data: merged.data,
        meta,
    })
}

/// Reads pages from `first` on into the [`Gather`] that `make` builds from the first page's body (its list cut to
/// `maxItems`). `start` is the page `first` was asked as, when known (a page number, or an absolute URL given as
/// `path`): a next link back to it counts as repeated. `fetch` reads the page a [`Next`] names; its error is the
/// text reported in `pages.error`.
///
/// # Errors
/// The text saying that the first page has no list to merge (a single resource, a text or binary body), or
/// `make`'s.
pub async fn gather<M, G, Mk, MkFut, F, Fut>(
    shape: &ListShape,
    limits: Limits,
    start: Option<Next>,
    first: Fetched<M>,
    make: Mk,
    mut fetch: F,
) -> Result<(G, WithPages<M>), String>
where
    M: MergeMeta,
    G: Gather,
    Mk: FnOnce(Value, ListAt) -> MkFut,
    MkFut: Future<Output = Result<G, String>>,
    F: FnMut(Next) -> Fut,
    Fut: Future<Output = Result<Fetched<M>, String>>,
{
    let Fetched {
        body,
        mut meta,
        mut next,
    } = first;
    let mut data = match body {
        Payload::Data(data) => data,
        Payload::Binary(binary) => {
            return Err(format!("the answer is not JSON ({}), not a list", binary.media_type));
        }
    };
    let at = match (shape.find)(&data) {
        Ok(at) => at,
        Err(not_a_list) => {
            drop_flat(data);
            return Err(not_a_list);
        }
    };
    // Every item seen (before `maxItems` cuts the list), and those kept.
    let mut count = 0;
    let mut kept = 0;
    if let Some(list) = at.list_mut(&mut data) {
        count = list.len() as u64;
        cut(list, limits.items, &mut kept);
    }
    let mut gathered = make(data, at.clone()).await?;
    let mut seen: HashSet<Next> = start.into_iter().collect();
    let mut read = 1;
    let mut error = None;
    let stopped_by = loop {
        if let Some(max) = limits.items
            && count >= max
        {
            break if count == max && next.is_none() {
                StoppedBy::LastPage
            } else {
                StoppedBy::MaxItems
            };
        }
        let Some(link) = next.take() else {
            break StoppedBy::LastPage;
        };
        if !seen.insert(link.clone()) {
            break StoppedBy::RepeatedLink;
        }
        if read >= limits.pages {
            break StoppedBy::MaxPages;
        }
        let page = match fetch(link).await {
            Ok(page) => page,
            Err(failed) => {
                error = Some(format!("page {}: {failed}", read + 1));
                break StoppedBy::UpstreamError;
            }
        };
        let Fetched {
            body,
            meta: later,
            next: after,
        } = page;
        let mut body = match body {
            Payload::Data(body) => body,
            Payload::Binary(binary) => {
                error = Some(format!(
                    "page {}: the answer is not JSON ({})",
                    read + 1,
                    binary.media_type
                ));
                break StoppedBy::UpstreamError;
            }
        };
        let Some(mut items) = at.list_mut(&mut body).map(std::mem::take) else {
            let looked = match &at {
                ListAt::Whole => "a list".to_owned(),
                ListAt::Field(name) => format!("the list `{name}`"),
            };
            error = Some(format!(
                "page {}: the answer has not {looked} the first page had",
                read + 1
            ));
            drop_flat(body);
            break StoppedBy::UpstreamError;
        };
        count += items.len() as u64;
        cut(&mut items, limits.items, &mut kept);
        if let Some(frame) = gathered.frame() {
            continue_from(frame, &mut body, shape.continuation);
        }
        // The page's other fields are freed before its items are written (without recursion: an upstream body may
        // nest deeper than any stack holds frames for).
        drop_flat(body);
        gathered.add(items).await;
        meta = meta.followed_by(later);
        next = after;
        read += 1;
    };
    // The continuation of the merged result is the last page read's own (its metadata): the page after it, which
    // is also the failed page of an upstream error and the link seen before of a repeated one.
    Ok((
        gathered,
        WithPages {
            meta,
            pages: Some(PagesRead {
                read,
                stopped_by,
                error,
            }),
        },
    ))
}

/// Cuts a page's `items` to what `maxItems` leaves after the `kept` items before them, and counts them in.
fn cut(items: &mut Vec<Value>, max: Option<u64>, kept: &mut u64) {
    if let Some(max) = max {
        let room = max.saturating_sub(*kept);
        let keep = usize::try_from(room).unwrap_or(usize::MAX).min(items.len());
        drop_flat(Value::Array(items.split_off(keep)));
    }
    *kept += items.len() as u64;
}

/// Moves the continuation fields (JSON pointers) of `later` into `merged`, replacing the earlier page's; a field the
/// later page lacks is removed (e.g. Jira's `nextPageToken` on its last page). Key order is kept.
fn continue_from(merged: &mut Value, later: &mut Value, fields: &[&str]) {
    for pointer in fields {
        let Some((parent, name)) = pointer.rsplit_once('/') else {
            continue;
        };
        let name = name.replace("~1", "/").replace("~0", "~");
        let value = later
            .pointer_mut(parent)
            .and_then(Value::as_object_mut)
            .and_then(|object| object.shift_remove(&name));
        let Some(target) = merged.pointer_mut(parent).and_then(Value::as_object_mut) else {
            if let Some(value) = value {
                drop_flat(value);
            }
            continue;
        };
        let replaced = match value {
            Some(value) => target.insert(name, value),
            None => target.shift_remove(&name),
        };
        if let Some(replaced) = replaced {
            drop_flat(replaced);
        }
    }
}

/// The result of a call with `allPages`: the pages merged, then the single-page path for the merged value (`jq`,
/// the bound, an artifact when oversized). Without `jq`, the pages are written into the result as they arrive
/// ([`mcp_results::ListResult`]: an oversized merge is never held whole as a value); with one, merged in memory
/// ([`merge`]) for the projection. A first page with no list is an `isError` result
/// (`_meta.code: "invalid_argument"`) saying to call without `allPages`.
#[allow(clippy::too_many_arguments)]
pub async fn respond<M, F, Fut>(
    app: &App,
    principal: &Principal,
    tool: &str,
    shape: &ListShape,
    limits: Limits,
    start: Option<Next>,
    first: Fetched<M>,
    view: &View,
    fetch: F,
) -> CallToolResult
where
    M: MergeMeta + Serialize + Send + Sync + 'static,
    F: FnMut(Next) -> Fut,
    Fut: Future<Output = Result<Fetched<M>, String>>,
{
    let not_paged = |why: String| {
        mcp_results::coded_error(
            format!("{tool} failed: allPages needs a paged list, and {why}: call without allPages"),
            mcp_results::args::INVALID_ARGUMENT,
        )
    };
    let merged = |pages: &Option<PagesRead>| {
        if let Some(pages) = pages {
            tracing::info!(tool, pages = pages.read, stopped_by = ?pages.stopped_by, "pages merged");
        }
    };
    let results = &app.results;
    if results.writes_lists_in_parts(view) {
        let make = |data, at| async move {
            results
                .list_result(data, at, view)
                .await
                .map_err(|_| "the answer has no list to merge".to_owned())
        };
        return match gather(shape, limits, start, first, make, fetch).await {
            Ok((list, meta)) => {
                merged(&meta.pages);
                list.finish(principal.as_str(), meta).await
            }
            Err(why) => not_paged(why),
        };
    }
    match merge(shape, limits, start, first, fetch).await {
        Ok(whole) => {
            merged(&whole.meta.pages);
            results.respond(principal.as_str(), whole.data, whole.meta, view).await
        }
        Err(why) => not_paged(why),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use serde_json::json;

    use super::*;

    const ITEMS: ListShape = ListShape {
        find: |body| ListShape::named(body, &["items"]),
        continuation: &["/next_page_token", "/_links/next"],
    };

    fn page(body: Value, next: Option<u64>) -> Fetched<PageMeta> {
        Fetched {
            body: Payload::Data(body),
            meta: PageMeta::new(next),
            next: next.map(Next::Page),
        }
    }

    /// Pages 1..=`last` of two items each; page n's token is `t{n+1}`.
    fn book(last: u64) -> impl FnMut(Next) -> std::future::Ready<Result<Fetched<PageMeta>, String>> {
        move |next| {
            let Next::Page(n) = next else { panic!("{next:?}") };
            let token = (n < last).then(|| format!("t{}", n + 1));
            std::future::ready(Ok(page(
                json!({"total": 99, "items": [n * 10, n * 10 + 1], "next_page_token": token, "_links": {"self": n, "next": token}}),
                (n < last).then_some(n + 1),
            )))
        }
    }

    fn first() -> Fetched<PageMeta> {
        page(
            json!({"total": 99, "items": [10, 11], "next_page_token": "t2", "_links": {"self": 1, "next": "t2"}}),
            Some(2),
        )
    }

    async fn run(limits: Limits) -> Merged<PageMeta> {
        merge(&ITEMS, limits, Some(Next::Page(1)), first(), book(3))
            .await
            .unwrap()
    }

    #[tokio::test]
    async fn pages_merge_into_the_first_with_the_last_continuation() {
        let merged = run(Limits { pages: 10, items: None }).await;
        assert_eq!(
            merged.data,
            json!({"total": 99, "items": [10, 11, 20, 21, 30, 31], "next_page_token": null, "_links": {"self": 1, "next": null}})
        );
        assert_eq!(merged.meta.meta, PageMeta::new(None));
        assert_eq!(
            merged.meta.pages,
            Some(PagesRead {
                read: 3,
                stopped_by: StoppedBy::LastPage,
                error: None
            })
        );
        let wire = serde_json::to_value(&merged.meta).unwrap();
        assert_eq!(
            wire,
            json!({"nextPage": null, "pages": {"read": 3, "stoppedBy": "last_page", "error": null}})
        );
        assert_eq!(
            serde_json::to_value(WithPages::single(PageMeta::new(Some(2)))).unwrap(),
            json!({"nextPage": 2})
        );
    }

    #[tokio::test]
    async fn each_limit_stops_with_its_reason_and_the_next_page() {
        let merged = run(Limits { pages: 2, items: None }).await;
        assert_eq!(merged.data["items"], json!([10, 11, 20, 21]));
        assert_eq!(merged.data["next_page_token"], "t3");
        assert_eq!(merged.meta.meta.next_page, Some(3));
        assert_eq!(merged.meta.pages.unwrap().stopped_by, StoppedBy::MaxPages);

        let merged = run(Limits {
            pages: 10,
            items: Some(3),
        })
        .await;
        assert_eq!(merged.data["items"], json!([10, 11, 20]));
        assert_eq!(merged.meta.meta.next_page, Some(3));
        let pages = merged.meta.pages.unwrap();
        assert_eq!((pages.read, pages.stopped_by), (2, StoppedBy::MaxItems));

        let merged = run(Limits {
            pages: 10,
            items: Some(6),
        })
        .await;
        assert_eq!(
            merged.meta.pages.unwrap().stopped_by,
            StoppedBy::LastPage,
            "nothing left"
        );

        let merged = run(Limits { pages: 1, items: None }).await;
        assert_eq!(merged.data["items"], json!([10, 11]));
        assert_eq!(merged.meta.pages.unwrap().stopped_by, StoppedBy::MaxPages);
    }

    #[tokio::test]
    async fn a_repeated_link_and_a_failed_page_stop_and_keep_what_was_read() {
        let looping = |_next| std::future::ready(Ok(page(json!({"items": [7]}), Some(2))));
        let merged = merge(
            &ITEMS,
            Limits { pages: 10, items: None },
            Some(Next::Page(1)),
            first(),
            looping,
        )
        .await
        .unwrap();
        assert_eq!(merged.data["items"], json!([10, 11, 7]));
        assert_eq!(merged.meta.meta.next_page, Some(2));
        assert_eq!(merged.meta.pages.unwrap().stopped_by, StoppedBy::RepeatedLink);

        let failing = |_next| std::future::ready(Err::<Fetched<PageMeta>, _>("GitHub answered 502".to_owned()));
        let merged = merge(&ITEMS, Limits { pages: 10, items: None }, None, first(), failing)
            .await
            .unwrap();
        assert_eq!(merged.data["items"], json!([10, 11]));
        assert_eq!(merged.meta.meta.next_page, Some(2), "the failed page, to try again");
        let pages = merged.meta.pages.unwrap();
        assert_eq!((pages.read, pages.stopped_by), (1, StoppedBy::UpstreamError));
        assert_eq!(pages.error.as_deref(), Some("page 2: GitHub answered 502"));

        let other_shape = |_next| std::future::ready(Ok(page(json!({"values": [1]}), None)));
        let merged = merge(&ITEMS, Limits { pages: 10, items: None }, None, first(), other_shape)
            .await
            .unwrap();
        let pages = merged.meta.pages.unwrap();
        assert_eq!(pages.stopped_by, StoppedBy::UpstreamError);
        assert!(pages.error.unwrap().contains("has not the list `items`"));
    }

    #[tokio::test]
    async fn an_answer_without_a_list_is_refused() {
        let single = page(json!({"id": 1, "name": "x"}), None);
        let err = merge(&ITEMS, Limits { pages: 2, items: None }, None, single, book(1))
            .await
            .unwrap_err();
        assert_eq!(
            err,
            "the answer has no list to merge (looked for items; found id, name)"
        );
        let text = page(json!("diff --git"), None);
        let err = merge(&ITEMS, Limits { pages: 2, items: None }, None, text, book(1))
            .await
            .unwrap_err();
        assert_eq!(err, "the answer is text, not a JSON list");
        let array = page(json!([1, 2, 3]), None);
        let merged = merge(
            &ITEMS,
            Limits {
                pages: 2,
                items: Some(2),
            },
            None,
            array,
            book(1),
        )
        .await
        .unwrap();
        assert_eq!(merged.data, json!([1, 2]));
    }

    #[test]
    fn the_arguments_are_checked_before_anything_is_sent() {
        let args = |pages, items| AllPagesArgs {
            all_pages: pages,
            max_items: items,
        };
        assert_eq!(args(None, None).check("t").unwrap(), None);
        assert_eq!(
            args(Some(3), Some(5)).check("t").unwrap(),
            Some(Limits {
                pages: 3,
                items: Some(5)
            })
        );
        let err = args(None, Some(5)).check("t").unwrap_err().to_string();
        assert!(err.contains("maxItems: only with allPages; add allPages"), "{err}");
        let err = args(Some(101), None).check("t").unwrap_err().to_string();
        assert!(err.ends_with("allPages: must be between 1 and 100, got 101"), "{err}");
        let err = args(Some(1), Some(0)).check("t").unwrap_err().to_string();
        assert!(err.ends_with("maxItems: must be at least 1, got 0"), "{err}");
    }
}
