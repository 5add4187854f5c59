//! [`ListResult`]: the result of one list read in pages (a call with `allPages`), each page written into the result
//! as it arrives ([`mcp_envelope::ListWriter`]) under the pipeline's protections: a permit for each page's CPU work,
//! pages over [`crate::INLINE_RENDER_BYTES`] written on the blocking pool, the pipeline timeout, the depth limit.

use mcp_envelope::{ListAt, ListWriter};
use rmcp::model::CallToolResult;
use serde::Serialize;
use serde_json::Value;

use crate::pipeline::{self, INLINE_RENDER_BYTES, MAX_RESULT_DEPTH};
use crate::{Responder, View, error};

/// A result whose `data` is a body with one list, its items given page by page ([`ListResult::push`]), answered
/// at the end ([`ListResult::finish`]) exactly as [`Responder::respond`] answers the whole body: the same text,
/// `structuredContent` and artifact. Over the bound, the whole list is never held as a value: each page's items are
/// written into the artifact's bytes and the text's ends, then freed (peak memory about the artifact's size plus a
/// page, where merging first holds the value, several times that, and then the bytes too).
///
/// Made by [`Responder::list_result`] for a view without `jq` ([`Responder::writes_lists_in_parts`]); otherwise
/// merge the pages and call [`Responder::respond`]. With structured output off the result is the text block alone,
/// and only the text's ends are kept as the pages come.
#[derive(Debug)]
pub struct ListResult {
    results: Responder,
    /// The writer, between pages; `None` once a page failed.
    writer: Option<ListWriter>,
    /// Why a page could not be written (the error result's text).
    failed: Option<String>,
}

impl Responder {
    /// Whether a list read in pages is written as they arrive ([`Responder::list_result`]) for `view`: without a
    /// `jq` (a projection needs the whole value).
    pub fn writes_lists_in_parts(&self, view: &View) -> bool {
        view.jq().is_none()
    }

    /// A result whose `data` is `body`, the first page of a list kept at `at` (its items written first).
    ///
    /// # Errors
    /// `body` back when it has no array at `at`.
    pub async fn list_result(&self, body: Value, at: ListAt, view: &View) -> Result<ListResult, Value> {
        let (bound, view_copy) = (self.bound(), view.without_jq());
        let mut failed = None;
        let writer = match self.permit().await {
            Err(busy) => {
                failed = Some(busy);
                None
            }
            Ok(_permit) => {
                if at.list(&body).is_none() {
                    return Err(body);
                }
                let small = pipeline::at_most(&body, INLINE_RENDER_BYTES);
                let structured = self.structured();
                let make = move || {
                    Ok(if structured {
                        ListWriter::new(body, at, &view_copy, bound, MAX_RESULT_DEPTH).ok()
                    } else {
                        ListWriter::text_only(body, at, &view_copy, bound, MAX_RESULT_DEPTH).ok()
                    })
                };
                match pipeline::run(small, make, self.timeout).await {
                    Ok(writer) => writer,
                    Err(stopped) => {
                        failed = Some(stopped);
                        None
                    }
                }
            }
        };
        Ok(ListResult {
            results: self.clone(),
            writer,
            failed,
        })
    }
}

impl ListResult {
    /// The body beside its list, to change its fields as later pages come (e.g. the continuation); `None` once a
    /// page failed.
    pub fn frame_mut(&mut self) -> Option<&mut Value> {
        self.writer.as_mut().map(ListWriter::frame_mut)
    }

    /// Writes the next page's items (under a pipeline permit; on the blocking pool when large). A failure (busy,
    /// too slow) is kept: the result is then that error.
    pub async fn push(&mut self, items: Vec<Value>) {
        let Some(mut writer) = self.writer.take() else {
            return;
        };
        let permit = match self.results.permit().await {
            Ok(permit) => permit,
            Err(busy) => {
                self.failed = Some(busy);
                return;
            }
        };
        let items = Value::Array(items);
        let small = pipeline::at_most(&items, INLINE_RENDER_BYTES);
        let write = move || {
            let Value::Array(items) = items else {
                return Ok(writer);
            };
            writer.push(items).map(|()| writer)
        };
        match pipeline::run(small, write, self.results.timeout).await {
            Ok(writer) => self.writer = Some(writer),
            Err(stopped) => self.failed = Some(stopped),
        }
        drop(permit);
    }

    /// The result, for the caller `owner`, with `meta` (e.g. the last page's continuation and `pages`).
    pub async fn finish<M>(mut self, owner: &str, meta: M) -> CallToolResult
    where
        M: Serialize + Send + Sync + 'static,
    {
        let writer = match (self.writer.take(), self.failed.take()) {
            (Some(writer), None) => writer,
            (_, Some(failed)) => return error(failed),
            (None, None) => return error("Internal error: the list was not written; this is a server defect"),
        };
        let _permit = match self.results.permit().await {
            Ok(permit) => permit,
            Err(busy) => return error(busy),
        };
        let small = writer.bytes() <= INLINE_RENDER_BYTES;
        if !self.results.structured() {
            // The text block alone, as `Responder::respond` answers with structured output off.
            let finish = move || writer.finish_text(meta);
            return match pipeline::run(small, finish, self.results.timeout).await {
                Ok(text) => mcp_envelope::rmcp::success_result(text, None),
                Err(failed) => error(failed),
            };
        }
        let finish = move || writer.finish(meta);
        match pipeline::run(small, finish, self.results.timeout).await {
            Ok(prepared) => {
                self.results
                    .deliver(owner, prepared.text, prepared.sealed, prepared.text_ends)
                    .await
            }
            Err(failed) => error(failed),
        }
    }
}
