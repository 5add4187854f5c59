//! Next-page detection from response headers (`x-next-page`, `Link`).
//!
//! GitHub paginates with a `Link` header (RFC 8288), see
//! <https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api>. Some
//! GitHub-compatible servers and proxies send `x-next-page` instead; it wins when valid.

use std::borrow::Cow;

use http::{HeaderMap, HeaderValue};
use url::Url;

/// Header some GitHub-compatible APIs use for the next page number.
const X_NEXT_PAGE: &str = "x-next-page";

/// Returns the next page number (>= 1) announced by the response headers, or `None` on the last
/// page.
///
/// Order: a valid `x-next-page` header (a decimal integer >= 1, surrounding spaces allowed) wins;
/// otherwise each `Link` header is read with [`parse_link_next_page`] and the first hit is used.
/// An invalid `x-next-page` is ignored (the `Link` header is still consulted). Header values are
/// decoded as UTF-8, lossily: bytes outside ASCII (RFC 9110 §5.5 `obs-text`, e.g. a raw `é` in
/// another link's URL) never hide a valid `next` link. Never panics.
pub fn next_page_from_headers(headers: &HeaderMap) -> Option<u64> {
    let from_x = headers
        .get_all(X_NEXT_PAGE)
        .iter()
        .find_map(|v| parse_page_number(header_text(v).trim()));
    if from_x.is_some() {
        return from_x;
    }
    headers
        .get_all(http::header::LINK)
        .iter()
        .find_map(|v| parse_link_next_page(&header_text(v)))
}

/// A header value as text, invalid UTF-8 replaced by U+FFFD (`HeaderValue::to_str` would reject
/// the whole value for one non-ASCII byte).
fn header_text(value: &HeaderValue) -> Cow<'_, str> {
    String::from_utf8_lossy(value.as_bytes())
}

/// The target URI of the first `next` link of the `Link` headers (RFC 8288 §3), exactly as written between `<` and
/// `>` (a relative reference stays relative: resolve it against the request URI, §3.1), or `None`.
///
/// Every `Link` field line is read, in order (RFC 9110 §5.3: several lines are one comma-separated list); each
/// is parsed as [`parse_link_next`] does. Bytes outside ASCII (RFC 9110 §5.5 `obs-text`: a raw UTF-8 IRI or a
/// Latin-1 byte) are percent-encoded, byte by byte, as RFC 3987 §3.1 maps an IRI to a URI, so the answer is always
/// an ASCII URI reference. Unlike [`next_page_from_headers`], `x-next-page` is not consulted: this is the link
/// for APIs that page with cursors (GitHub's `?after=…`) as well as page numbers. Never panics.
pub fn next_link_from_headers(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(http::header::LINK)
        .iter()
        .find_map(|v| parse_link_next(&percent_encode_obs_text(v.as_bytes())))
}

/// A header value's bytes as text, each byte outside ASCII written `%XX`.
fn percent_encode_obs_text(bytes: &[u8]) -> Cow<'_, str> {
    if bytes.is_ascii() {
        return String::from_utf8_lossy(bytes);
    }
    let mut text = String::with_capacity(bytes.len() + 16);
    for &b in bytes {
        if b.is_ascii() {
            text.push(char::from(b));
        } else {
            text.push_str(&format!("%{b:02X}"));
        }
    }
    Cow::Owned(text)
}

/// Parses an RFC 8288 `Link` header value and returns the target URI of the first link whose `rel` holds the
/// relation type `next`, as written (see [`parse_link_next_page`] for the syntax accepted). `None` when there is
/// no such link or the value is malformed. Never panics.
pub fn parse_link_next(link: &str) -> Option<String> {
    parse_links(link)?
        .into_iter()
        .find(|(_, rel)| rel.as_deref().is_some_and(has_next))
        .map(|(target, _)| target.to_owned())
}

/// Whether a `rel` value (space-separated relation types, RFC 8288 §3.3) holds `next` (case-insensitive, §2.1.1).
fn has_next(rel: &str) -> bool {
    rel.split_ascii_whitespace().any(|r| r.eq_ignore_ascii_case("next"))
}

