//! Job logs, served the way the vendors serve them: from another origin, the *downloads* server (another
//! 127.0.0.1 port), which fails the test when it sees a credential.
//!
//! Routes:
//! - GitHub `GET /repos/{o}/{r}/actions/jobs/{id}` → that job of [`crate::github::run_jobs`] (any run of the runs
//!   fixtures), else `github/error-404`;
//! - GitHub `GET /repos/{o}/{r}/actions/jobs/{id}/logs` → `302 Found` to `<downloads>/actions-results/{id}/logs.txt?sig=…`
//!   (as GitHub answers, <https://docs.github.com/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-job>),
//!   whose body is [`job_log`] of that job (`text/plain`, a UTF-8 BOM first, like GitHub's);
//! - CircleCI `GET /api/v1.1/project/{vcs}/{org}/{repo}/{number}` → `circleci/job-102` (the failed `test` job of
//!   `circleci/workflow-jobs`) with its `output_url`s moved to the downloads server, for any job number (the
//!   number and name of `circleci/workflow-jobs`' job of that number when there is one);
//! - downloads `GET /circleci/output/{step}` → `circleci/job-102-output-run-tests` for the `Run tests` step, a
//!   one-message output for the others.
//!
//! The downloads server answers `403` to, and (on drop) fails the test for, any request carrying `Authorization`,
//! `Circle-Token`, `X-GitHub-Api-Version` or a cookie.

use std::collections::HashMap;

use serde_json::{Value, json};
use wiremock::matchers::{header_exists, method, path_regex};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

use crate::fixture::fixture;
use crate::github::run_jobs;
use crate::runs;

const SEGMENT: &str = "[^/]+";

/// The query of every handed-out URL: a signature, as the vendors' short-lived URLs carry.
pub const SIGNATURE: &str = "sv=2021-08-06&se=2023-01-10T09%3A35%3A00Z&sig=recorded-upstream-signature";

/// Headers a credential-less host must never receive.
pub const CREDENTIAL_HEADERS: [&str; 4] = ["authorization", "circle-token", "x-github-api-version", "cookie"];

/// Makes `downloads` answer `403` to, and (on drop) fail the test for, any request with a credential.
pub async fn guard(downloads: &MockServer) {
    for name in CREDENTIAL_HEADERS {
        Mock::given(header_exists(name))
            .respond_with(ResponseTemplate::new(403).set_body_string(format!(
                "recorded-upstream: this host hands out logs without credentials, and received `{name}`"
            )))
            .with_priority(1)
            .expect(0)
            .named(format!("a credential (`{name}`) sent to the downloads host"))
            .mount(downloads)
            .await;
    }
}

/// Mounts the GitHub job and job-log routes on `api`, the log bodies on `downloads`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount_github(api: &MockServer, downloads: &MockServer) -> anyhow::Result<()> {
    let jobs = Jobs::new()?;
    Mock::given(method("GET"))
        .and(path_regex(format!("^/repos/{SEGMENT}/{SEGMENT}/actions/jobs/[0-9]+$")))
        .respond_with(JobById(jobs.clone()))
        .with_priority(2)
        .mount(api)
        .await;
    Mock::given(method("GET"))
        .and(path_regex(format!(
            "^/repos/{SEGMENT}/{SEGMENT}/actions/jobs/[0-9]+/logs$"
        )))
        .respond_with(HandOff(downloads.uri()))
        .with_priority(2)
        .mount(api)
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/actions-results/[0-9]+/logs.txt$"))
        .respond_with(LogOf(jobs))
        .with_priority(2)
        .mount(downloads)
        .await;
    Ok(())
}

/// Mounts the CircleCI v1.1 job-details route on `api`, the step output on `downloads`.
///
/// # Errors
/// A fixture that does not load or parse.
pub async fn mount_circleci(api: &MockServer, downloads: &MockServer) -> anyhow::Result<()> {
    Mock::given(method("GET"))
        .and(path_regex(format!(
            "^/api/v1.1/project/{SEGMENT}/{SEGMENT}/{SEGMENT}/[0-9]+$"
        )))
        .respond_with(CircleciJob::new(&downloads.uri())?)
        .with_priority(2)
        .mount(api)
        .await;
    Mock::given(method("GET"))
        .and(path_regex("^/circleci/output/[0-9]+$"))
        .respond_with(CircleciOutput(
            fixture("circleci/job-102-output-run-tests")?.body.to_vec(),
        ))
        .with_priority(2)
        .mount(downloads)
        .await;
    Ok(())
}

/// Every job of the runs fixtures, by id.
#[derive(Clone)]
struct Jobs(std::sync::Arc<HashMap<u64, Value>>);

