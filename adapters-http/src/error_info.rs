//! [`ErrorInfo`]: what a failed call says in a form a program can branch on (the `_meta` of an MCP error result,
//! see docs/CONTRACT.md §7 "Error codes"), beside the text that says it in words.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::error::HttpError;
use crate::status::{StatusClass, StatusError};

/// The kind of a failure, stable across releases (a program branches on it; new codes may be added).
///
/// Serialized in `snake_case` (`rate_limited`), the form of `_meta.code`.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// An argument was refused before anything was sent (fix the call).
    InvalidArgument,
    /// A server setting is unusable or missing, a credential included (the operator must fix it); also a TLS
    /// handshake or a proxy that refused the request for a reason a setting fixes ([`HttpError::Tls`],
    /// [`HttpError::Proxy`]).
    InvalidSetting,
    /// 401: the credential is invalid, expired or revoked.
    Unauthorized,
    /// The answer says the login failed whatever its status (SSO authorization, a CAPTCHA, a login page).
    LoginFailed,
    /// 403 naming the permissions or scopes the endpoint accepts (`acceptedPermissions`, `acceptedScopes`): the
    /// credential lacks one of them.
    MissingPermission,
    /// 403 without such a name: no access (IP allow list, organization policy, a disabled feature).
    Forbidden,
    /// 404 (or 410): no such resource, or the credential cannot see it.
    NotFound,
    /// A primary or secondary rate limit (429, or a vendor's 403 form); `retryAfterSeconds` / `resetAt` say when.
    RateLimited,
    /// 422 (or a 400 with field errors): the request was understood but refused; `errors` holds the vendor's list.
    ValidationFailed,
    /// 409: the resource's state conflicts with the request.
    Conflict,
    /// Any other 4xx.
    BadRequest,
    /// 5xx: the upstream failed; retrying later may help (`retryAfterSeconds` when it said).
    UpstreamUnavailable,
    /// A redirect that was not followed (to another host, a write's 301/302/303, a handed-out URL refused).
    RedirectNotFollowed,
    /// A 2xx answer that is not the JSON it should be.
    InvalidBody,
    /// The answer is larger than the body cap.
    TooLarge,
    /// The request could not be sent or the answer not read (DNS, connect, a TLS failure no setting fixes,
    /// timeout).
    Unreachable,
    /// A job's log is not there yet: the job has not finished (wait, then call again).
    LogNotReady,
    /// A job's log is gone for good: deleted, or past the repository's retention.
    LogExpired,
    /// A finished job that has no log: skipped, or cancelled before it started.
    LogAbsent,
    /// Any other status (1xx, an unknown code).
    UpstreamError,
}

impl ErrorCode {
    /// The code as `_meta.code` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArgument => "invalid_argument",
            Self::InvalidSetting => "invalid_setting",
            Self::Unauthorized => "unauthorized",
            Self::LoginFailed => "login_failed",
            Self::MissingPermission => "missing_permission",
            Self::Forbidden => "forbidden",
            Self::NotFound => "not_found",
            Self::RateLimited => "rate_limited",
            Self::ValidationFailed => "validation_failed",
            Self::Conflict => "conflict",
            Self::BadRequest => "bad_request",
            Self::UpstreamUnavailable => "upstream_unavailable",
            Self::RedirectNotFollowed => "redirect_not_followed",
            Self::InvalidBody => "invalid_body",
            Self::TooLarge => "too_large",
            Self::Unreachable => "unreachable",
            Self::LogNotReady => "log_not_ready",
            Self::LogExpired => "log_expired",
            Self::LogAbsent => "log_absent",
            Self::UpstreamError => "upstream_error",
        }
    }

    /// The code of an upstream status (after the vendor's own reading, e.g. GitHub's 403 rate limits).
    pub fn of_status(status: u16, has_field_errors: bool) -> Self {
        match StatusClass::of(status) {
            StatusClass::Unauthorized => Self::Unauthorized,
            StatusClass::Forbidden => Self::Forbidden,
            StatusClass::NotFound => Self::NotFound,
            StatusClass::RateLimited => Self::RateLimited,
            StatusClass::Client => match status {
                410 => Self::NotFound,
                409 => Self::Conflict,
                422 => Self::ValidationFailed,
                400 if has_field_errors => Self::ValidationFailed,
                _ => Self::BadRequest,
            },
            StatusClass::Server => Self::UpstreamUnavailable,
            StatusClass::Redirect => Self::RedirectNotFollowed,
            StatusClass::Unexpected => Self::UpstreamError,
        }
    }
}