/// Parses an RFC 8288 `Link` header value and returns the `page` query parameter (an integer
/// >= 1) of the first link whose `rel` is exactly `next`.
///
/// - Links are delimited by `<...>`, so URLs may contain commas and semicolons.
/// - `rel` may come after other parameters, be quoted or bare, and hold several
///   space-separated relation types (`rel="next last"` matches); types compare case-insensitively
///   (`prev`, `nextish` do not match).
/// - Relative URLs are accepted (only their query matters).
/// - Anything malformed (unterminated `<` or quote, stray text, no `page`, `page=0`, a non-numeric
///   or overflowing page) gives `None`. Never panics.
pub fn parse_link_next_page(link: &str) -> Option<u64> {
    parse_link_next(link).and_then(|target| page_of_url(&target))
}

/// Parses a whole header into `(target, first rel value)` pairs; `None` if malformed.
fn parse_links(input: &str) -> Option<Vec<(&str, Option<String>)>> {
    let mut links = Vec::new();
    let mut rest = input;
    loop {
        rest = rest.trim_start_matches(is_ows);
        // Empty list elements (`, ,`) are allowed by the RFC 9110 list syntax.
        if let Some(r) = rest.strip_prefix(',') {
            rest = r;
            continue;
        }
        if rest.is_empty() {
            return Some(links);
        }
        let after_lt = rest.strip_prefix('<')?;
        let end = after_lt.find('>')?;
        let target = after_lt.get(..end)?;
        rest = after_lt.get(end + 1..)?;
        let mut rel: Option<String> = None;
        // Parameters: `; name[=value]` until `,` or end of input.
        loop {
            rest = rest.trim_start_matches(is_ows);
            if rest.is_empty() || rest.starts_with(',') {
                break;
            }
            rest = rest.strip_prefix(';')?.trim_start_matches(is_ows);
            let name_len = rest.find(|c: char| !is_token_char(c)).unwrap_or(rest.len());
            // An empty parameter (`;;`, a trailing `;`), as RFC 8288 Appendix B.3's parsing algorithm tolerates.
            if name_len == 0 && (rest.is_empty() || rest.starts_with([';', ','])) {
                continue;
            }
            if name_len == 0 {
                return None;
            }
            let name = rest.get(..name_len)?;
            rest = rest.get(name_len..)?.trim_start_matches(is_ows);
            let value = if let Some(r) = rest.strip_prefix('=') {
                let (value, r) = parse_param_value(r.trim_start_matches(is_ows))?;
                rest = r;
                Some(value)
            } else {
                None
            };
            // RFC 8288 §3.3: only the first `rel` parameter counts.
            if rel.is_none() && name.eq_ignore_ascii_case("rel") {
                rel = Some(value.unwrap_or_default());
            }
        }
        links.push((target, rel));
    }
}

/// Parses a quoted-string or a token; returns the value and the remaining input.
fn parse_param_value(input: &str) -> Option<(String, &str)> {
    if let Some(quoted) = input.strip_prefix('"') {
        let mut value = String::new();
        let mut chars = quoted.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => return Some((value, quoted.get(i + 1..)?)),
                '\\' => value.push(chars.next()?.1),
                c => value.push(c),
            }
        }
        None
    } else {
        let len = input.find(|c: char| !is_token_char(c)).unwrap_or(input.len());
        if len == 0 {
            return None;
        }
        Some((input.get(..len)?.to_owned(), input.get(len..)?))
    }
}

/// RFC 9110 `tchar` (bare parameter names and values).
fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

/// Optional whitespace.
fn is_ows(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// The `page` query parameter of a link target (absolute or relative).
fn page_of_url(target: &str) -> Option<u64> {
    let url = match Url::parse(target) {
        Ok(url) => url,
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            Url::parse("http://relative.invalid/").ok()?.join(target).ok()?
        }
        Err(_) => return None,
    };
    url.query_pairs()
        .find(|(name, _)| name == "page")
        .and_then(|(_, value)| parse_page_number(&value))
}

