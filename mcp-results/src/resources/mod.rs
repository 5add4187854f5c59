//! Artifacts as MCP resources: the `resource_link` block a result that names an artifact carries, and the
//! `resources/read` and `resources/templates/list` answers that hand the artifact over.
//!
//! - URI: `artifact://<artifactId>` ([`uri`], [`URI_TEMPLATE`]); the id is the store's (32 lowercase hex
//!   characters, 128 random bits). `artifact://<artifactId>?offset=N&maxBytes=M` reads bytes `[N, N + M)`.
//! - [`link`]: the `resource_link` content block `{type: "resource_link", uri, name, mimeType, size}` (`size` in
//!   bytes of the artifact).
//! - [`read`]: the artifact for its owner only, as `text` (text and JSON media types that are valid UTF-8) or
//!   base64 `blob` (anything else). Another owner's, an unknown, malformed or expired id, and a URI not of this
//!   scheme all get the same resource-not-found error ([`mcp_artifacts::NOT_FOUND_MESSAGE`]; rmcp answers `-32002`,
//!   or `-32602` to a client on protocol 2026-07-28 or later): the URI is a handle, never a credential. A whole
//!   read returns at most [`MAX_READ_BYTES`]; a larger artifact is refused (invalid params, naming its size and
//!   the ranged URI), and read in ranges (the MCP specification has no ranged `resources/read`, so the range is
//!   in the URI, as its template says; each ranged answer's `_meta` says `offset`, `nextOffset`, `totalBytes`
//!   and `eof`, as `artifact_read`'s result does).
//! - Cache hints (MCP 2026-07-28, "Caching"): a read is `cacheScope: "private"` (the artifact is its caller's)
//!   with `ttlMs` [`READ_TTL_MS`] (an artifact never changes; it lives at least 300 s); the template list is
//!   `"public"` (the same for every caller of a server) with `ttlMs` [`TEMPLATES_TTL_MS`].
//! - [`template`]: the `resources/templates/list` entry. `resources/list` stays empty: artifacts are per caller
//!   and short-lived, reached from the links of the results that made them.
//!
//! The [`crate::Responder`] puts the links into its results and answers the requests for a server's `ServerHandler`
//! ([`crate::Responder::read_resource`], [`crate::Responder::resource_templates`],
//! [`crate::Responder::resource_capabilities`]).

mod target;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::BytesMut;
use mcp_artifacts::{ArtifactStore, MAX_READ_MAX_BYTES};
use rmcp::ErrorData;
use rmcp::model::{
    CacheScope, CallToolResult, ContentBlock, ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
    MetaObject, ReadResourceRequestMethod, ReadResourceRequestParams, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate, ResourcesCapability, ServerCapabilities,
};
use rmcp::service::{RequestContext, RoleServer};

use crate::Responder;

/// The URI scheme of artifacts: `artifact`.
pub const SCHEME: &str = "artifact";

/// What every artifact URI starts with: `artifact://`, followed by the artifact id.
pub const URI_PREFIX: &str = "artifact://";

/// The RFC 6570 template of artifact URIs, as `resources/templates/list` advertises it: the id, and the optional
/// byte range of a ranged read (`offset`, `maxBytes`; bytes).
pub const URI_TEMPLATE: &str = "artifact://{artifactId}{?offset,maxBytes}";

/// The name of the template in `resources/templates/list`.
pub const TEMPLATE_NAME: &str = "artifact";

/// Most bytes of artifact one `resources/read` returns: 4 MiB (4,194,304). As base64 that is 5.6 MiB, and as JSON
/// text escaped into a JSON string well under the 16 MiB message limit of rmcp-based clients. A larger artifact
/// is read with `artifact_read`, in chunks.
pub const MAX_READ_BYTES: u64 = 4 * 1024 * 1024;

/// How long a client may reuse a `resources/read` answer, ms (its `ttlMs`): one minute. An artifact never changes
/// and stays readable at least 300 s after it was saved, so a reused answer is never wrong, at most a little
/// longer-lived than the artifact.
pub const READ_TTL_MS: u64 = 60_000;

/// How long a client may reuse the `resources/templates/list` answer, ms (its `ttlMs`): one hour. The template only
/// changes with the server's configuration.
pub const TEMPLATES_TTL_MS: u64 = 3_600_000;

/// The URI of artifact `id`: `artifact://<id>`.
pub fn uri(id: &str) -> String {
    format!("{URI_PREFIX}{id}")
}

