//! Handoffs: a redirect to another host, followed without a credential (private module; the rules are on
//! [`Download`]).

use std::time::Duration;

use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode, header};
use url::Url;

use super::HttpClient;
use crate::body::read_capped;
use crate::error::HttpError;
use crate::redact::RedactStream;
use crate::response::RawResponse;
use crate::target::{is_loopback, same_origin, under_base};
use crate::vendor::Vendor;
use crate::vouched::VouchedHosts;

/// Most redirects to another origin [`HttpClient::get_vouched`] follows.
const MAX_VOUCHED_HOPS: usize = 5;

/// A response whose body is read chunk by chunk: the API's own answer when it did not hand the download off
/// (already read, under the cap), or the other host's answer, streamed.
///
/// Handoffs: a `GET` on the API that the API answers with a redirect to a short-lived URL on another host, and
/// bodies fetched from such URLs, always without a credential.
///
/// GitHub answers `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs` (and the artifact and log archive
/// endpoints) with `302 Found` and a `Location` on another host that carries its own short-lived signature
/// (<https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-job>). CircleCI hands out
/// step output as `output_url`s on another host in its job details. Such URLs are fetched:
///
/// - only when the caller asks ([`HttpClient::get_handoff`], [`HttpClient::get_elsewhere`],
///   [`HttpClient::get_vouched`]); every other request keeps the client's redirect rule ([`crate::RedirectPolicy`]:
///   a redirect to another origin is not followed);
/// - with no credential of any kind: no `Authorization`, no vendor header, none of the client's default headers,
///   no cookies (only the user agent is sent); the one exception is a host the vendor adapter vouches for
///   ([`HttpClient::get_vouched`], [`crate::VouchedHosts`]), which gets the credential header (and still none of
///   the rest);
/// - over `https` only; plain `http` only to a loopback host (`127.0.0.0/8`, `::1`, `localhost`: local test
///   servers), and never with userinfo in the URL;
/// - one hop to the other host; that host's own redirects follow the client's rule (same origin only) (a vouched
///   host's redirects to other vouched hosts: see [`HttpClient::get_vouched`]);
/// - a download the API hands out on its own origin ([`HttpClient::get_handoff`]: GitHub Enterprise Server's
///   `https://HOST/_services/…` log URLs) is the API's own: fetched with the credential, and streamed like the rest.
///
/// The body is read as a stream ([`Download::chunk`]) or whole under the client's cap ([`Download::into_response`]).
/// Like every answer the client reads, the other host's headers and body pass through the client's redactor
/// ([`crate::Redactor`]: the configured secrets and the credentials of signed URLs), the streamed body piece by
/// piece ([`RedactStream`]): a job log that prints a token, or a blob host's error that quotes the signature it
/// was sent, reaches nobody. The handed-out URL's query (its signature) never appears in an error, a log line or
/// [`Download::url`].
#[derive(Debug)]
pub struct Download {
    status: StatusCode,
    headers: HeaderMap,
    url: Url,
    handed_off: bool,
    credential_sent: bool,
    vendor: Vendor,
    timeout: Duration,
    max_body_bytes: u64,
    body: Source,
}

#[derive(Debug)]
enum Source {
    /// Already read and redacted.
    Read(Option<Bytes>),
    /// Redacted as it is read; `None` once its end was handed on.
    Stream(reqwest::Response, Option<RedactStream>),
}

impl Download {
    /// HTTP status of the answer that carries the body.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// Headers of that answer.
    pub fn headers(&self) -> &HeaderMap {
        &self.headers
    }

    /// The URL that answered, without its query and fragment (a handed-out URL's query is its signature).
    pub fn url(&self) -> &Url {
        &self.url
    }

    /// True when the body comes from the other host (the API handed the download off, or
    /// [`HttpClient::get_elsewhere`] fetched it), false when it is the API's own answer.
    pub fn is_handed_off(&self) -> bool {
        self.handed_off
    }

    /// True when the answer came to a request that carried the client's credential: the API's own answer, or a
    /// host the adapter vouched for ([`HttpClient::get_vouched`]); false for a credential-less fetch (a handoff,
    /// [`HttpClient::get_elsewhere`], a redirect from a vouched host to another one). A `401`/`403` means the
    /// credential could not read it only when this is true.
    pub fn credential_sent(&self) -> bool {
        self.credential_sent
    }

