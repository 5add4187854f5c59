//! The HTTP layer every `mcp-devtools` vendor adapter (GitHub, CircleCI, next Atlassian) is built on.
//!
//! Section references such as "CONTRACT §5" are to the project's contract, [docs/CONTRACT.md], kept in
//! the repository.
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! | module | concern |
//! |---|---|
//! | [`secret`] | [`Secret`]: a credential that prints as `***` |
//! | [`redact`] | [`Redactor`]: every configured secret, in every form a vendor may echo, taken out of each answer |
//! | [`vendor`] | [`Vendor`]: the upstream's name and setting names, for error texts and cache keys |
//! | [`auth`] | [`Auth`]: none, `Authorization: Bearer`, a custom header (`Circle-Token`), or Basic |
//! | [`config`] | [`HttpConfig`], the body-size cap's bounds, [`RedirectPolicy`] |
//! | [`target`] | API base URL parsing and request URLs (path + query, percent-encoded exactly once by `url`) |
//! | [`body`](mod@body) | reading a response body as a stream (decompressed: gzip, br, zstd), stopping past the cap |
//! | [`decode`] | [`Payload`]: a body as the vendor sent it: JSON of any depth, text per its charset, or bytes |
//! | [`response`] | [`RawResponse`]: status, headers, body bytes, content type; JSON with exact integers |
//! | [`status`] | [`StatusClass`] and [`StatusError`]: the classification of non-2xx answers, vendor message kept |
//! | [`login`] | [`LoginCheck`]: answers that say the login failed (vendor headers, HTML login pages) are errors, never cached |
//! | [`error`] | [`HttpError`]: everything this layer reports |
//! | [`retry`] | [`RetryPolicy`]: the one retry policy (idempotent reads; 429/502/503; `Retry-After(-Ms)`; ≤ 3 attempts inside the timeout) |
//! | [`client`] | [`HttpClient`]: one `reqwest::Client` per upstream; [`HttpClient::send`] is one call (retried when it is a read) |
//! | [`client::handoff`] | [`HttpClient::get_handoff`] / [`HttpClient::get_elsewhere`]: a redirect to another host (job logs, archives) or a handed-out URL, fetched without any credential, https only; [`Download`] streams the body |
//! | [`cache`] | [`HttpCache`]: bounded (moka) HTTP cache, freshness from `http-cache-semantics`, injectable clock |
//!
//! [`HttpClient::send`] returns the raw response whatever its status; for `GET` and `HEAD` it applies the
//! [`retry`] policy first (at most 3 attempts, waits honouring `Retry-After`/`Retry-After-Ms`, all inside the
//! client's timeout). Redirects are decided in one place ([`RedirectPolicy`], applied when the client is built); a
//! URL whose origin is not the API base's is refused before anything is sent, so credentials never leave for
//! another host. The one way to another host is a handoff ([`HttpClient::get_handoff`]), sent without any
//! credential.
//!
//! No secret ever appears in an error, a `Debug` output or a log line, even when the upstream echoes it: every
//! answer's body and header values go through the client's [`Redactor`] (its own credential, plus any the host
//! adds in [`HttpConfig::redact`]) as soon as they are read.

pub mod auth;
pub mod body;
pub mod cache;
pub mod client;
pub mod config;
pub mod decode;
pub mod error;
pub mod login;
pub mod redact;
pub mod response;
pub mod retry;
pub mod retry_after;
pub mod secret;
pub mod status;
pub mod target;
pub mod vendor;

pub use auth::Auth;
pub use cache::redis::{RedisCacheConfig, RedisConfigError};
pub use cache::{CacheConfig, CacheRequest, CacheStatus, Clock, HttpCache, MAX_TTL, system_clock};
pub use client::{Download, Fetched, HttpClient};
pub use config::{
    DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT, HttpConfig, MAX_MAX_BODY_BYTES, MIN_MAX_BODY_BYTES, RedirectPolicy,
    default_user_agent,
};
pub use decode::{Binary, Payload};
pub use error::HttpError;
pub use login::LoginCheck;
pub use redact::{MIN_SECRET_BYTES, Redactor, RedactorBuilder};
pub use response::{BLOCKING_PARSE_BYTES, RawResponse};
pub use retry::{
    Classifier, MAX_ATTEMPTS, MIN_WAIT, RetryPolicy, RetryTimer, Verdict, requested_wait, standard_verdict,
};
pub use secret::Secret;
pub use status::{MAX_MESSAGE_BYTES, StatusClass, StatusError};
pub use vendor::{SettingNames, Vendor};

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