/// The artifact id in `uri`, when `uri` is of this scheme with a non-empty id and nothing after it (no path,
/// query or fragment); the store decides whether the id is well formed.
pub fn artifact_id(uri: &str) -> Option<&str> {
    target::parse(uri).ok().filter(|t| t.range.is_none()).map(|t| t.id)
}

/// The `resource_link` content block naming artifact `id` of `mime_type` and `size` bytes: `{type:
/// "resource_link", uri: "artifact://<id>", name: <id>, mimeType, size}`.
pub fn link(id: &str, mime_type: &str, size: u64) -> ContentBlock {
    ContentBlock::resource_link(Resource::new(uri(id), id).with_mime_type(mime_type).with_size(size))
}

/// The `resources/templates/list` entry: [`URI_TEMPLATE`], named [`TEMPLATE_NAME`], with a description saying
/// what the artifacts are and the read bound.
pub fn template() -> ResourceTemplate {
    ResourceTemplate::new(URI_TEMPLATE, TEMPLATE_NAME)
        .with_title("Artifact")
        .with_description(
            "An oversized tool result or a binary body saved for the caller who made it (a result's \
             incomplete.artifactId, linked by its resource_link block). Read whole up to 4 MiB; a larger one in \
             ranges (offset and maxBytes, bytes; the answer's _meta has nextOffset and eof) or with artifact_read.",
        )
}

/// Whether a media type is read back as `text`: `text/*`, `application/json` and `*+json`, `application/x-ndjson`
/// (parameters such as `charset` ignored).
pub fn is_text(mime_type: &str) -> bool {
    let essence = mime_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence.starts_with("text/")
        || essence == "application/json"
        || essence.ends_with("+json")
        || essence == "application/x-ndjson"
}

/// `resources/read` of `uri` for `owner`: the artifact as one content item, `text` when its media type is text or
/// JSON ([`is_text`]) and its bytes are UTF-8, else base64 `blob`; `mimeType` is the artifact's. A ranged URI
/// (`?offset=N&maxBytes=M`) returns those bytes (a text range ending inside a UTF-8 character ends before it) with
/// `_meta: {offset, nextOffset, totalBytes, eof}`; the answer carries the cache hints (module doc).
///
/// # Errors
/// Resource not found ([`mcp_artifacts::NOT_FOUND_MESSAGE`], `data: {uri}`) for a URI not of this scheme and for
/// another owner's, unknown, malformed or expired ids; invalid params for a malformed range query, an `offset`
/// past the end, and a whole read of an artifact over [`MAX_READ_BYTES`] (`data: {uri, totalBytes, maxBytes}`);
/// internal error for a store failure.
pub async fn read(store: &dyn ArtifactStore, owner: &str, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found =
        || ErrorData::resource_not_found(mcp_artifacts::NOT_FOUND_MESSAGE, Some(serde_json::json!({"uri": uri})));
    let target = target::parse(uri).map_err(|err| err.into_error(uri, not_found))?;
    let id = target.id;
    let (start, limit) = target
        .range
        .map_or((0, MAX_READ_BYTES), |range| (range.offset, range.max_bytes));
    let mut offset = start;
    let mut bytes = BytesMut::new();
    let mut mime_type = String::new();
    let mut total_bytes = 0;
    loop {
        let want = (start + limit - offset).min(MAX_READ_MAX_BYTES);
        let chunk = match store.read_chunk(owner, id, offset, want).await {
            Ok(chunk) => chunk,
            Err(err) if err.is_not_found() => return Err(not_found()),
            Err(mcp_artifacts::ArtifactError::OffsetPastEnd { offset, total_bytes }) => {
                return Err(ErrorData::invalid_params(
                    format!("{uri}: offset {offset} is past the artifact's end ({total_bytes} bytes)"),
                    Some(serde_json::json!({"uri": uri, "totalBytes": total_bytes})),
                ));
            }
            Err(err) => return Err(ErrorData::internal_error(format!("reading {uri} failed: {err}"), None)),
        };
        if target.range.is_none() && chunk.total_bytes > MAX_READ_BYTES {
            return Err(ErrorData::invalid_params(
                format!(
                    "{uri} is {} bytes, more than one resources/read returns whole ({MAX_READ_BYTES}): read it in \
                     ranges, {URI_PREFIX}{id}?offset=0&maxBytes={MAX_READ_BYTES} then offset=nextOffset of each \
                     answer's _meta until eof, or with the artifact_read tool (artifactId {id})",
                    chunk.total_bytes
                ),
                Some(serde_json::json!({"uri": uri, "totalBytes": chunk.total_bytes, "maxBytes": MAX_READ_BYTES})),
            ));
        }
        if offset == start {
            let expected = chunk.total_bytes.saturating_sub(start).min(limit);
            bytes.reserve(usize::try_from(expected).unwrap_or_default());
            mime_type = chunk.mime_type;
            total_bytes = chunk.total_bytes;
        }
        bytes.extend_from_slice(&chunk.data);
        offset = chunk.next_offset;
        if chunk.eof || offset - start >= limit {
            break;
        }
    }
    let text = is_text(&mime_type);
    if target.range.is_some() && text && offset < total_bytes {
        // A range that ends inside a UTF-8 character ends before it, so the text is whole characters and the next
        // range starts at the character. A range too short for one character is not cut (it would never move
        // on): it is answered as a blob.
        let cut = incomplete_tail(&bytes);
        if cut < bytes.len() {
            bytes.truncate(bytes.len() - cut);
            offset -= cut as u64;
        }
    }
    let bytes = bytes.freeze();
    let contents = match std::str::from_utf8(&bytes) {
        Ok(utf8) if text => ResourceContents::text(utf8, uri),
        _ => ResourceContents::blob(STANDARD.encode(&bytes), uri),
    };
    let mut contents = contents.with_mime_type(mime_type);
    if target.range.is_some() {
        let meta = MetaObject(serde_json::Map::from_iter([
            ("offset".to_owned(), start.into()),
            ("nextOffset".to_owned(), offset.into()),
            ("totalBytes".to_owned(), total_bytes.into()),
            ("eof".to_owned(), (offset == total_bytes).into()),
        ]));
        contents = contents.with_meta(meta);
    }
    Ok(ReadResourceResult::new(vec![contents])
        .with_ttl_ms(READ_TTL_MS)
        .with_cache_scope(CacheScope::Private))
}

