//! [`Redactor`]: the one place where configured secrets are taken out of what an upstream sends back (private module: its items are
//! at the crate root; the details are on [`Redactor`]).

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use aho_corasick::{AhoCorasick, MatchKind};
use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, STANDARD_NO_PAD, URL_SAFE, URL_SAFE_NO_PAD};

use crate::auth::Auth;

/// Shortest value treated as a secret, in bytes: 8. Shorter values are left in texts (see [`Redactor`]).
pub const MIN_SECRET_BYTES: usize = 8;

/// A set of secrets to take out of texts, each replaced by `[redacted NAME]`. Cheap to clone; [`Default`]: none.
/// `Debug` shows how many secrets it holds, never one of them.
///
/// [`Redactor`]: the one place where configured secrets are taken out of what an upstream sends back.
///
/// A vendor may quote a credential back (`Bad credentials: token ghp_… is not valid`, an `Authorization` header
/// echoed in a debug body, a token pasted into an issue). Every [`crate::HttpClient`] runs its answer's body and
/// header values through its redactor as soon as they are read, before anything else sees them: error texts,
/// decoded bodies, `structuredContent`, write results, artifacts and the HTTP cache (memory and Redis) then never
/// hold a secret, whichever vendor's code reads the answer.
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
}

struct Matcher {
    /// Every form of every secret, with its replacement, for rebuilding a larger set.
    forms: Vec<(Vec<u8>, Arc<str>)>,
    /// How many secrets (not forms) were added.
    secrets: usize,
    automaton: AhoCorasick,
    replacements: Vec<Arc<str>>,
}

impl fmt::Debug for Redactor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let secrets = self.inner.as_ref().map_or(0, |m| m.secrets);
        f.debug_struct("Redactor").field("secrets", &secrets).finish()
    }
}

impl Redactor {
    /// A builder with no secrets yet.
    pub fn builder() -> RedactorBuilder {
        RedactorBuilder::default()
    }

    /// True when there is nothing to redact.
    pub fn is_empty(&self) -> bool {
        self.inner.is_none()
    }

    /// `text` with every form of every secret replaced; borrowed (no copy) when none occurs.
    pub fn redact<'a>(&self, text: &'a str) -> Cow<'a, str> {
        let Some(matcher) = &self.inner else {
            return Cow::Borrowed(text);
        };
        if !matcher.automaton.is_match(text) {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        matcher.automaton.replace_all_with(text, &mut out, |found, _, out| {
            out.push_str(&matcher.replacements[found.pattern().as_usize()]);
            true
        });
        Cow::Owned(out)
    }

    /// [`Redactor::redact`] over bytes (a body in any encoding: the forms are matched as UTF-8 bytes).
    pub fn redact_bytes<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        let Some(matcher) = &self.inner else {
            return Cow::Borrowed(bytes);
        };
        if !matcher.automaton.is_match(bytes) {
            return Cow::Borrowed(bytes);
        }
        let mut out = Vec::with_capacity(bytes.len());
        matcher
            .automaton
            .replace_all_with_bytes(bytes, &mut out, |found, _, out| {
                out.extend_from_slice(matcher.replacements[found.pattern().as_usize()].as_bytes());
                true
            });
        Cow::Owned(out)
    }
}

/// Collects secrets for a [`Redactor`]. `name` is what the replacement shows (`[redacted NAME]`): the setting that
/// holds the secret, by the host's name ([`crate::SettingNames`]), never the value.
#[derive(Default)]
pub struct RedactorBuilder {
    forms: Vec<(Vec<u8>, Arc<str>)>,
    secrets: usize,
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

    /// Adds every secret of `other`, under its own names.
    #[must_use]
    pub fn redactor(mut self, other: &Redactor) -> Self {
        if let Some(matcher) = &other.inner {
            self.forms.extend(matcher.forms.iter().cloned());
            self.secrets += matcher.secrets;
        }
        self
    }

    /// The redactor. With no secret at all it does nothing (and costs nothing).
    pub fn build(mut self) -> Redactor {
        // One replacement per form: the first name given for it wins.
        let mut seen = std::collections::HashSet::new();
        self.forms.retain(|(form, _)| seen.insert(form.clone()));
        if self.forms.is_empty() {
            return Redactor::default();
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
                return Redactor::default();
            }
        };
        let replacements = self.forms.iter().map(|(_, label)| label.clone()).collect();
        Redactor {
            inner: Some(Arc::new(Matcher {
                forms: self.forms,
                secrets: self.secrets,
                automaton,
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

/// `value` as a JSON string's content in every escaping style encoders use (RFC 8259 §7).
fn json_forms(value: &str) -> Vec<String> {
    let mut forms = Vec::new();
    for style in 0u8..16 {
        let (slash, ascii, html, upper) = (style & 1 != 0, style & 2 != 0, style & 4 != 0, style & 8 != 0);
        let mut out = String::with_capacity(value.len() + 8);
        let mut units = [0u16; 2];
        for c in value.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '/' if slash => out.push_str("\\/"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                '\u{8}' => out.push_str("\\b"),
                '\u{c}' => out.push_str("\\f"),
                c if (c as u32) < 0x20
                    || (ascii && !c.is_ascii())
                    || (html && matches!(c, '<' | '>' | '&' | '\'' | '\u{2028}' | '\u{2029}')) =>
                {
                    for unit in c.encode_utf16(&mut units) {
                        if upper {
                            out.push_str(&format!("\\u{unit:04X}"));
                        } else {
                            out.push_str(&format!("\\u{unit:04x}"));
                        }
                    }
                }
                c => out.push(c),
            }
        }
        forms.push(out);
    }
    forms
}

/// `value` percent-encoded as URL encoders do (RFC 3986 §2.1; WHATWG URL's form encoding).
fn percent_forms(value: &str) -> Vec<String> {
    let unreserved = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~');
    let component = |b: u8| unreserved(b) || matches!(b, b'!' | b'\'' | b'(' | b')' | b'*');
    let form = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_');
    let sets: [&dyn Fn(u8) -> bool; 3] = [&unreserved, &component, &form];
    let mut forms = Vec::new();
    for keep in sets {
        for plus in [false, true] {
            for upper in [false, true] {
                let mut out = String::with_capacity(value.len() * 3);
                for b in value.bytes() {
                    if keep(b) {
                        out.push(char::from(b));
                    } else if plus && b == b' ' {
                        out.push('+');
                    } else if upper {
                        out.push_str(&format!("%{b:02X}"));
                    } else {
                        out.push_str(&format!("%{b:02x}"));
                    }
                }
                forms.push(out);
            }
        }
    }
    forms
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
        assert_eq!(format!("{redactor:?}"), "Redactor { secrets: 1 }");
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
