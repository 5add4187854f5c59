"""Drives github_wait_for_run with the official Python MCP SDK client over stdio, against a live run of the recorded
upstream (recorded_upstream::live: in_progress for some polls, then completed/failure). Run by
server/tests/it/sdk_waits.rs, which mounts the runs and reads their request counters.

    python wait.py CASE...        CASE: progress | timeout | cancel

- progress: call_tool with a progress_callback on a wait of seconds: the notifications arrive, increase, carry total
  and the message; ClientSession.call_tool validates structuredContent against the tool's outputSchema and this
  script checks the result.
- timeout: read_timeout_seconds (1.5 s) ends the call with REQUEST_TIMEOUT; the SDK sends notifications/cancelled.
- cancel: the task awaiting the call is cancelled (anyio.move_on_after); the SDK sends notifications/cancelled.
After timeout and cancel the script prints `stopped RUN_ID` and waits for the line `next` on its stdin: meanwhile the
test proves the server sends no request for that run any more.

Env: RUNS (JSON: case -> run id), MCP_DEVTOOLS_BIN and SERVER_ENV (JSON: the server's environment).
Prints `ok CASE` / `FAIL CASE: ...` and ends with `python-sdk-wait: N passed, M failed`; exit 0 = all passed.
"""

import json
import os
import re
import sys
import time
import traceback

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

TOOL = "github_wait_for_run"
READ_TIMEOUT_SECONDS = 1.5
RUNS = json.loads(os.environ.get("RUNS", "{}"))


def check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


async def stopped(run_id: int) -> None:
    """Tells the test that the call on run_id ended, then waits until it has checked the request log."""
    print(f"stopped {run_id}", flush=True)
    answer = await anyio.to_thread.run_sync(sys.stdin.readline)
    check(answer.strip() == "next", f"the test answered {answer!r}")


def arguments(run_id: int) -> dict:
    return {"owner": "octo-org", "repo": "octo-repo", "runId": run_id, "timeoutSeconds": 30}


class Recorder:
    """The progress notifications of one call."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, float | None, str | None]] = []

    async def __call__(self, progress: float, total: float | None, message: str | None) -> None:
        self.seen.append((progress, total, message))

    def check(self, run_id: int, finished: bool) -> None:
        seen = self.seen
        check(len(seen) >= 3, f"{len(seen)} progress notifications: {seen}")
        check(all(b[0] > a[0] for a, b in zip(seen, seen[1:])), f"progress does not increase: {seen}")
        check(seen[0][2] == f"waiting for workflow run {run_id} of octo-org/octo-repo", f"first {seen[0]}")
        for progress, total, message in seen[1:]:
            check(total == 2, f"total {total}: {seen}")
            check(re.fullmatch(r"(in_progress: 1|completed: 2) of 2 done", message or "") is not None, f"{message!r}")
        check(any(m == "in_progress: 1 of 2 done" for _, _, m in seen), f"no in_progress notification: {seen}")
        if finished:
            check(seen[-1] == (2, 2, "completed: 2 of 2 done"), f"last {seen[-1]}")


async def progress(session: ClientSession) -> str:
    run_id = RUNS["progress"]
    recorder = Recorder()
    started = time.monotonic()
    result = await session.call_tool(TOOL, arguments(run_id), read_timeout_seconds=15, progress_callback=recorder)
    elapsed = time.monotonic() - started
    check(elapsed > 2 * READ_TIMEOUT_SECONDS, f"the wait took {elapsed:.1f} s")
    check(not result.is_error, f"isError: {result.content}")
    data = result.structured_content["data"]
    check(data["stoppedBy"] == "finished" and data["timedOut"] is False, f"stoppedBy {data['stoppedBy']}")
    check((data["state"], data["conclusion"]) == ("completed", "failure"), f"{data['state']} {data['conclusion']}")
    failed = [job for job in data["jobs"] if job["failed"]]
    check(len(failed) == 1 and failed[0]["jobId"] == run_id * 10 + 2, f"failed jobs {failed}")
    recorder.check(run_id, finished=True)
    return f"waited {elapsed:.1f} s, {len(recorder.seen)} notifications"


async def timeout(session: ClientSession) -> None:
    run_id = RUNS["timeout"]
    recorder = Recorder()
    started = time.monotonic()
    try:
        result = await session.call_tool(
            TOOL, arguments(run_id), read_timeout_seconds=READ_TIMEOUT_SECONDS, progress_callback=recorder
        )
        raise AssertionError(f"no timeout: {result}")
    except MCPError as err:
        elapsed = time.monotonic() - started
        check("timed out" in str(err), f"not a timeout: {err!r}")
    check(READ_TIMEOUT_SECONDS - 0.05 <= elapsed < 2 * READ_TIMEOUT_SECONDS, f"timed out after {elapsed:.2f} s")
    recorder.check(run_id, finished=False)
    await stopped(run_id)


async def cancel(session: ClientSession) -> None:
    run_id = RUNS["cancel"]
    recorder = Recorder()
    with anyio.move_on_after(1.0) as scope:
        await session.call_tool(TOOL, arguments(run_id), read_timeout_seconds=15, progress_callback=recorder)
    check(scope.cancelled_caught, "the call ended before it was cancelled")
    recorder.check(run_id, finished=False)
    await stopped(run_id)


CASES = {"progress": progress, "timeout": timeout, "cancel": cancel}


async def main() -> int:
    params = StdioServerParameters(
        command=os.environ["MCP_DEVTOOLS_BIN"], args=[], env=json.loads(os.environ["SERVER_ENV"])
    )
    passed = failed = 0
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        check(any(t.name == TOOL and t.output_schema for t in tools), f"{TOOL} has no outputSchema")
        for name in sys.argv[1:]:
            try:
                detail = await CASES[name](session)
                passed += 1
                print(f"ok   {name}{f' ({detail})' if detail else ''}", flush=True)
            except Exception:  # noqa: BLE001 - every failure is reported, then counted
                failed += 1
                print(f"FAIL {name}: {traceback.format_exc()}", flush=True)
    print(f"python-sdk-wait: {passed} passed, {failed} failed", flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(anyio.run(main))
