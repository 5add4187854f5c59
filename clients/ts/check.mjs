// Expectation checks shared by the TypeScript client cases (the Python suite mirrors them in check.py).
import { isDeepStrictEqual } from "node:util";

function fail(message) {
  throw new Error(message);
}

function at(value, path) {
  return path.reduce((v, key) => (v === undefined || v === null ? undefined : v[key]), value);
}

/** Checks one call's result against the case's `expect` block. */
export function check(c, result) {
  const e = c.expect;
  const text = result.content?.[0]?.text;
  if (typeof text !== "string") fail("content[0] is not a text block");
  if (Boolean(result.isError) !== e.isError) fail(`isError=${result.isError}, expected ${e.isError}: ${text.slice(0, 300)}`);
  if (e.isError) {
    if ("structuredContent" in result) fail("an error result carries structuredContent");
    if (e.textIncludes && !text.includes(e.textIncludes)) fail(`error text lacks ${JSON.stringify(e.textIncludes)}: ${text}`);
    return;
  }
  if (e.noStructured) {
    if ("structuredContent" in result) fail("switch off, yet structuredContent is present");
    if (result.content.some((block) => block.type === "resource_link")) fail("switch off, yet a resource_link block is present");
    return;
  }
  const sc = result.structuredContent;
  if (sc === undefined || sc === null || typeof sc !== "object") fail("structuredContent is missing or not an object");
  if ("nextPage" in e && sc.nextPage !== e.nextPage) fail(`nextPage=${sc.nextPage}, expected ${e.nextPage}`);
  // `pages` (allPages) is there exactly when the case asks for it: a call without allPages has none.
  if ("pages" in e ? !isDeepStrictEqual(sc.pages, e.pages) : "pages" in sc) fail(`pages=${JSON.stringify(sc.pages)}, expected ${JSON.stringify(e.pages)}`);
  if ("cacheHit" in e) {
    const cache = sc.cache;
    if (!cache || cache.hit !== e.cacheHit) fail(`cache=${JSON.stringify(cache)}, expected hit=${e.cacheHit}`);
    if (!Number.isInteger(cache.ageMs) || cache.ageMs < 0 || (!e.cacheHit && cache.ageMs !== 0)) fail(`bad ageMs ${cache.ageMs}`);
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(cache.fetchedAt)) fail(`bad fetchedAt ${cache.fetchedAt}`);
  }
  if (e.incomplete === true) {
    if (!sc.incomplete || sc.incomplete.reason !== "size" || sc.data !== null) fail(`expected the incomplete form: ${JSON.stringify(sc).slice(0, 300)}`);
    if (sc.incomplete.bytes <= sc.incomplete.limitBytes) fail("incomplete.bytes is not over limitBytes");
    if (typeof sc.incomplete.artifactId !== "string") fail("artifactId is not a string");
  } else if (e.incomplete === "binary") {
    const inc = sc.incomplete;
    if (!inc || inc.reason !== "binary" || sc.data !== null) fail(`expected the binary form: ${JSON.stringify(sc).slice(0, 300)}`);
    if (inc.mimeType !== e.mimeType) fail(`mimeType=${inc.mimeType}, expected ${e.mimeType}`);
    if (inc.bytes !== e.bytes || typeof inc.artifactId !== "string") fail(`bad binary incomplete: ${JSON.stringify(inc)}`);
  } else if (e.incomplete === "log") {
    // A job log over the bound: the whole log text is the artifact (its length, not the kept lines' JSON size).
    const inc = sc.incomplete;
    if (!inc || inc.reason !== "size" || sc.data !== null) fail(`expected the oversized log form: ${JSON.stringify(sc).slice(0, 300)}`);
    if (inc.mimeType !== e.mimeType || typeof inc.artifactId !== "string") fail(`bad log incomplete: ${JSON.stringify(inc)}`);
    if (!Array.isArray(sc.logs) || sc.logs.reduce((n, part) => n + part.bytes, 0) !== inc.bytes) fail(`logs[] does not add up to incomplete.bytes: ${JSON.stringify(sc.logs)}`);
  } else if ("incomplete" in sc) {
    fail(`unexpected incomplete: ${JSON.stringify(sc.incomplete)}`);
  }
  if (e.dataPath) {
    const got = at(sc.data, e.dataPath);
    if (!isDeepStrictEqual(got, e.equals)) fail(`data at ${JSON.stringify(e.dataPath)} = ${JSON.stringify(got)}, expected ${JSON.stringify(e.equals)}`);
  }
  if (e.textParsesToStructured && !isDeepStrictEqual(JSON.parse(text), sc)) fail("JSON text does not parse to structuredContent");
  if (e.textParsesToData && !isDeepStrictEqual(JSON.parse(text), sc.data)) fail("JSON text does not parse to structuredContent.data");
}

