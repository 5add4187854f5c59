//! [`CircleciError`].

use adapters_http::HttpError;
use adapters_http::error_info::ErrorInfo;

/// Everything that can go wrong calling CircleCI. Texts say what failed and what to do, keep CircleCI's
/// `message` verbatim, and never contain the token.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CircleciError {
    /// A failure of the shared HTTP layer: no token set ([`HttpError::MissingCredential`], nothing sent), a bad
    /// path or setting (nothing sent), an upstream status (CircleCI's message kept), a body that is not JSON or too
    /// large, or a transport failure. See [`HttpError`].
    #[error(transparent)]
    Http(#[from] HttpError),

    /// A job artifact's download was refused (`401`, `403` or `404`) by its host, or by the host that one
    /// redirected to. The text names that host (its origin), its status and message, whether the token was sent to
    /// it, and what to do; [`CircleciError::info`] and [`CircleciError::status`] are those of `answer`.
    #[error("{text}")]
    ArtifactRefused {
        /// What happened and what to do; never the token or the URL's query.
        text: String,
        /// The answer, classified ([`HttpError::Status`]).
        answer: Box<HttpError>,
    },
}

impl CircleciError {
    /// What a program can branch on (the `_meta` of an error result): [`HttpError::info`] (a missing token is
    /// [`adapters_http::error_info::ErrorCode::InvalidSetting`]).
    pub fn info(&self) -> ErrorInfo {
        match self {
            Self::Http(err) => err.info(),
            Self::ArtifactRefused { answer, .. } => answer.info(),
        }
    }

    /// The upstream HTTP status when CircleCI answered, else `None`.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Http(err) => err.status(),
            Self::ArtifactRefused { answer, .. } => answer.status(),
        }
    }
}
