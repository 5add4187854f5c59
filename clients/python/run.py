"""Drives the mcp-devtools binary with the official Python MCP SDK client over stdio, for every case in
../cases.json, with whichever SDK runs it: mcp 2.x (the .venv here) or 1.x (v1/.venv), see sdk.py.
ClientSession.call_tool validates structuredContent against the tool's outputSchema (jsonschema) and raises if it
does not conform; this script then checks each case's expectations and reads every artifact back, with artifact_read
and with resources/read of the result's resource_link block.

Env: MCP_DEVTOOLS_BIN (the server binary), UPSTREAM_URL (the recorded upstream). Exit code 0 = every case passed.
"""

import asyncio
import json
import os
import re
import sys
import traceback
from contextlib import AsyncExitStack
from pathlib import Path

from mcp import ClientSession, StdioServerParameters, stdio_client

import sdk
from check import check, read_artifact, read_linked_resource

HERE = Path(__file__).resolve().parent


async def main() -> int:
    binary = os.environ.get("MCP_DEVTOOLS_BIN")
    upstream = os.environ.get("UPSTREAM_URL")
    if not binary or not upstream:
        print("set MCP_DEVTOOLS_BIN and UPSTREAM_URL", file=sys.stderr)
        return 2
    spec = json.loads((HERE.parent / "cases.json").read_text())
    passed = failed = 0
    async with AsyncExitStack() as stack:
        sessions: dict[str, ClientSession] = {}

        async def session_for(profile: str) -> ClientSession:
            if profile not in sessions:
                env = {
                    "GITHUB_API_BASE": upstream,
                    "CIRCLECI_API_BASE": f"{upstream}/api/v2",
                    "JIRA_BASE_URL": upstream,
                    "CONFLUENCE_BASE_URL": f"{upstream}/wiki",
                    "BITBUCKET_BASE_URL": upstream,
                    "STREAMING_ARTIFACT_STORE": "memory",
                    "RUST_LOG": "warn",
                }
                env.update(spec["profiles"][profile])
                params = StdioServerParameters(command=binary, args=[], env=env)
                read, write = await stack.enter_async_context(stdio_client(params))
                session = await stack.enter_async_context(ClientSession(read, write))
                await session.initialize()
                tools = (await session.list_tools()).tools
                structured = spec["profiles"][profile].get("MCP_STRUCTURED_OUTPUT") == "true"
                for tool in tools:
                    has_schema = sdk.output_schema(tool) is not None
                    is_write = tool.name.endswith("_write")  # the Atlassian writes: text only
                    if has_schema != (structured and not is_write):
                        raise AssertionError(f"{profile}: {tool.name} outputSchema present={has_schema}")
                    if has_schema and sdk.output_schema(tool).get("type") != "object":
                        raise AssertionError(f"{tool.name}: outputSchema root is not an object")
                sessions[profile] = session
            return sessions[profile]

        for case in spec["cases"]:
            try:
                session = await session_for(case["profile"])
                result = await session.call_tool(case["tool"], case["args"])
                check(case, result)
                sc = sdk.structured_content(result)
                if isinstance(sc, dict) and sc.get("incomplete"):
                    expected = await read_artifact(sc, lambda args: session.call_tool("artifact_read", args))
                    # The same artifact through resources/read of the result's resource_link block.
                    if isinstance(sc["incomplete"].get("artifactId"), str):
                        await read_linked_resource(result, expected, session.read_resource)
                passed += 1
                print(f"ok   {case['name']}")
            except Exception:  # noqa: BLE001 - every failure is reported, then counted
                failed += 1
                print(f"FAIL {case['name']}: {traceback.format_exc()}")
    print(f"python-sdk {sdk.VERSION}: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