impl Jobs {
    fn new() -> anyhow::Result<Self> {
        let template: Value = serde_json::from_slice(fixture("github/run-jobs")?.body)?;
        let mut jobs = HashMap::new();
        for run in runs::all()? {
            for job in run_jobs(&template, &run)["jobs"].as_array().into_iter().flatten() {
                if let Some(id) = job["id"].as_u64() {
                    jobs.insert(id, job.clone());
                }
            }
        }
        Ok(Self(std::sync::Arc::new(jobs)))
    }

    fn of(&self, request: &Request, segment: usize) -> Option<&Value> {
        let id = request.url.path_segments()?.nth(segment)?.parse::<u64>().ok()?;
        self.0.get(&id)
    }
}

fn not_found() -> ResponseTemplate {
    fixture("github/error-404").map_or_else(|_| ResponseTemplate::new(404), |f| f.response())
}

struct JobById(Jobs);

impl Respond for JobById {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        match self.0.of(request, 5) {
            Some(job) => ResponseTemplate::new(200).set_body_json(job),
            None => not_found(),
        }
    }
}

struct HandOff(String);

impl Respond for HandOff {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let id = request
            .url
            .path_segments()
            .and_then(|mut s| s.nth(5))
            .unwrap_or_default();
        ResponseTemplate::new(302)
            .insert_header(
                "location",
                format!("{}/actions-results/{id}/logs.txt?{SIGNATURE}", self.0),
            )
            .insert_header("content-length", "0")
    }
}

struct LogOf(Jobs);

impl Respond for LogOf {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        match self.0.of(request, 1) {
            Some(job) => {
                let mut body = b"\xef\xbb\xbf".to_vec();
                body.extend_from_slice(job_log(job).as_bytes());
                ResponseTemplate::new(200).set_body_raw(body, "text/plain; charset=utf-8")
            }
            None => ResponseTemplate::new(404).set_body_string("BlobNotFound"),
        }
    }
}

/// The log of a job of [`run_jobs`]: each step that ran writes its lines, stamped from its `started_at` on, as
/// GitHub's runner does (header group `Run …`, annotations, ANSI colours from pytest); the failed step `Run tests`
/// ends with a failing test, its traceback and `##[error]Process completed with exit code 1.`, a failed
/// `Install tox` with pip's error. `github/job-log-28026001462.txt` is this function's output for the failed job of
/// run 2802600146, stored.
pub fn job_log(job: &Value) -> String {
    let mut out = String::new();
    let mut cursor = i64::MIN / 2;
    let repo = job["run_url"]
        .as_str()
        .and_then(|u| u.split("/repos/").nth(1))
        .and_then(|r| r.split("/actions/").next())
        .unwrap_or("octo-org/octo-repo")
        .to_owned();
    let name = job["name"].as_str().unwrap_or_default();
    let python = name
        .split("Python ")
        .nth(1)
        .map_or("3.9", |v| v.trim_end_matches(')'))
        .to_owned();
    for step in job["steps"].as_array().into_iter().flatten() {
        if step["conclusion"] == "skipped" {
            continue;
        }
        let Some(start) = step["started_at"]
            .as_str()
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
        else {
            continue;
        };
        let failed = step["conclusion"] == "failure";
        let lines = step_lines(step["name"].as_str().unwrap_or_default(), failed, &repo, &python, name);
        let end = step["completed_at"]
            .as_str()
            .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            .unwrap_or(start);
        // Lines stay inside the step's time and after the previous step's lines: spread over its duration, or
        // 7 ms apart for a step that took no measurable time.
        let span_ms = (end.as_millisecond() - start.as_millisecond()).clamp(0, 600_000);
        let step_ms = if span_ms == 0 {
            7
        } else {
            (span_ms / (lines.len() as i64 + 1)).max(1)
        };
        let mut at = start.as_millisecond().max(cursor + 1);
        for (i, line) in lines.iter().enumerate() {
            let t = jiff::Timestamp::from_millisecond(at).unwrap_or(start);
            let fraction = at.rem_euclid(1000) * 10_000 + (i as i64 * 137) % 10_000;
            out.push_str(&format!("{}.{fraction:07}Z {line}\n", t.strftime("%Y-%m-%dT%H:%M:%S")));
            cursor = at;
            at += step_ms;
        }
    }
    out
}

