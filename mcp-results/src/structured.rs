//! The front door for a `#[tool]` method: [`Json`], its return type, and [`Structured`], the shape of its
//! `structuredContent`, so that rmcp's `#[tool]` derives the tool's `outputSchema` from the data type, as it does for
//! rmcp's own `Json<T>`.
//!
//! ```
//! use mcp_results::{Json, Responder, Structured, WithView};
//! use rmcp::handler::server::wrapper::Parameters;
//! use rmcp::service::RequestContext;
//! use rmcp::{RoleServer, tool, tool_router};
//! # #[derive(serde::Deserialize, schemars::JsonSchema)]
//! # struct ListArgs {}
//! # #[derive(serde::Serialize, schemars::JsonSchema)]
//! # struct Widget { id: u32 }
//!
//! #[derive(Clone)]
//! struct Widgets {
//!     results: Responder,
//! }
//!
//! #[tool_router]
//! impl Widgets {
//!     /// List widgets.
//!     #[tool]
//!     async fn list_widgets(
//!         &self,
//!         Parameters(args): Parameters<WithView<ListArgs>>,
//!         cx: RequestContext<RoleServer>,
//!     ) -> Json<Structured<Vec<Widget>>> {
//!         self.results.json(&cx, vec![Widget { id: 1 }], args.view).await
//!     }
//! }
//!
//! let tool = Widgets::list_widgets_tool_attr();
//! let schema = tool.output_schema.expect("derived from the return type");
//! assert_eq!(schema["properties"]["data"]["anyOf"][0]["type"], "array");
//! ```

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::Arc;

use mcp_envelope::{Envelope, NoMeta};
use rmcp::ErrorData;
use rmcp::handler::server::tool::IntoCallToolResult;
use rmcp::model::{CallToolResponse, CallToolResult, JsonObject};
use rmcp::service::{RequestContext, RoleServer};
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::{Responder, View};

/// What a `#[tool]` method returns when its result went through the [`crate::Responder`]
/// ([`crate::Responder::json`]): the finished `CallToolResult` (the envelope as `structuredContent` and the text,
/// or an `isError` result saying what to do). `S` names the shape of `structuredContent`, usually
/// [`Structured<T, M>`]: rmcp's `#[tool]` takes a return type written `Json<S>` for structured output and advertises
/// `S`'s schema as the tool's `outputSchema`, so the schema and the results come from the same types.
///
/// Use it under this name (`Json`, not renamed on import): the `#[tool]` macro recognizes the return type by it.
#[must_use]
pub struct Json<S> {
    result: CallToolResult,
    shape: PhantomData<fn() -> S>,
}

impl<S> Json<S> {
    /// The finished result as a `Json<S>` (e.g. an error result of your own: [`crate::error`]).
    pub fn from_result(result: CallToolResult) -> Self {
        Json {
            result,
            shape: PhantomData,
        }
    }

    /// The finished `CallToolResult`.
    pub fn into_result(self) -> CallToolResult {
        self.result
    }
}

impl Responder {
    /// The whole result path for a `#[tool]` method, as [`Responder::respond`] (projection with the caller's `jq`,
    /// rendering and sealing off the async workers, the bound, an oversized value put into the store, every failure
    /// an `isError` result), for the caller the owner function names from `cx`, with no tool metadata beside `data`.
    /// `view` is the caller's `jq` and `outputFormat` (`args.view` of a [`crate::WithView`]).
    pub async fn json<T: Serialize>(
        &self,
        cx: &RequestContext<RoleServer>,
        data: T,
        view: impl Into<View>,
    ) -> Json<Structured<T>> {
        self.json_with_meta(cx, data, NoMeta {}, view).await
    }

    /// [`Responder::json`] with tool metadata `meta` beside `data` (e.g. [`mcp_envelope::PageMeta`]'s `nextPage`).
    pub async fn json_with_meta<T, M>(
        &self,
        cx: &RequestContext<RoleServer>,
        data: T,
        meta: M,
        view: impl Into<View>,
    ) -> Json<Structured<T, M>>
    where
        T: Serialize,
        M: Serialize + Send + Sync + 'static,
    {
        let owner = self.owner(cx);
        Json::from_result(self.respond_serialize(&owner, &data, meta, &view.into()).await)
    }
}

impl<S> std::fmt::Debug for Json<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Json").field(&self.result).finish()
    }
}

impl<S> IntoCallToolResult for Json<S> {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(self.result.into())
    }
}

/// The shape of a tool's `structuredContent`: the envelope `{data: T, ...M, incomplete?}`
/// ([`mcp_envelope::Envelope`]) after the caller's `jq`. Never built: it is a type for [`Json`]'s `S`, whose JSON
/// schema is the tool's `outputSchema` ([`Structured::output_schema`]).
pub struct Structured<T, M = NoMeta> {
    shape: PhantomData<fn() -> (T, M)>,
}

impl<T: JsonSchema, M: JsonSchema> Structured<T, M> {
    /// The `outputSchema`: [`Envelope::projected_output_schema`] compacted for `tools/list`
    /// ([`mcp_envelope::compact_output_schema`]): `data` is `T` without a projection, `null` when the value was too
    /// large (`incomplete` then says where it went), and any JSON value after a `jq`.
    pub fn output_schema() -> Arc<JsonObject> {
        Arc::new(mcp_envelope::compact_output_schema(
            Envelope::<T, M>::projected_output_schema(),
        ))
    }
}

impl<T: JsonSchema, M: JsonSchema> JsonSchema for Structured<T, M> {
    fn schema_name() -> Cow<'static, str> {
        format!("{}Envelope", T::schema_name()).into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_generator: &mut SchemaGenerator) -> Schema {
        Schema::from(Self::output_schema().as_ref().clone())
    }
}
