//! The crate-level error of the pipeline ([`crate::prepare()`]).

use crate::nesting::TooDeepToCarry;
use crate::project::ProjectionError;
use crate::render::RenderError;
use crate::seal::SealError;

/// Any failure of [`crate::prepare()`]. Its `Display` is the text of the
/// `isError` result: it says what failed and what to do.
#[non_exhaustive]
#[derive(Debug, thiserror::Error)]
pub enum EnvelopeError {
    /// The `jq` expression failed.
    #[error(transparent)]
    Projection(#[from] ProjectionError),
    /// The text could not be rendered.
    #[error(transparent)]
    Render(#[from] RenderError),
    /// The structured value could not be serialized (server defect).
    #[error(transparent)]
    Seal(#[from] SealError),
    /// The value nests deeper than a result can carry ([`crate::ListWriter`]'s limit).
    #[error(transparent)]
    Nesting(#[from] TooDeepToCarry),
}
