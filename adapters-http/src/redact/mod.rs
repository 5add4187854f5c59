//! [`Redactor`]: the one place where configured secrets and the credentials of signed URLs are taken out of what
//! an upstream sends back (private module: its items are at the crate root; the details are on [`Redactor`]).

mod forms;
mod signed_url;
mod stream;

pub use stream::RedactStream;

use forms::{json_forms, percent_forms};

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use aho_corasick::{AhoCorasick, MatchKind};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};
use bytes::Bytes;
use http::{HeaderMap, HeaderValue};
use serde_json::Value;

use crate::auth::Auth;

/// Shortest value treated as a secret, in bytes: 8. Shorter values are left in texts (see [`Redactor`]).
pub const MIN_SECRET_BYTES: usize = 8;

/// A set of secrets to take out of texts, each replaced by `[redacted NAME]`, and (when asked for) the credentials
/// of signed URLs, each replaced by `[redacted]`. Cheap to clone; [`Default`]: nothing. `Debug` shows how many
/// secrets it holds, never one of them.
///
/// [`Redactor`]: the one place where secrets are taken out of what an upstream sends back.
///
/// A vendor may quote a credential back (`Bad credentials: token ghp_… is not valid`, an `Authorization` header
/// echoed in a debug body, a token pasted into an issue, a job log whose script prints its environment). Every
/// [`crate::HttpClient`] runs every byte it reads through its redactor before anything else sees it: the API's
/// bodies and header values, and on a handoff ([`crate::Download`]) the other host's headers and its body, as it
/// streams ([`RedactStream`]: a secret may fall across any two reads) or whole, error answers included. Error
/// texts, decoded bodies, job logs, `structuredContent`, write results, artifacts and the HTTP cache (memory and
/// Redis) then never hold a secret, whichever vendor's code reads the answer.
///
/// **Signed URLs** ([`RedactorBuilder::signed_urls`], on in every [`crate::HttpClient`]): the value of each query
/// or header parameter that carries a signed URL's credential, in any case, after `?`, `&`, a delimiter, `%26`,
/// `%3F` or `\u0026`, and with `=` or `%3D`: `sig` (Azure SAS, GitHub's log hosts), `X-Amz-Signature`,
/// `X-Amz-Credential`, `X-Amz-Security-Token` (AWS SigV4), `AWSAccessKeyId`, `Signature` (SigV2, CloudFront, GCS
/// V2), `X-Goog-Signature`, `X-Goog-Credential`, `GoogleAccessId` (GCS), `Key-Pair-Id`, `urlSignature`,
/// `Credential` (an echoed SigV4 `Authorization`), `token` and `access_token`; and the content of the XML elements
/// in which S3 and GCS errors quote them (`SignatureProvided`, `StringToSign`, `StringToSignBytes`,
/// `CanonicalRequest`, `CanonicalRequestBytes`, `AWSAccessKeyId`). A value ends at the next `&`, `%26`, `#`,
/// quote, bracket, `,`, `;`, white space or control character, or backslash escape other than `\/` (an element's
/// at `<`). `sig=abc&se=…` becomes `sig=[redacted]&se=…`. A name inside a longer one (`page-token=`,
/// `next_page_token=`) is not a credential.
///
/// Each secret is matched in the forms a server sends or a vendor may echo, each replaced by
/// `[redacted NAME]` (`NAME`: the host's name of the setting, e.g. `GITHUB_TOKEN`):
///
/// | form | e.g. for `a/b"c…` |
/// |---|---|
/// | as is | `a/b"c…` |
/// | JSON-escaped (RFC 8259 §7: `\"`, `\\`, controls; optionally `\/`, `\uXXXX` for non-ASCII in either case, and `<`, `>`, `&`, `'`, U+2028, U+2029 as `\u003c`… as HTML-safe encoders write) | `a\/b\"c…` |
/// | percent-encoded (RFC 3986 unreserved, `encodeURIComponent`, WHATWG `application/x-www-form-urlencoded` with `+` for a space; upper- or lower-case hex) | `a%2Fb%22c…` |
/// | for HTTP Basic (RFC 7617): the base64 of `user:secret` (standard or URL-safe alphabet, padded or not), and that in the forms above | `bWlh…` |
///
/// Values shorter than [`MIN_SECRET_BYTES`] (8 bytes) are not treated as secrets: a 3-letter password would
/// otherwise blank out every word that contains it. (The base64 of `user:secret` is still matched.) A secret
/// spelled in some other way (e.g. `\u` escapes of plain letters, which no JSON encoder writes) is not recognised.
///
/// Matching is exact bytes, leftmost-longest, in one pass over the text ([aho-corasick]), so it costs about a
/// `memchr` per body. Replacing inside a JSON body keeps it valid JSON: the forms only match inside a string, and
/// the replacement text has no character that needs escaping.
///
/// [aho-corasick]: https://docs.rs/aho-corasick
#[derive(Clone, Default)]
pub struct Redactor {
    inner: Option<Arc<Matcher>>,
    signed_urls: bool,
}