/// How many bytes at the end of `bytes` are the start of a UTF-8 character that does not end in `bytes` (0..=3).
fn incomplete_tail(bytes: &[u8]) -> usize {
    let tail = &bytes[bytes.len().saturating_sub(3)..];
    for (back, &byte) in tail.iter().rev().enumerate() {
        let needed = match byte {
            0x00..=0x7f => return 0,
            0x80..=0xbf => continue,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            _ => 4,
        };
        return if back + 1 < needed { back + 1 } else { 0 };
    }
    0
}

impl Responder {
    /// Adds the `resource_link` block of artifact `id` ([`link`]) to `result` when structured output is on (off,
    /// results stay byte for byte what they were: no link). For a tool that saves artifacts of its own and names
    /// them in its data (e.g. with [`Responder::put_artifact`]); the responder's own oversized and binary results
    /// carry theirs already.
    pub fn add_link(&self, result: &mut CallToolResult, id: &str, mime_type: &str, size: u64) {
        if self.structured() {
            result.content.push(link(id, mime_type, size));
        }
    }

    /// `capabilities` with the `resources` capability added when structured output is on (artifacts are resources
    /// only then); off, `capabilities` unchanged. For a server's `ServerHandler::get_info`.
    pub fn resource_capabilities(&self, mut capabilities: ServerCapabilities) -> ServerCapabilities {
        if self.structured() && capabilities.resources.is_none() {
            capabilities.resources = Some(ResourcesCapability::default());
        }
        capabilities
    }

    /// The `resources/read` answer for a server's `ServerHandler::read_resource`: [`read`] of `request.uri` from
    /// this responder's store for the caller [`Responder::owner`] names.
    ///
    /// # Errors
    /// Method not found with structured output off (as a server without resources answers); otherwise [`read`]'s.
    pub async fn read_resource(
        &self,
        request: &ReadResourceRequestParams,
        cx: &RequestContext<RoleServer>,
    ) -> Result<ReadResourceResult, ErrorData> {
        if !self.structured() {
            return Err(ErrorData::method_not_found::<ReadResourceRequestMethod>());
        }
        read(self.store().as_ref(), &self.owner(cx), &request.uri).await
    }