/// The test suite `Run tests` runs: 42 tests in four files.
const TESTS: &[(&str, &[&str])] = &[
    (
        "test_api.py",
        &[
            "test_list_runs",
            "test_list_runs_paged",
            "test_list_jobs",
            "test_get_job",
            "test_rate_limit_wait",
            "test_not_found",
            "test_unauthorized",
            "test_etag_reuse",
            "test_link_header",
            "test_per_page_bounds",
        ],
    ),
    (
        "test_cli.py",
        &[
            "test_help",
            "test_version",
            "test_config_file",
            "test_env_override",
            "test_bad_flag",
            "test_output_json",
            "test_output_table",
            "test_quiet",
        ],
    ),
    (
        "test_retry.py",
        &[
            "test_retry_after_http_date",
            "test_retry_after_zero",
            "test_retry_after_seconds",
            "test_retry_after_missing",
            "test_backoff_cap",
            "test_attempts",
        ],
    ),
    (
        "test_store.py",
        &[
            "test_put_get",
            "test_put_twice",
            "test_delete",
            "test_delete_missing",
            "test_expiry",
            "test_sweep",
            "test_quota",
            "test_quota_per_owner",
            "test_read_chunk",
            "test_read_past_end",
            "test_concurrent_put",
            "test_restart",
            "test_permissions",
            "test_atomic_write",
            "test_index_rebuild",
            "test_large_value",
            "test_empty_value",
            "test_unicode_names",
        ],
    ),
];

