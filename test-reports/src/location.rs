//! From a path as a report writes it to a failure's `file`: normalization, dependencies and runtimes passed over,
//! and matching against the repository's files when the caller gave them.

use std::collections::{HashMap, HashSet};

/// A place a report points at: a stack frame or the test's own location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Candidate {
    /// The path, normalized ([`normalize`]).
    pub(crate) path: String,
    /// The 1-based line, when given.
    pub(crate) line: Option<u32>,
    /// A path that is only the end of the real one (a Java frame's package path and file name): it matches a
    /// repository file that ends with it.
    pub(crate) partial: bool,
}

impl Candidate {
    /// A full path (absolute, or relative to where the tests ran), normalized here; a line 0 is no line (lines
    /// are 1-based: a report that writes 0, as `dart test` can in a test's metadata, does not know it).
    pub(crate) fn new(raw: &str, line: Option<u32>) -> Candidate {
        Candidate {
            path: normalize(raw),
            line: line.filter(|&line| line > 0),
            partial: false,
        }
    }
}

/// A path as a report writes it, normalized: trimmed, a `file://` scheme dropped (and the `/` before a Windows
/// drive letter), `\` read as `/`, and leading `./` dropped.
pub(crate) fn normalize(raw: &str) -> String {
    let mut path = raw.trim();
    if let Some(rest) = path.strip_prefix("file://") {
        path = rest;
        let bytes = path.as_bytes();
        if bytes.len() >= 3 && bytes[0] == b'/' && bytes[1].is_ascii_alphabetic() && bytes[2] == b':' {
            path = &path[1..];
        }
    }
    let mut path = path.replace('\\', "/");
    while let Some(rest) = path.strip_prefix("./") {
        path = rest.to_owned();
    }
    path
}

/// Paths of dependencies and runtimes: never a failure's location (Node's `internal/` and `node_modules`,
/// Python's `site-packages`, Ruby gems, vendored PHP, Go's standard library, ...).
fn is_dependency(path: &str) -> bool {
    const PREFIXES: [&str; 6] = ["internal/", "node:", "<", "dart:", "package:", "/usr/lib/"];
    const PARTS: [&str; 9] = [
        "node_modules/",
        "site-packages/",
        "dist-packages/",
        "/gems/",
        "/vendor/",
        "/lib/python",
        "/src/runtime/",
        "/src/testing/",
        "/rubygems/",
    ];
    PREFIXES.iter().any(|p| path.starts_with(p)) || PARTS.iter().any(|p| path.contains(p)) || path.is_empty()
}

/// The repository's files, indexed by file name.
#[derive(Debug)]
struct RepoFiles {
    all: HashSet<String>,
    by_name: HashMap<String, Vec<String>>,
}

/// Turns candidates into `file` values, with or without the repository's files.
#[derive(Debug)]
pub(crate) struct Resolver {
    repo: Option<RepoFiles>,
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

impl Resolver {
    pub(crate) fn new(repo_files: Option<&[String]>) -> Resolver {
        let repo = repo_files.map(|files| {
            let mut all = HashSet::new();
            let mut by_name: HashMap<String, Vec<String>> = HashMap::new();
            for file in files {
                let file = normalize(file);
                if file.is_empty() || !all.insert(file.clone()) {
                    continue;
                }
                by_name.entry(file_name(&file).to_owned()).or_default().push(file);
            }
            RepoFiles { all, by_name }
        });
        Resolver { repo }
    }

    /// The `file` a candidate gives, or `None` when it is passed over: a dependency's or runtime's path, or (with
    /// the repository's files) a path that matches none of them.
    pub(crate) fn resolve(&self, candidate: &Candidate) -> Option<String> {
        let path = candidate.path.as_str();
        if is_dependency(path) {
            return None;
        }
        let Some(repo) = &self.repo else {
            return Some(path.to_owned());
        };
        if repo.all.contains(path) {
            return Some(path.to_owned());
        }
        let same_name = repo.by_name.get(file_name(path))?;
        if candidate.partial {
            // `org/acme/FooTest.java` matches `src/test/java/org/acme/FooTest.java`: the first in the caller's order.
            same_name.iter().find(|file| ends_with_segment(file, path)).cloned()
        } else {
            // `/home/ci/work/repo/src/a.js` matches `src/a.js` (and `a.js`): the longest.
            same_name
                .iter()
                .filter(|file| ends_with_segment(path, file))
                .max_by_key(|file| file.len())
                .cloned()
        }
    }

