//! The pages' relative links resolve, their settings files use real settings, the settings they name (in prose and in
//! the `text` blocks that show messages and output, the recipes' included) exist, their code blocks are tagged and
//! closed.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use super::commands::is_known;
use super::{pages, read, repo_root};
use crate::registry::SETTINGS;

/// The anchors GitHub gives a page's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    text.lines()
        .filter(|line| line.starts_with('#'))
        .map(|line| {
            line.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_' || *c == ' ')
                .map(|c| if c == ' ' { '-' } else { c })
                .collect()
        })
        .collect()
}

/// The text outside fenced blocks.
fn prose(text: &str) -> String {
    let mut fenced = false;
    let mut out = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn relative_links_of_the_docs_resolve() {
    let Some(root) = repo_root() else { return };
    let mut failures = Vec::new();
    for page in pages(&root) {
        let text = prose(&read(&root, &page));
        for (start, _) in text.match_indices("](") {
            let rest = &text[start + 2..];
            let Some(end) = rest.find(')') else { continue };
            let link = &rest[..end];
            if link.contains("://") || link.starts_with("mailto:") || link.contains(' ') {
                continue;
            }
            let (path, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if path.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap_or(Path::new("")).join(path)
            };
            let full = root.join(&target);
            if !full.exists() {
                failures.push(format!("{}: link `{link}`: no such file", page.display()));
            } else if !anchor.is_empty() && full.extension().is_some_and(|ext| ext == "md") {
                let text = std::fs::read_to_string(&full).unwrap_or_default();
                if !anchors(&text).contains(anchor) {
                    failures.push(format!("{}: link `{link}`: no such heading", page.display()));
                }
            }
        }
    }
    assert!(failures.is_empty(), "broken links:\n{}", failures.join("\n"));
}

#[test]
fn settings_files_of_the_docs_use_real_settings() {
    let Some(root) = repo_root() else { return };
    let settings: BTreeSet<&str> = SETTINGS.iter().map(|def| def.name).collect();
    let mut failures = Vec::new();
    for page in pages(&root) {
        let text = read(&root, &page);
        let mut block: Option<String> = None;
        for line in text.lines() {
            let trimmed = line.trim_start();
            match (&mut block, trimmed.strip_prefix("```")) {
                (None, Some("toml")) => block = Some(String::new()),
                (Some(body), Some(_)) => {
                    match toml::from_str::<toml::Table>(body) {
                        Ok(table) => {
                            let keys = table
                                .keys()
                                .filter(|key| key.chars().all(|c| c.is_ascii_uppercase() || c == '_'));
                            for key in keys.filter(|key| !settings.contains(key.as_str())) {
                                failures.push(format!("{}: `{key}` is not a setting", page.display()));
                            }
                        }
                        Err(err) => failures.push(format!("{}: a toml block does not parse: {err}", page.display())),
                    }
                    block = None;
                }
                (Some(body), None) => {
                    body.push_str(line);
                    body.push('\n');
                }
                _ => {}
            }
        }
    }
    assert!(
        failures.is_empty(),
        "settings files of the docs:\n{}",
        failures.join("\n")
    );
}

#[test]
fn code_blocks_of_the_docs_are_tagged_and_closed() {
    // An untagged block is Rust to rustdoc (the pages are doctests of mcp-devtools-examples), and an unclosed one
    // swallows the rest of the page.
    let Some(root) = repo_root() else { return };
    let mut failures = Vec::new();
    for page in pages(&root) {
        let mut open = false;
        for (index, line) in read(&root, &page).lines().enumerate() {
            let Some(tag) = line.trim_start().strip_prefix("```") else {
                continue;
            };
            if !open && tag.trim().is_empty() {
                failures.push(format!(
                    "{}:{}: a code block without a language",
                    page.display(),
                    index + 1
                ));
            }
            open = !open;
        }
        if open {
            failures.push(format!("{}: a code block is not closed", page.display()));
        }
    }
    assert!(failures.is_empty(), "code blocks of the docs:\n{}", failures.join("\n"));
}

/// The repository paths a page names in inline code (`` `server/tests/it/fault_matrix.rs` ``): those that start
/// with one of the root's folders, without globs or placeholders, and outside what builds and installs make
/// (`target/`, `node_modules/`, `.venv/`).
fn named_paths(root: &Path, text: &str) -> Vec<String> {
    let mut paths = Vec::new();
    for span in text.split('`').skip(1).step_by(2) {
        let path = span.split_once(['#', ':']).map_or(span, |(path, _)| path);
        let Some((first, _)) = path.split_once('/') else {
            continue;
        };
        let placeholder = path.contains(|c: char| c.is_whitespace() || "*{}<>[]$".contains(c));
        let made = path
            .split('/')
            .any(|segment| ["target", "node_modules", ".venv"].contains(&segment));
        let relative = first.is_empty() || first.starts_with('.');
        if !placeholder && !made && !relative && root.join(first).is_dir() {
            paths.push(path.to_string());
        }
    }
    paths
}

/// The crates' own READMEs, beside [`pages`].
fn crate_readmes(root: &Path) -> Vec<PathBuf> {
    let mut readmes: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("the root is readable")
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|dir| dir.join("Cargo.toml").is_file() && dir.join("README.md").is_file())
        .map(|dir| PathBuf::from(dir.file_name().expect("a folder name")).join("README.md"))
        .collect();
    readmes.sort();
    readmes
}

