//! [`Vendor`]: who the upstream is, for error texts and cache partitions.

/// The identity of one upstream API, used in error texts ("could not reach the CircleCI API … check
/// api_base") and as the cache namespace that a non-GET request clears.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Vendor {
    /// Display name, e.g. `GitHub`, `CircleCI`, `Jira`.
    pub name: &'static str,
    /// The setting that holds the API base URL, by the host's name ([`SettingNames`]), e.g. `api_base`.
    pub base_setting: &'static str,
    /// The setting that holds the credential, by the host's name, e.g. `token`.
    pub credential_setting: &'static str,
    /// The setting that caps a response body, named when a body is too large (e.g. `max_body_bytes`).
    pub max_body_setting: &'static str,
}

/// What a host calls the settings of one upstream ([`crate::HttpOptions`]), for the error texts of [`Vendor`].
/// [`Default`]: `api_base`, `token`, `max_body_bytes`; the bundled server gives its environment-variable names
/// (`GITHUB_API_BASE`, …). Library crates never hold a host's setting names.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SettingNames {
    /// The setting of the API base URL.
    pub base: &'static str,
    /// The setting of the credential.
    pub credential: &'static str,
    /// The setting of the response-body cap.
    pub max_body: &'static str,
}

impl SettingNames {
    /// This set of names with [`SettingNames::base`] set.
    #[must_use]
    pub fn with_base(mut self, base: &'static str) -> Self {
        self.base = base;
        self
    }

    /// This set of names with [`SettingNames::credential`] set.
    #[must_use]
    pub fn with_credential(mut self, credential: &'static str) -> Self {
        self.credential = credential;
        self
    }

    /// This set of names with [`SettingNames::max_body`] set.
    #[must_use]
    pub fn with_max_body(mut self, max_body: &'static str) -> Self {
        self.max_body = max_body;
        self
    }
}

impl Default for SettingNames {
    fn default() -> Self {
        SettingNames {
            base: "api_base",
            credential: "token",
            max_body: "max_body_bytes",
        }
    }
}

impl Vendor {
    /// The upstream called `name` (e.g. `GitHub`) whose settings the host calls `names`.
    pub const fn new(name: &'static str, names: SettingNames) -> Vendor {
        Vendor {
            name,
            base_setting: names.base,
            credential_setting: names.credential,
            max_body_setting: names.max_body,
        }
    }
}