struct Matcher {
    /// The longest form, in bytes.
    max_len: usize,
    /// Every form of every secret, with its replacement, for rebuilding a larger set.
    forms: Vec<(Vec<u8>, Arc<str>)>,
    /// How many secrets (not forms) were added.
    secrets: usize,
    automaton: AhoCorasick,
    /// The same search as `automaton` with a SIMD searcher (Teddy) when the machine has one (SSSE3/AVX2 or NEON):
    /// aho-corasick's own choice of prefilter for a few secrets scans for two "rare" bytes that are common in logs,
    /// about 10x slower. Pattern ids are the same.
    packed: Option<aho_corasick::packed::Searcher>,
    replacements: Vec<Arc<str>>,
}

impl Matcher {
    /// The leftmost-longest matches in `hay`, in order: `(start, end, form)`.
    pub(super) fn find_iter<'h>(&'h self, hay: &'h [u8]) -> Box<dyn Iterator<Item = (usize, usize, usize)> + 'h> {
        match &self.packed {
            Some(packed) => Box::new(
                packed
                    .find_iter(hay)
                    .map(|m| (m.start(), m.end(), m.pattern().as_usize())),
            ),
            None => Box::new(
                self.automaton
                    .find_iter(hay)
                    .map(|m| (m.start(), m.end(), m.pattern().as_usize())),
            ),
        }
    }
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secrets = self.inner.as_ref().map_or(0, |m| m.secrets);
        f.debug_struct("Redactor")
            .field("secrets", &secrets)
            .field("signed_urls", &self.signed_urls)
            .finish()
    }
}

impl Redactor {
    /// A builder with no secrets yet.
    pub fn builder() -> RedactorBuilder {
        RedactorBuilder::default()
    }

    /// True when there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.inner.is_none() && !self.signed_urls
    }

    /// A redaction of one body read in pieces (see [`RedactStream`]).
    pub fn stream(&self) -> RedactStream {
        RedactStream::new(self.clone())
    }

    /// `text` with every form of every secret (and every signed-URL credential, when on) replaced; borrowed (no
    /// copy) when none occurs. The result is valid UTF-8: only whole matches and ASCII-delimited values change.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.redact_bytes(text.as_bytes()) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            // Replacements are ASCII and start and end where the text has an ASCII byte or its own end, so the
            // bytes stay UTF-8; the lossy form only guards that promise.
            Cow::Owned(bytes) => Cow::Owned(
                String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            ),
        }
    }

    /// [`Redactor::redact`] over bytes (a body in any encoding: the forms are matched as UTF-8 bytes).
    pub fn redact_bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        if !self.is_match(bytes) {
            return Cow::Borrowed(bytes);
        }
        let mut stream = self.stream();
        let mut out = stream.push(bytes);
        out.extend(stream.finish());
        Cow::Owned(out)
    }

    /// A body with everything redacted ([`Redactor::redact_bytes`]); the same `Bytes` (no copy) when nothing was.
    pub fn redact_body(&self, body: Bytes) -> Bytes {
        match self.redact_bytes(&body) {
            Cow::Borrowed(_) => body,
            Cow::Owned(redacted) => Bytes::from(redacted),
        }
    }

    /// `headers` with everything redacted in their values (a value that would no longer be a valid header
    /// becomes `[redacted]`).
    pub fn redact_headers(&self, mut headers: HeaderMap) -> HeaderMap {
        if self.is_empty() {
            return headers;
        }
        for value in headers.values_mut() {
            if let Cow::Owned(redacted) = self.redact_bytes(value.as_bytes()) {
                *value = HeaderValue::from_bytes(&redacted).unwrap_or(HeaderValue::from_static("[redacted]"));
            }
        }
        headers
    }

    /// `response`'s body and header values redacted ([`Redactor::redact_body`], [`Redactor::redact_headers`]).
    pub fn redact_response(&self, mut response: crate::RawResponse) -> crate::RawResponse {
        response.body = self.redact_body(response.body);
        response.headers = self.redact_headers(response.headers);
        response
    }

    /// Every string (and object key) in `value` redacted, except the strings under the object keys named in
    /// `keep` (e.g. `["output_url"]`: the signed URLs the caller fetches itself, never to be passed on).
    pub fn redact_value_except(&self, value: &mut Value, keep: &[&str]) {
        if self.is_empty() {
            return;
        }
        match value {
            Value::String(text) => {
                if let Cow::Owned(redacted) = self.redact(text) {
                    *text = redacted;
                }
            }
            Value::Array(items) => items.iter_mut().for_each(|item| self.redact_value_except(item, keep)),
            Value::Object(map) => {
                let entries = std::mem::take(map);
                for (key, mut item) in entries {
                    if !(keep.contains(&key.as_str()) && item.is_string()) {
                        self.redact_value_except(&mut item, keep);
                    }
                    map.insert(self.redact(&key).into_owned(), item);
                }
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }

    /// True when `bytes` hold anything to redact (or, for signed URLs, a parameter name that may open a value).
    fn is_match(&self, bytes: &[u8]) -> bool {
        let secrets = self.inner.as_ref().is_some_and(|m| m.find_iter(bytes).next().is_some());
        secrets || (self.signed_urls && signed_url::next_opening(bytes, 0, None).is_some())
    }
}

/// Collects secrets for a [`Redactor`]. `name` is what the replacement shows (`[redacted NAME]`): the setting that
/// holds the secret, by the host's name ([`crate::SettingNames`]), never the value.
#[derive(Default)]
pub struct RedactorBuilder {
    forms: Vec<(Vec<u8>, Arc<str>)>,
    secrets: usize,
    signed_urls: bool,
}

impl fmt::Debug for RedactorBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedactorBuilder")
            .field("secrets", &self.secrets)
            .finish()
    }
}

