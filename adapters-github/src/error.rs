//! Typed errors and the mapping from GitHub error responses to them.
//!
//! Follows <https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api> and
//! <https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#exceeding-the-rate-limit>.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use adapters_http::HttpError;
use adapters_http::error_info::{ErrorCode, ErrorInfo};
use adapters_http::retry_after::{requested_wait, whole_seconds};
use adapters_http::status::{reason, vendor_message};
use http::HeaderMap;

use crate::access::Access;

/// Everything that can go wrong calling the GitHub API.
///
/// Display texts say what failed and what to do, keep GitHub's `message` verbatim, and never
/// contain the token. `message` fields hold GitHub's `message` followed by
/// ` (<documentation_url>)` when the body has one; for a non-JSON body, its first 2 KiB.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GithubError {
    /// HTTP 401: the token is invalid, expired or revoked.
    #[error("GitHub API 401 Unauthorized: {message} — check that {setting} is a valid, unexpired token")]
    Unauthorized {
        /// GitHub's message (e.g. `Bad credentials (https://docs.github.com/rest)`).
        message: String,
        /// The token setting, by the host's name.
        setting: &'static str,
    },

    /// HTTP 403 that is not a rate limit: the token lacks a scope or access (SSO, IP allow list,
    /// Actions disabled...).
    #[error("GitHub API 403 Forbidden: {message} —{}", forbidden_advice(.access))]
    Forbidden {
        /// GitHub's message.
        message: String,
        /// The permissions and scopes the endpoint accepts and the token has, as GitHub's headers name them.
        access: Access,
    },

    /// HTTP 404: the repository, workflow or run does not exist, or the token cannot see it
    /// (GitHub answers 404 rather than 403 for private repositories).
    #[error(
        "GitHub API 404 Not Found: {message} — check the owner, repo and ids of the request (a run, job, artifact or workflow id), and that the token can see the repository{}",
        not_found_advice(.access)
    )]
    NotFound {
        /// GitHub's message (e.g. `Not Found (https://docs.github.com/...)`).
        message: String,
        /// The permissions and scopes the endpoint accepts, as GitHub's headers name them (a token without them
        /// sees a private repository's resources as not found).
        access: Access,
    },

    /// A primary or secondary rate limit: any 429; a 403 with `x-ratelimit-remaining: 0`, with a
    /// `Retry-After` header, or whose message mentions a rate limit or abuse detection.
    #[error("GitHub API rate limit exceeded: {message}.{}", rate_limit_advice(*.reset_at, *.retry_after_secs))]
    RateLimited {
        /// GitHub's message.
        message: String,
        /// When the primary limit resets, in seconds since the Unix epoch (`x-ratelimit-reset`);
        /// only set when `x-ratelimit-remaining` is `0` or absent.
        reset_at: Option<u64>,
        /// How long to wait, in seconds (`Retry-After-Ms` rounded up, else `Retry-After` as seconds or as an HTTP
        /// date).
        retry_after_secs: Option<u64>,
    },

    /// Any other non-2xx status (400, 409, 422, 5xx, ...).
    #[error("GitHub API {status}{}: {message}{}", reason(*.status), upstream_hint(*.status, *.retry_after_secs))]
    Upstream {
        /// HTTP status code.
        status: u16,
        /// GitHub's message, or the start of the raw body.
        message: String,
        /// How long GitHub asked to wait, in seconds (`Retry-After-Ms` rounded up, else `Retry-After`), when it
        /// said; the text then reports it.
        retry_after_secs: Option<u64>,
        /// GitHub's `errors[]` verbatim (`{resource, field, code, message}` or strings), when the body has them
        /// (typically a 422); `message` names them too.
        errors: Option<serde_json::Value>,
    },

    /// The response body is larger than the cap ([`adapters_http::ClientOptions::max_body_bytes`]); reading stopped
    /// there.
    #[error(
        "the GitHub API response is larger than {limit_bytes} bytes (setting {setting}): lower perPage or raise {setting}"
    )]
    BodyTooLarge {
        /// The cap in force, in bytes.
        limit_bytes: u64,
        /// The cap's setting, by the host's name.
        setting: &'static str,
    },

    /// A parameter is invalid; nothing was sent. `name` is the tool parameter at fault (`owner`, `repo`,
    /// `workflowId`, `perPage`, `page`, `path`).
    #[error("invalid {name}: {detail}")]
    InvalidArgument {
        /// Parameter name.
        name: String,
        /// What is wrong with it.
        detail: String,
    },

    /// A failure of the shared HTTP layer, as it words it: no token set ([`HttpError::MissingCredential`], nothing
    /// sent), an unusable setting ([`HttpError::InvalidSetting`]: the base URL, the token or the user agent, by the
    /// host's names; the token is never echoed), an answer that says the login failed ([`HttpError::LoginFailed`]:
    /// `X-GitHub-SSO: required` naming the URL to authorize the token at, or an HTML login page; never cached), a
    /// 2xx body that is not valid JSON ([`HttpError::InvalidJson`]), or a request that could not be sent or read
    /// ([`HttpError::Transport`]: DNS, connect, TLS, timeout, reset; never the token or the URL).
    ///
    /// `From<HttpError>` wraps every failure here except those GitHub words its own way: another status (the answer
    /// of a handed-out download URL), a bad `path`, a body over the cap.
    #[error(transparent)]
    Http(HttpError),
}

