"""The official Python MCP SDK's attribute names, whichever major version runs these scripts (the v1 and v2
columns): mcp 2.x's results and tools use snake_case attributes (structured_content, is_error, output_schema),
mcp 1.x's the protocol's camelCase (structuredContent, isError, outputSchema)."""

from importlib.metadata import version
from typing import Any

VERSION = version("mcp")
MAJOR = int(VERSION.split(".")[0])


def structured_content(result: Any) -> Any:
    return result.structured_content if MAJOR >= 2 else result.structuredContent


def is_error(result: Any) -> Any:
    return result.is_error if MAJOR >= 2 else result.isError


def output_schema(tool: Any) -> Any:
    return tool.output_schema if MAJOR >= 2 else tool.outputSchema


def mime_type(item: Any) -> Any:
    return item.mime_type if MAJOR >= 2 else item.mimeType