fn step_lines(step: &str, failed: bool, repo: &str, python: &str, job: &str) -> Vec<String> {
    let owned = |lines: &[&str]| lines.iter().map(|l| (*l).to_owned()).collect::<Vec<_>>();
    match step {
        "Set up job" => {
            let mut lines = owned(&[
                "Current runner version: '2.300.2'",
                "##[group]Operating System",
                "Ubuntu",
                "22.04.1",
                "LTS",
                "##[endgroup]",
                "##[group]Runner Image",
                "Image: ubuntu-22.04",
                "Version: 20230109.1",
                "##[endgroup]",
                "##[group]GITHUB_TOKEN Permissions",
                "Contents: read",
                "Metadata: read",
                "##[endgroup]",
                "Secret source: Actions",
                "Prepare workflow directory",
                "Prepare all required actions",
                "Getting action download info",
                "Download action repository 'actions/checkout@v2' (SHA:dcd71f646680f2efd8db4afa5ad64fdcba30e748)",
                "Download action repository 'actions/setup-python@v4' (SHA:d27e3f3d7c64b4bbf8e4abfb9b63b83e846e0435)",
                "Download action repository 'codecov/codecov-action@v3' (SHA:d9f34f8cd5cb3b3eb79b3e4b5dae3a16df499a70)",
            ]);
            lines.push(format!("Complete job name: {job}"));
            lines
        }
        "Run actions/checkout@v2" => {
            let mut lines = owned(&["##[group]Run actions/checkout@v2", "with:"]);
            lines.push(format!("  repository: {repo}"));
            lines.extend(owned(&[
                "  token: ***",
                "  ssh-strict: true",
                "  fetch-depth: 1",
                "##[endgroup]",
            ]));
            lines.push(format!("Syncing repository: {repo}"));
            lines.extend(owned(&[
                "##[group]Getting Git version info",
                "Working directory is '/home/runner/work/octo-repo/octo-repo'",
                "[command]/usr/bin/git version",
                "git version 2.39.0",
                "##[endgroup]",
                "Deleting the contents of '/home/runner/work/octo-repo/octo-repo'",
                "##[group]Fetching the repository",
                "[command]/usr/bin/git -c protocol.version=2 fetch --no-tags --prune --progress --no-recurse-submodules --depth=1 origin +1e59b61ec3662be30b817d3125fca946231f0b0f:refs/remotes/origin/docs",
                "remote: Enumerating objects: 87, done.        ",
                "remote: Total 87 (delta 4), reused 52 (delta 2), pack-reused 0        ",
                "##[endgroup]",
                "[command]/usr/bin/git log -1 --format='%H'",
                "'1e59b61ec3662be30b817d3125fca946231f0b0f'",
            ]));
            lines
        }
        "Set up Python" => {
            let mut lines = owned(&["##[group]Run actions/setup-python@v4", "with:"]);
            lines.push(format!("  python-version: {python}"));
            lines.extend(owned(&[
                "  check-latest: false",
                "##[endgroup]",
                "##[group]Installed versions",
            ]));
            lines.push(format!("Successfully set up CPython ({python}.16)"));
            lines.extend(owned(&[
                "##[endgroup]",
                "##[warning]The `set-output` command is deprecated and will be disabled soon. Please upgrade to using Environment Files.",
            ]));
            lines
        }
        "Install tox" => {
            let mut lines = owned(&[
                "##[group]Run python -m pip install --upgrade pip tox",
                "python -m pip install --upgrade pip tox",
                "shell: /usr/bin/bash -e {0}",
                "##[endgroup]",
                "Requirement already satisfied: pip in /opt/hostedtoolcache/Python/3.9.16/x64/lib/python3.9/site-packages (22.0.4)",
                "Collecting pip",
                "  Downloading pip-22.3.1-py3-none-any.whl (2.1 MB)",
                "     \x1b[90m━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━\x1b[0m \x1b[32m2.1/2.1 MB\x1b[0m \x1b[31m45.2 MB/s\x1b[0m eta \x1b[36m0:00:00\x1b[0m",
            ]);
            if failed {
                lines.extend(owned(&[
                    "\x1b[31mERROR: Could not find a version that satisfies the requirement tox==9.9 (from versions: 4.2.6, 4.2.7, 4.2.8)\x1b[0m",
                    "\x1b[31mERROR: No matching distribution found for tox==9.9\x1b[0m",
                    "##[error]Process completed with exit code 1.",
                ]));
            } else {
                lines.push("Successfully installed cachetools-5.2.1 chardet-5.1.0 colorama-0.4.6 distlib-0.3.6 filelock-3.9.0 pip-22.3.1 platformdirs-2.6.2 pluggy-1.0.0 pyproject-api-1.4.0 tox-4.2.6 virtualenv-20.17.1".to_owned());
            }
            lines
        }
        "Run tests" => {
            let mut lines = owned(&[
                "##[group]Run tox -e py",
                "tox -e py",
                "shell: /usr/bin/bash -e {0}",
                "##[endgroup]",
                "py: install_deps> python -I -m pip install pytest pytest-cov",
                "py: commands[0]> pytest -v --cov=octo tests",
                "\x1b[1m============================= test session starts ==============================\x1b[0m",
            ]);
            lines.push(format!(
                "platform linux -- Python {python}.16, pytest-7.2.1, pluggy-1.0.0"
            ));
            lines.extend(owned(&[
                "rootdir: /home/runner/work/octo-repo/octo-repo",
                "plugins: cov-4.0.0",
                "collected 42 items",
                "",
            ]));
            // `pytest -v`: one line per test, PASSED in green, FAILED in red.
            let mut n = 0;
            for (file, tests) in TESTS {
                for test in *tests {
                    n += 1;
                    let percent = n * 100 / 42;
                    let verdict = if failed && *test == "test_retry_after_seconds" {
                        "\x1b[31mFAILED\x1b[0m"
                    } else {
                        "\x1b[32mPASSED\x1b[0m"
                    };
                    lines.push(format!(
                        "tests/{file}::{test} {verdict}{:>width$}",
                        format!("[{percent:>3}%]"),
                        width = 70usize.saturating_sub(file.len() + test.len())
                    ));
                }
            }
            if failed {
                lines.extend(owned(&[
                    "",
                    "=================================== FAILURES ===================================",
                    "\x1b[31m\x1b[1m___________________________ test_retry_after_seconds ___________________________\x1b[0m",
                    "Traceback (most recent call last):",
                    "  File \"/home/runner/work/octo-repo/octo-repo/tests/test_retry.py\", line 31, in test_retry_after_seconds",
                    "    assert wait_for(response) == timedelta(seconds=120)",
                    "  File \"/home/runner/work/octo-repo/octo-repo/octo/retry.py\", line 58, in wait_for",
                    "    return parse_retry_after(response.headers[\"Retry-After\"])",
                    "  File \"/home/runner/work/octo-repo/octo-repo/octo/retry.py\", line 44, in parse_retry_after",
                    "    return timedelta(seconds=int(value[:2]))",
                    "AssertionError: assert datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)",
                    "",
                    "---------- coverage: platform linux, python 3.9.16-final-0 -----------",
                    "TOTAL                            812     57    93%",
                    "",
                    "=========================== short test summary info ============================",
                    "\x1b[31mFAILED\x1b[0m tests/test_retry.py::\x1b[1mtest_retry_after_seconds\x1b[0m - AssertionError: assert datetime.timedelta(seconds=12) == datetime.timedelta(seconds=120)",
                    "\x1b[31m========================= \x1b[31m\x1b[1m1 failed\x1b[0m, \x1b[32m41 passed\x1b[0m\x1b[31m in 3.21s\x1b[0m\x1b[31m =========================\x1b[0m",
                    "py: exit 1 (3.80 seconds) /home/runner/work/octo-repo/octo-repo> pytest -v --cov=octo tests pid=1873",
                    "  py: FAIL code 1 (12.34=setup[8.54]+cmd[3.80] seconds)",
                    "  evaluation failed :( (12.43 seconds)",
                    "##[error]Process completed with exit code 1.",
                ]));
            } else {
                lines.extend(owned(&[
                    "\x1b[32m============================== \x1b[32m\x1b[1m42 passed\x1b[0m\x1b[32m in 3.02s\x1b[0m\x1b[32m ==============================\x1b[0m",
                    "  py: OK (11.92=setup[8.90]+cmd[3.02] seconds)",
                    "  congratulations :) (12.01 seconds)",
                ]));
            }
            lines
        }
        "Upload coverage to Codecov" => owned(&[
            "##[group]Run codecov/codecov-action@v3",
            "with:",
            "  fail_ci_if_error: false",
            "##[endgroup]",
            "[command]/home/runner/work/_actions/codecov/codecov-action/v3/dist/codecov -n  -Q github-action-3.1.1",
            "[2023-01-10T08:25:26.512Z] ['info'] Uploading...",
            "[2023-01-10T08:25:27.004Z] ['info'] {\"status\":\"success\"}",
        ]),
        "Complete job" => owned(&["Cleaning up orphan processes"]),
        other if other.starts_with("Post ") => {
            let mut lines = owned(&["Post job cleanup."]);
            if other.contains("checkout") {
                lines.extend(owned(&[
                    "[command]/usr/bin/git version",
                    "git version 2.39.0",
                    "[command]/usr/bin/git config --local --name-only --get-regexp core\\.sshCommand",
                    "[command]/usr/bin/git config --local --unset-all http.https://github.com/.extraheader",
                ]));
            }
            lines
        }
        other => vec![format!("##[group]Run {other}"), "##[endgroup]".to_owned()],
    }
}