#[test]
fn paths_the_docs_name_exist() {
    let Some(root) = repo_root() else { return };
    let mut failures = Vec::new();
    for page in pages(&root).into_iter().chain(crate_readmes(&root)) {
        for path in named_paths(&root, &prose(&read(&root, &page))) {
            if !root.join(&path).exists() {
                failures.push(format!("{}: `{path}`: no such file or folder", page.display()));
            }
        }
    }
    assert!(failures.is_empty(), "paths that do not exist:\n{}", failures.join("\n"));
}

/// The names a page gives settings: every inline-code span of its prose that is a name (`GITHUB_CA_BUNDLE`, or
/// `NAME=value`), and every such word of its `text` blocks (the error messages and `--print-config` lines the pages
/// quote). Names with `*` (`ATLASSIAN_*`) are families, not names.
fn named_settings(text: &str) -> Vec<String> {
    let is_name = |word: &str| {
        word.contains('_')
            && word.starts_with(|c: char| c.is_ascii_uppercase())
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    };
    let mut names: Vec<String> = prose(text)
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|span| span.split_once('=').map_or(span, |(name, _)| name))
        .filter(|name| is_name(name))
        .map(str::to_owned)
        .collect();
    let mut in_text = None;
    for line in text.lines() {
        if let Some(tag) = line.trim_start().strip_prefix("```") {
            in_text = match in_text {
                None => Some(tag.trim() == "text"),
                Some(_) => None,
            };
        } else if in_text == Some(true) {
            let words = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            names.extend(words.filter(|word| is_name(word)).map(str::to_owned));
        }
    }
    names
}

#[test]
fn settings_the_docs_name_exist() {
    let Some(root) = repo_root() else { return };
    let settings: BTreeSet<&str> = SETTINGS.iter().map(|def| def.name).collect();
    let mut failures = BTreeSet::new();
    for page in pages(&root) {
        for name in named_settings(&read(&root, &page)) {
            if !is_known(&settings, &name) {
                failures.insert(format!(
                    "{}: `{name}` is not a setting of server/src/registry.rs",
                    page.display()
                ));
            }
        }
    }
    let failures: Vec<String> = failures.into_iter().collect();
    assert!(failures.is_empty(), "settings the docs name:\n{}", failures.join("\n"));
}

#[test]
fn named_settings_are_found_in_prose_and_text_blocks() {
    let page = "Set `GITHUB_CA_BUNDEL` (or `MCP_CA_BUNDLE=/etc/ca.pem`, `ATLASSIAN_*`), not `SSL_CERT_FILE`.\n\
                ```text\nmcp-devtools: HTTPS_PROXY: the value ... set MCP_ALLOW_INSECURE_HTTP=true\n```\n\
                ```sh\nNOT_CHECKED_HERE=1 cargo test\n```\n";
    assert_eq!(
        named_settings(page),
        [
            "GITHUB_CA_BUNDEL",
            "MCP_CA_BUNDLE",
            "SSL_CERT_FILE",
            "HTTPS_PROXY",
            "MCP_ALLOW_INSECURE_HTTP"
        ]
    );
    let settings: BTreeSet<&str> = SETTINGS.iter().map(|def| def.name).collect();
    let unknown: Vec<String> = named_settings(page)
        .into_iter()
        .filter(|name| !is_known(&settings, name))
        .collect();
    assert_eq!(
        unknown,
        ["GITHUB_CA_BUNDEL"],
        "a misspelt setting fails; another program's variable does not"
    );
}
