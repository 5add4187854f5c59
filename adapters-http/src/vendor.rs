//! [`Vendor`]: who the upstream is, for error texts and cache partitions.

/// The identity of one upstream API, used in error texts ("could not reach the CircleCI API … check
/// CIRCLECI_API_BASE") and as the cache namespace that a non-GET request clears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vendor {
    /// Display name, e.g. `GitHub`, `CircleCI`, `Jira`.
    pub name: &'static str,
    /// The setting that holds the API base URL, e.g. `CIRCLECI_API_BASE`.
    pub base_setting: &'static str,
    /// The setting that holds the credential, e.g. `CIRCLECI_TOKEN`.
    pub credential_setting: &'static str,
    /// The setting that caps a response body, named when a body is too large (e.g. `HTTP_MAX_BODY_BYTES`).
    pub max_body_setting: &'static str,
}
