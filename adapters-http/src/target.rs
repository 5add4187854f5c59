//! Request URLs: the API base, and a path + query resolved under it.
//!
//! Percent-encoding is done exactly once, by [`url`]: a path is parsed as a relative reference (characters not
//! allowed in a path are encoded, existing `%XX` escapes are kept), path segments given one by one are each
//! encoded whole (a `/` becomes `%2F`), and query pairs are encoded by `url`'s form serializer (`+`, `/`, `=`
//! in a page token become `%2B`, `%2F`, `%3D`, and decode back to themselves upstream).

use std::net::IpAddr;

use url::{Host, Url};

use crate::error::HttpError;
use crate::vendor::Vendor;

/// Parses and checks an API base URL: absolute `http`/`https`, no query, fragment or embedded credentials.
/// A trailing slash is optional.
///
/// Errors: [`HttpError::InvalidSetting`] naming `vendor.base_setting`; the raw value is never echoed (it may hold a
/// token in its query or userinfo).
pub fn parse_base(vendor: Vendor, raw: &str) -> Result<Url, HttpError> {
    let invalid = |detail: String| HttpError::InvalidSetting {
        setting: vendor.base_setting.to_owned(),
        detail,
    };
    // The raw value is never echoed: a mistyped base may hold a token in its query or userinfo.
    let url = Url::parse(raw.trim()).map_err(|e| invalid(format!("it is not an absolute URL ({e})")))?;
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid(format!(
            "must not contain credentials; set {} instead",
            vendor.credential_setting
        )));
    }
    if !matches!(url.scheme(), "http" | "https") || url.cannot_be_a_base() {
        return Err(invalid(format!("scheme `{}` is not http or https", url.scheme())));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid(format!(
            "the URL for {} must not have a query or fragment",
            url.host_str().unwrap_or("?")
        )));
    }
    Ok(url)
}

/// True when `url`'s host is a loopback host: an address in `127.0.0.0/8`, `::1`, or the name `localhost` (any
/// case; RFC 6761 §6.3 reserves it for loopback). Plain `http` is accepted to such a host only (local test servers):
/// its traffic never crosses a network.
pub fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        Some(Host::Domain(domain)) => domain.eq_ignore_ascii_case("localhost"),
        None => false,
    }
}

/// True when `a` and `b` have the same scheme, host and port (default ports made explicit).
pub fn same_origin(a: &Url, b: &Url) -> bool {
    a.scheme() == b.scheme() && a.host_str() == b.host_str() && a.port_or_known_default() == b.port_or_known_default()
}

/// Resolves a caller's `path` under `base` and appends `query` (each pair encoded once).
///
/// `path` is relative to the base (a leading `/` is optional: `/me` and `me` both give `<base>/me`) and may
/// carry its own already-encoded query (`pipeline?branch=main`), which is kept as is before `query`. An absolute
/// `http(s)://` URL is accepted only on the base's origin. The result must stay under the base path (`..` that
/// climbs out is refused).
///
/// Errors: [`HttpError::ForeignHost`] for an absolute URL on another origin (nothing is sent, so no credential
/// leaves); [`HttpError::InvalidPath`] for an empty path, a fragment, or a path leaving the base path.
pub fn resolve<K, V>(vendor: Vendor, base: &Url, path: &str, query: &[(K, V)]) -> Result<Url, HttpError>
where
    K: AsRef<str>,
    V: AsRef<str>,
{
    let trimmed = path.trim();
    let invalid = |detail: &str| HttpError::InvalidPath {
        path: trimmed.to_owned(),
        detail: detail.to_owned(),
    };
    if trimmed.is_empty() {
        return Err(invalid("must not be empty"));
    }
    if trimmed.contains('#') {
        return Err(invalid("must not contain a fragment (`#`)"));
    }
    if has_dot_segment(trimmed) {
        return Err(invalid(
            "must not contain `.` or `..` segments, in any encoding: give the path from the API base down",
        ));
    }
    let mut url = if trimmed.contains("://") {
        let absolute = Url::parse(trimmed).map_err(|e| invalid(&format!("is not a valid URL ({e})")))?;
        if !same_origin(&absolute, base) {
            return Err(HttpError::ForeignHost {
                vendor,
                host: absolute.host_str().unwrap_or_default().to_owned(),
            });
        }
        absolute
    } else {
        let relative = trimmed.trim_start_matches(['/', '\\']);
        with_trailing_slash(base)
            .join(&format!("./{relative}"))
            .map_err(|e| invalid(&format!("is not a valid URL path ({e})")))?
    };
    if !under_base(base, &url) {
        return Err(invalid(&format!("must stay under the API base path {}", base.path())));
    }
    append_query(&mut url, query);
    Ok(url)
}