impl GithubError {
    /// The upstream HTTP status when GitHub answered: 401, 403, 404, the status of
    /// [`GithubError::Upstream`], and that of an [`GithubError::Http`] answer ([`HttpError::status`]). `None` for
    /// errors raised before or without a response, and for [`GithubError::RateLimited`] (it can come from a 403 or
    /// a 429).
    pub fn status(&self) -> Option<u16> {
        match self {
            Self::Unauthorized { .. } => Some(401),
            Self::Forbidden { .. } => Some(403),
            Self::NotFound { .. } => Some(404),
            Self::Upstream { status, .. } => Some(*status),
            Self::Http(err) => err.status(),
            Self::RateLimited { .. } | Self::BodyTooLarge { .. } | Self::InvalidArgument { .. } => None,
        }
    }

    /// What a program can branch on ([`ErrorInfo`], the `_meta` of an error result): the code, the status, the
    /// wait (a rate limit's `Retry-After`, else the seconds until `x-ratelimit-reset`), the reset time, 422
    /// `errors[]`, and the permissions or scopes a 403 or 404 named. A 403 that names them is
    /// [`ErrorCode::MissingPermission`].
    pub fn info(&self) -> ErrorInfo {
        let with_access = |code: ErrorCode, access: &Access| {
            let mut info = ErrorInfo::new(code).with_status(self.status());
            if !access.accepted_permissions.is_empty() {
                info.accepted_permissions = Some(access.accepted_permissions.clone());
            }
            if !access.accepted_scopes.is_empty() {
                info.accepted_scopes = Some(access.accepted_scopes.clone());
                info.token_scopes = access.token_scopes.clone();
            }
            info
        };
        match self {
            Self::Http(err) => err.info(),
            Self::InvalidArgument { .. } => ErrorInfo::new(ErrorCode::InvalidArgument),
            Self::Unauthorized { .. } => ErrorInfo::new(ErrorCode::Unauthorized).with_status(Some(401)),
            Self::Forbidden { access, .. } if access.lacks_any() => with_access(ErrorCode::MissingPermission, access),
            Self::Forbidden { access, .. } => with_access(ErrorCode::Forbidden, access),
            Self::NotFound { access, .. } => with_access(ErrorCode::NotFound, access),
            Self::RateLimited {
                reset_at,
                retry_after_secs,
                ..
            } => {
                let now = SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .unwrap_or(Duration::ZERO)
                    .as_secs();
                let until_reset = reset_at.map(|at| at.saturating_sub(now));
                let mut info =
                    ErrorInfo::new(ErrorCode::RateLimited).with_retry_after(retry_after_secs.or(until_reset));
                info.reset_at = reset_at.and_then(format_epoch_rfc3339);
                info
            }
            Self::Upstream {
                status,
                retry_after_secs,
                errors,
                ..
            } => {
                let mut info = ErrorInfo::new(ErrorCode::of_status(*status, errors.is_some()))
                    .with_status(Some(*status))
                    .with_retry_after(*retry_after_secs);
                info.errors = errors.clone();
                info
            }
            Self::BodyTooLarge { .. } => ErrorInfo::new(ErrorCode::TooLarge),
        }
    }

