//! The HTTP layer every `mcp-devtools` vendor adapter (GitHub, CircleCI, Atlassian) is built on.
//!
//! The rules this crate shares with the rest of the workspace (result shapes, limits, errors) are written down in
//! the project's contract, [docs/CONTRACT.md].
//!
//! [docs/CONTRACT.md]: https://github.com/mcp-devtools/mcp-devtools/blob/main/docs/CONTRACT.md
//!
//! The root is the one path to every item outside the nine public modules (`body`, `cache`, `decode`, `error_info`,
//! `next_link`, `retry_after`, `status`, `target`, `tls`), which hold their own items:
//!
//! | item or module | concern |
//! |---|---|
//! | [`Secret`] | a credential that prints as `***` |
//! | [`Redactor`] | every configured secret, in every form a vendor may echo, taken out of each answer |
//! | [`Vendor`] | the upstream's name and setting names, for error texts and cache keys |
//! | [`Auth`] | none, `Authorization: Bearer`, a custom header (`Circle-Token`), or Basic |
//! | [`HttpOptions`], [`ClientOptions`] | what a host sets for a vendor client (base URL, credential, setting names; user agent, timeout, body cap, redaction, TLS, proxies), embedded by every adapter's config; the body-size cap's bounds |
//! | [`tls`] | [`tls::TlsOptions`]: a CA bundle trusted besides the system's CAs, a client certificate (mutual TLS), and [`tls::TlsProblem`], a failed handshake read as the setting that fixes it |
//! | [`ProxyOptions`], [`ProxyUrl`] | which proxies carry the requests (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`: curl's rules), their passwords redacted |
//! | [`HttpConfig`] | the client's settings: the host's options as the adapter resolved them, plus the vendor's own (auth form, headers, [`RedirectPolicy`], retry, login rule) |
//! | [`target`] | API base URL parsing and request URLs (path + query, percent-encoded exactly once by `url`) |
//! | [`body`](mod@body) | reading a response body as a stream (decompressed: gzip, br, zstd), stopping past the cap |
//! | [`decode`] | [`decode::Payload`]: a body as the vendor sent it: JSON of any depth, text per its charset, or bytes |
//! | [`RawResponse`] | status, headers, body bytes, content type; JSON with exact integers |
//! | [`status`] | [`status::StatusClass`] and [`status::StatusError`]: the classification of non-2xx answers, vendor message kept |
//! | [`next_link`] | the next page's URL from each vendor's form of "next" (links, tokens, start indexes) |
//! | [`retry_after`] | `Retry-After` / `Retry-After-Ms` read as a wait |
//! | [`LoginCheck`] | answers that say the login failed (vendor headers, HTML login pages) are errors, never cached |
//! | [`HttpError`] | everything this layer reports, a missing credential included ([`HttpClient::require_credential`]) |
//! | [`error_info`] | [`error_info::ErrorInfo`]: a failure's code and details for a program (`_meta` of an error result) |
//! | [`RetryPolicy`] | the one retry policy (idempotent reads; 429/502/503; `Retry-After(-Ms)`; ≤ 3 attempts inside the timeout) |
//! | [`HttpClient`] | one `reqwest::Client` per upstream; [`HttpClient::send`] is one call (retried when it is a read) |
//! | [`Download`] | [`HttpClient::get_handoff`] / [`HttpClient::get_elsewhere`]: a redirect to another host (job logs, archives) or a handed-out URL, fetched without any credential, https only; [`Download`] streams the body |
//! | [`VouchedHosts`] | the hosts a vendor adapter trusts with its credential: [`HttpClient::get_vouched`] sends it there (a private CircleCI project's artifacts), and to no other host |
//! | [`cache`] | [`cache::HttpCache`]: bounded (moka) HTTP cache, freshness from `http-cache-semantics`, injectable clock |
//!
//! [`HttpClient::send`] returns the raw response whatever its status; for `GET` and `HEAD` it applies the
//! [`RetryPolicy`] first (at most 3 attempts, waits honouring `Retry-After`/`Retry-After-Ms`, all inside the
//! client's timeout). Redirects are decided in one place ([`RedirectPolicy`], applied when the client is built); a
//! URL whose origin is not the API base's is refused before anything is sent, so credentials never leave for
//! another host. The ways to another host are a handoff ([`HttpClient::get_handoff`]) or a handed-out URL
//! ([`HttpClient::get_elsewhere`]), sent without any credential, and a host the vendor adapter vouches for
//! ([`HttpClient::get_vouched`]), sent the credential header alone.
//!
//! No secret ever appears in an error, a `Debug` output or a log line, even when the upstream echoes it: every
//! answer's body and header values go through the client's [`Redactor`] (its own credential, plus any the host
//! adds in [`ClientOptions::redact`]) as soon as they are read.

mod auth;
pub mod body;
pub mod cache;
mod client;
mod config;
pub mod decode;
mod error;
pub mod error_info;
mod login;
pub mod next_link;
mod options;
mod proxy;
mod redact;
mod response;
mod retry;
pub mod retry_after;
mod secret;
mod setters;
pub mod status;
pub mod target;
pub mod tls;
mod vendor;
mod vouched;

pub use auth::Auth;
pub use client::{Download, Fetched, HttpClient};
pub use config::{HttpConfig, RedirectPolicy};
pub use error::{HttpError, transport_detail};
pub use login::{LoginCheck, html_login_page};
pub use options::{
    ClientOptions, DEFAULT_MAX_BODY_BYTES, DEFAULT_TIMEOUT, HttpOptions, MAX_MAX_BODY_BYTES, MIN_MAX_BODY_BYTES,
    default_user_agent,
};
pub use proxy::{Proxies, ProxyOptions, ProxyUrl, ProxyUrlError};
pub use redact::{MIN_SECRET_BYTES, RedactStream, Redactor, RedactorBuilder};
pub use response::{BLOCKING_PARSE_BYTES, RawResponse};
pub use retry::{
    Classifier, MAX_ATTEMPTS, MIN_ATTEMPT_BUDGET, MIN_WAIT, RetryPolicy, RetryTimer, Verdict, standard_verdict,
};
pub use secret::Secret;
pub use vendor::{SettingNames, Vendor};
pub use vouched::VouchedHosts;

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
