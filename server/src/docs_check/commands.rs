//! Every command of the pages' `sh` blocks names a real script, package, target and `mcp-devtools` flags.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{pages, read, repo_root};
use crate::cascade::CONFIG_PATH;
use crate::registry::SETTINGS;

/// Programs the pages may run that are not ours: not checked further.
const EXTERNAL: &[&str] = &[
    "npx",
    "npm",
    "openssl",
    "printf",
    "sha256sum",
    "cut",
    "set",
    ".",
    "sed",
    "eval",
    "aws",
    "echo",
    "kill",
    "wc",
    "sort",
    "export",
    "rg",
];

/// Environment variables the pages set that are not settings but are ours.
pub(super) const OTHER_VARIABLES: &[&str] = &[
    "MCP_URL",
    "MCP_SOAK_SECONDS",
    "MCP_DEVTOOLS_REQUIRE_SERVICES",
    "HTTP_LOAD_BASELINE_BIN",
];

/// Name prefixes of the settings: a variable with one of them must be a setting (or in [`OTHER_VARIABLES`]).
pub(super) const SETTING_PREFIXES: &[&str] = &[
    "MCP_",
    "GITHUB_",
    "CIRCLECI_",
    "ATLASSIAN_",
    "JIRA_",
    "CONFLUENCE_",
    "BITBUCKET_",
    "HTTP_",
    "HTTPS_",
    "ALL_",
    "NO_",
    "STREAMING_",
    "AWS_",
    "CI_",
];

/// One cargo package of the repository and its targets.
#[derive(Debug, Default)]
struct Package {
    dir: PathBuf,
    bins: BTreeSet<String>,
    benches: BTreeSet<String>,
    examples: BTreeSet<String>,
    tests: BTreeSet<String>,
}

fn stems(dir: &Path) -> BTreeSet<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeSet::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let path = entry.path();
            if path.extension().is_some_and(|ext| ext == "rs") || path.join("main.rs").is_file() {
                path.file_stem().map(|stem| stem.to_string_lossy().into_owned())
            } else {
                None
            }
        })
        .collect()
}

