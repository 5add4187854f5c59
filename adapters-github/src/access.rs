//! [`Access`]: what GitHub's response headers say the endpoint accepts and the token has, for the errors that must
//! name the missing permission.
//!
//! `X-Accepted-GitHub-Permissions` (fine-grained tokens and GitHub Apps): the sets of permissions that each give
//! access, separated by `;`, the permissions of one set by `,`, each `name=access`
//! (<https://github.blog/changelog/2023-08-10-x-accepted-github-permissions-header-for-fine-grained-permission-actors>,
//! <https://docs.github.com/rest/using-the-rest-api/troubleshooting-the-rest-api#insufficient-permission-errors>).
//! `X-Accepted-OAuth-Scopes` and `X-OAuth-Scopes` (classic tokens, OAuth apps): comma-separated scopes
//! (<https://docs.github.com/apps/oauth-apps/building-oauth-apps/scopes-for-oauth-apps>).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use http::HeaderMap;

/// Permissions and scopes named by one answer's headers; all empty when it named none.
#[non_exhaustive]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// The sets of fine-grained permissions the endpoint accepts (any one set suffices), each `{permission: access}`.
    pub accepted_permissions: Vec<BTreeMap<String, String>>,
    /// The OAuth scopes the endpoint accepts (any one suffices).
    pub accepted_scopes: Vec<String>,
    /// The scopes the token has, when GitHub said (`None`: not said; a fine-grained token has none).
    pub token_scopes: Option<Vec<String>>,
}

impl Access {
    /// Reads the three headers (each value lossily as UTF-8; entries without a name are skipped).
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let values = |name: &str| -> Option<String> {
            let all: Vec<String> = headers
                .get_all(name)
                .iter()
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .collect();
            (!all.is_empty()).then(|| all.join(","))
        };
        let accepted_permissions = values("x-accepted-github-permissions")
            .map(|v| permission_sets(&v))
            .unwrap_or_default();
        let accepted_scopes = values("x-accepted-oauth-scopes")
            .map(|v| scopes(&v))
            .unwrap_or_default();
        let token_scopes = values("x-oauth-scopes").map(|v| scopes(&v));
        Self {
            accepted_permissions,
            accepted_scopes,
            token_scopes,
        }
    }

    /// True when the headers name what the endpoint accepts and the token may lack it: fine-grained permissions
    /// (GitHub does not say which ones the token has), or OAuth scopes none of which the token has (GitHub lists
    /// every scope that suffices, the broader ones included, so containment is enough).
    pub fn lacks_any(&self) -> bool {
        let scope_missing = !self.accepted_scopes.is_empty()
            && !self
                .token_scopes
                .as_ref()
                .is_some_and(|has| self.accepted_scopes.iter().any(|scope| has.contains(scope)));
        !self.accepted_permissions.is_empty() || scope_missing
    }

    /// The sentence that names what may be lacking (see [`Access::lacks_any`]), e.g. ` The endpoint accepts the fine-grained permission actions=read or
    /// contents=read; give the token one of them.`; empty when none was named.
    pub fn advice(&self) -> String {
        let mut text = String::new();
        if !self.accepted_permissions.is_empty() {
            let sets: Vec<String> = self
                .accepted_permissions
                .iter()
                .map(|set| {
                    set.iter()
                        .map(|(name, access)| format!("{name}={access}"))
                        .collect::<Vec<_>>()
                        .join(" and ")
                })
                .collect();
            let _ = write!(
                text,
                " The endpoint accepts the fine-grained permission {}; give the token one of them.",
                sets.join(" or ")
            );
        }
        let has_one = self
            .token_scopes
            .as_ref()
            .is_some_and(|has| self.accepted_scopes.iter().any(|scope| has.contains(scope)));
        if !self.accepted_scopes.is_empty() && !has_one {
            let _ = write!(
                text,
                " The endpoint accepts the OAuth scope {}",
                self.accepted_scopes.join(" or ")
            );
            match &self.token_scopes {
                Some(has) if has.is_empty() => text.push_str("; the token has no scope."),
                Some(has) => {
                    let _ = write!(text, "; the token has {}.", has.join(", "));
                }
                None => text.push('.'),
            }
        }
        text
    }
}

/// `a=read, b=write; c=admin` as `[{a: read, b: write}, {c: admin}]`; a permission without `=` gets access `""`.
fn permission_sets(value: &str) -> Vec<BTreeMap<String, String>> {
    value
        .split(';')
        .map(|set| {
            set.split(',')
                .filter_map(|item| {
                    let (name, access) = item.split_once('=').unwrap_or((item, ""));
                    let name = name.trim();
                    (!name.is_empty()).then(|| (name.to_owned(), access.trim().to_owned()))
                })
                .collect::<BTreeMap<_, _>>()
        })
        .filter(|set| !set.is_empty())
        .collect()
}

/// `repo, read:org` as `["repo", "read:org"]`.
fn scopes(value: &str) -> Vec<String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(*name, HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn the_changelogs_example() {
        // GitHub's own example: either permission suffices.
        let access = Access::from_headers(&headers(&[(
            "x-accepted-github-permissions",
            "repository_projects=write; organization_projects=admin",
        )]));
        assert_eq!(
            access.accepted_permissions,
            vec![
                BTreeMap::from([("repository_projects".to_owned(), "write".to_owned())]),
                BTreeMap::from([("organization_projects".to_owned(), "admin".to_owned())]),
            ]
        );
        assert!(access.lacks_any());
        assert_eq!(
            access.advice(),
            " The endpoint accepts the fine-grained permission repository_projects=write or \
             organization_projects=admin; give the token one of them."
        );
    }

    #[test]
    fn sets_of_several_permissions_and_scopes() {
        let access = Access::from_headers(&headers(&[
            ("x-accepted-github-permissions", "contents=read,pull_requests=write"),
            ("x-accepted-oauth-scopes", "repo, public_repo"),
            ("x-oauth-scopes", "read:org"),
        ]));
        assert_eq!(
            access.accepted_permissions,
            vec![BTreeMap::from([
                ("contents".to_owned(), "read".to_owned()),
                ("pull_requests".to_owned(), "write".to_owned())
            ])]
        );
        assert_eq!(access.accepted_scopes, ["repo", "public_repo"]);
        assert_eq!(access.token_scopes.as_deref(), Some(&["read:org".to_owned()][..]));
        assert!(
            access
                .advice()
                .contains("OAuth scope repo or public_repo; the token has read:org.")
        );
    }

    #[test]
    fn nothing_named() {
        let access = Access::from_headers(&headers(&[("x-oauth-scopes", ""), ("x-accepted-oauth-scopes", "")]));
        assert!(!access.lacks_any());
        assert_eq!(access.token_scopes, Some(vec![]));
        assert_eq!(Access::from_headers(&HeaderMap::new()), Access::default());
        assert_eq!(Access::default().advice(), "");
        // The endpoint accepts `repo` and the token has it (GitHub's 404 fixture): nothing lacks.
        let has = Access::from_headers(&headers(&[
            ("x-accepted-oauth-scopes", "repo"),
            ("x-oauth-scopes", "gist, repo"),
        ]));
        assert!(!has.lacks_any());
        assert_eq!(has.advice(), "");
    }
}
