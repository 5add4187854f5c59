//! What GitHub says about the commits and runs of the runs fixtures: each commit's pull request, check runs and
//! files (as JSON, or as a diff or patch), and each run's artifacts, all derived from the runs themselves (their
//! SHAs, branches, messages, times and repository) and from their derived jobs ([`super::run_jobs`]), so they agree
//! with every other GitHub, CircleCI and Jira answer of the scenario. Shapes follow GitHub's REST reference:
//! - <https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit> (`pull-request-simple`);
//! - <https://docs.github.com/rest/checks/runs#list-check-runs-for-a-git-reference>;
//! - <https://docs.github.com/rest/commits/commits#get-a-commit> (and its `diff` / `patch` media types);
//! - <https://docs.github.com/rest/actions/artifacts#list-workflow-run-artifacts>.
//!
//! Pull requests: a run on a branch other than `main` / `master` belongs to that branch's open pull request (one per
//! branch, `#2401`… in branch-name order, its head the branch's newest commit); a commit on `main` / `master` came
//! from a merged pull request of its own (`#2300`… oldest first, merged when the run started).

use std::collections::{BTreeSet, HashMap};

use serde_json::{Value, json};

/// First number of the merged pull requests (commits on `main` / `master`).
const FIRST_MERGED: u64 = 2300;
/// First number of the open pull requests (one per other branch).
const FIRST_OPEN: u64 = 2401;

/// True for the long-lived branches, whose commits come from merged pull requests.
fn is_default_branch(branch: &str) -> bool {
    branch == "main" || branch == "master"
}

/// The pull request of every commit of `runs` (newest first, as the runs fixtures list them), by SHA.
pub fn pull_requests(runs: &[Value]) -> HashMap<String, Value> {
    let text = |run: &Value, key: &str| run[key].as_str().unwrap_or_default().to_string();
    let branches: BTreeSet<String> = runs
        .iter()
        .map(|run| text(run, "head_branch"))
        .filter(|branch| !is_default_branch(branch))
        .collect();
    let mut open = HashMap::new();
    for (number, branch) in (FIRST_OPEN..).zip(&branches) {
        let on_branch: Vec<&Value> = runs
            .iter()
            .filter(|run| run["head_branch"] == branch.as_str())
            .collect();
        let (Some(newest), Some(oldest)) = (on_branch.first(), on_branch.last()) else {
            continue;
        };
        let pr = Pull {
            number,
            title: title_of_branch(branch, newest),
            head_ref: branch.clone(),
            head_sha: text(newest, "head_sha"),
            base_ref: "master".to_string(),
            created_at: text(oldest, "created_at"),
            updated_at: text(newest, "updated_at"),
            merged_at: None,
        };
        open.insert(branch.clone(), pr.to_json(newest));
    }
    let mut by_sha = HashMap::new();
    let mut merged = FIRST_MERGED;
    for run in runs.iter().rev() {
        let sha = text(run, "head_sha");
        let branch = text(run, "head_branch");
        if by_sha.contains_key(&sha) {
            continue;
        }
        let pr = if is_default_branch(&branch) {
            let title = first_line(run).to_string();
            let pr = Pull {
                number: merged,
                head_ref: slug(&title),
                title,
                head_sha: derived_sha(&sha, 3),
                base_ref: branch,
                created_at: run["head_commit"]["timestamp"].as_str().unwrap_or_default().to_string(),
                updated_at: text(run, "run_started_at"),
                merged_at: Some((text(run, "run_started_at"), sha.clone())),
            };
            merged += 1;
            pr.to_json(run)
        } else {
            open.get(&branch).cloned().unwrap_or(Value::Null)
        };
        by_sha.insert(sha, pr);
    }
    by_sha
}