impl RedactorBuilder {
    /// Adds `secret` (ignored when shorter than [`MIN_SECRET_BYTES`]) in all its forms.
    #[must_use]
    pub fn secret(mut self, name: &str, secret: &str) -> Self {
        if secret.len() >= MIN_SECRET_BYTES {
            let label = label(name);
            self.add_forms(secret, &label);
            self.secrets += 1;
        }
        self
    }

    /// Adds an HTTP Basic credential: `secret` as [`RedactorBuilder::secret`] does, and the base64 of
    /// `user:secret` (RFC 7617) in every alphabet and form (whatever the length of `secret`).
    #[must_use]
    pub fn basic(mut self, name: &str, user: &str, secret: &str) -> Self {
        let label = label(name);
        let pair = format!("{user}:{secret}");
        for engine in [STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD] {
            let encoded = engine.encode(&pair);
            if encoded.len() >= MIN_SECRET_BYTES {
                self.add_forms(&encoded, &label);
            }
        }
        self.secrets += 1;
        self.secret(name, secret)
    }

    /// Adds the secret of `auth` (a bearer token, a custom header's value, a Basic pair); nothing for
    /// [`Auth::None`].
    #[must_use]
    pub fn auth(self, name: &str, auth: &Auth) -> Self {
        match auth {
            Auth::None => self,
            Auth::Bearer(secret) => self.secret(name, secret.expose()),
            Auth::Header { value, .. } => self.secret(name, value.expose()),
            Auth::Basic { user, secret } => self.basic(name, user, secret.expose()),
        }
    }

    /// Adds every secret of `other`, under its own names (and its signed-URL rule, when on).
    #[must_use]
    pub fn redactor(mut self, other: &Redactor) -> Self {
        if let Some(matcher) = &other.inner {
            self.forms.extend(matcher.forms.iter().cloned());
            self.secrets += matcher.secrets;
        }
        self.signed_urls |= other.signed_urls;
        self
    }

    /// Also takes out the credentials of signed URLs and their echoes (see [`Redactor`]), whatever the secrets.
    #[must_use]
    pub fn signed_urls(mut self) -> Self {
        self.signed_urls = true;
        self
    }

