//! Settings read from the process environment (CONTRACT §1, §3, §5).
//!
//! This is the environment layer only: the full cascade (flags, `.env`, config file) arrives with the deployment
//! issue. Every setting has a default; a malformed or out-of-range value falls back or is clamped with one warning.

use std::path::PathBuf;
use std::time::Duration;

use adapters_github::{GithubConfig, Token};
use mcp_artifacts::StoreConfig;
use mcp_envelope::SizeBound;

/// `MCP_STRUCTURED_OUTPUT`: advertise `outputSchema` and return `structuredContent` (default off).
pub const STRUCTURED_OUTPUT: &str = "MCP_STRUCTURED_OUTPUT";
/// `MCP_STRUCTURED_MAX_BYTES`: bound on the compact `structuredContent` value, bytes (default 262144).
pub const STRUCTURED_MAX_BYTES: &str = "MCP_STRUCTURED_MAX_BYTES";
/// `STREAMING_ARTIFACT_STORE`: `fs` (default) or `memory`.
pub const ARTIFACT_STORE: &str = "STREAMING_ARTIFACT_STORE";
/// `STREAMING_ARTIFACT_DIR`: the filesystem store's directory (default: the platform state dir).
pub const ARTIFACT_DIR: &str = "STREAMING_ARTIFACT_DIR";
/// `STREAMING_ARTIFACT_RETENTION_SECONDS`: how long an artifact stays readable, seconds (default 3600).
pub const ARTIFACT_RETENTION: &str = "STREAMING_ARTIFACT_RETENTION_SECONDS";
/// `STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS`: how often expired artifacts are deleted, seconds (default 60).
pub const ARTIFACT_SWEEP: &str = "STREAMING_ARTIFACT_SWEEP_INTERVAL_SECONDS";
/// `GITHUB_API_BASE`: GitHub REST base URL (default `https://api.github.com`).
pub const GITHUB_API_BASE: &str = "GITHUB_API_BASE";
/// `GITHUB_TOKEN`: the GitHub token (a secret: never logged or shown).
pub const GITHUB_TOKEN: &str = "GITHUB_TOKEN";
/// `MCP_UPSTREAM_TIMEOUT_SECONDS`: timeout of one upstream HTTP request, seconds (default 30, clamped 1..=300).
pub const UPSTREAM_TIMEOUT: &str = "MCP_UPSTREAM_TIMEOUT_SECONDS";

/// Which artifact backend to use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArtifactBackend {
    /// In memory: lost when the server stops.
    Memory,
    /// Files in this directory (created 0700 if missing).
    Fs(PathBuf),
}

/// The server's effective settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Whether tools advertise `outputSchema` and successful results carry `structuredContent`.
    pub structured_output: bool,
    /// The bound on the compact `structuredContent` value.
    pub max_bytes: SizeBound,
    /// Artifact backend.
    pub artifact_backend: ArtifactBackend,
    /// Artifact retention and sweep interval.
    pub artifact_store: StoreConfig,
    /// GitHub adapter configuration (the token inside is masked in `Debug`).
    pub github: GithubConfig,
}

impl Settings {
    /// Reads every setting through `lookup` (the process environment in production, a map in tests).
    ///
    /// Returns the settings and one warning line per value that was malformed or clamped; nothing here fails.
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> (Settings, Vec<String>) {
        let mut warnings = Vec::new();
        let structured_output = match lookup(STRUCTURED_OUTPUT) {
            None => false,
            Some(raw) => parse_bool(&raw).unwrap_or_else(|| {
                warnings.push(format!(
                    "{STRUCTURED_OUTPUT}={raw:?} is not one of true/false/1/0/yes/no/on/off; using false"
                ));
                false
            }),
        };
        let (max_bytes, warning) = SizeBound::from_setting(lookup(STRUCTURED_MAX_BYTES).as_deref());
        warnings.extend(warning.map(|w| w.to_string()));

        let artifact_backend = match lookup(ARTIFACT_STORE).as_deref().map(str::trim) {
            Some(kind) if kind.eq_ignore_ascii_case("memory") => ArtifactBackend::Memory,
            other => {
                if let Some(kind) = other.filter(|k| !k.eq_ignore_ascii_case("fs")) {
                    warnings.push(format!("{ARTIFACT_STORE}={kind:?} is not `fs` or `memory`; using fs"));
                }
                ArtifactBackend::Fs(
                    lookup(ARTIFACT_DIR)
                        .map(PathBuf::from)
                        .unwrap_or_else(default_artifact_dir),
                )
            }
        };
        let retention = seconds(&lookup, ARTIFACT_RETENTION, &mut warnings);
        let sweep = seconds(&lookup, ARTIFACT_SWEEP, &mut warnings);
        let (artifact_store, store_warnings) = StoreConfig::from_seconds(retention, sweep);
        warnings.extend(store_warnings);

        let timeout = match seconds(&lookup, UPSTREAM_TIMEOUT, &mut warnings) {
            None => 30,
            Some(s) if (1..=300).contains(&s) => s,
            Some(s) => {
                let used = s.clamp(1, 300);
                warnings.push(format!("{UPSTREAM_TIMEOUT}={s} is outside 1..=300; using {used}"));
                used
            }
        };
        let mut github = GithubConfig::default();
        if let Some(base) = lookup(GITHUB_API_BASE).filter(|b| !b.trim().is_empty()) {
            github.api_base = base.trim().to_string();
        }
        github.token = lookup(GITHUB_TOKEN)
            .filter(|t| !t.trim().is_empty())
            .map(|t| Token::new(t.trim().to_string()));
        github.timeout = Duration::from_secs(timeout);

        let settings = Settings {
            structured_output,
            max_bytes,
            artifact_backend,
            artifact_store,
            github,
        };
        (settings, warnings)
    }