    /// The `resources/templates/list` answer for a server's `ServerHandler::list_resource_templates`: the one
    /// artifact template ([`template`]).
    ///
    /// # Errors
    /// Method not found with structured output off (as a server without resources answers).
    pub fn resource_templates(&self) -> Result<ListResourceTemplatesResult, ErrorData> {
        if !self.structured() {
            return Err(ErrorData::method_not_found::<ListResourceTemplatesRequestMethod>());
        }
        Ok(ListResourceTemplatesResult::with_all_items(vec![template()])
            .with_ttl_ms(TEMPLATES_TTL_MS)
            .with_cache_scope(CacheScope::Public))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use bytes::Bytes;
    use mcp_artifacts::MemoryStore;

    #[test]
    fn uris_and_media_types() {
        assert_eq!(uri("ab12"), "artifact://ab12");
        assert_eq!(artifact_id("artifact://ab12"), Some("ab12"));
        for bad in [
            "artifact://",
            "artifact://ab/12",
            "artifact://ab?x=1",
            "file:///ab12",
            "ARTIFACT://ab12",
        ] {
            assert_eq!(artifact_id(bad), None, "{bad}");
        }
        for text in [
            "application/json",
            "text/plain; charset=utf-8",
            "application/vnd.github+json",
            "Text/CSV",
        ] {
            assert!(is_text(text), "{text}");
        }
        for blob in ["application/zip", "image/png", "application/octet-stream"] {
            assert!(!is_text(blob), "{blob}");
        }
    }

    #[tokio::test]
    async fn reads_text_and_blobs_for_the_owner_only() {
        let store = MemoryStore::default();
        let json = store
            .put("alice", "application/json", Bytes::from_static(b"{\"a\":1}"))
            .await
            .unwrap()
            .to_string();
        let zip = store
            .put("alice", "application/zip", Bytes::from_static(b"PK\x03\x04\xff"))
            .await
            .unwrap()
            .to_string();
        let read_json = read(&store, "alice", &uri(&json)).await.unwrap();
        let value = serde_json::to_value(&read_json.contents[0]).unwrap();
        assert_eq!(
            value,
            serde_json::json!({"uri": uri(&json), "mimeType": "application/json", "text": "{\"a\":1}"})
        );
        let read_zip = read(&store, "alice", &uri(&zip)).await.unwrap();
        let value = serde_json::to_value(&read_zip.contents[0]).unwrap();
        assert_eq!(value["blob"], STANDARD.encode(b"PK\x03\x04\xff"));
        assert_eq!(value["mimeType"], "application/zip");
        for (owner, uri) in [
            ("bob", uri(&json)),
            ("alice", uri(&"0".repeat(32))),
            ("alice", "artifact://x-y".into()),
        ] {
            let err = read(&store, owner, &uri).await.unwrap_err();
            assert_eq!(err.code, rmcp::model::ErrorCode::RESOURCE_NOT_FOUND, "{owner} {uri}");
            assert_eq!(err.message, mcp_artifacts::NOT_FOUND_MESSAGE);
        }
    }

    #[tokio::test]
    async fn a_read_returns_at_most_the_bound() {
        let store = MemoryStore::default();
        let size = usize::try_from(MAX_READ_BYTES).unwrap();
        let at_bound = store
            .put("alice", "text/plain", Bytes::from(vec![b'x'; size]))
            .await
            .unwrap()
            .to_string();
        let over = store
            .put("alice", "text/plain", Bytes::from(vec![b'x'; size + 1]))
            .await
            .unwrap()
            .to_string();
        let whole = read(&store, "alice", &uri(&at_bound)).await.unwrap();
        match &whole.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => assert_eq!(text.len(), size),
            other => panic!("not text: {other:?}"),
        }
        let err = read(&store, "alice", &uri(&over)).await.unwrap_err();
        assert_eq!(err.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(err.message.contains("artifact_read"), "{}", err.message);
    }

    fn meta(result: &ReadResourceResult) -> serde_json::Value {
        serde_json::to_value(&result.contents[0]).unwrap()["_meta"].clone()
    }

    #[tokio::test]
    async fn ranged_reads_end_on_characters_and_say_where_to_go_on() {
        let store = MemoryStore::default();
        // "aé€b": a (1 byte), é (2), € (3), b (1): 7 bytes.
        let text = store
            .put("alice", "text/plain; charset=utf-8", Bytes::from("aé€b"))
            .await
            .unwrap()
            .to_string();
        // Bytes 0..4 end inside €: the answer is "aé" (3 bytes), and the next range starts at €.
        let first = read(&store, "alice", &format!("{}?maxBytes=4", uri(&text)))
            .await
            .unwrap();
        match &first.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => assert_eq!(text, "aé"),
            other => panic!("not text: {other:?}"),
        }
        assert_eq!(
            meta(&first),
            serde_json::json!({"offset": 0, "nextOffset": 3, "totalBytes": 7, "eof": false})
        );
        assert_eq!(
            (first.ttl_ms, first.cache_scope),
            (Some(READ_TTL_MS), Some(CacheScope::Private))
        );
        let rest = read(&store, "alice", &format!("{}?offset=3&maxBytes=100", uri(&text)))
            .await
            .unwrap();
        match &rest.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => assert_eq!(text, "€b"),
            other => panic!("not text: {other:?}"),
        }
        assert_eq!(
            meta(&rest),
            serde_json::json!({"offset": 3, "nextOffset": 7, "totalBytes": 7, "eof": true})
        );
        // One byte of €: no whole character, so a blob of that byte, and the next range moves on.
        let byte = read(&store, "alice", &format!("{}?offset=3&maxBytes=1", uri(&text)))
            .await
            .unwrap();
        assert!(matches!(
            &byte.contents[0],
            ResourceContents::BlobResourceContents { .. }
        ));
        assert_eq!(meta(&byte)["nextOffset"], 4);
        // A whole read has no range _meta.
        let whole = read(&store, "alice", &uri(&text)).await.unwrap();
        assert_eq!(meta(&whole), serde_json::Value::Null);
        let past = read(&store, "alice", &format!("{}?offset=8", uri(&text)))
            .await
            .unwrap_err();
        assert_eq!(past.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(
            past.message.contains("past the artifact's end (7 bytes)"),
            "{}",
            past.message
        );
        let bad = read(&store, "alice", &format!("{}?from=1", uri(&text)))
            .await
            .unwrap_err();
        assert_eq!(bad.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(
            bad.message.contains("unknown query parameter \"from\""),
            "{}",
            bad.message
        );
        // Another owner's artifact stays not found, ranged or not: the URI is no credential.
        let theirs = read(&store, "bob", &format!("{}?offset=0", uri(&text)))
            .await
            .unwrap_err();
        assert_eq!(theirs.code, rmcp::model::ErrorCode::RESOURCE_NOT_FOUND);
    }

    #[tokio::test]
    async fn an_artifact_over_the_bound_reads_in_ranges_byte_for_byte() {
        let store = MemoryStore::default();
        let size = usize::try_from(MAX_READ_BYTES).unwrap() + 1_500_000;
        let body: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        let id = store
            .put("alice", "application/octet-stream", Bytes::from(body.clone()))
            .await
            .unwrap()
            .to_string();
        let err = read(&store, "alice", &uri(&id)).await.unwrap_err();
        assert!(
            err.message
                .contains(&format!("{}?offset=0&maxBytes={MAX_READ_BYTES}", uri(&id))),
            "{}",
            err.message
        );
        let mut got = Vec::new();
        let mut offset = 0;
        let mut reads = 0;
        loop {
            let answer = read(&store, "alice", &format!("{}?offset={offset}", uri(&id)))
                .await
                .unwrap();
            let ResourceContents::BlobResourceContents { blob, .. } = &answer.contents[0] else {
                panic!("not a blob")
            };
            got.extend(STANDARD.decode(blob).unwrap());
            let meta = meta(&answer);
            offset = meta["nextOffset"].as_u64().unwrap();
            reads += 1;
            if meta["eof"] == true {
                break;
            }
        }
        assert_eq!(reads, 2);
        assert!(got == body, "ranges differ from the artifact");
    }

    #[test]
    fn incomplete_tails() {
        assert_eq!(incomplete_tail(b"ab"), 0);
        assert_eq!(incomplete_tail("é".as_bytes()), 0);
        assert_eq!(incomplete_tail(&"é".as_bytes()[..1]), 1);
        assert_eq!(incomplete_tail(&"€".as_bytes()[..2]), 2);
        assert_eq!(incomplete_tail(&"😀".as_bytes()[..3]), 3);
        assert_eq!(incomplete_tail("😀".as_bytes()), 0);
        assert_eq!(incomplete_tail(b""), 0);
    }
}
