//! Writes the type declarations of the code-mode examples from the server's live `tools/list`:
//! `examples/code-mode-ts/tools.d.ts` (TypeScript) and `examples/code-mode-py/tools.py` (Python `TypedDict`s), see
//! [`mcp_devtools_examples::types`]. The server runs in this process with structured output on, against the recorded
//! upstream of every vendor; nothing is built or spawned.
//!
//! Run: `scripts/gen-types` (or `cargo run -p mcp-devtools-examples --bin gen_types`); `--check` writes nothing and
//! exits 1 when a checked-in file differs from what it would write.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Parser;
use mcp_devtools_examples::types::{PYTHON_FILE, TYPESCRIPT_FILE, live_tools, python, typescript};

/// Command-line options.
#[derive(Debug, Parser)]
#[command(about = "Write examples/code-mode-ts/tools.d.ts and examples/code-mode-py/tools.py from tools/list")]
struct Options {
    /// Write nothing; fail when a checked-in file differs from a fresh generation.
    #[arg(long)]
    check: bool,
}

fn main() -> ExitCode {
    mcp_devtools_examples::harness::main("gen_types", || async {
        Ok(if run(Options::parse()).await? {
            ExitCode::SUCCESS
        } else {
            ExitCode::FAILURE
        })
    })
}

/// The repository's root (this package's parent folder).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Generates both files; writes them, or (`--check`) compares them. False when a checked file differs.
async fn run(options: Options) -> anyhow::Result<bool> {
    let tools = live_tools().await?;
    let files = [(TYPESCRIPT_FILE, typescript(&tools)), (PYTHON_FILE, python(&tools))];
    let mut same = true;
    for (file, generated) in files {
        let path = root().join(file);
        if !options.check {
            std::fs::write(&path, &generated).with_context(|| format!("writing {}", path.display()))?;
            eprintln!("gen_types: wrote {file} ({} tools)", tools.len());
            continue;
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        if let Some(difference) = first_difference(&checked_in, &generated) {
            eprintln!(
                "gen_types: {file} is not what the tools/list of the server gives ({difference}); run scripts/gen-types \
                 and check the code-mode examples against it"
            );
            same = false;
        }
    }
    Ok(same)
}

/// Where `checked_in` and `generated` first differ (line number, both lines), if they do.
fn first_difference(checked_in: &str, generated: &str) -> Option<String> {
    if checked_in == generated {
        return None;
    }
    let mut old = checked_in.lines();
    let mut new = generated.lines();
    for number in 1.. {
        match (old.next(), new.next()) {
            (Some(a), Some(b)) if a == b => {}
            (None, None) => return Some("line endings differ".to_owned()),
            (a, b) => {
                return Some(format!(
                    "line {number}: checked in {:?}, generated {:?}",
                    a.unwrap_or("<end of file>"),
                    b.unwrap_or("<end of file>")
                ));
            }
        }
    }
    None
}
