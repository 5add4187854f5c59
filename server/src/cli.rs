//! The command line, generated from [`crate::registry::SETTINGS`] with clap's builder API: one `--flag` per setting,
//! each with `Arg::env` (so `--help` lists every setting with its environment name and default, and clap reads the
//! environment and says whether a value came from the flag or the environment), plus `--config FILE` and
//! `--print-config`. Environment values are never shown in `--help`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::cascade::{CONFIG_PATH, Source};
use crate::registry::{Kind, LOWER_CASE_ENV, SETTINGS, SettingDef};

const PRINT_CONFIG: &str = "print-config";
const CONFIG: &str = "config";

/// What the command line and the environment gave.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliArgs {
    /// Setting values given as flags, by setting name (switches as `"true"`).
    pub flags: BTreeMap<String, String>,
    /// Setting values from the process environment, by setting name.
    pub env: BTreeMap<String, String>,
    /// `--config FILE` ([`Source::Flag`]) or `MCP_DEVTOOLS_CONFIG` ([`Source::Env`]).
    pub config: Option<(PathBuf, Source)>,
    /// `--print-config`: print the effective settings and their sources, then exit.
    pub print_config: bool,
}

/// The clap command with every setting's flag, reading the process environment as it is now.
pub fn command() -> Command {
    let config = Arg::new(CONFIG)
        .long(CONFIG)
        .env(CONFIG_PATH)
        .hide_env_values(true)
        .value_name("FILE")
        .value_parser(clap::value_parser!(PathBuf))
        .help("Config file (TOML, keys named like the settings) [default: <platform config dir>/mcp-devtools/config.toml]");
    let print_config = Arg::new(PRINT_CONFIG)
        .long(PRINT_CONFIG)
        .action(ArgAction::SetTrue)
        .help("Print each effective setting and where it came from (secrets masked), then exit");
    Command::new("mcp-devtools")
        .version(env!("CARGO_PKG_VERSION"))
        .about(
            "MCP server for CI and issue-tracker APIs with structured output. Serves stdio by default, streamable \
             HTTP with --http. Each setting is read from its flag, else the environment, else ./.env, else the \
             config file, else its default.",
        )
        .arg(config)
        .arg(print_config)
        .args(SETTINGS.iter().map(setting_arg))
}

fn setting_arg(def: &'static SettingDef) -> Arg {
    let default = def.default.map(|d| format!(" [default: {d}]")).unwrap_or_default();
    let arg = Arg::new(def.name)
        .long(def.flag)
        .env(def.name)
        .hide_env_values(true)
        .value_parser(clap::value_parser!(String))
        .help(format!("{}{default}", def.help));
    match def.kind {
        Kind::Switch => arg.action(ArgAction::SetTrue),
        Kind::Value | Kind::Secret => arg.action(ArgAction::Set).value_name("VALUE"),
    }
}

/// Parses `args` (the first item is the program name); the environment is the process environment (the proxies
/// also under their lower-case names, [`LOWER_CASE_ENV`]).
///
/// # Errors
/// clap's error for an unknown flag or a missing value (its `exit()` prints usage); `--help` and `--version` come
/// back as errors of those kinds too.
pub fn parse<I, T>(args: I) -> Result<CliArgs, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let matches = command().try_get_matches_from(args)?;
    let mut cli = CliArgs {
        print_config: matches.get_flag(PRINT_CONFIG),
        config: given::<PathBuf>(&matches, CONFIG),
        ..CliArgs::default()
    };
    for def in SETTINGS {
        match given::<String>(&matches, def.name) {
            Some((value, Source::Flag)) => cli.flags.insert(def.name.to_owned(), value),
            Some((value, _)) => cli.env.insert(def.name.to_owned(), value),
            None => None,
        };
    }
    // The proxies' lower-case names (curl's and reqwest's), when neither the flag nor the upper-case name is given.
    for (name, lower) in LOWER_CASE_ENV {
        if cli.flags.contains_key(*name) || cli.env.contains_key(*name) {
            continue;
        }
        if let Some(value) = std::env::var_os(lower).and_then(|value| value.into_string().ok()) {
            cli.env.insert((*name).to_owned(), value);
        }
    }
    Ok(cli)
}

/// The value of `id` with where it came from; `None` for clap's own defaults (a switch not given).
fn given<T: Clone + Send + Sync + 'static>(matches: &ArgMatches, id: &str) -> Option<(T, Source)> {
    let source = match matches.value_source(id)? {
        ValueSource::CommandLine => Source::Flag,
        ValueSource::EnvVariable => Source::Env,
        _ => return None,
    };
    Some((matches.get_one::<T>(id)?.clone(), source))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_setting() {
        let help = command().render_long_help().to_string();
        for def in SETTINGS {
            assert!(help.contains(&format!("--{}", def.flag)), "--{} missing", def.flag);
            assert!(help.contains(def.name), "{} missing", def.name);
        }
        command().debug_assert();
    }

    #[test]
    fn flags_map_to_setting_names() {
        let cli = parse([
            "mcp-devtools",
            "--http",
            "127.0.0.1:0",
            "--no-auth",
            "--structured-output",
            "yes",
            "--print-config",
        ])
        .unwrap();
        assert_eq!(cli.flags.get("MCP_HTTP_ADDR").map(String::as_str), Some("127.0.0.1:0"));
        assert_eq!(cli.flags.get("MCP_HTTP_NO_AUTH").map(String::as_str), Some("true"));
        assert_eq!(cli.flags.get("MCP_STRUCTURED_OUTPUT").map(String::as_str), Some("yes"));
        assert!(cli.print_config);
        assert!(!cli.flags.contains_key("MCP_ENTERPRISE_MODE"));
        assert!(
            !cli.flags.contains_key("MCP_HTTP_STATELESS"),
            "a switch not given is not a flag"
        );
        assert!(parse(["mcp-devtools", "--nope"]).is_err());
    }
}
