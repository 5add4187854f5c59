//! The settings table of `docs/server.md` is the settings registry.

use std::collections::BTreeMap;
use std::path::Path;

use super::{read, repo_root};
use crate::registry::{SETTINGS, SettingDef};

const TABLE_BEGIN: &str = "<!-- settings:begin";
const TABLE_END: &str = "<!-- settings:end -->";
const TABLE_HEAD: &str = "| setting | flag | default | meaning |\n|---|---|---|---|\n";
const REGENERATE: &str = "UPDATE_DOCS=1 cargo test -p mcp-devtools-server --lib docs_check";

/// The default column as the registry gives it: the default in backticks, or `unset`.
fn default_cell(def: &SettingDef) -> String {
    def.default
        .map_or_else(|| "unset".to_owned(), |default| format!("`{default}`"))
}

/// The rows of the table as written: per setting name, the default column and the meaning.
fn written_rows(table: &str) -> BTreeMap<String, (String, String)> {
    let mut rows = BTreeMap::new();
    for line in table.lines().filter(|line| line.starts_with("| `")) {
        let inner = line.trim_start_matches("| ").trim_end_matches(" |");
        let cells: Vec<&str> = inner.splitn(4, " | ").collect();
        if let [name, _flag, default, meaning] = cells[..] {
            rows.insert(
                name.trim_matches('`').to_owned(),
                (default.to_owned(), meaning.to_owned()),
            );
        }
    }
    rows
}

/// The table from the registry, keeping what the page says about each setting: the meaning, and any note after the
/// registry's default (`(32 MiB)`).
fn render_table(written: &BTreeMap<String, (String, String)>) -> String {
    let mut table = String::from(TABLE_HEAD);
    for def in SETTINGS {
        let default = default_cell(def);
        let (note, meaning) = match written.get(def.name) {
            Some((cell, meaning)) => (cell.strip_prefix(&default).unwrap_or_default(), meaning.clone()),
            None => ("", format!("{}.", def.help)),
        };
        table.push_str(&format!(
            "| `{}` | `--{}` | {default}{note} | {meaning} |\n",
            def.name, def.flag
        ));
    }
    table
}

#[test]
fn settings_table_is_the_registry() {
    let Some(root) = repo_root() else { return };
    let path = root.join("docs/server.md");
    let page = read(&root, Path::new("docs/server.md"));
    let begin = page
        .find(TABLE_BEGIN)
        .expect("docs/server.md has the settings:begin marker");
    let start = begin + page[begin..].find('\n').expect("a line after the marker") + 1;
    let end = page
        .find(TABLE_END)
        .expect("docs/server.md has the settings:end marker");
    let written = &page[start..end];
    let rendered = render_table(&written_rows(written));
    if written == rendered {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let updated = format!("{}{rendered}{}", &page[..start], &page[end..]);
        std::fs::write(&path, updated).expect("docs/server.md is writable");
        eprintln!("docs_check: rewrote the settings table of docs/server.md; review the meaning of new rows");
        return;
    }
    let rows = written_rows(written);
    let missing: Vec<&str> = SETTINGS
        .iter()
        .map(|def| def.name)
        .filter(|name| !rows.contains_key(*name))
        .collect();
    let unknown: Vec<&String> = rows
        .keys()
        .filter(|name| !SETTINGS.iter().any(|def| def.name == *name))
        .collect();
    let differing: Vec<String> = written
        .lines()
        .zip(rendered.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("  page:     {a}\n  registry: {b}"))
        .take(5)
        .collect();
    panic!(
        "the settings table of docs/server.md disagrees with server/src/registry.rs ({} rows written, {} settings); \
         missing from the page: {missing:?}; not settings: {unknown:?}); regenerate it with `{REGENERATE}` and \
         review it. First differences:\n{}",
        rows.len(),
        SETTINGS.len(),
        differing.join("\n")
    );
}

#[test]
fn rendering_keeps_notes_and_meanings() {
    let mut written = BTreeMap::new();
    written.insert(
        "HTTP_MAX_BODY_BYTES".to_owned(),
        ("`33554432` (32 MiB)".to_owned(), "Largest body.".to_owned()),
    );
    let table = render_table(&written);
    assert!(
        table.contains("| `HTTP_MAX_BODY_BYTES` | `--http-max-body-bytes` | `33554432` (32 MiB) | Largest body. |")
    );
    // A setting the page does not have yet gets its --help text.
    assert!(table.contains("| `RUST_LOG` | `--log` | `info` | Log filter (tracing EnvFilter syntax"));
    assert_eq!(table.lines().count(), SETTINGS.len() + 2);
}