/// A failure for a program: `code` and what the answer said besides its message. Serialized (camelCase, absent
/// fields left out) as the keys of an error result's `_meta`:
/// `{"code", "status"?, "retryAfterSeconds"?, "resetAt"?, "errors"?, "acceptedPermissions"?, "acceptedScopes"?,
/// "tokenScopes"?}`.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorInfo {
    /// What kind of failure.
    pub code: ErrorCode,
    /// The upstream's HTTP status, when it answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    /// Seconds to wait before trying again, when the upstream said (`Retry-After-Ms` rounded up, else
    /// `Retry-After`, RFC 9110 §10.2.3), or until a rate limit resets.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_seconds: Option<u64>,
    /// When a rate limit resets (RFC 3339, UTC), when the upstream said (GitHub `x-ratelimit-reset`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reset_at: Option<String>,
    /// The vendor's field errors, verbatim: GitHub's `errors[]` (`{resource, field, code, message}`), Jira's
    /// `errors` object and `errorMessages`, Confluence's `errors[]`, Bitbucket's `error.fields`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub errors: Option<Value>,
    /// The sets of fine-grained permissions the endpoint accepts, any one set sufficing, each
    /// `{permission: access}` (GitHub `X-Accepted-GitHub-Permissions: contents=read; pull_requests=write`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted_permissions: Option<Vec<BTreeMap<String, String>>>,
    /// The OAuth scopes the endpoint accepts, any one sufficing (GitHub `X-Accepted-OAuth-Scopes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted_scopes: Option<Vec<String>>,
    /// The scopes the credential has (GitHub `X-OAuth-Scopes`, classic tokens).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token_scopes: Option<Vec<String>>,
}

impl ErrorInfo {
    /// Only a code.
    pub fn new(code: ErrorCode) -> Self {
        Self {
            code,
            status: None,
            retry_after_seconds: None,
            reset_at: None,
            errors: None,
            accepted_permissions: None,
            accepted_scopes: None,
            token_scopes: None,
        }
    }

    /// With the upstream's status.
    pub fn with_status(mut self, status: Option<u16>) -> Self {
        self.status = status;
        self
    }

    /// With the wait the upstream asked for, in seconds.
    pub fn with_retry_after(mut self, seconds: Option<u64>) -> Self {
        self.retry_after_seconds = seconds;
        self
    }

    /// The keys of `_meta`, in the serialized form.
    pub fn to_meta(&self) -> serde_json::Map<String, Value> {
        match serde_json::to_value(self) {
            Ok(Value::Object(map)) => map,
            _ => serde_json::Map::from_iter([("code".to_owned(), Value::from(self.code.as_str()))]),
        }
    }
}

impl StatusError {
    /// [`ErrorInfo`] of this answer: the code of its status, its field errors and the wait it asked for.
    pub fn info(&self) -> ErrorInfo {
        let mut info = ErrorInfo::new(ErrorCode::of_status(self.status, self.field_errors.is_some()))
            .with_status(Some(self.status))
            .with_retry_after(self.retry_after_secs);
        info.errors = self.field_errors.as_deref().cloned();
        info
    }
}

impl HttpError {
    /// [`ErrorInfo`] of this failure (see [`ErrorCode`] for each code's meaning).
    pub fn info(&self) -> ErrorInfo {
        let code = match self {
            Self::Status(status) => return status.info(),
            // A handshake or a proxy that a setting fixes: the operator must act, retrying does not help.
            Self::InvalidSetting { .. } | Self::MissingCredential { .. } | Self::Tls { .. } | Self::Proxy { .. } => {
                ErrorCode::InvalidSetting
            }
            Self::InvalidPath { .. } | Self::ForeignHost { .. } => ErrorCode::InvalidArgument,
            Self::WriteRedirected { .. } | Self::RefusedHandoff { .. } => ErrorCode::RedirectNotFollowed,
            Self::LoginFailed { .. } => ErrorCode::LoginFailed,
            Self::InvalidJson { .. } => ErrorCode::InvalidBody,
            Self::BodyTooLarge { .. } => ErrorCode::TooLarge,
            Self::Transport { .. } => ErrorCode::Unreachable,
        };
        ErrorInfo::new(code).with_status(self.status())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn codes_of_statuses() {
        assert_eq!(ErrorCode::of_status(422, false), ErrorCode::ValidationFailed);
        assert_eq!(ErrorCode::of_status(400, true), ErrorCode::ValidationFailed);
        assert_eq!(ErrorCode::of_status(400, false), ErrorCode::BadRequest);
        assert_eq!(ErrorCode::of_status(410, false), ErrorCode::NotFound);
        assert_eq!(ErrorCode::of_status(429, false), ErrorCode::RateLimited);
        assert_eq!(ErrorCode::of_status(503, false), ErrorCode::UpstreamUnavailable);
        assert_eq!(
            serde_json::to_value(ErrorCode::MissingPermission).ok(),
            Some(json!(ErrorCode::MissingPermission.as_str()))
        );
    }

    #[test]
    fn meta_leaves_out_what_is_absent() {
        let info = ErrorInfo::new(ErrorCode::RateLimited)
            .with_status(Some(429))
            .with_retry_after(Some(30));
        assert_eq!(
            Value::Object(info.to_meta()),
            json!({"code": "rate_limited", "status": 429, "retryAfterSeconds": 30})
        );
    }
}
