//! `recorded-upstream`: starts the fake upstream with every scenario ([`RecordedUpstream::all`]) on 127.0.0.1 and
//! prints the settings that point `mcp-devtools` at it, one `NAME=value` per line, then an empty line. It serves
//! until interrupted (Ctrl-C / SIGTERM), or, with `--until-stdin-closes`, until its standard input closes (so a
//! program that starts it cannot leave it behind).
//!
//! Try the server without a token: `cargo run -p recorded-upstream > upstream.env &`, then
//! `set -a; . ./upstream.env; set +a` and start `mcp-devtools` in that shell.

use clap::Parser;
use recorded_upstream::RecordedUpstream;
use tokio::io::AsyncReadExt;

/// Command-line options.
#[derive(Debug, Parser)]
#[command(about = "Serve the recorded GitHub, CircleCI and Atlassian responses on 127.0.0.1 and print the env to use")]
struct Options {
    /// Stop when standard input reaches its end (for programs that start this one as a child).
    #[arg(long)]
    until_stdin_closes: bool,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let options = Options::parse();
    let upstream = RecordedUpstream::all().await?;
    let mut out = String::new();
    for (name, value) in upstream.env() {
        out += &format!("{name}={value}\n");
    }
    println!("{out}");
    let stdin_closed = async {
        if options.until_stdin_closes {
            let mut sink = Vec::new();
            // Any read error counts as closed too.
            let _ = tokio::io::stdin().read_to_end(&mut sink).await;
        } else {
            std::future::pending::<()>().await;
        }
    };
    let mut terminate = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = terminate.recv() => {}
        () = stdin_closed => {}
    }
    drop(upstream);
    Ok(())
}