fn target_names(manifest: &toml::Table, key: &str) -> BTreeSet<String> {
    manifest
        .get(key)
        .and_then(toml::Value::as_array)
        .map(|targets| {
            targets
                .iter()
                .filter_map(|target| target.get("name").and_then(toml::Value::as_str).map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// The workspace's packages by name (the members of the root manifest, and `fuzz`), with their targets.
fn packages(root: &Path) -> BTreeMap<String, Package> {
    let parse = |path: &Path| -> toml::Table {
        let text = std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        toml::from_str(&text).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
    };
    let workspace = parse(&root.join("Cargo.toml"));
    let mut members: Vec<String> = workspace["workspace"]["members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(|member| member.as_str().map(str::to_owned))
        .collect();
    members.push("fuzz".to_owned());
    let mut packages = BTreeMap::new();
    for member in members {
        let dir = root.join(&member);
        let manifest = parse(&dir.join("Cargo.toml"));
        let name = manifest["package"]["name"].as_str().expect("a package name").to_owned();
        let mut package = Package {
            bins: target_names(&manifest, "bin"),
            benches: target_names(&manifest, "bench"),
            examples: target_names(&manifest, "example"),
            tests: target_names(&manifest, "test"),
            ..Package::default()
        };
        if dir.join("src/main.rs").is_file() {
            package.bins.insert(name.clone());
        }
        package.bins.extend(stems(&dir.join("src/bin")));
        package.benches.extend(stems(&dir.join("benches")));
        package.examples.extend(stems(&dir.join("examples")));
        package.tests.extend(stems(&dir.join("tests")));
        package.dir = dir;
        packages.insert(name, package);
    }
    packages
}

/// One command line of a page (continuation lines joined), where it is.
struct CommandLine {
    at: String,
    text: String,
}

/// The command lines of the page's `sh`/`console` blocks, each block's lines in order (one shell session per block).
fn shell_blocks(page: &Path, text: &str) -> Vec<Vec<CommandLine>> {
    /// Where the line being read is: outside a block, in another block, or in a shell block.
    enum In {
        Prose,
        Other,
        Shell { console: bool, lines: Vec<CommandLine> },
    }
    let mut blocks = Vec::new();
    let mut state = In::Prose;
    let mut pending = String::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(fence) = trimmed.strip_prefix("```") {
            state = match std::mem::replace(&mut state, In::Prose) {
                In::Shell { lines, .. } => {
                    blocks.push(lines);
                    In::Prose
                }
                In::Other => In::Prose,
                In::Prose => match fence.trim() {
                    "sh" | "bash" | "shell" => In::Shell {
                        console: false,
                        lines: Vec::new(),
                    },
                    "console" => In::Shell {
                        console: true,
                        lines: Vec::new(),
                    },
                    _ => In::Other,
                },
            };
            continue;
        }
        let In::Shell { console, lines } = &mut state else {
            continue;
        };
        let command = if *console {
            match trimmed.strip_prefix("$ ") {
                Some(command) => command,
                None if !pending.is_empty() => trimmed,
                None => continue, // output
            }
        } else {
            trimmed
        };
        pending.push_str(command);
        if pending.ends_with('\\') {
            pending.pop();
            pending.push(' ');
            continue;
        }
        lines.push(CommandLine {
            at: format!("{}:{}", page.display(), index + 1),
            text: std::mem::take(&mut pending),
        });
    }
    blocks
}

/// A shell line split into simple commands (words), with the command substitutions (`$(…)`) among them.
fn split_commands(line: &str) -> Vec<Vec<String>> {
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    let mut substitutions: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    let mut quote: Option<char> = None;
    let finish = |word: &mut String, in_word: &mut bool, commands: &mut Vec<Vec<String>>| {
        if *in_word {
            commands.last_mut().expect("a command").push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => word.push(c),
            (_, '$') if chars.peek() == Some(&'(') => {
                chars.next();
                let mut depth = 1;
                let mut inner = String::new();
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    inner.push(c);
                }
                substitutions.push(inner);
                word.push_str("SUBSTITUTED");
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() => finish(&mut word, &mut in_word, &mut commands),
            (None, '|' | '&' | ';' | '(' | ')') => {
                finish(&mut word, &mut in_word, &mut commands);
                if !commands.last().expect("a command").is_empty() {
                    commands.push(Vec::new());
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    finish(&mut word, &mut in_word, &mut commands);
    for inner in substitutions {
        commands.extend(split_commands(&inner));
    }
    // Redirections and their targets are not words of the command.
    commands
        .into_iter()
        .map(|words| {
            let mut kept = Vec::new();
            let mut skip = false;
            for word in words {
                if skip {
                    skip = false;
                } else if matches!(word.as_str(), ">" | ">>" | "<" | "2>" | "2>&1") {
                    skip = word != "2>&1";
                } else if !(word.starts_with('>') || word.starts_with("2>") || word.starts_with('<')) {
                    kept.push(word);
                }
            }
            kept
        })
        .filter(|words| !words.is_empty())
        .collect()
}

/// False for a name with a setting's prefix ([`SETTING_PREFIXES`]) that is neither one of `settings` nor another
/// variable of ours ([`OTHER_VARIABLES`], the config file's path).
pub(super) fn is_known(settings: &BTreeSet<&str>, name: &str) -> bool {
    let ours = SETTING_PREFIXES.iter().any(|prefix| name.starts_with(prefix));
    !ours || settings.contains(name) || OTHER_VARIABLES.contains(&name) || name == CONFIG_PATH
}

struct Checker {
    root: PathBuf,
    packages: BTreeMap<String, Package>,
    settings: BTreeSet<&'static str>,
    failures: std::cell::RefCell<Vec<String>>,
}

impl Checker {
    /// A checker of `root`'s packages and the registry's settings, with no failures yet.
    fn new(root: PathBuf) -> Checker {
        Checker {
            packages: packages(&root),
            settings: SETTINGS.iter().map(|def| def.name).collect(),
            root,
            failures: std::cell::RefCell::default(),
        }
    }

    fn fail(&self, at: &str, message: String) {
        self.failures.borrow_mut().push(format!("{at}: {message}"));
    }

    /// Checks one simple command run in `cwd` (relative to the root); `cd` changes `cwd`.
    fn check(&self, at: &str, cwd: &mut PathBuf, words: &[String]) {
        let mut words = words;
        while let Some((name, _)) = words.first().and_then(|word| word.split_once('=')) {
            if name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            {
                self.check_variable(at, name);
                words = &words[1..];
            } else {
                break;
            }
        }
        let Some((program, args)) = words.split_first() else {
            return;
        };
        match program.as_str() {
            "cd" => {
                let dir = cwd.join(args.first().map_or("", String::as_str));
                if self.root.join(&dir).is_dir() {
                    *cwd = dir;
                } else {
                    self.fail(at, format!("`cd {}`: no such directory", dir.display()));
                }
            }
            "cargo" => self.check_cargo(at, args),
            "mcp-devtools" => self.check_server_args(at, args),
            "node" => self.check_script_argument(at, cwd, args),
            program if EXTERNAL.contains(&program) => {}
            program if program.contains("/.venv/bin/") => self.check_script_argument(at, cwd, args),
            program if program.contains('/') => {
                let path = cwd.join(program.trim_start_matches("./"));
                let binary = path.file_name().is_some_and(|name| name == "mcp-devtools")
                    && path
                        .parent()
                        .is_some_and(|dir| dir.ends_with("target/debug") || dir.ends_with("target/release"));
                if binary {
                    self.check_server_args(at, args);
                } else if !self.root.join(&path).is_file() {
                    self.fail(at, format!("`{program}`: no such file in the repository"));
                }
            }
            program => self.fail(
                at,
                format!("`{program}`: not a program this check knows (add it to EXTERNAL if it is not ours)"),
            ),
        }
    }

    fn check_variable(&self, at: &str, name: &str) {
        if !is_known(&self.settings, name) {
            self.fail(at, format!("`{name}` is not a setting of server/src/registry.rs"));
        }
    }

    fn check_script_argument(&self, at: &str, cwd: &Path, args: &[String]) {
        match args.iter().find(|arg| !arg.starts_with('-')) {
            Some(script) if self.root.join(cwd).join(script).is_file() => {}
            Some(script) => self.fail(at, format!("`{script}`: no such file in {}", cwd.display())),
            None => self.fail(at, "no script to run".to_owned()),
        }
    }

    /// `mcp-devtools` arguments: what the binary's command line accepts.
    fn check_server_args(&self, at: &str, args: &[String]) {
        if args.first().is_some_and(|arg| arg == "--jq-worker") {
            return;
        }
        let argv = std::iter::once("mcp-devtools".to_owned()).chain(args.iter().cloned());
        if let Err(err) = crate::cli::command().try_get_matches_from(argv) {
            use clap::error::ErrorKind;
            if !matches!(err.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                self.fail(at, format!("`mcp-devtools {}`: {}", args.join(" "), err.kind()));
            }
        }
    }

    fn check_cargo(&self, at: &str, args: &[String]) {
        let Some((subcommand, args)) = args.split_first() else {
            return;
        };
        match subcommand.as_str() {
            "install" | "insta" | "tree" | "info" => {}
            "fuzz" => {
                let fuzz_bins = self
                    .packages
                    .get("fuzz")
                    .map(|fuzz| fuzz.bins.clone())
                    .unwrap_or_default();
                let mut rest = args.iter().skip(1);
                if args
                    .first()
                    .is_some_and(|action| matches!(action.as_str(), "run" | "build" | "tmin" | "cmin"))
                {
                    while let Some(arg) = rest.next() {
                        if arg == "-s" || arg == "--sanitizer" {
                            rest.next();
                        } else if !arg.starts_with('-') {
                            if !fuzz_bins.contains(arg) {
                                self.fail(at, format!("`cargo fuzz`: no fuzz target `{arg}` in fuzz/Cargo.toml"));
                            }
                            break;
                        }
                    }
                }
            }
            "run" | "build" | "test" | "bench" | "check" | "clippy" | "doc" => {
                self.check_cargo_build(at, subcommand, args)
            }
            other => self.fail(at, format!("`cargo {other}`: not a subcommand this check knows")),
        }
    }

    fn check_cargo_build(&self, at: &str, subcommand: &str, args: &[String]) {
        let mut packages = Vec::new();
        let mut targets: Vec<(&str, String)> = Vec::new();
        let mut after = None;
        let mut iter = args.iter().enumerate();
        while let Some((index, arg)) = iter.next() {
            match arg.as_str() {
                "--" => {
                    after = Some(&args[index + 1..]);
                    break;
                }
                "-p" | "--package" => packages.extend(iter.next().map(|(_, name)| name.clone())),
                kind @ ("--bin" | "--bench" | "--example" | "--test") => {
                    if let Some((_, name)) = iter.next() {
                        targets.push((kind, name.clone()));
                    }
                }
                _ => {}
            }
        }
        for name in &packages {
            if !self.packages.contains_key(name) {
                self.fail(
                    at,
                    format!("`cargo {subcommand} -p {name}`: no such package in the workspace"),
                );
            }
        }
        if let [package] = &packages[..]
            && let Some(found) = self.packages.get(package)
        {
            for (kind, name) in &targets {
                let known = match *kind {
                    "--bin" => &found.bins,
                    "--bench" => &found.benches,
                    "--example" => &found.examples,
                    _ => &found.tests,
                };
                if !known.contains(name) {
                    self.fail(
                        at,
                        format!(
                            "`{kind} {name}`: package {package} has no such target ({})",
                            found.dir.display()
                        ),
                    );
                }
            }
            let runs_server = subcommand == "run"
                && package == "mcp-devtools-server"
                && targets
                    .iter()
                    .all(|(kind, name)| *kind == "--bin" && name == "mcp-devtools");
            if let (true, Some(after)) = (runs_server, after) {
                self.check_server_args(at, after);
            }
        }
    }
}

#[test]
fn commands_of_the_docs_exist() {
    let Some(root) = repo_root() else { return };
    let checker = Checker::new(root.clone());
    let mut checked = 0;
    for page in pages(&root) {
        for block in shell_blocks(&page, &read(&root, &page)) {
            let mut cwd = PathBuf::new();
            for line in block {
                for words in split_commands(&line.text) {
                    checker.check(&line.at, &mut cwd, &words);
                    checked += 1;
                }
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} commands found: is the block parser broken?"
    );
    let failures = checker.failures.borrow();
    assert!(
        failures.is_empty(),
        "commands of the docs that would not run:\n{}",
        failures.join("\n")
    );
}

#[test]
fn command_lines_split_as_a_shell_does() {
    let words = split_commands(r#"FOO="a b" cargo run -p x > out.env &   # a comment; not a command"#);
    assert_eq!(words, vec![vec!["FOO=a b", "cargo", "run", "-p", "x"]]);
    let words = split_commands(r#"printf %s "$TOKEN" | cut -d' ' -f1; eval "$(scripts/services start)""#);
    assert_eq!(
        words,
        vec![
            vec!["printf", "%s", "$TOKEN"],
            vec!["cut", "-d ", "-f1"],
            vec!["eval", "SUBSTITUTED"],
            vec!["scripts/services", "start"],
        ]
    );
}

#[test]
fn the_checker_refuses_what_would_not_run() {
    let Some(root) = repo_root() else { return };
    let checker = Checker::new(root);
    for line in [
        "cargo run -p no-such-package",
        "cargo run -p mcp-devtools-examples --bin no_such_bin",
        "mcp-devtools --no-such-flag",
        "cargo run -p mcp-devtools-server -- --toolset github",
        "MCP_NO_SUCH_SETTING=1 scripts/test",
        "scripts/no-such-script",
    ] {
        for words in split_commands(line) {
            checker.check("test", &mut PathBuf::new(), &words);
        }
    }
    let failures = checker.failures.borrow();
    assert_eq!(failures.len(), 6, "{failures:#?}");
}
