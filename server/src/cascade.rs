//! The configuration layers, highest first: command-line flag, process environment, `.env` in the
//! working directory, config file, default. Layering and provenance are figment's: each layer is one provider, named
//! after its [`Source`], merged in order; [`Cascade::lookup`] is figment's winning value and [`Cascade::source`] the
//! name in its metadata (for `--print-config`).
//!
//! - Flags and the environment are read by clap ([`crate::cli`], `Arg::env`), which says which of the two gave a
//!   value.
//! - `.env` is parsed by `dotenvy` without touching the process environment; a missing file is no layer.
//! - The config file is `--config`, else `$MCP_DEVTOOLS_CONFIG` (environment, then `.env`), else the platform
//!   config dir's `mcp-devtools/config.toml` (e.g. `~/.config/mcp-devtools/config.toml`; skipped when absent). It is
//!   TOML read by `figment`, with flat keys named like the environment variables, in upper or lower case:
//!   `MCP_STRUCTURED_OUTPUT = true` or `mcp_structured_output = true`. Values are strings, numbers or booleans.
//!   An unknown key, a table or array value, or a syntax error fails start-up naming the file and the key.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use figment::providers::{Format, Toml};
use figment::value::{Dict, Map, Value};
use figment::{Figment, Metadata, Profile, Provider};

use crate::registry;

/// `MCP_DEVTOOLS_CONFIG`: the config file's path (flag `--config`).
pub const CONFIG_PATH: &str = "MCP_DEVTOOLS_CONFIG";

/// Where an effective value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// A command-line flag.
    Flag,
    /// The process environment.
    Env,
    /// The `.env` file in the working directory.
    DotEnv,
    /// The config file.
    File,
    /// No layer set it: the built-in default.
    Default,
}

impl Source {
    const LAYERS: [Source; 4] = [Source::Flag, Source::Env, Source::DotEnv, Source::File];

    /// The name shown by `--print-config` (also the figment provider's name).
    pub fn name(self) -> &'static str {
        match self {
            Source::Flag => "flag",
            Source::Env => "env",
            Source::DotEnv => ".env",
            Source::File => "file",
            Source::Default => "default",
        }
    }
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why the configuration could not be loaded; start-up stops with this message. No variant quotes a value or a
/// line of a file (they may hold secrets).
#[derive(Debug, thiserror::Error)]
pub enum CascadeError {
    /// The `.env` file exists but cannot be parsed.
    #[error("cannot read {path}: {message}")]
    DotEnv {
        /// The `.env` file.
        path: PathBuf,
        /// What is wrong, without the offending line.
        message: String,
    },
    /// The config file named by `--config` / `MCP_DEVTOOLS_CONFIG` does not exist.
    #[error("config file {path} (from {origin}) does not exist")]
    MissingFile {
        /// The path given.
        path: PathBuf,
        /// Which layer named it.
        origin: Source,
    },
    /// The config file is not valid TOML.
    #[error("config file {path} is malformed: {message}")]
    Malformed {
        /// The config file.
        path: PathBuf,
        /// The parser's message (with line and column, without the source snippet).
        message: String,
    },
    /// A key of the config file is not a setting.
    #[error(
        "config file {path}: unknown key `{key}` (keys are setting names such as MCP_STRUCTURED_OUTPUT; see --help)"
    )]
    UnknownKey {
        /// The config file.
        path: PathBuf,
        /// The offending key.
        key: String,
    },
    /// A key of the config file has a table or array value.
    #[error("config file {path}: key `{key}` must be a string, number or boolean")]
    NotAScalar {
        /// The config file.
        path: PathBuf,
        /// The offending key.
        key: String,
    },
}

/// What the layers are built from.
#[derive(Debug, Default)]
pub struct CascadeInputs {
    /// Values given as command-line flags, by setting name.
    pub flags: BTreeMap<String, String>,
    /// Values from the process environment, by setting name (read by clap in production, a map in tests).
    pub env: BTreeMap<String, String>,
    /// The config file named by `--config` (with [`Source::Flag`]) or `MCP_DEVTOOLS_CONFIG` ([`Source::Env`]).
    pub config: Option<(PathBuf, Source)>,
    /// The directory whose `.env` is read (the working directory in production).
    pub working_dir: PathBuf,
    /// The config file used when none is named (the platform default; skipped when it does not exist).
    pub default_config: Option<PathBuf>,
}

/// One layer as a figment provider: string values by setting name, named after its [`Source`].
struct Layer {
    source: Source,
    values: BTreeMap<String, String>,
}

impl Provider for Layer {
    fn metadata(&self) -> Metadata {
        Metadata::named(self.source.name())
    }

