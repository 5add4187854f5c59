//! Artifacts as MCP resources: the `resource_link` block a result that names an artifact carries, and the
//! `resources/read` and `resources/templates/list` answers that hand the artifact over.
//!
//! - URI: `artifact://<artifactId>` ([`uri`], [`URI_TEMPLATE`]); the id is the store's (32 lowercase hex
//!   characters, 128 random bits).
//! - [`link`]: the `resource_link` content block `{type: "resource_link", uri, name, mimeType, size}` (`size` in
//!   bytes of the artifact).
//! - [`read`]: the artifact for its owner only, whole, as `text` (text and JSON media types that are valid UTF-8)
//!   or base64 `blob` (anything else). Another owner's, an unknown, malformed or expired id, and a URI not of this
//!   scheme all get the same resource-not-found error ([`mcp_artifacts::NOT_FOUND_MESSAGE`]; rmcp answers `-32002`,
//!   or `-32602` to a client on protocol 2026-07-28 or later). An artifact over [`MAX_READ_BYTES`] is refused
//!   (invalid params, naming its size and `artifact_read`, which reads it in chunks): the MCP specification has no
//!   ranged `resources/read`, so one read never returns more than that bound.
//! - [`template`]: the `resources/templates/list` entry. `resources/list` stays empty: artifacts are per caller
//!   and short-lived, reached from the links of the results that made them.
//!
//! The [`crate::Responder`] puts the links into its results and answers the requests for a server's `ServerHandler`
//! ([`crate::Responder::read_resource`], [`crate::Responder::resource_templates`],
//! [`crate::Responder::resource_capabilities`]).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::BytesMut;
use mcp_artifacts::{ArtifactStore, MAX_READ_MAX_BYTES};
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResult, ContentBlock, ListResourceTemplatesRequestMethod, ListResourceTemplatesResult,
    ReadResourceRequestMethod, ReadResourceRequestParams, ReadResourceResult, Resource, ResourceContents,
    ResourceTemplate, ResourcesCapability, ServerCapabilities,
};
use rmcp::service::{RequestContext, RoleServer};

use crate::Responder;

/// The URI scheme of artifacts: `artifact`.
pub const SCHEME: &str = "artifact";

/// What every artifact URI starts with: `artifact://`, followed by the artifact id.
pub const URI_PREFIX: &str = "artifact://";

/// The RFC 6570 template of artifact URIs, as `resources/templates/list` advertises it.
pub const URI_TEMPLATE: &str = "artifact://{artifactId}";

/// The name of the template in `resources/templates/list`.
pub const TEMPLATE_NAME: &str = "artifact";

/// Most bytes of artifact one `resources/read` returns: 4 MiB (4,194,304). As base64 that is 5.6 MiB, and as JSON
/// text escaped into a JSON string well under the 16 MiB message limit of rmcp-based clients. A larger artifact
/// is read with `artifact_read`, in chunks.
pub const MAX_READ_BYTES: u64 = 4 * 1024 * 1024;

/// The URI of artifact `id`: `artifact://<id>`.
pub fn uri(id: &str) -> String {
    format!("{URI_PREFIX}{id}")
}

/// The artifact id in `uri`, when `uri` is of this scheme with a non-empty id and nothing after it (no path,
/// query or fragment); the store decides whether the id is well formed.
pub fn artifact_id(uri: &str) -> Option<&str> {
    let id = uri.strip_prefix(URI_PREFIX)?;
    (!id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(id)
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
             incomplete.artifactId, linked by its resource_link block). Read whole up to 4 MiB; larger artifacts \
             with the artifact_read tool.",
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

/// `resources/read` of `uri` for `owner`: the whole artifact as one content item, `text` when its media type is
/// text or JSON ([`is_text`]) and its bytes are UTF-8, else base64 `blob`; `mimeType` is the artifact's.
///
/// # Errors
/// Resource not found ([`mcp_artifacts::NOT_FOUND_MESSAGE`], `data: {uri}`) for a URI not of this scheme and for
/// another owner's, unknown, malformed or expired ids; invalid params for an artifact over [`MAX_READ_BYTES`]
/// (`data: {uri, totalBytes, maxBytes}`); internal error for a store failure.
pub async fn read(store: &dyn ArtifactStore, owner: &str, uri: &str) -> Result<ReadResourceResult, ErrorData> {
    let not_found =
        || ErrorData::resource_not_found(mcp_artifacts::NOT_FOUND_MESSAGE, Some(serde_json::json!({"uri": uri})));
    let id = artifact_id(uri).ok_or_else(not_found)?;
    let mut offset = 0;
    let mut bytes = BytesMut::new();
    let mut mime_type = String::new();
    loop {
        let chunk = match store.read_chunk(owner, id, offset, MAX_READ_MAX_BYTES).await {
            Ok(chunk) => chunk,
            Err(err) if err.is_not_found() => return Err(not_found()),
            Err(err) => return Err(ErrorData::internal_error(format!("reading {uri} failed: {err}"), None)),
        };
        if chunk.total_bytes > MAX_READ_BYTES {
            return Err(ErrorData::invalid_params(
                format!(
                    "{uri} is {} bytes, more than one resources/read returns ({MAX_READ_BYTES}): read it with the \
                     artifact_read tool (artifactId {id}), in chunks",
                    chunk.total_bytes
                ),
                Some(serde_json::json!({"uri": uri, "totalBytes": chunk.total_bytes, "maxBytes": MAX_READ_BYTES})),
            ));
        }
        if offset == 0 {
            bytes.reserve(usize::try_from(chunk.total_bytes).unwrap_or_default());
            mime_type = chunk.mime_type;
        }
        bytes.extend_from_slice(&chunk.data);
        offset = chunk.next_offset;
        if chunk.eof {
            break;
        }
    }
    let bytes = bytes.freeze();
    let contents = match std::str::from_utf8(&bytes) {
        Ok(text) if is_text(&mime_type) => ResourceContents::text(text, uri),
        _ => ResourceContents::blob(STANDARD.encode(&bytes), uri),
    };
    Ok(ReadResourceResult::new(vec![contents.with_mime_type(mime_type)]))
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
        Ok(ListResourceTemplatesResult::with_all_items(vec![template()]))
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
}
