//! [`AtlassianError`].

use adapters_http::HttpError;
use adapters_http::error_info::{ErrorCode, ErrorInfo};

use crate::product::Product;

/// Everything that can go wrong calling Jira, Confluence or Bitbucket. Texts say what failed and what to do, keep
/// the vendor's error body verbatim (Jira `errorMessages`/`errors`, Confluence v2 `errors[]`, Bitbucket `error`),
/// and never contain a credential.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AtlassianError {
    /// A setting the product needs is not set; returned before any request is sent.
    #[error("{product} is not configured: {settings} not set — {help}", settings = .settings.join(" and "))]
    MissingSetting {
        /// The product whose call failed.
        product: Product,
        /// The settings to set, by the host's names ([`crate::config::SettingNames`]), e.g.
        /// `["user_email", "api_token"]`.
        settings: Vec<&'static str>,
        /// What to set them to.
        help: String,
    },

    /// Everything else: an unusable setting or path (nothing sent), a foreign host (nothing sent), an upstream
    /// status (the vendor's body kept), an invalid JSON body, a body over the cap, or a transport failure.
    #[error(transparent)]
    Http(#[from] HttpError),
}

impl AtlassianError {
    /// What a program can branch on (the `_meta` of an error result): a missing setting is
    /// [`ErrorCode::InvalidSetting`], everything else [`HttpError::info`].
    pub fn info(&self) -> ErrorInfo {
        match self {
            Self::MissingSetting { .. } => ErrorInfo::new(ErrorCode::InvalidSetting),
            Self::Http(err) => err.info(),
        }
    }

    /// The upstream HTTP status when the product answered, else `None`.
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::MissingSetting { .. } => None,
            Self::Http(err) => err.status(),
        }
    }
}
