//! The command line, generated from [`crate::registry::SETTINGS`] with clap's builder API: one `--flag` per setting
//! (so `--help` lists every setting with its environment name and default), plus `--config FILE` and
//! `--print-config`.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Arg, ArgAction, Command};

use crate::cascade::CONFIG_PATH;
use crate::registry::{SETTINGS, SettingDef};

const PRINT_CONFIG: &str = "print-config";
const CONFIG: &str = "config";

/// What the command line asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CliArgs {
    /// Setting values given as flags, by setting name (switches as `"true"`).
    pub flags: BTreeMap<String, String>,
    /// `--config FILE`.
    pub config: Option<PathBuf>,
    /// `--print-config`: print the effective settings and their sources, then exit.
    pub print_config: bool,
}

/// The clap command with every setting's flag.
pub fn command() -> Command {
    let mut command = Command::new("mcp-devtools")
        .version(env!("CARGO_PKG_VERSION"))
        .about(
            "MCP server for CI and issue-tracker APIs with structured output. Serves stdio by default, streamable \
             HTTP with --http. Each setting is read from its flag, else the environment, else ./.env, else the \
             config file, else its default.",
        )
        .arg(
            Arg::new(CONFIG)
                .long(CONFIG)
                .value_name("FILE")
                .value_parser(clap::value_parser!(PathBuf))
                .help(format!(
                    "Config file (TOML, keys named like the settings) [env: {CONFIG_PATH}] \
                     [default: <platform config dir>/mcp-devtools/config.toml]"
                )),
        )
        .arg(
            Arg::new(PRINT_CONFIG)
                .long(PRINT_CONFIG)
                .action(ArgAction::SetTrue)
                .help("Print each effective setting and where it came from (secrets masked), then exit"),
        );
    for def in SETTINGS {
        command = command.arg(setting_arg(def));
    }
    command
}

fn setting_arg(def: &'static SettingDef) -> Arg {
    let default = def.default.map(|d| format!(" [default: {d}]")).unwrap_or_default();
    let arg = Arg::new(def.name)
        .long(def.flag)
        .help(format!("{} [env: {}]{default}", def.help, def.name));
    if def.switch {
        arg.action(ArgAction::SetTrue)
    } else {
        arg.action(ArgAction::Set).value_name("VALUE")
    }
}

/// Parses `args` (the first item is the program name).
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
    let mut flags = BTreeMap::new();
    for def in SETTINGS {
        if def.switch {
            if matches.get_flag(def.name) {
                flags.insert(def.name.to_string(), "true".to_string());
            }
        } else if let Some(value) = matches.get_one::<String>(def.name) {
            flags.insert(def.name.to_string(), value.clone());
        }
    }
    Ok(CliArgs {
        flags,
        config: matches.get_one::<PathBuf>(CONFIG).cloned(),
        print_config: matches.get_flag(PRINT_CONFIG),
    })
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
        assert!(parse(["mcp-devtools", "--nope"]).is_err());
    }
}
