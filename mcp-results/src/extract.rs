//! [`Args`]: a `#[tool]` method's arguments, read as [`crate::args::parse`] reads them (errors naming the tool and
//! the argument, `maxLength` checked from the advertised schema, digit-string integers), a refusal being an
//! `isError` result with `_meta.code: "invalid_argument"` instead of rmcp's bare text.

use rmcp::ErrorData;
use rmcp::handler::server::common::FromContextPart;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use crate::args::{self, ArgumentError};

/// The arguments of a `#[tool]` method as `T` (e.g. [`crate::WithView<A>`]), or why they were refused. Take it in
/// place of rmcp's `Parameters<T>` and give the `#[tool]` attribute the schema
/// (`input_schema = mcp_results::schema::input_schema::<T>()`), since rmcp finds the schema only behind
/// `Parameters`:
///
/// ```
/// use mcp_results::{Args, Json, Responder, Structured, WithView};
/// use rmcp::model::CallToolResult;
/// use rmcp::service::RequestContext;
/// use rmcp::{RoleServer, tool, tool_router};
/// # #[derive(serde::Deserialize, schemars::JsonSchema)]
/// # #[serde(deny_unknown_fields)]
/// # struct ListArgs { count: Option<u32> }
///
/// #[derive(Clone)]
/// struct Widgets {
///     results: Responder,
/// }
///
/// #[tool_router]
/// impl Widgets {
///     /// List widgets.
///     #[tool(input_schema = mcp_results::schema::input_schema::<WithView<ListArgs>>())]
///     async fn list_widgets(
///         &self,
///         args: Args<WithView<ListArgs>>,
///         cx: RequestContext<RoleServer>,
///     ) -> Result<Json<Structured<Vec<u32>>>, CallToolResult> {
///         let WithView { args, view } = args.into_result()?;
///         let widgets: Vec<u32> = (1..=args.count.unwrap_or(3)).collect();
///         Ok(self.results.json(&cx, widgets, view).await)
///     }
/// }
/// ```
#[derive(Debug)]
pub struct Args<T>(pub Result<T, ArgumentError>);

impl<T> Args<T> {
    /// The arguments, or the `isError` result refusing them ([`ArgumentError::into_result`]).
    ///
    /// # Errors
    /// The refusal, to return as the call's result.
    // The refusal is the call's whole answer, returned at once with `?`: boxing it would only add an allocation.
    #[allow(clippy::result_large_err)]
    pub fn into_result(self) -> Result<T, CallToolResult> {
        self.0.map_err(ArgumentError::into_result)
    }
}

impl<S, T> FromContextPart<ToolCallContext<'_, S>> for Args<T>
where
    T: DeserializeOwned + JsonSchema,
{
    /// Never fails: a refusal is kept in the value, so the method answers it as a result with `_meta.code`.
    fn from_context_part(context: &mut ToolCallContext<'_, S>) -> Result<Self, ErrorData> {
        let tool = context.name.clone();
        Ok(Args(args::parse::<T>(tool, context.arguments.take())))
    }
}