    /// The next piece of the body, `None` at its end. Streamed bodies are not capped (the caller bounds what it
    /// keeps); the whole exchange stays inside the client's timeout.
    ///
    /// Errors: [`HttpError::Transport`] when reading fails or times out.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, HttpError> {
        let (response, redact) = match &mut self.body {
            Source::Read(body) => return Ok(body.take().filter(|b| !b.is_empty())),
            Source::Stream(response, redact) => (response, redact),
        };
        loop {
            let Some(stream) = redact else {
                return Ok(None);
            };
            let piece = response
                .chunk()
                .await
                .map_err(|e| HttpError::transport(self.vendor, e, self.timeout))?;
            let out = match piece {
                Some(piece) => stream.push(&piece),
                None => {
                    let rest = stream.finish();
                    *redact = None;
                    rest
                }
            };
            // A piece may be held back whole (it may end inside a secret): read on.
            if !out.is_empty() {
                return Ok(Some(Bytes::from(out)));
            }
        }
    }

    /// The whole (remaining) body under the client's cap, as a [`RawResponse`] (whose `url` has no query), e.g. to
    /// classify an error answer with [`HttpClient::check_status`] or to keep a small archive.
    ///
    /// Errors: [`HttpError::BodyTooLarge`]; [`HttpError::Transport`].
    pub async fn into_response(self) -> Result<RawResponse, HttpError> {
        let body = match self.body {
            Source::Read(body) => body.unwrap_or_default(),
            // Its end was already handed on by `chunk`.
            Source::Stream(_, None) => Bytes::new(),
            Source::Stream(response, Some(mut stream)) => {
                let body = read_capped(self.vendor, response, self.max_body_bytes, self.timeout).await?;
                let mut out = stream.push(&body);
                out.extend(stream.finish());
                Bytes::from(out)
            }
        };
        Ok(RawResponse {
            status: self.status,
            headers: self.headers,
            body,
            url: self.url,
        })
    }
}

impl HttpClient {
    /// `GET url` on the API origin (with the credential, retried like [`HttpClient::send`]); when the API answers
    /// with a redirect (301, 302, 303, 307, 308) to another origin, that one `Location` is fetched without any
    /// credential (see [`Download`] for the rules) and its answer is returned, streamed. A 301, 302 or 303 to a path
    /// of the API's own origin outside the API base's path (GitHub Enterprise Server, base `/api/v3`, hands job logs
    /// to `https://HOST/_services/…`) is fetched as the API's own requests are, with the credential, its default
    /// headers and client certificate, and streamed too (not read under the body cap); a redirect from there to
    /// another origin is followed without any credential. One within the base's path (a renamed repository's 301)
    /// is an API request like the first, retried and read under the cap.
    /// Any other answer (a 2xx body, a 404, a redirect without `Location`) is returned as the API sent it.
    ///
    /// Errors: as [`HttpClient::send`]; [`HttpError::RefusedHandoff`] when the `Location` is not `https` (outside
    /// loopback), carries userinfo or does not parse (nothing is sent to it); [`HttpError::Transport`] for the
    /// other host.
    pub async fn get_handoff(&self, url: Url) -> Result<Download, HttpError> {
        self.get_handoff_with(url, &HeaderMap::new()).await
    }

    /// [`HttpClient::get_handoff`] with `headers` added to the API request (as [`HttpClient::send_with`], e.g. an
    /// `Accept`); the other host gets none of them.
    ///
    /// Errors: as [`HttpClient::get_handoff`].
    pub async fn get_handoff_with(&self, url: Url, headers: &HeaderMap) -> Result<Download, HttpError> {
        // The Location is a signed URL to follow as given: its credentials are taken out of what is passed on, not
        // out of what is followed.
        let first = self.send_first_hop(url, headers).await?;
        match self.redirect_target(first.status, &first.headers, &first.url)? {
            // Within the API base (a renamed repository's 301 to `/repositories/{id}/…`): the API itself, sent as
            // its requests are (retried, the login check, same-origin redirects followed).
            Some(target) if same_origin(&target, &first.url) && under_base(&self.base, &target) => {
                let again = self
                    .send_redacted(Method::GET, target, None, headers, &self.secrets)
                    .await?;
                match self.handoff_target(again.status, &again.headers, &again.url)? {
                    Some(elsewhere) => self.get_elsewhere(elsewhere).await,
                    None => Ok(self.read(self.redactor.redact_response(again))),
                }
            }
            Some(target) if same_origin(&target, &first.url) => self.get_own(target, headers).await,
            Some(target) => self.get_elsewhere(target).await,
            None => Ok(self.read(self.redactor.redact_response(first))),
        }
    }