/// `url`'s path is the API `base`'s path or under it (every path, for a base at the origin's root).
pub(crate) fn under_base(base: &Url, url: &Url) -> bool {
    url.path().starts_with(with_trailing_slash(base).path()) || url.path() == base.path()
}

/// Most decoding steps looked through: a server or proxy may decode a path more than once.
const DECODINGS: usize = 4;

/// True when the path part of `path` (before its `?`) has a `.` or `..` segment as written or after any of up to
/// [`DECODINGS`] rounds of percent-decoding (`%2e%2e`, `%252e%252e`, …), with `\` also taken as a separator (as
/// some servers do) and a segment's `;` parameters ignored (`..;/`, which Tomcat, under Jira and Confluence Data
/// Center, reads as `..`). RFC 3986 §5.2.4 removes such segments, so whichever step does it, the request could
/// leave its product's prefix on a shared host.
fn has_dot_segment(path: &str) -> bool {
    let mut current = path.split('?').next().unwrap_or_default().to_owned();
    for _ in 0..=DECODINGS {
        let dotted = current.split(['/', '\\']).any(|segment| {
            let segment = segment.split(';').next().unwrap_or_default().trim();
            segment == "." || segment == ".."
        });
        if dotted {
            return true;
        }
        let decoded = percent_encoding::percent_decode_str(&current)
            .decode_utf8_lossy()
            .into_owned();
        if decoded == current {
            return false;
        }
        current = decoded;
    }
    // Still changing after every round: refuse rather than guess what a later step makes of it.
    true
}

/// Appends `segments` to the base path, each percent-encoded as one segment (`a/b` → `a%2Fb`), and sets the
/// query to `query`. `None` when the base cannot hold a path (never for a URL from [`parse_base`]).
pub fn with_segments<K, V>(base: &Url, segments: &[&str], query: &[(K, V)]) -> Option<Url>
where
    K: AsRef<str>,
    V: AsRef<str>,
{
    let mut url = base.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.path_segments_mut().ok()?.pop_if_empty().extend(segments);
    append_query(&mut url, query);
    Some(url)
}

fn append_query<K: AsRef<str>, V: AsRef<str>>(url: &mut Url, query: &[(K, V)]) {
    if !query.is_empty() {
        url.query_pairs_mut()
            .extend_pairs(query.iter().map(|(k, v)| (k.as_ref(), v.as_ref())));
    }
}