    /// Builds the error for a non-2xx response from its status, headers and body.
    /// `credential` is the token setting's name, for the 401 text.
    pub(crate) fn from_response(status: u16, headers: &HeaderMap, body: &[u8], credential: &'static str) -> Self {
        let message = error_message(status, body);
        let now = SystemTime::now();
        if let Some(limit) = rate_limit(status, headers, &message, now) {
            return Self::RateLimited {
                message,
                reset_at: limit.reset_at,
                retry_after_secs: limit.retry_after.map(whole_seconds),
            };
        }
        match status {
            401 => Self::Unauthorized {
                message,
                setting: credential,
            },
            403 => Self::Forbidden {
                message,
                access: Access::from_headers(headers),
            },
            404 => Self::NotFound {
                message,
                access: Access::from_headers(headers),
            },
            _ => Self::Upstream {
                status,
                message,
                retry_after_secs: requested_wait(headers, now).map(whole_seconds),
                errors: adapters_http::status::field_errors(body),
            },
        }
    }
}

impl From<HttpError> for GithubError {
    /// The shared layer's error, kept as [`GithubError::Http`] except where GitHub words the failure itself: another
    /// status (the answer of a handed-out download URL, a write's redirect) is [`GithubError::Upstream`]; a `path`
    /// that cannot be used or is on another host is [`GithubError::InvalidArgument`] naming `path`; a body over the
    /// cap is [`GithubError::BodyTooLarge`] (its advice names `perPage`).
    fn from(err: HttpError) -> Self {
        match err {
            HttpError::InvalidPath { path, detail } => Self::InvalidArgument {
                name: "path".to_owned(),
                detail: format!("`{path}` {detail}"),
            },
            err @ HttpError::ForeignHost { .. } => Self::InvalidArgument {
                name: "path".to_owned(),
                detail: err.to_string(),
            },
            HttpError::Status(status) => Self::Upstream {
                status: status.status,
                message: status.message,
                retry_after_secs: status.retry_after_secs,
                errors: status.field_errors.map(|errors| *errors),
            },
            // GitHub is only read (GET), so this never happens; kept as the upstream's answer.
            err @ HttpError::WriteRedirected { status, .. } => Self::Upstream {
                status,
                message: err.to_string(),
                retry_after_secs: None,
                errors: None,
            },
            err @ HttpError::RefusedHandoff { .. } => Self::Upstream {
                status: 302,
                message: err.to_string(),
                retry_after_secs: None,
                errors: None,
            },
            HttpError::BodyTooLarge { limit_bytes, vendor } => Self::BodyTooLarge {
                limit_bytes,
                setting: vendor.max_body_setting,
            },
            other => Self::Http(other),
        }
    }
}

/// `message`, `errors` and `documentation_url` of a GitHub error body, else the raw text (bounded); see
/// [`adapters_http::status::vendor_message`].
pub(crate) fn error_message(status: u16, body: &[u8]) -> String {
    vendor_message(status, body, github_message)
}

/// Most entries of a body's `errors` named in an error text; more are counted.
const MAX_ERRORS_SHOWN: usize = 10;

/// GitHub's `message`, then what its `errors` list says (a `422 Validation Failed` names the field and the reason
/// only there: `Validation Failed: Issue.title: missing_field`, or the search API's sentence), then
/// ` (<documentation_url>)` when the body has one.
fn github_message(body: &serde_json::Value) -> Option<String> {
    let message = body.get("message")?.as_str()?;
    let details: Vec<String> = body
        .get("errors")
        .and_then(serde_json::Value::as_array)
        .map(|errors| errors.iter().filter_map(error_detail).collect())
        .unwrap_or_default();
    let mut text = message.to_owned();
    if !details.is_empty() {
        text.push_str(": ");
        text.push_str(&details[..details.len().min(MAX_ERRORS_SHOWN)].join("; "));
        if details.len() > MAX_ERRORS_SHOWN {
            text.push_str(&format!("; and {} more", details.len() - MAX_ERRORS_SHOWN));
        }
    }
    if let Some(serde_json::Value::String(doc)) = body.get("documentation_url")
        && !doc.is_empty()
    {
        text.push_str(&format!(" ({doc})"));
    }
    Some(text)
}

/// One entry of GitHub's `errors`: a string as is; an object's `message` when it has one, else
/// `resource.field: code` (with `value` when given), as far as those are there.
fn error_detail(error: &serde_json::Value) -> Option<String> {
    fn text(value: Option<&serde_json::Value>) -> Option<&str> {
        value
            .and_then(serde_json::Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
    }
    match error {
        serde_json::Value::String(_) => text(Some(error)).map(str::to_owned),
        serde_json::Value::Object(entry) => {
            if let Some(message) = text(entry.get("message")) {
                return Some(message.to_owned());
            }
            let place = [text(entry.get("resource")), text(entry.get("field"))]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(".");
            let mut detail = match (place.is_empty(), text(entry.get("code"))) {
                (false, Some(code)) => format!("{place}: {code}"),
                (false, None) => place,
                (true, Some(code)) => code.to_owned(),
                (true, None) => return None,
            };
            if let Some(value) = entry.get("value").filter(|v| !v.is_null()) {
                detail.push_str(&format!(" ({value})"));
            }
            Some(detail)
        }
        _ => None,
    }
}

/// A rate-limit answer: when the primary limit resets and how long GitHub asked to wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RateLimit {
    /// `x-ratelimit-reset` (epoch seconds), when `x-ratelimit-remaining` is `0` or absent.
    pub(crate) reset_at: Option<u64>,
    /// `Retry-After-Ms` / `Retry-After` (see [`requested_wait`]).
    pub(crate) retry_after: Option<Duration>,
}