/// A few real-looking titles for the fixtures' branches; other branches take their newest commit's first line.
fn title_of_branch(branch: &str, newest: &Value) -> String {
    let title = match branch {
        "docs" => "Update docs",
        "fix/flaky-integration-test-timeouts-on-windows-runners" => {
            "Fix flaky integration test timeouts on Windows runners"
        }
        "dependabot/pip/tensorflow-2.9.3" => "Bump tensorflow from 2.7.2 to 2.9.3",
        "renovate/major-github-artifact-actions" => "Update GitHub Artifact Actions to v4 (major)",
        "release/2023.01.x" => "Release 2023.01.x",
        "patch-1" => "Update README.md",
        _ => first_line(newest),
    };
    title.to_string()
}

fn first_line(run: &Value) -> &str {
    run["head_commit"]["message"]
        .as_str()
        .unwrap_or_default()
        .lines()
        .next()
        .unwrap_or_default()
}

/// A branch name from a title: lower case, runs of other characters as one `-`, at most 40 characters.
fn slug(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    slug.truncate(40);
    slug.trim_end_matches('-').to_string()
}

/// Another 40-hex-digit SHA made from `sha` (each digit plus `shift`, modulo 16): stands for a commit, tree or blob
/// the fixtures do not record (a parent, a pull request's head before the merge).
pub fn derived_sha(sha: &str, shift: u32) -> String {
    sha.chars()
        .map(|c| {
            let digit = c.to_digit(16).unwrap_or(0);
            char::from_digit((digit + shift) % 16, 16).unwrap_or('0')
        })
        .collect()
}

struct Pull {
    number: u64,
    title: String,
    head_ref: String,
    head_sha: String,
    base_ref: String,
    created_at: String,
    updated_at: String,
    /// When it was merged, and the merge commit.
    merged_at: Option<(String, String)>,
}

impl Pull {
    /// A `pull-request-simple` of the repository of `run`.
    fn to_json(&self, run: &Value) -> Value {
        let repository = &run["repository"];
        let api = repository["url"].as_str().unwrap_or_default();
        let html = repository["html_url"].as_str().unwrap_or_default();
        let owner = &repository["owner"];
        let login = owner["login"].as_str().unwrap_or_default();
        let number = self.number;
        let (state, closed_at, merged_at, merge_commit_sha) = match &self.merged_at {
            Some((at, sha)) => ("closed", json!(at), json!(at), json!(sha)),
            None => ("open", Value::Null, Value::Null, json!(derived_sha(&self.head_sha, 7))),
        };
        let pull_url = format!("{api}/pulls/{number}");
        let issue_url = format!("{api}/issues/{number}");
        let side = |reference: &str, sha: &str| {
            json!({
                "label": format!("{login}:{reference}"),
                "ref": reference,
                "sha": sha,
                "user": owner,
                "repo": repository,
            })
        };
        let base_sha = derived_sha(&self.head_sha, 11);
        let links = json!({
            "self": {"href": pull_url},
            "html": {"href": format!("{html}/pull/{number}")},
            "issue": {"href": issue_url},
            "comments": {"href": format!("{issue_url}/comments")},
            "review_comments": {"href": format!("{pull_url}/comments")},
            "review_comment": {"href": format!("{api}/pulls/comments{{/number}}")},
            "commits": {"href": format!("{pull_url}/commits")},
            "statuses": {"href": format!("{api}/statuses/{}", self.head_sha)},
        });
        json!({
            "url": pull_url,
            "id": 1_000_000_000 + number,
            "node_id": format!("PR_kwDOCLXpC85{:08}", number),
            "html_url": format!("{html}/pull/{number}"),
            "diff_url": format!("{html}/pull/{number}.diff"),
            "patch_url": format!("{html}/pull/{number}.patch"),
            "issue_url": issue_url,
            "commits_url": format!("{pull_url}/commits"),
            "review_comments_url": format!("{pull_url}/comments"),
            "review_comment_url": format!("{api}/pulls/comments{{/number}}"),
            "comments_url": format!("{issue_url}/comments"),
            "statuses_url": format!("{api}/statuses/{}", self.head_sha),
            "number": number,
            "state": state,
            "locked": false,
            "title": self.title,
            "user": run["actor"],
            "body": format!("{}.\r\n\r\nThe CI runs of this branch are in the Actions tab.", self.title),
            "labels": [],
            "milestone": null,
            "active_lock_reason": null,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "closed_at": closed_at,
            "merged_at": merged_at,
            "merge_commit_sha": merge_commit_sha,
            "assignee": null,
            "assignees": [],
            "requested_reviewers": [],
            "requested_teams": [],
            "head": side(&self.head_ref, &self.head_sha),
            "base": side(&self.base_ref, &base_sha),
            "_links": links,
            "author_association": "MEMBER",
            "auto_merge": null,
            "draft": false,
        })
    }
}