fn with_trailing_slash(base: &Url) -> Url {
    let mut base = base.clone();
    if !base.path().ends_with('/') {
        let path = format!("{}/", base.path());
        base.set_path(&path);
    }
    base
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
    const NO_QUERY: &[(&str, &str)] = &[];

    fn base(s: &str) -> Url {
        parse_base(V, s).unwrap()
    }

    #[test]
    fn loopback_hosts() {
        for url in [
            "http://127.0.0.1:9/",
            "http://127.1.2.3/",
            "http://[::1]:8080/x",
            "http://LocalHost:1/",
        ] {
            assert!(is_loopback(&Url::parse(url).unwrap()), "{url}");
        }
        for url in [
            "http://10.0.0.1/",
            "http://localhost.example.com/",
            "http://[::2]/",
            "http://example.com/",
        ] {
            assert!(!is_loopback(&Url::parse(url).unwrap()), "{url}");
        }
    }

    #[test]
    fn base_checks() {
        for bad in [
            "",
            "example.com",
            "ftp://x",
            "mailto:a@b",
            "https://x/?a=1",
            "https://x/#f",
        ] {
            assert!(
                matches!(parse_base(V, bad), Err(HttpError::InvalidSetting { ref setting, .. }) if setting == "TEST_API_BASE"),
                "{bad}"
            );
        }
        let err = parse_base(V, "https://u:pw-secret@x/").unwrap_err().to_string();
        assert!(!err.contains("pw-secret") && err.contains("TEST_TOKEN"), "{err}");
    }

    #[test]
    fn relative_paths_with_or_without_slash() {
        for b in ["https://circleci.com/api/v2", "https://circleci.com/api/v2/"] {
            for p in ["/me", "me", "  /me "] {
                assert_eq!(
                    resolve(V, &base(b), p, NO_QUERY).unwrap().as_str(),
                    "https://circleci.com/api/v2/me"
                );
            }
        }
        let url = resolve(V, &base("https://h/api"), "/project/gh/o r/pipeline", NO_QUERY).unwrap();
        assert_eq!(url.as_str(), "https://h/api/project/gh/o%20r/pipeline");
        let url = resolve(V, &base("https://h/api"), "/a%2Fb", NO_QUERY).unwrap();
        assert_eq!(url.path(), "/api/a%2Fb", "existing escapes are not encoded again");
    }

    #[test]
    fn query_is_encoded_exactly_once() {
        let token = "AARL+wV0/lQ1i==";
        let url = resolve(
            V,
            &base("https://h/api/v2"),
            "/x",
            &[("page-token", token), ("q", "a b&c")],
        )
        .unwrap();
        assert_eq!(url.query(), Some("page-token=AARL%2BwV0%2FlQ1i%3D%3D&q=a+b%26c"));
        let back: Vec<(String, String)> = url.query_pairs().into_owned().collect();
        assert_eq!(back[0].1, token);
        let url = resolve(V, &base("https://h/api/v2"), "/x?branch=main", &[("a", "1")]).unwrap();
        assert_eq!(url.query(), Some("branch=main&a=1"));
    }

    #[test]
    fn foreign_hosts_and_escapes_are_refused() {
        let b = base("https://h.example/api/v2");
        for p in [
            "https://evil.example/api/v2/me",
            "http://h.example/api/v2/me",
            "https://h.example:444/api/v2/x",
        ] {
            assert!(
                matches!(resolve(V, &b, p, NO_QUERY), Err(HttpError::ForeignHost { .. })),
                "{p}"
            );
        }
        let same = resolve(V, &b, "https://h.example/api/v2/me?x=1", NO_QUERY).unwrap();
        assert_eq!(same.as_str(), "https://h.example/api/v2/me?x=1");
        for p in ["//evil.example/x", "\\\\evil.example/x"] {
            assert_eq!(
                resolve(V, &b, p, NO_QUERY).unwrap().host_str(),
                Some("h.example"),
                "{p}"
            );
        }
        for p in [
            "/../v1/me",
            "%2e%2e/%2e%2e/x",
            "me/../../v1/me",
            "me/./x",
            "me/%2E%2e/x",
            "me/%252e%252e/%252E%252E/v1",
            "me/%25252e%25252e/v1",
            "me/..;/v1",
            "me/..%3B/v1",
            "me\\..\\v1",
            "me%5c..%5cv1",
            "me%2f..%2fv1",
            "",
            "  ",
            "/me#frag",
        ] {
            assert!(
                matches!(resolve(V, &b, p, NO_QUERY), Err(HttpError::InvalidPath { .. })),
                "{p}"
            );
        }
    }

    #[test]
    fn dots_inside_names_and_queries_are_not_segments() {
        let b = base("https://h.example/api/v2");
        for p in [
            "me/.well-known",
            "me/a..b",
            "me/...",
            "me?path=../x",
            "me/v1.2.3",
            "me?q=%2e%2e%2f",
        ] {
            assert!(resolve(V, &b, p, NO_QUERY).is_ok(), "{p}");
        }
    }

    #[test]
    fn segments_are_encoded_whole() {
        let url = with_segments(
            &base("https://h/api/v3/"),
            &["repos", "a/b", "c?d"],
            &[("per_page", "2")],
        )
        .unwrap();
        assert_eq!(url.as_str(), "https://h/api/v3/repos/a%2Fb/c%3Fd?per_page=2");
    }
}
