//! [`CircleciError`].

use adapters_http::HttpError;
use adapters_http::error_info::{ErrorCode, ErrorInfo};

/// Everything that can go wrong calling CircleCI. Texts say what failed and what to do, keep CircleCI's
/// `message` verbatim, and never contain the token.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CircleciError {
    /// No token is configured; returned before any request is sent.
    #[error("{setting} is not set: set it to a CircleCI personal API token (User Settings → Personal API Tokens)")]
    MissingToken {
        /// The token setting, by the host's name ([`crate::CircleciConfig::setting_names`]).
        setting: &'static str,
    },

    /// Everything else: bad path or setting (nothing sent), an upstream status (CircleCI's message kept), a body
    /// that is not JSON or too large, or a transport failure. See [`HttpError`].
    #[error(transparent)]
    Http(#[from] HttpError),
}

impl CircleciError {
    /// What a program can branch on (the `_meta` of an error result): a missing setting is
    /// [`ErrorCode::InvalidSetting`], everything else [`HttpError::info`].
    pub fn info(&self) -> ErrorInfo {
        match self {
            Self::MissingToken { .. } => ErrorInfo::new(ErrorCode::InvalidSetting),
            Self::Http(err) => err.info(),
        }
    }

    /// The upstream HTTP status when CircleCI answered, else `None`.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::MissingToken { .. } => None,
            Self::Http(err) => err.status(),
        }
    }
}
