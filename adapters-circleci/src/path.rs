//! CircleCI path rules: the optional `/api/v2` prefix, and which paths may be cached.

/// The API version prefix a caller may include in `path`.
pub const API_PREFIX: &str = "/api/v2";

/// Path segments whose resources change state: a path containing one is never cached.
pub const NEVER_CACHED_SEGMENTS: [&str; 3] = ["pipeline", "workflow", "job"];

/// `path` without a leading `/api/v2` (or `api/v2`), so `/api/v2/me` and `/me` name the same resource.
pub fn strip_api_prefix(path: &str) -> &str {
    let trimmed = path.trim();
    let rest = trimmed
        .strip_prefix(API_PREFIX)
        .or_else(|| trimmed.strip_prefix(&API_PREFIX[1..]));
    match rest {
        Some(rest) if rest.is_empty() || rest.starts_with(['/', '?']) => rest,
        _ => trimmed,
    }
}

/// False when a segment of `path` (the URL path below the API base, query ignored) is `pipeline`, `workflow` or
/// `job`, compared case-insensitively after percent-decoding (`/project/gh/o/r/pipeline`, `/workflow/{id}/job`).
pub fn is_cacheable_path(path: &str) -> bool {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    !path.split('/').any(|segment| {
        let decoded = percent_decode(segment);
        NEVER_CACHED_SEGMENTS
            .iter()
            .any(|never| decoded.eq_ignore_ascii_case(never))
    })
}

fn percent_decode(segment: &str) -> String {
    url::form_urlencoded::parse(format!("s={}", segment.replace('+', "%2B")).as_bytes())
        .next()
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_is_optional() {
        assert_eq!(strip_api_prefix("/api/v2/me"), "/me");
        assert_eq!(strip_api_prefix("api/v2/me"), "/me");
        assert_eq!(strip_api_prefix("/me"), "/me");
        assert_eq!(strip_api_prefix("/api/v2"), "");
        assert_eq!(strip_api_prefix("/api/v2?x=1"), "?x=1");
        assert_eq!(strip_api_prefix("/api/v20/me"), "/api/v20/me");
        assert_eq!(strip_api_prefix("/project/api/v2"), "/project/api/v2");
    }

    #[test]
    fn state_paths_are_never_cached() {
        for path in [
            "/project/gh/o/r/pipeline",
            "/pipeline/5034460f/workflow",
            "/workflow/fda08377/job",
            "/project/gh/o/r/job/101",
            "/project/gh/o/r/PIPELINE?branch=main",
            "/project/gh/o/r/%70ipeline",
        ] {
            assert!(!is_cacheable_path(path), "{path}");
        }
        for path in [
            "/me",
            "/project/gh/o/r",
            "/insights/gh/o/r/workflows",
            "/me?pipeline=1",
            "/context",
        ] {
            assert!(is_cacheable_path(path), "{path}");
        }
    }
}