/// Answers CircleCI v1.1 job details: `circleci/job-102` with the job's number and name from
/// `circleci/workflow-jobs` when it lists that number, and every `output_url` moved to the downloads server.
struct CircleciJob {
    template: Value,
    names: HashMap<u64, (String, String)>,
}

impl CircleciJob {
    fn new(downloads: &str) -> anyhow::Result<Self> {
        let mut template: Value = serde_json::from_slice(fixture("circleci/job-102")?.body)?;
        for (index, step) in template["steps"].as_array_mut().into_iter().flatten().enumerate() {
            for action in step["actions"].as_array_mut().into_iter().flatten() {
                if action["output_url"].is_string() {
                    action["output_url"] = json!(format!("{downloads}/circleci/output/{index}?{SIGNATURE}"));
                }
            }
        }
        let listed: Value = serde_json::from_slice(fixture("circleci/workflow-jobs")?.body)?;
        let names = listed["items"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|job| {
                Some((
                    job["job_number"].as_u64()?,
                    (job["name"].as_str()?.to_owned(), job["status"].as_str()?.to_owned()),
                ))
            })
            .collect();
        Ok(Self { template, names })
    }
}

impl Respond for CircleciJob {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let number = request
            .url
            .path_segments()
            .and_then(|mut s| s.nth(6))
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(102);
        let mut job = self.template.clone();
        job["build_num"] = json!(number);
        if let Some((name, status)) = self.names.get(&number) {
            job["workflows"]["job_name"] = json!(name);
            job["status"] = json!(status);
        }
        ResponseTemplate::new(200).set_body_json(job)
    }
}

/// Answers a CircleCI step's output: the `Run tests` output fixture for the step whose index is 5, one message
/// for the others.
struct CircleciOutput(Vec<u8>);

impl Respond for CircleciOutput {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let step = request
            .url
            .path_segments()
            .and_then(|mut s| s.nth(2))
            .unwrap_or_default();
        if step == "5" {
            return ResponseTemplate::new(200).set_body_raw(self.0.clone(), "application/json");
        }
        let body = json!([{"message": format!("step {step} done\r\n"), "time": "2024-05-14T09:14:20.112Z", "type": "out", "truncated": false}]);
        ResponseTemplate::new(200).set_body_json(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stored_log_is_the_generated_log_of_its_job() -> anyhow::Result<()> {
        let jobs = Jobs::new()?;
        let job = jobs
            .0
            .get(&28_026_001_462)
            .ok_or_else(|| anyhow::anyhow!("job 28026001462"))?;
        let log = job_log(job);
        if std::env::var_os("RECORDED_UPSTREAM_WRITE_FIXTURES").is_some() {
            std::fs::write(
                concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/../fixtures/github/job-log-28026001462.txt"
                ),
                &log,
            )?;
        }
        assert_eq!(log.as_bytes(), fixture("github/job-log-28026001462")?.body);
        assert!(log.contains("##[error]Process completed with exit code 1."));
        Ok(())
    }
}
