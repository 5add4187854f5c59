//! The repository's docs hold to the code: the settings table of `docs/server.md` is the settings registry
//! ([`crate::registry::SETTINGS`]), and every command of a `sh` block in the README, `docs/`, `FUZZING.md` and
//! `BENCHMARKS.md` names a real script, package, binary or target and flags `mcp-devtools` accepts. Relative links
//! of those pages point at files and headings that exist, the repository paths they and the crates' READMEs name
//! exist, the settings files they show use only real settings, and every setting they name (in prose, and in the
//! `text` blocks quoting messages, as the recipes of docs/server.md do) is one. The GitHub Enterprise Server and
//! GHE.com recipe's settings files are read by the settings reader and build a GitHub client under their base.
//!
//! `UPDATE_DOCS=1 cargo test -p mcp-devtools-server --lib docs_check` rewrites the settings table from the registry
//! (names, flags and defaults; the meanings written in the page are kept, a new setting gets its `--help` text).
//! Outside the repository (a crate built from its package) the pages are absent and these tests check nothing.

use std::path::{Path, PathBuf};

mod commands;
mod pages;
mod recipes;
mod settings_table;

/// The repository root, or `None` outside the repository.
fn repo_root() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent()?.to_path_buf();
    if root.join("docs/server.md").is_file() {
        Some(root)
    } else {
        eprintln!("docs_check: no docs/server.md next to this crate (built from its package): nothing to check");
        None
    }
}

/// The pages whose commands, links and settings files are checked, relative to the root.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut pages = vec![
        PathBuf::from("README.md"),
        PathBuf::from("FUZZING.md"),
        PathBuf::from("BENCHMARKS.md"),
    ];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ is readable")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .map(|path| PathBuf::from("docs").join(path.file_name().expect("a file name")))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

fn read(root: &Path, page: &Path) -> String {
    std::fs::read_to_string(root.join(page)).unwrap_or_else(|err| panic!("{}: {err}", page.display()))
}