    fn data(&self) -> Result<Map<Profile, Dict>, figment::Error> {
        let dict = self
            .values
            .iter()
            .map(|(k, v)| (k.clone(), Value::from(v.clone())))
            .collect();
        Ok(Map::from([(Profile::Default, dict)]))
    }
}

/// The loaded layers, merged by figment. Holds secrets: it has no `Debug`.
pub struct Cascade {
    figment: Figment,
    file_path: Option<PathBuf>,
    /// The default config file looked for when none was named (shown by `--print-config` when it is missing).
    looked_for: Option<PathBuf>,
}

impl Cascade {
    /// Reads `.env` and the config file and merges the layers.
    ///
    /// # Errors
    /// [`CascadeError`]: a malformed `.env`, a named config file that does not exist, a malformed config file, an
    /// unknown key or a non-scalar value (each naming the file, and the key when there is one).
    pub fn load(inputs: CascadeInputs) -> Result<Cascade, CascadeError> {
        let dotenv = read_dotenv(&inputs.working_dir.join(".env"))?;
        let named = inputs
            .config
            .or_else(|| dotenv.get(CONFIG_PATH).map(|p| (PathBuf::from(p), Source::DotEnv)))
            .filter(|(path, _)| !path.as_os_str().is_empty());
        let looked_for = named.is_none().then(|| inputs.default_config.clone()).flatten();
        let file_path = match named {
            Some((path, origin)) if !path.is_file() => return Err(CascadeError::MissingFile { path, origin }),
            Some((path, _)) => Some(path),
            None => inputs.default_config.filter(|p| p.is_file()),
        };
        let file = file_path
            .as_deref()
            .map(read_config_file)
            .transpose()?
            .unwrap_or_default();
        let mut layers = [inputs.flags, inputs.env, dotenv, file]
            .into_iter()
            .zip(Source::LAYERS)
            .collect::<Vec<_>>();
        layers.reverse();
        let figment = layers.into_iter().fold(Figment::new(), |figment, (values, source)| {
            figment.merge(Layer { source, values })
        });
        Ok(Cascade {
            figment,
            file_path,
            looked_for,
        })
    }

    /// The effective raw value of setting `name` and its layer; `None` when no layer sets it.
    pub fn resolve(&self, name: &str) -> Option<(String, Source)> {
        let value = self.figment.find_value(name).ok()?.into_string()?;
        let layer = self.figment.find_metadata(name)?.name.clone();
        let source = Source::LAYERS.into_iter().find(|source| source.name() == layer)?;
        Some((value, source))
    }

    /// The effective raw value of `name` (the `lookup` for [`crate::config::Settings::from_lookup`]).
    pub fn lookup(&self, name: &str) -> Option<String> {
        self.resolve(name).map(|(value, _)| value)
    }

    /// Where `name`'s effective value comes from ([`Source::Default`] when no layer sets it).
    pub fn source(&self, name: &str) -> Source {
        self.resolve(name).map_or(Source::Default, |(_, source)| source)
    }

    /// The config file in use, if any.
    pub fn file_path(&self) -> Option<&Path> {
        self.file_path.as_deref()
    }

    /// `--print-config`: which config file was read (or looked for), then one line per setting of
    /// [`registry::SETTINGS`], `NAME = value  # source`, secrets as `***`, defaults resolved (the artifact
    /// directory) or `(unset)`; then `notes`, each as a `# warning:` line.
    pub fn render(&self, notes: &[String]) -> String {
        let file = match (&self.file_path, &self.looked_for) {
            (Some(path), _) => path.display().to_string(),
            (None, Some(default)) => format!("(none; looked for {})", default.display()),
            (None, None) => "(none)".to_string(),
        };
        let mut out = format!("# config file: {file}\n");
        for def in registry::SETTINGS {
            let (value, source) = match self.resolve(def.name) {
                Some((_, source)) if def.secret() => ("***".to_string(), source),
                Some(found) => found,
                None if def.name == registry::ARTIFACT_DIR => (
                    crate::config::default_artifact_dir().display().to_string(),
                    Source::Default,
                ),
                None => (def.default.unwrap_or("(unset)").to_string(), Source::Default),
            };
            out.push_str(&format!("{} = {value}  # {source}\n", def.name));
        }
        for note in notes {
            out.push_str(&format!("# warning: {note}\n"));
        }
        out
    }
}

/// The platform config dir's `mcp-devtools/config.toml` (e.g. `~/.config/mcp-devtools/config.toml` on Linux).
pub fn default_config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("dev", "mcp-devtools", "mcp-devtools")
        .map(|dirs| dirs.config_dir().join("config.toml"))
}

