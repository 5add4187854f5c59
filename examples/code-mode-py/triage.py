"""A three-vendor triage as a code-mode program, on the official Python MCP SDK client. First it waits, then it
triages: github_wait_for_run waits until a run completed (--run-id, default the newest run; at most --wait-seconds),
so that the triage sees its outcome. Then, for each failed GitHub Actions run, the failing job and step, the CircleCI pipeline built from the same commit (`vcs.revision` = the run's
`head_sha`), and the Jira issues named in the run's head commit message with their status and assignee. It reads
`structuredContent` as data (types in tools.py, generated from tools/list by scripts/gen-types; the shapes of `data`
it asks for in shapes.py) and prints one table, then each failure's reason: the failing steps' last error lines
(github_get_job_logs, grep on the server), then its failed tests: the failing checks of its commit (ci_status) and the
failed tests of their reports (ci_test_results), one line each; a model calling the tools itself would have read every
text block instead.
The same task as the Rust `triage` example and ../code-mode-ts/triage.mjs, with the same output.

Run (from the repository root, after `cargo build -p mcp-devtools-server -p recorded-upstream` and `scripts/test`,
which creates the venv): clients/python/.venv/bin/python examples/code-mode-py/triage.py [--live] [--owner O]
[--repo R] [--circleci-project SLUG] [--run-id ID] [--wait-seconds S]

Upstream: by default it starts target/debug/recorded-upstream (or $RECORDED_UPSTREAM_BIN), which serves recorded
data for every vendor on 127.0.0.1, and points the server at it; with $UPSTREAM_URL set it uses that recorded
upstream instead; with --live the server uses this process's environment (GITHUB_TOKEN, CIRCLECI_TOKEN,
ATLASSIAN_SITE_NAME or JIRA_BASE_URL, ATLASSIAN_USER_EMAIL, ATLASSIAN_API_TOKEN). Server: $MCP_DEVTOOLS_BIN, else
target/debug/mcp-devtools.
"""

import argparse
import asyncio
import base64
import json
import os
import re
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any, cast

from mcp import ClientSession, StdioServerParameters, stdio_client

from shapes import (
    ArtifactIds,
    CommitPull,
    FailedJob,
    FailedStepLines,
    IssueStatus,
    PipelinePage,
    WorkflowRun,
    WorkflowRunsPage,
)
from tools import (
    ArtifactReadOutput,
    CiStatusOutputData,
    CiTestResultsOutputData,
    Data as WaitResult,
    FailedItem as FailedTest,
    GithubListWorkflowRunsOutput,
    GithubWaitForRunOutput,
)

ROOT = Path(__file__).resolve().parent.parent.parent
FAILED_JOB = (
    '[.jobs[] | select(.conclusion == "failure") | {name, steps: [.steps[] | select(.conclusion == "failure") | .name]}]'
)
WHY = (
    "[.jobs[] | .job.name as $job | .steps[] | select(.lines != []) | {job: $job, step: .name, lines: [.lines[].text]}]"
)
ERROR_LINES = "^(FAILED|ERROR:|E +|[A-Za-z]+Error:)"
PIPELINES = "{items: [.items[] | {revision: .vcs.revision, number, state}], next: .next_page_token}"
ISSUE = "{status: .fields.status.name, assignee: .fields.assignee.displayName}"
PULLS = "[.[] | {number, state, merged: (.merged_at != null)}]"
NEWEST_RUN = ".workflow_runs[0].id"
TEST_RESULTS_ARTIFACTS = '[.artifacts[] | select(.name == "test-results") | .id]'
JIRA_KEY = re.compile(r"\b[A-Z][A-Z0-9]+-[0-9]+\b")


def recorded_env(uri: str) -> dict[str, str]:
    """The settings that point the server at a recorded upstream whose base URL is `uri`."""
    return {
        "GITHUB_API_BASE": uri,
        "GITHUB_TOKEN": "recorded-upstream-token",
        "CIRCLECI_API_BASE": f"{uri}/api/v2",
        "CIRCLECI_TOKEN": "recorded-upstream-token",
        "JIRA_BASE_URL": uri,
        "CONFLUENCE_BASE_URL": f"{uri}/wiki",
        "BITBUCKET_BASE_URL": uri,
        "ATLASSIAN_USER_EMAIL": "mia@example.com",
        "ATLASSIAN_API_TOKEN": "recorded-upstream-token",
    }