    /// The download the API handed out on its own origin: `GET target` as the API's own requests are sent (the
    /// credential, the default headers and `headers`, the client certificate, the same-origin redirect rule), not
    /// retried, the body streamed; a redirect from there to another origin is fetched as
    /// [`HttpClient::get_elsewhere`] fetches one.
    ///
    /// Errors: [`HttpError::RefusedHandoff`] for a target with userinfo (nothing sent); [`HttpError::Transport`].
    async fn get_own(&self, target: Url, headers: &HeaderMap) -> Result<Download, HttpError> {
        if !target.username().is_empty() || target.password().is_some() {
            return Err(HttpError::RefusedHandoff {
                vendor: self.vendor,
                target: origin_text(&target),
                detail: "the URL carries credentials".to_owned(),
            });
        }
        let path = target.path().to_owned();
        tracing::debug!(target: "adapters_http", vendor = self.vendor.name, %path, "download on the API's origin");
        let mut request = self
            .http
            .request(Method::GET, target.clone())
            .timeout(self.timeout)
            .headers(headers.clone());
        if let Some((name, value)) = &self.auth {
            request = request.header(name, value.clone());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport_error(e, &target, true))?;
        match self.handoff_target(response.status(), response.headers(), response.url())? {
            Some(elsewhere) => self.get_elsewhere(elsewhere).await,
            None => Ok(self.stream(response, false, self.auth.is_some())),
        }
    }

    /// `GET url` on any host, without any credential (see [`Download`] for the rules): for URLs the API
    /// hands out in a body, such as CircleCI's step `output_url`. Not retried. The body is streamed.
    ///
    /// Errors: [`HttpError::RefusedHandoff`] for a URL that is not `https` (outside loopback) or carries userinfo
    /// (nothing sent); [`HttpError::Transport`].
    pub async fn get_elsewhere(&self, url: Url) -> Result<Download, HttpError> {
        check_target(self.vendor, &url)?;
        let response = self.fetch(url, None).await?;
        Ok(self.stream(response, true, false))
    }

    /// `GET url` on a host the vendor adapter vouches for (`hosts`, or the API's own origin), *with* the client's
    /// credential header and nothing else of the API's (no default headers, no cookies; the user agent): for a
    /// URL the API hands out whose host needs the API's credential, such as a private CircleCI project's artifact
    /// on `*.circle-artifacts.com`. A URL on any other host is fetched as [`HttpClient::get_elsewhere`] does,
    /// without the credential. Not retried. The body is streamed, as for [`HttpClient::get_elsewhere`].
    ///
    /// Redirects: the vouched host's redirects on its own origin are followed with the credential (the client's
    /// [`crate::RedirectPolicy`]); a redirect to another origin is followed hop by hop, each target getting the
    /// credential only when it is vouched for too, at most 5 hops; the first target that is not vouched for (the
    /// signed S3 URL an artifact host redirects to) is fetched as [`HttpClient::get_elsewhere`] does, without any
    /// credential, and its answer is the last. The `Location` followed has the configured secrets taken out, so a
    /// host that echoes the credential in it cannot hand it to another host. The rules of [`Download`] apply to
    /// every hop (`https` only outside loopback, no userinfo), the credential is never logged, and every answer is
    /// redacted.
    ///
    /// Errors: [`HttpError::RefusedHandoff`] for a URL or `Location` that is not `https` (outside loopback),
    /// carries userinfo or does not parse (nothing sent to it); [`HttpError::Transport`].
    pub async fn get_vouched(&self, url: Url, hosts: &VouchedHosts) -> Result<Download, HttpError> {
        let mut url = url;
        let mut hops = 0;
        loop {
            let vouched = same_origin(&url, &self.base) || hosts.vouches(&url);
            let Some(auth) = self.auth.as_ref().filter(|_| vouched) else {
                return self.get_elsewhere(url).await;
            };
            check_target(self.vendor, &url)?;
            let response = self.fetch(url, Some(auth)).await?;
            match self.handoff_target(response.status(), response.headers(), response.url())? {
                Some(next) if hops < MAX_VOUCHED_HOPS => {
                    hops += 1;
                    url = next;
                }
                // Not a redirect to another origin, or one hop too many: this answer stands.
                _ => {
                    let handed_off = !same_origin(response.url(), &self.base);
                    return Ok(self.stream(response, handed_off, true));
                }
            }
        }
    }

    /// Where a redirect answer hands the request off to: `None` when the answer is not a redirect to another
    /// origin (no redirect, no `Location`, or a same-origin one the client's policy stopped: the answer stands).
    /// The configured secrets are taken out of the `Location` first.
    ///
    /// Errors: [`HttpError::RefusedHandoff`] for a `Location` that does not parse.
    fn handoff_target(&self, status: StatusCode, headers: &HeaderMap, url: &Url) -> Result<Option<Url>, HttpError> {
        Ok(self
            .redirect_target(status, headers, url)?
            .filter(|target| !same_origin(target, url)))
    }