/// The `.env` entries; the error never quotes the offending line (it may hold a secret: `GITHUB_TOKEN="ab` …).
fn read_dotenv(path: &Path) -> Result<BTreeMap<String, String>, CascadeError> {
    if !path.is_file() {
        return Ok(BTreeMap::new());
    }
    let mut values = BTreeMap::new();
    let error = |err: dotenvy::Error, valid: usize| CascadeError::DotEnv {
        path: path.to_path_buf(),
        message: match err {
            dotenvy::Error::LineParse(_, index) => format!(
                "the entry after {valid} valid entries does not parse (at character {index}); the line is not \
                 shown because it may hold a secret"
            ),
            other => other.to_string(),
        },
    };
    for item in dotenvy::from_path_iter(path).map_err(|err| error(err, 0))? {
        let (key, value) = item.map_err(|err| error(err, values.len()))?;
        values.insert(key, value);
    }
    Ok(values)
}

/// The config file's values by setting name (keys matched case-insensitively), read by figment's TOML provider.
fn read_config_file(path: &Path) -> Result<BTreeMap<String, String>, CascadeError> {
    let malformed = |err: figment::Error| CascadeError::Malformed {
        path: path.to_path_buf(),
        // Without the `|`-prefixed source snippet, which quotes the file (it may hold a secret).
        message: err
            .to_string()
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.contains('|'))
            .collect::<Vec<_>>()
            .join(": "),
    };
    let raw: BTreeMap<String, Value> = Figment::from(Toml::file_exact(path)).extract().map_err(malformed)?;
    let mut values = BTreeMap::new();
    for (key, value) in raw {
        let Some(def) = registry::SETTINGS
            .iter()
            .find(|def| def.name.eq_ignore_ascii_case(&key))
        else {
            return Err(CascadeError::UnknownKey {
                path: path.to_path_buf(),
                key,
            });
        };
        let text = match value {
            Value::String(_, s) => s,
            Value::Char(_, c) => c.to_string(),
            Value::Bool(_, b) => b.to_string(),
            Value::Num(_, n) => match (n.to_u128(), n.to_i128(), n.to_f64()) {
                (Some(u), _, _) => u.to_string(),
                (None, Some(i), _) => i.to_string(),
                (None, None, f) => f.map(|f| f.to_string()).unwrap_or_default(),
            },
            Value::Empty(..) | Value::Dict(..) | Value::Array(..) => {
                return Err(CascadeError::NotAScalar {
                    path: path.to_path_buf(),
                    key,
                });
            }
        };
        values.insert(def.name.to_string(), text);
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::STRUCTURED_MAX_BYTES as MAX;
    use std::fs;

    struct Fixture {
        dir: tempfile::TempDir,
    }

    impl Fixture {
        fn new() -> Self {
            Fixture {
                dir: tempfile::tempdir().unwrap(),
            }
        }
        fn write(&self, name: &str, text: &str) -> PathBuf {
            let path = self.dir.path().join(name);
            fs::write(&path, text).unwrap();
            path
        }
        fn load(
            &self,
            flags: &[(&str, &str)],
            env: &[(&str, &str)],
            default_config: Option<PathBuf>,
        ) -> Result<Cascade, CascadeError> {
            let env: BTreeMap<String, String> = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
            Cascade::load(CascadeInputs {
                flags: flags.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(),
                config: env.get(CONFIG_PATH).map(|path| (PathBuf::from(path), Source::Env)),
                env,
                working_dir: self.dir.path().to_path_buf(),
                default_config,
            })
        }
    }

    #[test]
    fn each_layer_beats_the_next() {
        let fx = Fixture::new();
        let file = fx.write("config.toml", "MCP_STRUCTURED_MAX_BYTES = 40000\n");
        fx.write(".env", "MCP_STRUCTURED_MAX_BYTES=30000\n");
        let all = fx
            .load(&[(MAX, "50000")], &[(MAX, "20000")], Some(file.clone()))
            .unwrap();
        assert_eq!(all.resolve(MAX), Some(("50000".into(), Source::Flag)));
        let no_flag = fx.load(&[], &[(MAX, "20000")], Some(file.clone())).unwrap();
        assert_eq!(no_flag.resolve(MAX), Some(("20000".into(), Source::Env)));
        let no_env = fx.load(&[], &[], Some(file.clone())).unwrap();
        assert_eq!(no_env.resolve(MAX), Some(("30000".into(), Source::DotEnv)));
        fs::remove_file(fx.dir.path().join(".env")).unwrap();
        let file_only = fx.load(&[], &[], Some(file)).unwrap();
        assert_eq!(file_only.resolve(MAX), Some(("40000".into(), Source::File)));
        let nothing = fx.load(&[], &[], None).unwrap();
        assert_eq!(nothing.resolve(MAX), None);
        assert_eq!(nothing.source(MAX), Source::Default);
    }

    #[test]
    fn dotenv_does_not_touch_the_process_environment() {
        let fx = Fixture::new();
        fx.write(".env", "MCP_DEVTOOLS_CASCADE_TEST_ONLY=1\n");
        let cascade = fx.load(&[], &[], None).unwrap();
        assert_eq!(cascade.lookup("MCP_DEVTOOLS_CASCADE_TEST_ONLY"), Some("1".into()));
        assert!(std::env::var("MCP_DEVTOOLS_CASCADE_TEST_ONLY").is_err());
    }

    #[test]
    fn config_path_comes_from_env_then_dotenv() {
        let fx = Fixture::new();
        let named = fx.write("named.toml", "mcp_structured_output = true\n");
        let default = fx.write("default.toml", "MCP_STRUCTURED_OUTPUT = false\n");
        let via_env = fx
            .load(&[], &[(CONFIG_PATH, named.to_str().unwrap())], Some(default.clone()))
            .unwrap();
        assert_eq!(via_env.file_path(), Some(named.as_path()));
        assert_eq!(via_env.lookup("MCP_STRUCTURED_OUTPUT"), Some("true".into()));
        fx.write(".env", &format!("{CONFIG_PATH}={}\n", named.display()));
        let via_dotenv = fx.load(&[], &[], Some(default)).unwrap();
        assert_eq!(via_dotenv.file_path(), Some(named.as_path()));
    }

    #[test]
    fn a_missing_default_file_is_no_layer_but_a_missing_named_file_fails() {
        let fx = Fixture::new();
        let missing = fx.dir.path().join("nope.toml");
        assert!(fx.load(&[], &[], Some(missing.clone())).unwrap().file_path().is_none());
        let err = fx
            .load(&[], &[(CONFIG_PATH, missing.to_str().unwrap())], None)
            .err()
            .unwrap();
        assert!(err.to_string().contains("nope.toml"), "{err}");
    }

    #[test]
    fn malformed_files_name_the_file_and_key() {
        let fx = Fixture::new();
        for (text, needle) in [
            ("MCP_STRUCTURED_OUTPUT = \n", "malformed"),
            ("MCP_STRUCTURD_OUTPUT = true\n", "`MCP_STRUCTURD_OUTPUT`"),
            ("MCP_STRUCTURED_OUTPUT = [true]\n", "`MCP_STRUCTURED_OUTPUT`"),
        ] {
            let file = fx.write("bad.toml", text);
            let err = fx.load(&[], &[], Some(file)).err().unwrap().to_string();
            assert!(err.contains("bad.toml") && err.contains(needle), "{text}: {err}");
        }
        fx.write(".env", "NOT A LINE\n");
        let err = fx.load(&[], &[], None).err().unwrap().to_string();
        assert!(err.contains(".env"), "{err}");
    }

    #[test]
    fn parse_errors_never_quote_the_offending_line() {
        let fx = Fixture::new();
        let file = fx.write("bad.toml", "GITHUB_TOKEN = \"ghp_unterminated_secret\n");
        let err = fx.load(&[], &[], Some(file)).err().unwrap().to_string();
        assert!(err.contains("bad.toml") && err.contains("line 1"), "{err}");
        assert!(!err.contains("ghp_unterminated_secret"), "{err}");
        fx.write(".env", "A=1\nGITHUB_TOKEN=\"ghp_dotenv_secret\n");
        let err = fx.load(&[], &[], None).err().unwrap().to_string();
        assert!(err.contains(".env") && err.contains("after 1 valid entries"), "{err}");
        assert!(!err.contains("ghp_dotenv_secret"), "{err}");
    }

    #[test]
    fn render_masks_secrets_and_names_sources() {
        let fx = Fixture::new();
        let cascade = fx
            .load(
                &[("MCP_STRUCTURED_OUTPUT", "on")],
                &[("GITHUB_TOKEN", "ghp_very_secret")],
                None,
            )
            .unwrap();
        let text = cascade.render(&["something was clamped".into()]);
        assert!(!text.contains("ghp_very_secret"), "{text}");
        assert!(text.contains("GITHUB_TOKEN = ***  # env"), "{text}");
        assert!(text.contains("MCP_STRUCTURED_OUTPUT = on  # flag"), "{text}");
        assert!(text.contains("MCP_STRUCTURED_MAX_BYTES = 262144  # default"), "{text}");
        assert!(text.contains("# warning: something was clamped"), "{text}");
    }
}