def start_recorded_upstream() -> tuple[subprocess.Popen, dict[str, str]]:
    """Starts the recorded-upstream binary and reads the NAME=value lines it prints (up to the empty line)."""
    binary = os.environ.get("RECORDED_UPSTREAM_BIN", str(ROOT / "target/debug/recorded-upstream"))
    if not Path(binary).exists():
        sys.exit(f"{binary} not found: run `cargo build -p recorded-upstream` or set RECORDED_UPSTREAM_BIN")
    # Its stdin is our pipe: when this program ends, the pipe closes and the upstream stops.
    child = subprocess.Popen(
        [binary, "--until-stdin-closes"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    env: dict[str, str] = {}
    assert child.stdout is not None
    for line in child.stdout:
        line = line.rstrip("\n")
        if line == "":
            break
        name, _, value = line.partition("=")
        env[name] = value
    return child, env


def text_of(result: Any) -> str:
    return result.content[0].text if result.content else ""


def first_line(text: str) -> str:
    return text.split("\n")[0]


class Tools:
    """The session, plus every call made (tool, arguments), replayed without jq for the baseline."""

    def __init__(self, session: ClientSession):
        self.session = session
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def call(self, name: str, args: dict[str, Any]) -> Any:
        """Calls a tool; the SDK validates structuredContent against the tool's outputSchema."""
        self.calls.append((name, args))
        return await self.session.call_tool(name, args)

    async def data_of(self, result: Any) -> Any:
        """structuredContent.data, or, when the value was over the bound (`incomplete`), the whole value read back
        with artifact_read, chunk after chunk until eof."""
        # Every read tool's structuredContent has `data` and `incomplete` (tools.py): the runs list's stands for all.
        envelope = cast(GithubListWorkflowRunsOutput, result.structured_content)
        incomplete = envelope.get("incomplete")
        if incomplete is None:
            return envelope["data"]
        artifact_id = incomplete["artifactId"]
        if artifact_id is None:
            raise RuntimeError("the oversized value could not be saved; narrow the jq")
        chunks: list[bytes] = []
        offset = 0
        while True:
            read = await self.session.call_tool(
                "artifact_read", {"artifactId": artifact_id, "offset": offset, "maxBytes": 1048576}
            )
            if read.is_error:
                raise RuntimeError(f"artifact_read failed: {text_of(read)}")
            chunk = cast(ArtifactReadOutput, read.structured_content)
            chunks.append(base64.b64decode(chunk["data"]))
            offset = chunk["nextOffset"]
            if chunk["eof"]:
                break
        return json.loads(b"".join(chunks).decode("utf-8"))["data"]

    async def direct_text_bytes(self) -> int:
        """The text bytes a model reads making every recorded call itself, without jq."""
        total = 0
        for name, args in self.calls:
            without_jq = {key: value for key, value in args.items() if key != "jq"}
            total += len(text_of(await self.session.call_tool(name, without_jq)).encode("utf-8"))
        return total


def waited_line(wait: WaitResult, seconds: int) -> str:
    """What the wait saw: the run's state and conclusion and its failed jobs, or the state a wait that timed out (or
    stopped for another reason) last saw."""
    failed = sum(1 for job in wait["jobs"] if job["failed"])
    jobs = len(wait["jobs"])
    if wait["stoppedBy"] == "finished":
        return f"Waited for {wait['target']}: {wait['state']}, {wait['conclusion'] or '-'}; {failed} of {jobs} job(s) failed"
    if wait["stoppedBy"] == "timeout":
        return f"Waited {seconds} s for {wait['target']}: still {wait['state']}; {failed} of {jobs} job(s) failed so far"
    return (
        f"Stopped waiting for {wait['target']} ({wait['stoppedBy']}): {wait['state']}; "
        f"{failed} of {jobs} job(s) failed so far"
    )


def failed_test_line(test: FailedTest) -> str:
    """A failed test as `file:line name: message` (the message's first line), with what exists of it: `file name:
    message` without a line, `name: message` without a file, `name` alone without a message."""
    line = ""
    if test["file"]:
        line += test["file"] + (f":{test['line']}" if test["line"] is not None else "") + " "
    line += test["name"]
    message = (test["message"] or "").split("\n")[0]
    if message:
        line += f": {message}"
    return line


class FailedTests:
    """The failed tests of the failing checks of each failed run, read once per report source."""

    def __init__(self, tools: Tools, options: argparse.Namespace, project: str):
        self.tools = tools
        self.repo = {"owner": options.owner, "repo": options.repo}
        self.project = project
        # The lines printed: per run, a heading and its failed tests (or a reference to an earlier run with the same).
        self.printed: list[str] = []
        self.artifacts: dict[int, list[int]] = {}
        self.results: dict[str, list[str]] = {}
        # The first run that printed a list of failed-test lines, by the lines joined.
        self.first_with: dict[str, int] = {}

    async def test_artifacts(self, run_id: int) -> list[int]:
        """The ids of the `test-results` artifacts of run `run_id`, listed once per run."""
        if run_id not in self.artifacts:
            path = f"/repos/{self.repo['owner']}/{self.repo['repo']}/actions/runs/{run_id}/artifacts"
            result = await self.tools.call("github_get", {"path": path, "jq": TEST_RESULTS_ARTIFACTS})
            self.artifacts[run_id] = [] if result.is_error else cast(ArtifactIds, await self.tools.data_of(result))
        return self.artifacts[run_id]

    async def test_results(self, source: dict[str, Any]) -> list[str]:
        """The failed tests of one report source (ci_test_results arguments), one line each, read once per source."""
        key = json.dumps(source)
        if key not in self.results:
            result = await self.tools.call("ci_test_results", source)
            if result.is_error:
                lines = [f"error: {first_line(text_of(result))}"]
            else:
                results = cast(CiTestResultsOutputData, await self.tools.data_of(result))
                lines = [failed_test_line(test) for test in results["failed"]]
                if results["failedOmitted"] > 0:
                    lines.append(f"({results['failedOmitted']} more failed test(s) not listed)")
            self.results[key] = lines
        return self.results[key]

    async def of_run(self, run: WorkflowRun) -> None:
        """Reads the failing checks of the run's commit with ci_status, then the failed tests of each one's reports,
        and adds the run's lines to self.printed."""
        result = await self.tools.call("ci_status", {**self.repo, "sha": run["head_sha"], "projectSlug": self.project})
        if result.is_error:
            self.printed.append(f"- run {run['id']}: error: {first_line(text_of(result))}")
            return
        status = cast(CiStatusOutputData, await self.tools.data_of(result))
        slug = status["circleci"]["projectSlug"] if status["circleci"] else self.project
        labels: list[str] = []
        sources: list[dict[str, Any]] = []
        for check in status["checks"]:
            if check["state"] != "failure":
                continue
            if check["kind"] == "check_run" and check["runId"] is not None:
                label = check["name"]
                found = [{**self.repo, "artifactId": artifact} for artifact in await self.test_artifacts(check["runId"])]
            elif check["kind"] == "circleci_job" and check["jobNumber"] is not None:
                label = f"CircleCI job {check['jobNumber']} ({check['name']})"
                found = [{"projectSlug": slug, "jobNumber": check["jobNumber"]}]
            else:
                continue
            if label not in labels:
                labels.append(label)
            sources.extend(source for source in found if source not in sources)
        if not labels:
            self.printed.append(f"- run {run['id']}: no failing check with test reports")
            return
        heading = f"- run {run['id']}: {', '.join(labels)}"
        if not sources:
            self.printed.append(f"{heading}: no test reports")
            return
        lines: list[str] = []
        for source in sources:
            lines.extend(await self.test_results(source))
        key = "\n".join(lines)
        if not lines:
            self.printed.append(f"{heading}: no failed test in their reports")
        elif key in self.first_with:
            self.printed.append(f"{heading}: the same {len(lines)} failed test(s) as run {self.first_with[key]}")
        else:
            self.first_with[key] = run["id"]
            self.printed.append(heading)
            self.printed.extend(f"    {line}" for line in lines)


async def wait_first(tools: Tools, options: argparse.Namespace) -> str:
    """0. Wait, then triage: the run (default the newest) until it completed, at most --wait-seconds. The server polls
    for the program (one poll loop per run, however many wait on it) and answers once it finished."""
    repo = {"owner": options.owner, "repo": options.repo}
    run_id = options.run_id
    if run_id is None:
        result = await tools.call("github_list_workflow_runs", {**repo, "perPage": options.per_page, "jq": NEWEST_RUN})
        if result.is_error:
            raise RuntimeError(f"listing runs failed: {text_of(result)}")
        run_id = await tools.data_of(result)
    if run_id is None:
        return "No run to wait for."
    # Not in tools.calls: the baseline leaves the wait out (its text holds waitedMs, which varies).
    result = await tools.session.call_tool(
        "github_wait_for_run", {**repo, "runId": run_id, "timeoutSeconds": options.wait_seconds}
    )
    if result.is_error:
        return f"Could not wait for run {run_id}: {first_line(text_of(result))}"
    envelope = cast(GithubWaitForRunOutput, result.structured_content)
    return waited_line(cast(WaitResult, envelope["data"]), options.wait_seconds)


async def triage(tools: Tools, options: argparse.Namespace) -> str:
    """Runs the task and returns the table it prints."""
    repo = {"owner": options.owner, "repo": options.repo}
    waited = await wait_first(tools, options)

    # 1. Failed runs, page after page. No jq: the program keeps whole runs (it needs the head commit message), so a
    #    100-run page is over the structured bound and comes back as an artifact.
    failed: list[WorkflowRun] = []
    scanned = pages = 0
    page: int | None = 1
    while page is not None and pages < options.max_pages:
        result = await tools.call("github_list_workflow_runs", {**repo, "perPage": options.per_page, "page": page})
        if result.is_error:
            raise RuntimeError(f"listing runs failed: {text_of(result)}")
        data = cast(WorkflowRunsPage, await tools.data_of(result))
        scanned += len(data["workflow_runs"])
        failed.extend(run for run in data["workflow_runs"] if run["conclusion"] == "failure")
        page = cast(GithubListWorkflowRunsOutput, result.structured_content)["nextPage"]
        pages += 1

    # 2. The failing job and step of each failed run; the Jira keys of its head commit message.
    rows: list[dict[str, Any]] = []
    for run in failed:
        result = await tools.call("github_list_workflow_jobs", {**repo, "runId": run["id"], "jq": FAILED_JOB})
        if result.is_error:
            failing = f"error: {first_line(text_of(result))}"
        else:
            jobs = cast(list[FailedJob], await tools.data_of(result))
            failing = "; ".join(f"{job['name']}: {', '.join(job['steps'])}" for job in jobs)
        message = run["head_commit"]["message"] if run["head_commit"] else ""
        rows.append({"run": run, "failing": failing, "pipeline": "", "keys": sorted(set(JIRA_KEY.findall(message)))})

    # 2b. The pull request each failed run's commit belongs to (any GitHub REST read goes through github_get).
    for row in rows:
        path = f"/repos/{options.owner}/{options.repo}/commits/{row['run']['head_sha']}/pulls"
        result = await tools.call("github_get", {"path": path, "jq": PULLS})
        if result.is_error:
            row["pull"] = f"error: {first_line(text_of(result))}"
        else:
            pulls = cast(list[CommitPull], await tools.data_of(result))
            cells = [f"#{pull['number']} {'merged' if pull['merged'] else pull['state']}" for pull in pulls]
            row["pull"] = ", ".join(cells) or "-"

    # 2c. Why: the last error lines of each failed run's failing steps, read from the job logs on the server.
    why: list[tuple[int, list[str]]] = []
    for row in rows:
        result = await tools.call(
            "github_get_job_logs", {**repo, "runId": row["run"]["id"], "grep": ERROR_LINES, "tailLines": 2, "jq": WHY}
        )
        lines: list[str] = []
        if result.is_error:
            lines.append(f"error: {first_line(text_of(result))}")
        else:
            for step in cast(list[FailedStepLines], await tools.data_of(result)):
                lines.append(f"{step['job']} / {step['step']}:")
                lines.extend(f"    {line}" for line in step["lines"])
        why.append((row["run"]["id"], lines))

    # 3. CircleCI: the pipelines of each branch, matched on the commit.
    project = options.circleci_project or f"gh/{options.owner}/{options.repo}"
    pipeline_of: dict[str, str] = {}
    for branch in sorted({row["run"]["head_branch"] for row in rows}):
        wanted = {row["run"]["head_sha"] for row in rows if row["run"]["head_branch"] == branch}
        token: str | None = None
        for _ in range(options.max_circleci_pages):
            query = {"branch": branch}
            if token is not None:
                query["page-token"] = token
            result = await tools.call(
                "circleci_get", {"path": f"/project/{project}/pipeline", "queryParams": query, "jq": PIPELINES}
            )
            if result.is_error:
                for sha in wanted:
                    pipeline_of[sha] = f"error: {first_line(text_of(result))}"
                break
            data = cast(PipelinePage, await tools.data_of(result))
            for item in data["items"]:
                if item["revision"] in wanted and item["revision"] not in pipeline_of:
                    pipeline_of[item["revision"]] = f"#{item['number']} {item['state'] or '?'}"
            token = data["next"]
            if token is None or all(sha in pipeline_of for sha in wanted):
                break
    for row in rows:
        row["pipeline"] = pipeline_of.get(row["run"]["head_sha"], "none")

    # 3b. Failed tests: the failing checks of each failed run's commit (ci_status), and the failed tests of their
    #     reports (ci_test_results of the run's test-results artifact, or of the CircleCI job).
    tests = FailedTests(tools, options, project)
    for row in rows:
        await tests.of_run(row["run"])

    # 4. Jira: status and assignee of every key named, once per key.
    issues: dict[str, str] = {}
    for key in sorted({key for row in rows for key in row["keys"]}):
        result = await tools.call(
            "jira_get",
            {"path": f"/rest/api/3/issue/{key}", "queryParams": {"fields": "status,assignee"}, "jq": ISSUE},
        )
        if result.is_error:
            message = text_of(result)
            issues[key] = "not found" if "404" in message else f"error: {first_line(message)}"
        else:
            issue = cast(IssueStatus, await tools.data_of(result))
            issues[key] = f"{issue['status'] or '?'}, {issue['assignee'] or 'unassigned'}"

    # 5. The table: all the program prints for the model.
    printed = (
        f"{waited}\n\n{len(rows)} failed of {scanned} runs of {options.owner}/{options.repo} ({pages} page(s)); "
        f"CircleCI project {project}\n\n"
    )
    printed += (
        "| run | workflow | branch | failing job: step | CircleCI pipeline | Jira | pull request |\n"
        "|---|---|---|---|---|---|---|\n"
    )
    for row in rows:
        run = row["run"]
        jira = ", ".join(f"{key} ({issues[key]})" for key in row["keys"]) or "-"
        printed += f"| {run['id']} | {run['name']} | {run['head_branch']} | {row['failing']} | {row['pipeline']} | {jira} | {row['pull']} |\n"
    printed += "\nWhy they failed (the failing steps' last error lines, from github_get_job_logs):\n"
    for run_id, lines in why:
        printed += f"- run {run_id}\n" + "".join(f"  {line}\n" for line in lines)
    printed += (
        "\nFailed tests (the failing checks ci_status finds for each failed run's commit, their reports read with "
        "ci_test_results):\n"
    )
    printed += "".join(f"{line}\n" for line in tests.printed)
    return printed


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", action="store_true", help="use the real APIs (settings from the environment)")
    parser.add_argument("--owner", default="octo-org")
    parser.add_argument("--repo", default="octo-repo")
    parser.add_argument("--circleci-project", help="CircleCI project slug; default gh/<owner>/<repo>")
    parser.add_argument("--per-page", type=int, default=100)
    parser.add_argument("--max-pages", type=int, default=3)
    parser.add_argument("--max-circleci-pages", type=int, default=3)
    parser.add_argument("--run-id", type=int, help="the run to wait for before the triage; default the newest run")
    parser.add_argument("--wait-seconds", type=int, default=60, help="the longest wait for that run, seconds")
    options = parser.parse_args()

    upstream = None
    if options.live:
        env = dict(os.environ)
    elif os.environ.get("UPSTREAM_URL"):
        env = recorded_env(os.environ["UPSTREAM_URL"])
    else:
        upstream, env = start_recorded_upstream()
    binary = os.environ.get("MCP_DEVTOOLS_BIN", str(ROOT / "target/debug/mcp-devtools"))
    if not Path(binary).exists():
        sys.exit(f"{binary} not found: run `cargo build -p mcp-devtools-server` or set MCP_DEVTOOLS_BIN")
    env.update({"MCP_STRUCTURED_OUTPUT": "true", "STREAMING_ARTIFACT_STORE": "memory", "RUST_LOG": "warn"})
    try:
        async with AsyncExitStack() as stack:
            read, write = await stack.enter_async_context(
                stdio_client(StdioServerParameters(command=binary, args=[], env=env))
            )
            session = await stack.enter_async_context(ClientSession(read, write))
            await session.initialize()
            tools = Tools(session)
            printed = await triage(tools, options)
            sys.stdout.write(printed)
            # 6. The baseline: the same calls made directly, each without its jq, as text blocks.
            direct = await tools.direct_text_bytes()
    finally:
        if upstream is not None:
            upstream.stdin.close()
            upstream.wait(timeout=10)
    program = len(printed.encode("utf-8"))
    print()
    print("| what a model reads | bytes |")
    print("|---|---|")
    print(f"| text blocks of the {len(tools.calls)} calls made directly (no jq) | {direct} |")
    print(f"| printed by this program | {program} |")
    print(f"ratio: {direct / max(program, 1):.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