/// A page number: ASCII digits only (no sign, no spaces), value >= 1, fits in `u64`.
fn parse_page_number(raw: &str) -> Option<u64> {
    if raw.is_empty() || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    raw.parse::<u64>().ok().filter(|&n| n >= 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RECORDED: &str = "<https://api.github.com/repositories/146139403/actions/runs?exclude_pull_requests=1&page=2>; rel=\"next\", <https://api.github.com/repositories/146139403/actions/runs?exclude_pull_requests=1&page=20>; rel=\"last\"";

    #[test]
    fn recorded_github_header() {
        assert_eq!(parse_link_next_page(RECORDED), Some(2));
    }

    #[test]
    fn commas_and_semicolons_inside_urls() {
        let link = "<https://api.github.com/x?labels=a,b;c&page=7>; rel=\"next\", <https://api.github.com/x?labels=a,b&page=9>; rel=\"last\"";
        assert_eq!(parse_link_next_page(link), Some(7));
        let link = "<https://x/?q=a,b>; rel=\"prev\", <https://x/?page=3&q=,,>; rel=\"next\"";
        assert_eq!(parse_link_next_page(link), Some(3));
    }

    #[test]
    fn rel_after_other_params() {
        let link = "<https://x/?page=4>; title=\"a, b; rel=prev\"; type=\"application/json\"; rel=\"next\"";
        assert_eq!(parse_link_next_page(link), Some(4));
    }

    #[test]
    fn unquoted_rel_and_case() {
        assert_eq!(parse_link_next_page("<https://x/?page=5>; rel=next"), Some(5));
        assert_eq!(parse_link_next_page("<https://x/?page=5>;rel=NEXT"), Some(5));
        assert_eq!(parse_link_next_page("<https://x/?page=5> ; REL = next"), Some(5));
    }

    #[test]
    fn multi_valued_rel() {
        assert_eq!(parse_link_next_page("<https://x/?page=6>; rel=\"next last\""), Some(6));
        assert_eq!(parse_link_next_page("<https://x/?page=6>; rel=\"last  next\""), Some(6));
        assert_eq!(parse_link_next_page("<https://x/?page=6>; rel=\"nextish last\""), None);
    }

    #[test]
    fn prev_only_or_no_next() {
        assert_eq!(
            parse_link_next_page("<https://x/?page=1>; rel=\"prev\", <https://x/?page=1>; rel=\"first\""),
            None
        );
        assert_eq!(parse_link_next_page(""), None);
        assert_eq!(parse_link_next_page("<https://x/?page=2>"), None);
    }

    #[test]
    fn only_first_rel_counts() {
        assert_eq!(parse_link_next_page("<https://x/?page=2>; rel=prev; rel=next"), None);
    }

    #[test]
    fn relative_url() {
        assert_eq!(
            parse_link_next_page("</repos/o/r/actions/runs?per_page=2&page=8>; rel=\"next\""),
            Some(8)
        );
    }

    #[test]
    fn page_zero_and_bad_numbers_rejected() {
        for link in [
            "<https://x/?page=0>; rel=\"next\"",
            "<https://x/?page=-1>; rel=\"next\"",
            "<https://x/?page=+2>; rel=\"next\"",
            "<https://x/?page=two>; rel=\"next\"",
            "<https://x/?page=>; rel=\"next\"",
            "<https://x/?page=99999999999999999999999>; rel=\"next\"",
            "<https://x/?per_page=3>; rel=\"next\"",
        ] {
            assert_eq!(parse_link_next_page(link), None, "{link}");
        }
        assert_eq!(
            parse_link_next_page("<https://x/?page=18446744073709551615>; rel=next"),
            Some(u64::MAX)
        );
    }

    #[test]
    fn garbage_never_panics() {
        for link in [
            "garbage",
            "<",
            ">",
            "<>",
            "<https://x/?page=2",
            "<https://x/?page=2>; rel=\"next",
            "<https://x/?page=2>; rel=",
            "<https://x/?page=2>; =next",
            "<https://x/?page=2> rel=next",
            "<https://x/?page=2>; rel=next junk",
            "https://x/?page=2; rel=next",
            ";;;,,,<<>>",
            "<https://x/?page=2>; rel=\"next\\",
            "<ht tp://é/?page=2>; rel=\"next\"",
            "<https://x/?page=2>; rel=\"next\" <https://x/?page=3>",
        ] {
            let _ = parse_link_next_page(link);
        }
        assert_eq!(parse_link_next_page("garbage"), None);
        assert_eq!(parse_link_next_page("<https://x/?page=2>; rel=\"next"), None);
        assert_eq!(parse_link_next_page("<https://x/?page=2> rel=next"), None);
        assert_eq!(parse_link_next_page("<https://x/?page=2>; rel=next junk"), None);
    }

    #[test]
    fn empty_list_elements_tolerated() {
        assert_eq!(parse_link_next_page(" , <https://x/?page=2>; rel=\"next\", "), Some(2));
    }

    #[test]
    fn escaped_quotes_in_params() {
        assert_eq!(
            parse_link_next_page("<https://x/?page=2>; title=\"say \\\"hi\\\", ok\"; rel=\"next\""),
            Some(2)
        );
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            if let Ok(value) = HeaderValue::from_str(value) {
                map.append(*name, value);
            }
        }
        map
    }

    #[test]
    fn x_next_page_wins() {
        let map = headers(&[("x-next-page", "5"), ("link", RECORDED)]);
        assert_eq!(next_page_from_headers(&map), Some(5));
    }

    #[test]
    fn invalid_x_next_page_falls_back_to_link() {
        for bad in ["0", "", "abc", "-3", "+4"] {
            let map = headers(&[("x-next-page", bad), ("link", RECORDED)]);
            assert_eq!(next_page_from_headers(&map), Some(2), "{bad:?}");
        }
        let map = headers(&[("x-next-page", "0")]);
        assert_eq!(next_page_from_headers(&map), None);
    }

    /// Fuzz find (link_header target): a non-ASCII byte in another link's URL made the whole
    /// header unreadable, so the `next` link was lost.
    #[test]
    fn non_ascii_bytes_elsewhere_do_not_hide_the_next_link() {
        let utf8 = "<https://x/?page=2>; rel=\"next\", <https://x/repos/\u{e9}/?page=9>; rel=\"last\"";
        let latin1 = b"<https://x/?page=3>; rel=\"next\", <https://x/\xe9/?page=9>; rel=\"last\"";
        for (value, page) in [(utf8.as_bytes(), 2), (latin1.as_slice(), 3)] {
            let mut map = HeaderMap::new();
            map.insert(
                http::header::LINK,
                HeaderValue::from_bytes(value).unwrap_or(HeaderValue::from_static("")),
            );
            assert_eq!(next_page_from_headers(&map), Some(page), "{value:?}");
        }
        let mut map = HeaderMap::new();
        map.insert(
            "x-next-page",
            HeaderValue::from_bytes(b"4\xff").unwrap_or(HeaderValue::from_static("")),
        );
        map.insert(
            http::header::LINK,
            HeaderValue::from_static("<https://x/?page=5>; rel=next"),
        );
        assert_eq!(
            next_page_from_headers(&map),
            Some(5),
            "an x-next-page that is not a number is ignored"
        );
        assert_eq!(parse_link_next_page(utf8), Some(2));
    }

    /// RFC 8288 §3.5's examples, each with its relation types.
    #[test]
    fn rfc_8288_examples() {
        // "Link: <http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter""
        assert_eq!(
            parse_link_next(r#"<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter""#),
            None
        );
        // "Link: </>; rel="http://example.net/foo"", "Link: </terms>; rel="copyright"; anchor="#foo""
        assert_eq!(parse_link_next(r#"</>; rel="http://example.net/foo""#), None);
        assert_eq!(parse_link_next(r##"</terms>; rel="copyright"; anchor="#foo""##), None);
        // Two links in one field value, with RFC 8187 extended parameters.
        let book = "</TheBook/chapter2>; rel=\"previous\"; title*=UTF-8'de'letztes%20Kapitel, \
                    </TheBook/chapter4>; rel=\"next\"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel";
        assert_eq!(parse_link_next(book).as_deref(), Some("/TheBook/chapter4"));
        // "Link: <http://example.org/>; rel="start http://example.net/relation/other"": several relation types.
        let start = r#"<http://example.org/>; rel="start http://example.net/relation/other""#;
        assert_eq!(parse_link_next(start), None);
        let next = r#"<http://example.org/>; rel="start next http://example.net/relation/other""#;
        assert_eq!(parse_link_next(next).as_deref(), Some("http://example.org/"));
    }

    /// The syntax RFC 8288 §3 and RFC 9110 §5.6 allow: several links, quoted or bare `rel`, parameters in any order
    /// and case, optional whitespace, commas and semicolons inside URIs and quoted strings, empty list elements.
    #[test]
    fn next_target_in_every_form() {
        for (value, target) in [
            ("<https://x/a?p=2>; rel=next", "https://x/a?p=2"),
            ("<https://x/a?p=2>;rel=\"next\"", "https://x/a?p=2"),
            ("<https://x/a?p=2> ;\tREL = \"Next\"", "https://x/a?p=2"),
            (
                "<https://x/a?p=1>; rel=prev, <https://x/a?p=3>; rel=\"next last\"",
                "https://x/a?p=3",
            ),
            (
                "<https://x/a?p=3>; title=\"x, <y>; rel=prev\"; type=\"text/html\"; rel=\"next\"",
                "https://x/a?p=3",
            ),
            (
                "<https://x/a?l=a,b;c&after=Y3Vyc29y>; rel=\"next\"",
                "https://x/a?l=a,b;c&after=Y3Vyc29y",
            ),
            (", , <https://x/a?p=4>; rel=next ,", "https://x/a?p=4"),
            ("<https://x/a?p=5>; rel=next;", "https://x/a?p=5"),
            ("<https://x/a?p=6>;; rel=next", "https://x/a?p=6"),
            ("</relative?p=7>; rel=next", "/relative?p=7"),
        ] {
            assert_eq!(parse_link_next(value).as_deref(), Some(target), "{value}");
        }
        assert_eq!(
            parse_link_next("<https://x/a?p=2>; rel=prev; rel=next"),
            None,
            "only the first rel counts"
        );
        assert_eq!(parse_link_next("<https://x/a?p=2>; rel=nextpage"), None);
    }

    /// GitHub's documented forms: page numbers, and cursors with no `page` at all (audit log, `?after=`).
    /// <https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api>
    #[test]
    fn github_documented_links() {
        let numbered = "<https://api.github.com/repositories/1300192/issues?page=2>; rel=\"prev\", \
            <https://api.github.com/repositories/1300192/issues?page=4>; rel=\"next\", \
            <https://api.github.com/repositories/1300192/issues?page=515>; rel=\"last\", \
            <https://api.github.com/repositories/1300192/issues?page=1>; rel=\"first\"";
        assert_eq!(parse_link_next_page(numbered), Some(4));
        assert_eq!(
            parse_link_next(numbered).as_deref(),
            Some("https://api.github.com/repositories/1300192/issues?page=4")
        );
        let cursor = "<https://api.github.com/orgs/ORG/audit-log?after=MTYwMTkxOTU5NjQxM3xZbGI4VE5EZ1dvZTlla09uWjhoZFpR&before=>; rel=\"next\"";
        assert_eq!(parse_link_next_page(cursor), None, "no page number");
        assert_eq!(
            parse_link_next(cursor).as_deref(),
            Some(
                "https://api.github.com/orgs/ORG/audit-log?after=MTYwMTkxOTU5NjQxM3xZbGI4VE5EZ1dvZTlla09uWjhoZFpR&before="
            )
        );
    }

    /// Several `Link` field lines (RFC 9110 §5.3), and bytes outside ASCII percent-encoded (RFC 3987 §3.1).
    #[test]
    fn next_link_from_several_header_lines() {
        let map = headers(&[
            ("link", "<https://x/?page=1>; rel=\"prev\""),
            (
                "link",
                "<https://x/?page=3>; rel=\"next\", <https://x/?page=9>; rel=\"last\"",
            ),
        ]);
        assert_eq!(next_link_from_headers(&map).as_deref(), Some("https://x/?page=3"));
        assert_eq!(next_link_from_headers(&headers(&[("x-next-page", "5")])), None);
        let mut map = HeaderMap::new();
        let raw = HeaderValue::from_bytes("<https://x/r\u{e9}po?page=2>; rel=next".as_bytes()).unwrap();
        map.insert(http::header::LINK, raw);
        assert_eq!(
            next_link_from_headers(&map).as_deref(),
            Some("https://x/r%C3%A9po?page=2")
        );
        let mut map = HeaderMap::new();
        map.insert(
            http::header::LINK,
            HeaderValue::from_bytes(b"<https://x/\xe9?page=2>; rel=next").unwrap(),
        );
        assert_eq!(next_link_from_headers(&map).as_deref(), Some("https://x/%E9?page=2"));
        assert_eq!(next_page_from_headers(&map), Some(2));
    }

    #[test]
    fn link_only_and_none() {
        assert_eq!(next_page_from_headers(&headers(&[("link", RECORDED)])), Some(2));
        assert_eq!(next_page_from_headers(&HeaderMap::new()), None);
        let map = headers(&[
            ("link", "<https://x/?page=1>; rel=\"prev\""),
            ("link", "<https://x/?page=3>; rel=\"next\""),
        ]);
        assert_eq!(next_page_from_headers(&map), Some(3));
        assert_eq!(next_page_from_headers(&headers(&[("x-next-page", " 7 ")])), Some(7));
    }
}
