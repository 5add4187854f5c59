//! `mcp-devtools`: serves MCP over stdio (default) or streamable HTTP (`--http IP:PORT`). Settings come from the
//! configuration cascade (flag > environment > `./.env` > config file > default; `--help` lists them,
//! `--print-config` shows the effective values and their sources). Logs go to stderr, filtered by `RUST_LOG` /
//! `--log` (default `info`).

use std::process::ExitCode;

use mcp_devtools_server::cascade::{Cascade, CascadeInputs, default_config_path};
use mcp_devtools_server::{Settings, cli, serve};
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    // A jq worker (`--jq-worker`, see `mcp_projection::worker`) serves projections until its stdin ends: no settings,
    // logging or runtime, whose threads would count against its memory limit.
    if let Some(code) = mcp_projection::worker::run_if_requested() {
        return code;
    }
    serve_main()
}

/// Reads the settings ([`settings`]), then serves them ([`serve`]) on the runtime for their transport
/// ([`mcp_devtools_server::runtime_for`]: large thread stacks, so deeply nested results are serialized without
/// overflowing one; one async worker for stdio).
fn serve_main() -> ExitCode {
    let settings = match settings() {
        Ok(settings) => settings,
        Err(code) => return code,
    };
    match mcp_devtools_server::runtime_for(&settings) {
        Ok(runtime) => {
            runtime.block_on(async { tokio::spawn(serve_async(settings)).await.unwrap_or(ExitCode::FAILURE) })
        }
        Err(err) => {
            eprintln!("mcp-devtools: could not start the async runtime: {err}");
            ExitCode::FAILURE
        }
    }
}

/// The command line, the configuration cascade and the settings they give, with logging started; `Err` with the
/// exit code when the process ends here (`--help`, `--print-config`, bad settings).
fn settings() -> Result<Settings, ExitCode> {
    let args = match cli::parse(std::env::args_os()) {
        Ok(args) => args,
        Err(err) => err.exit(),
    };
    let cascade = match Cascade::load(CascadeInputs {
        flags: args.flags,
        env: args.env,
        config: args.config,
        working_dir: std::env::current_dir().unwrap_or_default(),
        default_config: default_config_path(),
    }) {
        Ok(cascade) => cascade,
        Err(err) => {
            eprintln!("mcp-devtools: {err}");
            return Err(ExitCode::from(2));
        }
    };
    let (settings, warnings) = Settings::from_lookup(|name| cascade.lookup(name));
    if args.print_config {
        let notes: Vec<String> = warnings
            .iter()
            .cloned()
            .chain(settings.errors.iter().map(|e| format!("start-up would stop: {e}")))
            .collect();
        print!("{}", cascade.render(&notes));
        for line in settings.backends() {
            println!("# backend: {line}");
        }
        return Err(ExitCode::SUCCESS);
    }
    if !settings.errors.is_empty() {
        for error in &settings.errors {
            eprintln!("mcp-devtools: {error}");
        }
        return Err(ExitCode::from(2));
    }
    let (filter, filter_warning) = match EnvFilter::try_new(&settings.deploy.log_filter) {
        Ok(filter) => (filter, None),
        Err(err) => (
            EnvFilter::new("info"),
            Some(format!("RUST_LOG is not a valid filter ({err}); using info")),
        ),
    };
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(filter)
        .init();
    for warning in warnings.iter().chain(filter_warning.iter()) {
        tracing::warn!("{warning}");
    }
    if let Some(path) = cascade.file_path() {
        tracing::info!(config_file = %path.display(), "configuration file read");
    }
    Ok(settings)
}

async fn serve_async(settings: Settings) -> ExitCode {
    match serve(settings).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            tracing::error!("{err:#}");
            eprintln!("mcp-devtools: {err:#}");
            ExitCode::FAILURE
        }
    }
}