/** Reads an artifact chunk by chunk until eof and checks the bytes rebuild the full envelope. */
export async function readArtifact(c, sc, callArtifactRead) {
  const chunks = [];
  let offset = 0;
  let mimeType;
  for (let i = 0; i < 10000; i++) {
    const r = await callArtifactRead({ artifactId: sc.incomplete.artifactId, offset, maxBytes: 7919 });
    if (r.isError) fail(`artifact_read failed: ${r.content[0].text}`);
    const chunk = r.structuredContent;
    if (chunk.offset !== offset) fail(`chunk offset ${chunk.offset}, expected ${offset}`);
    const bytes = Buffer.from(chunk.data, "base64");
    if (bytes.length !== chunk.nextOffset - chunk.offset) fail("chunk length does not match its offsets");
    chunks.push(bytes);
    mimeType = chunk.mimeType;
    offset = chunk.nextOffset;
    if (chunk.eof) break;
  }
  const all = Buffer.concat(chunks);
  if (all.length !== sc.incomplete.bytes) fail(`artifact has ${all.length} bytes, incomplete.bytes says ${sc.incomplete.bytes}`);
  if (sc.incomplete.mimeType?.startsWith("text/plain")) {
    // A job's whole log as the vendor sent it.
    if (mimeType !== sc.incomplete.mimeType) fail(`artifact mimeType ${mimeType}, expected ${sc.incomplete.mimeType}`);
    if (c.expect.artifactIncludes && !all.toString("utf8").includes(c.expect.artifactIncludes)) fail(`the log artifact lacks ${JSON.stringify(c.expect.artifactIncludes)}`);
    return all;
  }
  if (sc.incomplete.reason === "binary") {
    // The upstream bytes as they came (the Rust suite compares them byte for byte), with the upstream media type.
    if (mimeType !== sc.incomplete.mimeType) fail(`artifact mimeType ${mimeType}, expected ${sc.incomplete.mimeType}`);
    return all;
  }
  const full = JSON.parse(all.toString("utf8"));
  if (full.data === null || full.nextPage !== sc.nextPage) fail("artifact is not the full envelope");
  return all;
}

/** Reads the artifact a result links (its resource_link block) with resources/read and checks it is `expected`,
 * the bytes artifact_read gave, byte for byte: text for text and JSON media types, base64 blob otherwise. */
export async function readLinkedResource(result, expected, readResource) {
  const sc = result.structuredContent;
  const links = result.content.filter((block) => block.type === "resource_link");
  if (links.length !== 1) fail(`expected one resource_link block, got ${links.length}`);
  const link = links[0];
  if (link.uri !== `artifact://${sc.incomplete.artifactId}`) fail(`resource_link uri ${link.uri}`);
  if (link.size !== expected.length) fail(`resource_link size ${link.size}, artifact has ${expected.length} bytes`);
  const read = await readResource({ uri: link.uri });
  if (read.contents.length !== 1) fail(`resources/read gave ${read.contents.length} contents`);
  const [item] = read.contents;
  if (item.uri !== link.uri || item.mimeType !== link.mimeType) fail(`resources/read item ${JSON.stringify({ uri: item.uri, mimeType: item.mimeType })}`);
  const textual = /^(text\/|application\/json)|\+json/.test(link.mimeType);
  if (textual !== ("text" in item)) fail(`${link.mimeType} read as ${"text" in item ? "text" : "blob"}`);
  const bytes = "text" in item ? Buffer.from(item.text, "utf8") : Buffer.from(item.blob, "base64");
  if (!bytes.equals(expected)) fail("resources/read differs from artifact_read");
  // Cache hints (MCP 2026-07-28): the read is the caller's own.
  if (read.cacheScope !== "private" || !(read.ttlMs > 0)) fail(`resources/read cache hints ${JSON.stringify({ ttlMs: read.ttlMs, cacheScope: read.cacheScope })}`);
  // The same bytes in ranges of the URI template (artifact://{artifactId}{?offset,maxBytes}), a third at a time:
  // each answer's _meta says where the next starts (a text range ends on a whole character) and when it is the end.
  const step = Math.max(1, Math.ceil(expected.length / 3));
  const parts = [];
  for (let offset = 0, reads = 0; ; reads += 1) {
    if (reads > 6) fail("ranged resources/read did not reach eof");
    const range = await readResource({ uri: `${link.uri}?offset=${offset}&maxBytes=${step}` });
    const [part] = range.contents;
    parts.push("text" in part ? Buffer.from(part.text, "utf8") : Buffer.from(part.blob, "base64"));
    if (part._meta?.offset !== offset) fail(`ranged read _meta ${JSON.stringify(part._meta)}`);
    offset = part._meta.nextOffset;
    if (part._meta.eof) break;
  }
  if (!Buffer.concat(parts).equals(expected)) fail("ranged resources/read differs from artifact_read");
}