    /// A suite named by a file path (mocha, RSpec, dart): normalized, and relative to the repository when it
    /// matches one of its files.
    pub(crate) fn suite_path(&self, raw: &str) -> String {
        let candidate = Candidate::new(raw, None);
        match &self.repo {
            Some(_) => self.resolve(&candidate).unwrap_or(candidate.path),
            None => candidate.path,
        }
    }
}

/// Whether `path` is `tail` or ends with `/` + `tail`.
fn ends_with_segment(path: &str, tail: &str) -> bool {
    path == tail || path.strip_suffix(tail).is_some_and(|head| head.ends_with('/'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_line_0_is_no_line() {
        // The fuzz target test_reports_detect found a dart report whose test metadata says "line": 0.
        assert_eq!(super::Candidate::new("test/a_test.dart", Some(0)).line, None);
        assert_eq!(super::Candidate::new("test/a_test.dart", Some(1)).line, Some(1));
    }

    use super::*;

    #[test]
    fn paths_are_normalized() {
        assert_eq!(normalize(" C:\\work\\repo\\a.js "), "C:/work/repo/a.js");
        assert_eq!(normalize("./spec/a_spec.rb"), "spec/a_spec.rb");
        assert_eq!(
            normalize("file:///C:/Users/x/test/a_test.dart"),
            "C:/Users/x/test/a_test.dart"
        );
        assert_eq!(normalize("file:///home/x/a.dart"), "/home/x/a.dart");
    }

    #[test]
    fn repository_files_match_at_a_path_segment() {
        let files = vec![
            "src/main.js".to_owned(),
            "main.js".to_owned(),
            "lib\\util.js".to_owned(),
        ];
        let resolver = Resolver::new(Some(&files));
        let resolve = |path: &str| resolver.resolve(&Candidate::new(path, Some(1)));
        assert_eq!(resolve("/ci/repo/src/main.js").as_deref(), Some("src/main.js"));
        assert_eq!(resolve("/ci/repo/main.js").as_deref(), Some("main.js"));
        assert_eq!(resolve("/ci/repo/lib/util.js").as_deref(), Some("lib/util.js"));
        // `xmain.js` ends with `main.js`, but not at a `/`.
        assert_eq!(resolve("/ci/repo/xmain.js"), None);
        assert_eq!(resolve("/ci/repo/node_modules/src/main.js"), None);
        let java = Candidate {
            path: "org/acme/Foo.java".into(),
            line: Some(3),
            partial: true,
        };
        let files = vec!["a/src/org/acme/Foo.java".to_owned()];
        assert_eq!(
            Resolver::new(Some(&files)).resolve(&java).as_deref(),
            Some("a/src/org/acme/Foo.java")
        );
    }

    #[test]
    fn without_repository_files_dependencies_are_passed_over() {
        let resolver = Resolver::new(None);
        let resolve = |path: &str| resolver.resolve(&Candidate::new(path, Some(1)));
        assert_eq!(resolve("/ci/repo/src/a.js").as_deref(), Some("/ci/repo/src/a.js"));
        for dependency in [
            "internal/process/task_queues.js",
            "/ci/repo/node_modules/jest/x.js",
            "/usr/lib/python3/dist-packages/x.py",
            "/usr/local/bundle/ruby/3.3.0/gems/net-http-0.4.1/lib/net/http.rb",
            "dart:isolate",
            "/usr/local/go/src/testing/testing.go",
        ] {
            assert_eq!(resolve(dependency), None, "{dependency}");
        }
    }
}
