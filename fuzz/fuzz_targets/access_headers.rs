//! GitHub's permission headers (`adapters_github::Access::from_headers`): `X-Accepted-GitHub-Permissions` (sets of
//! `name=access` separated by `;`, the permissions of a set by `,`), `X-Accepted-OAuth-Scopes` and `X-OAuth-Scopes`
//! (comma-separated), which name what a 403 lacks.
//!
//! Input: three header values separated by `\n` (raw bytes; one that is not a valid header value is left out).
//!
//! Checked: no panic; every permission set is non-empty and its names are non-empty and trimmed; scopes are
//! non-empty and trimmed; the advice names something exactly when `lacks_any` (which makes a 403's code
//! `missing_permission`).
#![no_main]

use adapters_github::Access;
use http::{HeaderMap, HeaderValue};
use libfuzzer_sys::fuzz_target;

const NAMES: [&str; 3] = ["x-accepted-github-permissions", "x-accepted-oauth-scopes", "x-oauth-scopes"];

fuzz_target!(|input: &[u8]| {
    let mut headers = HeaderMap::new();
    for (name, value) in NAMES.iter().zip(input.split(|&b| b == b'\n')) {
        if let Ok(value) = HeaderValue::from_bytes(value) {
            headers.append(*name, value);
        }
    }
    let access = Access::from_headers(&headers);
    for set in &access.accepted_permissions {
        assert!(!set.is_empty());
        for name in set.keys() {
            assert!(!name.is_empty() && name.trim() == name, "{name:?}");
        }
    }
    for scope in access.accepted_scopes.iter().chain(access.token_scopes.iter().flatten()) {
        assert!(!scope.is_empty() && scope.trim() == scope, "{scope:?}");
    }
    assert_eq!(!access.advice().is_empty(), access.lacks_any(), "{access:?}");
});