    /// Reads every setting from the process environment.
    pub fn from_env() -> (Settings, Vec<String>) {
        Self::from_lookup(|name| std::env::var(name).ok())
    }
}

/// Parses `true/false/1/0/yes/no/on/off`, case-insensitive, surrounding white space ignored.
pub fn parse_bool(raw: &str) -> Option<bool> {
    match raw.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

fn seconds(lookup: &impl Fn(&str) -> Option<String>, name: &str, warnings: &mut Vec<String>) -> Option<u64> {
    let raw = lookup(name)?;
    match raw.trim().parse::<u64>() {
        Ok(value) => Some(value),
        Err(_) => {
            warnings.push(format!(
                "{name}={raw:?} is not a whole number of seconds; using the default"
            ));
            None
        }
    }
}

/// The platform state directory's `mcp-devtools/artifacts` (e.g. `~/.local/state/mcp-devtools/artifacts`), else the
/// data-local directory, else `./.mcp-devtools/artifacts`.
fn default_artifact_dir() -> PathBuf {
    directories::ProjectDirs::from("dev", "mcp-devtools", "mcp-devtools")
        .map(|dirs| dirs.state_dir().unwrap_or(dirs.data_local_dir()).join("artifacts"))
        .unwrap_or_else(|| PathBuf::from(".mcp-devtools/artifacts"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn settings(pairs: &[(&str, &str)]) -> (Settings, Vec<String>) {
        let map: HashMap<String, String> = pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        Settings::from_lookup(|name| map.get(name).cloned())
    }

    #[test]
    fn defaults() {
        let (s, warnings) = settings(&[]);
        assert!(!s.structured_output);
        assert_eq!(s.max_bytes.bytes(), 262_144);
        assert!(matches!(s.artifact_backend, ArtifactBackend::Fs(_)));
        assert!(s.github.token.is_none());
        assert!(warnings.is_empty());
    }

    #[test]
    fn switch_accepts_every_spelling() {
        for (raw, want) in [
            ("TRUE", true),
            ("1", true),
            ("Yes", true),
            ("on", true),
            ("false", false),
            ("0", false),
            ("NO", false),
            ("Off", false),
        ] {
            assert_eq!(settings(&[(STRUCTURED_OUTPUT, raw)]).0.structured_output, want, "{raw}");
        }
        let (s, warnings) = settings(&[(STRUCTURED_OUTPUT, "maybe")]);
        assert!(!s.structured_output);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn bound_is_clamped_with_one_warning() {
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "10")]);
        assert_eq!(s.max_bytes.bytes(), 16_384);
        assert_eq!(warnings.len(), 1);
        let (s, warnings) = settings(&[(STRUCTURED_MAX_BYTES, "lots")]);
        assert_eq!(s.max_bytes.bytes(), 262_144);
        assert_eq!(warnings.len(), 1);
    }

    #[test]
    fn token_is_masked_in_debug() {
        let (s, _) = settings(&[(GITHUB_TOKEN, "ghp_secret123")]);
        assert!(!format!("{s:?}").contains("ghp_secret123"));
    }

    #[test]
    fn memory_store_and_dir() {
        let (s, _) = settings(&[(ARTIFACT_STORE, "memory")]);
        assert_eq!(s.artifact_backend, ArtifactBackend::Memory);
        let (s, _) = settings(&[(ARTIFACT_DIR, "/tmp/x")]);
        assert_eq!(s.artifact_backend, ArtifactBackend::Fs(PathBuf::from("/tmp/x")));
    }
}