    /// Where a redirect answer points, on any origin: `None` when the answer is not a redirect or has no
    /// `Location`. The configured secrets are taken out of the `Location` first.
    ///
    /// Errors: [`HttpError::RefusedHandoff`] for a `Location` that does not parse.
    fn redirect_target(&self, status: StatusCode, headers: &HeaderMap, url: &Url) -> Result<Option<Url>, HttpError> {
        let Some(location) = status.is_redirection().then(|| headers.get(header::LOCATION)).flatten() else {
            return Ok(None);
        };
        std::str::from_utf8(location.as_bytes())
            .ok()
            .and_then(|location| url.join(self.secrets.redact(location.trim()).as_ref()).ok())
            .map(Some)
            .ok_or_else(|| HttpError::RefusedHandoff {
                vendor: self.vendor,
                target: "(unreadable Location)".to_owned(),
                detail: "the Location header is not a valid URL".to_owned(),
            })
    }

    /// One `GET` of `url` (already checked) on the client for other hosts, with `auth` when given; never logs it.
    async fn fetch(&self, url: Url, auth: Option<&(HeaderName, HeaderValue)>) -> Result<reqwest::Response, HttpError> {
        let host = url.host_str().unwrap_or_default().to_owned();
        let credential = auth.is_some();
        tracing::debug!(target: "adapters_http", vendor = self.vendor.name, %host, credential, "request to another host");
        let target = url.clone();
        let mut request = self.http_plain.request(Method::GET, url).timeout(self.timeout);
        if let Some((name, value)) = auth {
            request = request.header(name, value.clone());
        }
        let response = request
            .send()
            .await
            .map_err(|e| self.transport_error(e, &target, false))?;
        tracing::debug!(
            target: "adapters_http",
            vendor = self.vendor.name,
            %host,
            credential,
            status = response.status().as_u16(),
            "response from another host"
        );
        Ok(response)
    }

    /// `response` as a [`Download`] whose headers are redacted and whose body is redacted as it is streamed.
    fn stream(&self, response: reqwest::Response, handed_off: bool, credential_sent: bool) -> Download {
        Download {
            status: response.status(),
            headers: self.redactor.redact_headers(response.headers().clone()),
            url: without_query(response.url()),
            handed_off,
            credential_sent,
            vendor: self.vendor,
            timeout: self.timeout,
            max_body_bytes: self.max_body_bytes,
            body: Source::Stream(response, Some(self.redactor.stream())),
        }
    }

    fn read(&self, response: RawResponse) -> Download {
        Download {
            status: response.status,
            headers: response.headers,
            url: response.url,
            handed_off: false,
            credential_sent: self.auth.is_some(),
            vendor: self.vendor,
            timeout: self.timeout,
            max_body_bytes: self.max_body_bytes,
            body: Source::Read(Some(response.body)),
        }
    }
}

/// `https`, or `http` to a loopback host; no userinfo.
fn check_target(vendor: Vendor, url: &Url) -> Result<(), HttpError> {
    let refuse = |detail: &str| HttpError::RefusedHandoff {
        vendor,
        target: origin_text(url),
        detail: detail.to_owned(),
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refuse("the URL carries credentials"));
    }
    match url.scheme() {
        "https" => Ok(()),
        "http" if is_loopback(url) => Ok(()),
        "http" => Err(refuse("only https is fetched from another host")),
        _ => Err(refuse("only https URLs are fetched")),
    }
}

/// `scheme://host[:port]`: what an error may say about a handed-out URL.
fn origin_text(url: &Url) -> String {
    url.origin().unicode_serialization()
}

fn without_query(url: &Url) -> Url {
    let mut url = url.clone();
    url.set_query(None);
    url.set_fragment(None);
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    const V: Vendor = Vendor {
        name: "Test",
        base_setting: "TEST_API_BASE",
        credential_setting: "TEST_TOKEN",
        max_body_setting: "TEST_MAX_BODY_BYTES",
    };

    fn check(url: &str) -> Result<(), HttpError> {
        check_target(V, &Url::parse(url).unwrap())
    }

    #[test]
    fn targets() {
        for ok in [
            "https://pipelines.actions.githubusercontent.com/x?sig=abc",
            "http://127.0.0.1:8080/x",
            "http://127.9.9.9/x",
            "http://[::1]:9/x",
            "http://localhost:9/x",
        ] {
            assert!(check(ok).is_ok(), "{ok}");
        }
        for bad in [
            "http://example.com/x?sig=SECRET",
            "http://10.0.0.1/x",
            "ftp://127.0.0.1/x",
            "https://user:pw@example.com/x",
            "http://127.0.0.1.example.com/x",
        ] {
            let err = check(bad).unwrap_err();
            let text = err.to_string();
            assert!(matches!(err, HttpError::RefusedHandoff { .. }), "{bad}");
            assert!(!text.contains("SECRET") && !text.contains("pw"), "{text}");
        }
    }
}