/// `Some` when the response is a rate limit: any 429; a 403 with `x-ratelimit-remaining: 0`, with a wait header,
/// or whose message mentions a rate limit or abuse detection (a secondary limit).
pub(crate) fn rate_limit(status: u16, headers: &HeaderMap, message: &str, now: SystemTime) -> Option<RateLimit> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::trim);
    let remaining = header("x-ratelimit-remaining").and_then(|v| v.parse::<u64>().ok());
    let retry_after = requested_wait(headers, now);
    let lower = message.to_ascii_lowercase();
    let mentions_limit = lower.contains("rate limit") || lower.contains("abuse");
    let limited = status == 429 || (status == 403 && (remaining == Some(0) || retry_after.is_some() || mentions_limit));
    if !limited {
        return None;
    }
    let reset_at = match remaining {
        Some(0) | None => header("x-ratelimit-reset").and_then(|v| v.parse::<u64>().ok()),
        Some(_) => None,
    };
    Some(RateLimit { reset_at, retry_after })
}

/// Formats epoch seconds as RFC 3339 UTC, e.g. `2013-08-20T15:41:06Z`; `None` if out of range.
pub(crate) fn format_epoch_rfc3339(epoch_secs: u64) -> Option<String> {
    let secs = i64::try_from(epoch_secs).ok()?;
    jiff::Timestamp::from_second(secs).ok().map(|t| t.to_string())
}

/// The sentence(s) after a rate-limit message: when to retry.
fn rate_limit_advice(reset_at: Option<u64>, retry_after_secs: Option<u64>) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs();
    rate_limit_advice_at(reset_at, retry_after_secs, now)
}

/// [`rate_limit_advice`] with an explicit current time (epoch seconds), for tests.
fn rate_limit_advice_at(reset_at: Option<u64>, retry_after_secs: Option<u64>, now: u64) -> String {
    let reset = reset_at.map(|at| {
        let when = format_epoch_rfc3339(at).unwrap_or_else(|| format!("epoch second {at}"));
        if at > now {
            format!("{when} (in {} s)", at - now)
        } else {
            format!("{when} (already passed)")
        }
    });
    match (retry_after_secs, reset) {
        (Some(secs), Some(reset)) => format!(" Retry after {secs} s; the limit resets at {reset}."),
        (Some(secs), None) => format!(" Retry after {secs} s."),
        (None, Some(reset)) => format!(" Resets at {reset}."),
        (None, None) => " Wait a few minutes before trying again.".to_owned(),
    }
}

/// What a 404 adds when GitHub named the permissions the endpoint accepts (a token without them sees a private
/// repository's resources as not found).
fn not_found_advice(access: &Access) -> String {
    if access.lacks_any() {
        format!(".{}", access.advice())
    } else {
        String::new()
    }
}

/// The advice after a 403's message: the permissions or scopes GitHub named, else the general one.
fn forbidden_advice(access: &Access) -> String {
    if access.lacks_any() {
        access.advice()
    } else {
        " check that the token has `actions:read` (or `repo`) scope and access to the repository".to_owned()
    }
}