    /// The redactor. With no secret at all it does nothing (and costs nothing).
    pub fn build(mut self) -> Redactor {
        // One replacement per form: the first name given for it wins.
        let mut seen = std::collections::HashSet::new();
        self.forms.retain(|(form, _)| seen.insert(form.clone()));
        let signed_urls = self.signed_urls;
        if self.forms.is_empty() {
            return Redactor {
                inner: None,
                signed_urls,
            };
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(self.forms.iter().map(|(form, _)| form));
        let automaton = match automaton {
            Ok(automaton) => automaton,
            Err(err) => {
                // Only a pattern set past aho-corasick's size limits (gigabytes of patterns) fails to build: not
                // a handful of secrets. Say so loudly rather than pretend.
                tracing::error!(target: "adapters_http", error = %err, "the secret redactor could not be built");
                return Redactor {
                    inner: None,
                    signed_urls,
                };
            }
        };
        let replacements = self.forms.iter().map(|(_, label)| label.clone()).collect();
        let packed = aho_corasick::packed::Config::new()
            .match_kind(aho_corasick::packed::MatchKind::LeftmostLongest)
            // Many secrets (every vendor's token in all its forms) exceed 64 forms: a SIMD search with more
            // buckets is still far faster than the automaton's byte-by-byte walk.
            .heuristic_pattern_limits(false)
            .builder()
            .extend(self.forms.iter().map(|(form, _)| form))
            .build();
        let max_len = self.forms.iter().map(|(form, _)| form.len()).max().unwrap_or(1);
        Redactor {
            signed_urls,
            inner: Some(Arc::new(Matcher {
                max_len,
                forms: self.forms,
                secrets: self.secrets,
                automaton,
                packed,
                replacements,
            })),
        }
    }

    fn add_forms(&mut self, value: &str, label: &Arc<str>) {
        let mut forms = vec![value.to_owned()];
        forms.extend(json_forms(value));
        forms.extend(percent_forms(value));
        for form in forms {
            self.forms.push((form.into_bytes(), label.clone()));
        }
    }
}

fn label(name: &str) -> Arc<str> {
    Arc::from(format!("[redacted {name}]"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::Secret;

    #[test]
    fn every_form_is_replaced_and_short_values_are_not_secrets() {
        let redactor = Redactor::builder()
            .secret("GITHUB_TOKEN", "ghp_abc/def\"é<x")
            .secret("SHORT", "pw")
            .build();
        let escaped = serde_json::to_string("ghp_abc/def\"é<x").unwrap();
        for text in [
            "token ghp_abc/def\"é<x is bad".to_owned(),
            format!("{{\"m\":{escaped}}}"),
            "q=ghp_abc%2Fdef%22%C3%A9%3Cx&".to_owned(),
            "q=ghp_abc%2fdef%22%c3%a9%3cx&".to_owned(),
            "ghp_abc\\/def\\\"\\u00e9\\u003cx".to_owned(),
            "ghp_abc\\/def\\\"\\u00E9\\u003Cx".to_owned(),
        ] {
            let out = redactor.redact(&text);
            assert!(out.contains("[redacted GITHUB_TOKEN]"), "{text} -> {out}");
            assert!(!out.contains("ghp_abc"), "{text} -> {out}");
        }
        assert_eq!(redactor.redact("a pw b"), "a pw b", "under 8 bytes: not a secret");
        assert!(matches!(redactor.redact("nothing here"), Cow::Borrowed(_)));
        let json = redactor.redact(&format!("{{\"m\":{escaped}}}")).into_owned();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&json).unwrap()["m"],
            "[redacted GITHUB_TOKEN]",
            "a JSON body stays JSON"
        );
        assert_eq!(format!("{redactor:?}"), "Redactor { secrets: 1, signed_urls: false }");
    }

    #[test]
    fn basic_credentials_match_their_header_form() {
        let auth = Auth::Basic {
            user: "mia@example.com".into(),
            secret: Secret::new("ATATT3xFf-token"),
        };
        let redactor = Redactor::builder().auth("ATLASSIAN_API_TOKEN", &auth).build();
        let header = auth.header().unwrap().unwrap().1;
        let header = header.to_str().unwrap();
        let sent = format!("you sent Authorization: {header}");
        let out = redactor.redact(&sent);
        assert_eq!(out, "you sent Authorization: Basic [redacted ATLASSIAN_API_TOKEN]");
        let short = Redactor::builder().basic("PW", "mia@example.com", "pw").build();
        let encoded = STANDARD.encode("mia@example.com:pw");
        assert_eq!(short.redact(&encoded), "[redacted PW]", "the pair is long enough");
        assert_eq!(short.redact("pw"), "pw");
    }

    #[test]
    fn sets_combine_and_bytes_are_redacted_too() {
        let one = Redactor::builder().secret("A_TOKEN", "aaaaaaaa-1").build();
        let both = Redactor::builder()
            .redactor(&one)
            .secret("B_TOKEN", "bbbbbbbb-2")
            .build();
        assert_eq!(
            both.redact_bytes(b"\xff aaaaaaaa-1 bbbbbbbb-2").as_ref(),
            b"\xff [redacted A_TOKEN] [redacted B_TOKEN]"
        );
        assert!(Redactor::default().is_empty());
        assert!(Redactor::builder().secret("X", "short").build().is_empty());
    }
}
