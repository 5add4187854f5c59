//! The deployment recipes of `docs/server.md` whose settings files can be read here are read by the real settings
//! reader ([`crate::config::Settings`]): the "GitHub Enterprise Server and GHE.com" recipe's files give no error or
//! warning, and the GitHub client built from them sends its requests under the base they name.

use std::path::Path;

use adapters_github::GithubClient;
use url::Url;

use super::{read, repo_root};

/// The `toml` blocks of `text`, in order.
fn toml_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut block: Option<String> = None;
    for line in text.lines() {
        match (&mut block, line.trim_start().strip_prefix("```")) {
            (None, Some("toml")) => block = Some(String::new()),
            (Some(body), Some(_)) => {
                blocks.push(std::mem::take(body));
                block = None;
            }
            (Some(body), None) => {
                body.push_str(line);
                body.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn the_github_enterprise_recipes_build_a_client_under_their_base() {
    let Some(root) = repo_root() else { return };
    let page = read(&root, Path::new("docs/server.md"));
    let section = page
        .split_once("\n### GitHub Enterprise Server and GHE.com\n")
        .map(|(_, rest)| rest.split("\n## ").next().unwrap_or(rest))
        .expect("docs/server.md has the GitHub Enterprise Server and GHE.com recipe");
    let blocks = toml_blocks(section);
    let expected = [
        "https://ghe.corp.example/api/v3/repos/octo-org/octo-repo/actions/runs",
        "https://api.octocorp.ghe.com/repos/octo-org/octo-repo/actions/runs",
    ];
    assert_eq!(blocks.len(), expected.len(), "the recipe's settings files");
    for (block, want) in blocks.iter().zip(expected) {
        let table: toml::Table = toml::from_str(block).expect("a settings file");
        let mut pairs: Vec<(&str, &str)> = table
            .iter()
            // The CA bundle names a file of the deployment, read at start-up (server/tests/it/upstream_tls.rs).
            .filter(|(name, _)| name.as_str() != "GITHUB_CA_BUNDLE")
            .map(|(name, value)| (name.as_str(), value.as_str().expect("a string setting")))
            .collect();
        pairs.push(("GITHUB_TOKEN", "ghp_docs_recipe"));
        let (settings, warnings) = crate::config::settings_of(&pairs);
        assert!(settings.errors.is_empty(), "{block}: {:?}", settings.errors);
        assert!(warnings.is_empty(), "{block}: {warnings:?}");
        let client = GithubClient::new(settings.tools.github.clone()).expect("the GitHub client builds");
        let base = Url::parse(client.api_base()).expect("a URL");
        let vendor = adapters_http::Vendor {
            name: "GitHub",
            base_setting: "GITHUB_API_BASE",
            credential_setting: "GITHUB_TOKEN",
            max_body_setting: "HTTP_MAX_BODY_BYTES",
        };
        let none: &[(&str, &str)] = &[];
        let runs = adapters_http::target::resolve(vendor, &base, "/repos/octo-org/octo-repo/actions/runs", none)
            .expect("a path under the base");
        assert_eq!(runs.as_str(), want, "{block}");
    }
}

/// The `export NAME=VALUE …` assignments of the `sh` blocks of `text`, in order (a `#` comment ends a line).
fn exports(text: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut in_sh = false;
    for line in text.lines() {
        match line.trim_start().strip_prefix("```") {
            Some(tag) => in_sh = !in_sh && tag == "sh",
            None if in_sh => {
                let code = line.split(" #").next().unwrap_or(line);
                let Some(assignments) = code.trim().strip_prefix("export ") else {
                    continue;
                };
                for assignment in assignments.split_whitespace() {
                    if let Some((name, value)) = assignment.split_once('=') {
                        pairs.push((name.to_owned(), value.trim_matches('"').to_owned()));
                    }
                }
            }
            None => {}
        }
    }
    pairs
}

#[test]
fn the_atlassian_data_center_recipe_reads_without_errors_and_builds_each_product_as_data_center() {
    let Some(root) = repo_root() else { return };
    let page = read(&root, Path::new("docs/server.md"));
    let section = page
        .split_once("\n### Atlassian Data Center and Server\n")
        .map(|(_, rest)| rest.split("\n## ").next().unwrap_or(rest))
        .expect("docs/server.md has the Atlassian Data Center and Server recipe");
    let pairs: Vec<(String, String)> = exports(section)
        .into_iter()
        // The CA bundle names a file of the deployment, read at start-up (server/tests/it/upstream_tls.rs); a
        // token shown as `…` stands for the reader's own.
        .filter(|(name, _)| name != "ATLASSIAN_CA_BUNDLE")
        .map(|(name, value)| {
            let value = if value == "…" {
                format!("{name}-docs-recipe")
            } else {
                value
            };
            (name, value)
        })
        .collect();
    assert_eq!(pairs.len(), 9, "the recipe's settings: {pairs:?}");
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    let (settings, warnings) = crate::config::settings_of(&pairs);
    assert!(settings.errors.is_empty(), "{:?}", settings.errors);
    assert!(warnings.is_empty(), "{warnings:?}");
    let atlassian = adapters_atlassian::Atlassian::new(&settings.tools.atlassian, None);
    for (product, base, token) in [
        (
            adapters_atlassian::Product::Jira,
            "https://jira.corp.example/jira",
            "JIRA_PERSONAL_TOKEN",
        ),
        (
            adapters_atlassian::Product::Confluence,
            "https://wiki.corp.example/confluence",
            "CONFLUENCE_PERSONAL_TOKEN",
        ),
        (
            adapters_atlassian::Product::Bitbucket,
            "https://git.corp.example/",
            "BITBUCKET_ACCESS_TOKEN",
        ),
    ] {
        let client = atlassian.product(product);
        assert_eq!(client.config_error(), None, "{product}");
        assert_eq!(
            client.deployment(),
            adapters_atlassian::Deployment::DataCenter,
            "{product}"
        );
        assert_eq!(client.base().map(Url::as_str), Some(base), "{product}");
        assert_eq!(client.credential_label(), Some(token), "{product}");
    }
}