/// A hint for statuses worth one; when GitHub asked for a wait, that wait.
fn upstream_hint(status: u16, retry_after_secs: Option<u64>) -> String {
    if let Some(secs) = retry_after_secs {
        return format!(" — GitHub asked to retry after {secs} s");
    }
    match status {
        500..=599 => " — GitHub had a problem; try again later",
        400 | 422 => " — check the parameters",
        300..=399 => " — the redirect was not followed (it led to another host, or there were too many)",
        _ => "",
    }
    .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from_response(status: u16, headers: &HeaderMap, body: &[u8]) -> GithubError {
        GithubError::from_response(status, headers, body, "token")
    }
    use http::HeaderValue;

    #[test]
    fn rfc3339_formatting() {
        assert_eq!(format_epoch_rfc3339(0).as_deref(), Some("1970-01-01T00:00:00Z"));
        assert_eq!(
            format_epoch_rfc3339(1_377_013_266).as_deref(),
            Some("2013-08-20T15:41:06Z")
        );
        assert_eq!(
            format_epoch_rfc3339(1_675_115_093).as_deref(),
            Some("2023-01-30T21:44:53Z")
        );
        assert_eq!(format_epoch_rfc3339(u64::MAX), None);
    }

    #[test]
    fn advice_texts() {
        assert_eq!(
            rate_limit_advice_at(Some(1_377_013_266), None, 1_377_013_266 - 90),
            " Resets at 2013-08-20T15:41:06Z (in 90 s)."
        );
        assert_eq!(
            rate_limit_advice_at(Some(1_377_013_266), None, 1_377_013_266),
            " Resets at 2013-08-20T15:41:06Z (already passed)."
        );
        assert_eq!(rate_limit_advice_at(None, Some(60), 0), " Retry after 60 s.");
        assert_eq!(
            rate_limit_advice_at(Some(100), Some(60), 40),
            " Retry after 60 s; the limit resets at 1970-01-01T00:01:40Z (in 60 s)."
        );
        assert_eq!(
            rate_limit_advice_at(None, None, 0),
            " Wait a few minutes before trying again."
        );
    }

    #[test]
    fn messages_from_bodies() {
        assert_eq!(
            error_message(404, br#"{"message":"Not Found","documentation_url":"https://d/x"}"#),
            "Not Found (https://d/x)"
        );
        assert_eq!(error_message(400, br#"{"message":"Bad"}"#), "Bad");
        assert_eq!(
            error_message(
                422,
                br#"{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"},{"resource":"Issue","field":"type","code":"invalid","message":""},{"resource":"Label","code":"invalid","field":"name","value":"a,b"},"plain text",{"resource":"Release"},{},3],"documentation_url":"https://d/v"}"#
            ),
            r#"Validation Failed: Issue.title: missing_field; Issue.type: invalid; Label.name: invalid ("a,b"); plain text; Release (https://d/v)"#
        );
        let many: Vec<String> = (0..12).map(|i| format!(r#"{{"message":"m{i}"}}"#)).collect();
        let body = format!(r#"{{"message":"Validation Failed","errors":[{}]}}"#, many.join(","));
        assert!(
            error_message(422, body.as_bytes()).ends_with("m8; m9; and 2 more"),
            "{}",
            error_message(422, body.as_bytes())
        );
        assert_eq!(
            error_message(502, b"  <html>bad gateway</html> \n"),
            "bad gateway (an HTML page of 28 bytes)"
        );
        assert_eq!(error_message(502, b""), "Bad Gateway");
        assert_eq!(error_message(599, b""), "(empty body)");
        let long = "é".repeat(3000);
        let msg = error_message(500, long.as_bytes());
        assert!(msg.starts_with("éé"));
        assert!(msg.ends_with("(6000 bytes in all)"), "{msg}");
        assert!(msg.len() < 2100);
        assert!(!msg.contains('\u{FFFD}'));
    }

    #[test]
    fn classification() {
        let empty = HeaderMap::new();
        let mut remaining0 = HeaderMap::new();
        remaining0.insert("x-ratelimit-remaining", HeaderValue::from_static("0"));
        remaining0.insert("x-ratelimit-reset", HeaderValue::from_static("1377013266"));
        let body = br#"{"message":"m"}"#;
        assert!(matches!(
            from_response(403, &empty, body),
            GithubError::Forbidden { .. }
        ));
        assert_eq!(
            from_response(403, &remaining0, body),
            GithubError::RateLimited {
                message: "m".to_owned(),
                reset_at: Some(1_377_013_266),
                retry_after_secs: None
            }
        );
        assert!(matches!(
            from_response(
                403,
                &empty,
                br#"{"message":"You have exceeded a secondary rate limit."}"#
            ),
            GithubError::RateLimited { .. }
        ));
        assert!(matches!(
            from_response(429, &empty, b"slow down"),
            GithubError::RateLimited { .. }
        ));
        let err = from_response(500, &empty, body);
        assert_eq!(err.status(), Some(500));
        assert_eq!(
            err.to_string(),
            "GitHub API 500 Internal Server Error: m — GitHub had a problem; try again later"
        );
        assert_eq!(
            from_response(422, &empty, body).to_string(),
            "GitHub API 422 Unprocessable Entity: m — check the parameters"
        );
    }
}
