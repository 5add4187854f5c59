"""Expectation checks for the Python client cases (mirrors ../ts/check.mjs)."""

import base64
import json
import re
from typing import Any

import sdk


def _at(value: Any, path: list) -> Any:
    for key in path:
        if value is None:
            return None
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _same(a: Any, b: Any) -> bool:
    """Deep equality that tells booleans from numbers (True != 1)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def check(case: dict, result: Any) -> None:
    e = case["expect"]
    text = result.content[0].text
    assert bool(sdk.is_error(result)) == e["isError"], f"isError={sdk.is_error(result)}, expected {e['isError']}: {text[:300]}"
    raw = result.model_dump(by_alias=True, exclude_unset=True)
    if e["isError"]:
        assert "structuredContent" not in raw, "an error result carries structuredContent"
        if "textIncludes" in e:
            assert e["textIncludes"] in text, f"error text lacks {e['textIncludes']!r}: {text}"
        return
    if e.get("noStructured"):
        assert "structuredContent" not in raw, "switch off, yet structuredContent is present"
        return
    sc = sdk.structured_content(result)
    assert isinstance(sc, dict), "structuredContent is missing or not an object"
    if "nextPage" in e:
        assert sc.get("nextPage") == e["nextPage"], f"nextPage={sc.get('nextPage')}, expected {e['nextPage']}"
    # `pages` (allPages) is there exactly when the case asks for it: a call without allPages has none.
    assert sc.get("pages") == e.get("pages") and ("pages" in sc) == ("pages" in e), f"pages={sc.get('pages')}, expected {e.get('pages')}"
    if "cacheHit" in e:
        cache = sc.get("cache")
        assert isinstance(cache, dict) and cache.get("hit") is e["cacheHit"], f"cache={cache}, expected hit={e['cacheHit']}"
        age = cache.get("ageMs")
        assert isinstance(age, int) and age >= 0 and (e["cacheHit"] or age == 0), f"bad ageMs {age}"
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", cache.get("fetchedAt", "")), f"bad fetchedAt {cache}"
    if e.get("incomplete") is True:
        inc = sc.get("incomplete")
        assert inc and inc["reason"] == "size" and sc["data"] is None, f"expected the incomplete form: {str(sc)[:300]}"
        assert inc["bytes"] > inc["limitBytes"], "incomplete.bytes is not over limitBytes"
        assert isinstance(inc["artifactId"], str), "artifactId is not a string"
    elif e.get("incomplete") == "binary":
        inc = sc.get("incomplete")
        assert inc and inc["reason"] == "binary" and sc["data"] is None, f"expected the binary form: {str(sc)[:300]}"
        assert inc.get("mimeType") == e["mimeType"], f"mimeType={inc.get('mimeType')}, expected {e['mimeType']}"
        assert inc["bytes"] == e["bytes"] and isinstance(inc["artifactId"], str), f"bad binary incomplete: {inc}"
    elif e.get("incomplete") == "log":
        # A job log over the bound: the whole log text is the artifact (its length, not the kept lines' JSON size).
        inc = sc.get("incomplete")
        assert inc and inc["reason"] == "size" and sc["data"] is None, f"expected the oversized log form: {str(sc)[:300]}"
        assert inc.get("mimeType") == e["mimeType"] and isinstance(inc["artifactId"], str), f"bad log incomplete: {inc}"
        assert sum(part["bytes"] for part in sc.get("logs", [])) == inc["bytes"], f"logs[] does not add up: {sc.get('logs')}"
    else:
        assert "incomplete" not in sc, f"unexpected incomplete: {sc.get('incomplete')}"
    if "dataPath" in e:
        got = _at(sc["data"], e["dataPath"])
        assert _same(got, e["equals"]), f"data at {e['dataPath']} = {got!r}, expected {e['equals']!r}"
    if e.get("textParsesToStructured"):
        assert _same(json.loads(text), sc), "JSON text does not parse to structuredContent"
    if e.get("textParsesToData"):
        assert _same(json.loads(text), sc["data"]), "JSON text does not parse to structuredContent.data"


async def read_artifact(sc: dict, call_artifact_read) -> bytes:
    """Reads the artifact chunk by chunk until eof; the bytes must rebuild the full envelope. Returns them."""
    chunks = []
    offset = 0
    mime_type = None
    for _ in range(10000):
        r = await call_artifact_read({"artifactId": sc["incomplete"]["artifactId"], "offset": offset, "maxBytes": 7919})
        assert not sdk.is_error(r), f"artifact_read failed: {r.content[0].text}"
        chunk = sdk.structured_content(r)
        assert chunk["offset"] == offset, f"chunk offset {chunk['offset']}, expected {offset}"
        data = base64.b64decode(chunk["data"], validate=True)
        assert len(data) == chunk["nextOffset"] - chunk["offset"], "chunk length does not match its offsets"
        chunks.append(data)
        mime_type = chunk["mimeType"]
        offset = chunk["nextOffset"]
        if chunk["eof"]:
            break
    full_bytes = b"".join(chunks)
    assert len(full_bytes) == sc["incomplete"]["bytes"], "artifact length differs from incomplete.bytes"
    if (sc["incomplete"].get("mimeType") or "").startswith("text/plain"):
        # A job's whole log as the vendor sent it.
        assert mime_type == sc["incomplete"]["mimeType"], f"artifact mimeType {mime_type}, expected {sc['incomplete']['mimeType']}"
        return full_bytes
    if sc["incomplete"]["reason"] == "binary":
        # The upstream bytes as they came (the Rust suite compares them byte for byte), with the upstream media type.
        assert mime_type == sc["incomplete"]["mimeType"], f"artifact mimeType {mime_type}, expected {sc['incomplete']['mimeType']}"
        return full_bytes
    full = json.loads(full_bytes.decode("utf-8"))
    assert full["data"] is not None and full.get("nextPage") == sc.get("nextPage"), "artifact is not the full envelope"
    return full_bytes


async def read_linked_resource(result: Any, expected: bytes, read_resource) -> None:
    """Reads the artifact a result links (its one resource_link block) with resources/read and checks it is
    `expected` (what artifact_read gave), with the link's media type (CONTRACT section 5)."""
    links = [block for block in result.content if block.type == "resource_link"]
    assert len(links) == 1, f"expected one resource_link block, got {len(links)}"
    link = links[0]
    artifact_id = sdk.structured_content(result)["incomplete"]["artifactId"]
    assert str(link.uri) == f"artifact://{artifact_id}", f"resource_link uri {link.uri}"
    assert link.size == len(expected), f"resource_link size {link.size}, artifact has {len(expected)} bytes"
    read = await read_resource(link.uri)
    assert len(read.contents) == 1, f"resources/read gave {len(read.contents)} contents"
    item = read.contents[0]
    assert str(item.uri) == str(link.uri) and sdk.mime_type(item) == sdk.mime_type(link), f"resources/read item {item}"
    data = item.text.encode("utf-8") if hasattr(item, "text") else base64.b64decode(item.blob, validate=True)
    assert data == expected, "resources/read differs from artifact_read"