/// The GitHub Actions app, as check runs name it.
fn actions_app() -> Value {
    json!({
        "id": 15368,
        "slug": "github-actions",
        "node_id": "MDM6QXBwMTUzNjg=",
        "owner": {
            "login": "github",
            "id": 9919,
            "node_id": "MDEyOk9yZ2FuaXphdGlvbjk5MTk=",
            "avatar_url": "https://avatars.githubusercontent.com/u/9919?v=4",
            "gravatar_id": "",
            "url": "https://api.github.com/users/github",
            "html_url": "https://github.com/github",
            "type": "Organization",
            "site_admin": false
        },
        "name": "GitHub Actions",
        "description": "Automate your workflow from idea to production",
        "external_url": "https://help.github.com/en/actions",
        "html_url": "https://github.com/apps/github-actions",
        "created_at": "2018-07-30T09:30:17Z",
        "updated_at": "2019-12-10T19:04:12Z",
        "permissions": {"actions": "write", "checks": "write", "contents": "write", "metadata": "read", "pull_requests": "write", "statuses": "write"},
        "events": ["check_run", "check_suite", "pull_request", "push", "workflow_dispatch"]
    })
}

/// `GET /repos/{o}/{r}/commits/{ref}/check-runs` for a commit: one check run per job of every run of that commit
/// (`jobs`: each run with its derived jobs body), with the job's id, name, times, status and conclusion; a failed
/// job has one annotation. `pull` is the commit's pull request: an open one whose head is this commit is listed.
pub fn check_runs(jobs: &[(&Value, Value)], pull: &Value) -> Value {
    let mut check_runs = Vec::new();
    for (run, body) in jobs {
        let sha = run["head_sha"].as_str().unwrap_or_default();
        let pulls = if pull["state"] == "open" && pull["head"]["sha"] == sha {
            let minimal = |side: &Value| {
                json!({"ref": side["ref"], "sha": side["sha"], "repo": {
                    "id": side["repo"]["id"], "url": side["repo"]["url"], "name": side["repo"]["name"]}})
            };
            vec![json!({"url": pull["url"], "id": pull["id"], "number": pull["number"],
                        "head": minimal(&pull["head"]), "base": minimal(&pull["base"])})]
        } else {
            Vec::new()
        };
        for job in body["jobs"].as_array().into_iter().flatten() {
            let url = job["check_run_url"].as_str().unwrap_or_default();
            let id = job["id"].as_u64().unwrap_or_default();
            check_runs.push(json!({
                "id": id,
                "name": job["name"],
                "node_id": format!("CR_kwDOCLXpC88AAAAB{id:014}"),
                "head_sha": sha,
                "external_id": format!("{:08x}-{:04x}-5c8e-9ac0-{:012x}", id % 0xffff_ffff, id % 0xffff, id),
                "url": url,
                "html_url": job["html_url"],
                "details_url": job["html_url"],
                "status": job["status"],
                "conclusion": job["conclusion"],
                "started_at": job["started_at"],
                "completed_at": job["completed_at"],
                "output": {
                    "title": null,
                    "summary": null,
                    "text": null,
                    "annotations_count": u8::from(job["conclusion"] == "failure"),
                    "annotations_url": format!("{url}/annotations"),
                },
                "check_suite": {"id": run["check_suite_id"]},
                "app": actions_app(),
                "pull_requests": pulls,
            }));
        }
    }
    json!({"total_count": check_runs.len(), "check_runs": check_runs})
}

/// The files every derived commit changes: (name, status, patch).
pub const FILES: [(&str, &str, &str); 2] = [
    (
        "docs/index.md",
        "modified",
        "@@ -12,7 +12,8 @@ Install the package and its extras:\n \n ```sh\n-pip install octo-repo\n+pip install \"octo-repo[all]\"\n+pip install tox\n ```\n \n Run the tests with `tox -e py39`.",
    ),
    (
        "tox.ini",
        "modified",
        "@@ -1,5 +1,5 @@\n [tox]\n-envlist = py37,py38,py39\n+envlist = py38,py39,py310\n isolated_build = true\n \n [testenv]",
    ),
];

/// `GET /repos/{o}/{r}/commits/{sha}` for the head commit of `run`: its message, author, dates and tree from the
/// run's `head_commit`, one parent, and [`FILES`].
pub fn commit(run: &Value) -> Value {
    let head = &run["head_commit"];
    let sha = head["id"].as_str().unwrap_or_default();
    let api = run["repository"]["url"].as_str().unwrap_or_default();
    let html = run["repository"]["html_url"].as_str().unwrap_or_default();
    let parent = derived_sha(sha, 1);
    let signature = |who: &Value| json!({"name": who["name"], "email": who["email"], "date": head["timestamp"]});
    let mut files = Vec::new();
    let (mut additions, mut deletions) = (0, 0);
    for (name, status, patch) in FILES {
        let added = patch.lines().filter(|l| l.starts_with('+')).count();
        let removed = patch.lines().filter(|l| l.starts_with('-')).count();
        additions += added;
        deletions += removed;
        files.push(json!({
            "sha": derived_sha(sha, u32::try_from(name.len() % 16).unwrap_or(0)),
            "filename": name,
            "status": status,
            "additions": added,
            "deletions": removed,
            "changes": added + removed,
            "blob_url": format!("{html}/blob/{sha}/{name}"),
            "raw_url": format!("{html}/raw/{sha}/{name}"),
            "contents_url": format!("{api}/contents/{name}?ref={sha}"),
            "patch": patch,
        }));
    }
    json!({
        "sha": sha,
        "node_id": format!("C_kwDOCLXpC9oAKD{}", &sha[..sha.len().min(32)]),
        "commit": {
            "author": signature(&head["author"]),
            "committer": signature(&head["committer"]),
            "message": head["message"],
            "tree": {"sha": head["tree_id"], "url": format!("{api}/git/trees/{}", head["tree_id"].as_str().unwrap_or_default())},
            "url": format!("{api}/git/commits/{sha}"),
            "comment_count": 0,
            "verification": {"verified": false, "reason": "unsigned", "signature": null, "payload": null, "verified_at": null},
        },
        "url": format!("{api}/commits/{sha}"),
        "html_url": format!("{html}/commit/{sha}"),
        "comments_url": format!("{api}/commits/{sha}/comments"),
        "author": run["actor"],
        "committer": run["actor"],
        "parents": [{"sha": parent, "url": format!("{api}/commits/{parent}"), "html_url": format!("{html}/commit/{parent}")}],
        "stats": {"total": additions + deletions, "additions": additions, "deletions": deletions},
        "files": files,
    })
}

/// The commit of [`commit`] as GitHub's `application/vnd.github.diff`: a `diff --git` section per file.
pub fn diff(commit: &Value) -> String {
    let mut text = String::new();
    for file in commit["files"].as_array().into_iter().flatten() {
        let name = file["filename"].as_str().unwrap_or_default();
        let blob = file["sha"].as_str().unwrap_or_default();
        let before = derived_sha(blob, 5);
        text.push_str(&format!(
            "diff --git a/{name} b/{name}\nindex {}..{} 100644\n--- a/{name}\n+++ b/{name}\n{}\n",
            &before[..7.min(before.len())],
            &blob[..7.min(blob.len())],
            file["patch"].as_str().unwrap_or_default()
        ));
    }
    text
}

/// The commit of [`commit`] as GitHub's `application/vnd.github.patch` (a `git format-patch` mail); `date` is the
/// author date in RFC 2822 form.
pub fn patch(commit: &Value, date: &str) -> String {
    let detail = &commit["commit"];
    let message = detail["message"].as_str().unwrap_or_default();
    let (subject, body) = message.split_once('\n').unwrap_or((message, ""));
    let mut stat = String::new();
    for file in commit["files"].as_array().into_iter().flatten() {
        let changes = file["changes"].as_u64().unwrap_or_default();
        let plus = "+".repeat(usize::try_from(file["additions"].as_u64().unwrap_or_default()).unwrap_or(0));
        let minus = "-".repeat(usize::try_from(file["deletions"].as_u64().unwrap_or_default()).unwrap_or(0));
        stat.push_str(&format!(
            " {} | {changes} {plus}{minus}\n",
            file["filename"].as_str().unwrap_or_default()
        ));
    }
    let stats = &commit["stats"];
    format!(
        "From {} Mon Sep 17 00:00:00 2001\nFrom: {} <{}>\nDate: {date}\nSubject: [PATCH] {subject}\n{body}\n---\n{stat} {} files changed, {} insertions(+), {} deletions(-)\n\n{}-- \n2.37.1\n\n",
        commit["sha"].as_str().unwrap_or_default(),
        detail["author"]["name"].as_str().unwrap_or_default(),
        detail["author"]["email"].as_str().unwrap_or_default(),
        commit["files"].as_array().map_or(0, Vec::len),
        stats["additions"],
        stats["deletions"],
        diff(commit)
    )
}

/// The artifacts every derived run uploads: (name, size in bytes).
pub const ARTIFACTS: [(&str, u64); 2] = [("test-results", 48_213), ("coverage-report", 1_262_391)];

/// Whether the tests of a run ran, from its derived jobs body (`jobs`, [`super::run_jobs`]): no job failed a step
/// before its `Run tests` step (a run whose `Install tox` failed never ran them, so it uploaded no test results and
/// no coverage).
pub fn tests_ran(jobs: &Value) -> bool {
    jobs["jobs"].as_array().into_iter().flatten().all(|job| {
        job["steps"]
            .as_array()
            .into_iter()
            .flatten()
            .take_while(|step| step["name"] != "Run tests")
            .all(|step| step["conclusion"] != "failure")
    })
}

/// `GET /repos/{o}/{r}/actions/runs/{id}/artifacts` for `run`, whose derived jobs body is `jobs`: [`ARTIFACTS`] when
/// its tests ran ([`tests_ran`]), else none; ids `run id × 10 + 5 + index`, created when the run was last updated and
/// expiring 90 days later (GitHub's default retention); `expires_at` is computed by the caller (`expires`).
pub fn artifacts(run: &Value, jobs: &Value, expires: &str) -> Value {
    let api = run["repository"]["url"].as_str().unwrap_or_default();
    let run_id = run["id"].as_u64().unwrap_or_default();
    let uploaded = if tests_ran(jobs) { ARTIFACTS.as_slice() } else { &[] };
    let list: Vec<Value> = (0u64..)
        .zip(uploaded)
        .map(|(index, (name, size))| {
            let id = run_id * 10 + 5 + index;
            json!({
                "id": id,
                "node_id": format!("MDg6QXJ0aWZhY3Qk{id}"),
                "name": name,
                "size_in_bytes": size,
                "url": format!("{api}/actions/artifacts/{id}"),
                "archive_download_url": format!("{api}/actions/artifacts/{id}/zip"),
                "expired": false,
                "created_at": run["updated_at"],
                "updated_at": run["updated_at"],
                "expires_at": expires,
                "workflow_run": {
                    "id": run_id,
                    "repository_id": run["repository"]["id"],
                    "head_repository_id": run["head_repository"]["id"],
                    "head_branch": run["head_branch"],
                    "head_sha": run["head_sha"],
                },
            })
        })
        .collect();
    json!({"total_count": list.len(), "artifacts": list})
}
