// A code-mode program written only from devtools.d.ts: the declarations @cloudflare/codemode generates from the
// server's tools/list (its McpConnector; regenerate with `node run.mjs types > devtools.d.ts`). Codemode runs it in
// its sandbox, a dynamic worker with no network: each `devtools.<tool>(input)` returns the tool's structuredContent
// (the `...Output` type) and an isError result throws an Error carrying the tool's text.
//
// The triage: every failed GitHub Actions run of octo-org/octo-repo (page after page, following nextPage; a page
// over the server's structured bound has `data: null` and `incomplete`, and is read back whole with artifact_read),
// the failing job and step of each (a jq keeps only those), and the status and assignee of each Jira issue named
// in its head commit message (a missing issue is an isError result: a caught Error).
async () => {
  const repo = { owner: "octo-org", repo: "octo-repo" };
  const FAILED_JOB =
    '[.jobs[] | select(.conclusion == "failure") | {name, steps: [.steps[] | select(.conclusion == "failure") | .name]}]';
  const ISSUE = "{status: .fields.status.name, assignee: .fields.assignee.displayName}";

  // The whole value of a result: itself, or (`incomplete`) the artifact read chunk by chunk until eof, its base64
  // decoded and the JSON parsed: the structuredContent it would have been.
  let artifactsRead = 0;
  const whole = async (result) => {
    if (!result.incomplete) return result;
    const { artifactId } = result.incomplete;
    if (artifactId === null) throw new Error("the value is too large and could not be saved: narrow the jq");
    artifactsRead++;
    const decoder = new TextDecoder();
    let text = "";
    for (let offset = 0; ; ) {
      const chunk = await devtools.artifact_read({ artifactId, offset });
      const bytes = Uint8Array.from(atob(chunk.data), (c) => c.charCodeAt(0));
      text += decoder.decode(bytes, { stream: !chunk.eof });
      if (chunk.eof) break;
      offset = chunk.nextOffset;
    }
    return JSON.parse(text);
  };

  // 1. Failed runs, every page (at most 3). No jq: the head commit message is needed, so a 100-run page is large.
  const failed = [];
  let scanned = 0;
  let pages = 0;
  for (let page = 1; page !== null && pages < 3; pages++) {
    const { data, nextPage } = await whole(await devtools.github_list_workflow_runs({ ...repo, perPage: 100, page }));
    scanned += data.workflow_runs.length;
    failed.push(...data.workflow_runs.filter((run) => run.conclusion === "failure"));
    page = nextPage;
  }

  // 2. The failing job and step of each failed run; the Jira keys of its head commit message.
  const rows = [];
  for (const run of failed) {
    const { data: jobs } = await devtools.github_list_workflow_jobs({ ...repo, runId: run.id, jq: FAILED_JOB });
    const failing = jobs.map((job) => `${job.name}: ${job.steps.join(", ")}`).join("; ");
    const keys = [...new Set(run.head_commit?.message.match(/\b[A-Z][A-Z0-9]+-[0-9]+\b/g) ?? [])].sort();
    rows.push({ run, failing, keys });
  }

  // 3. Each Jira issue once: status and assignee, or why there is none.
  const issues = new Map();
  for (const key of [...new Set(rows.flatMap((row) => row.keys))].sort()) {
    try {
      const { data } = await devtools.jira_get({
        path: `/rest/api/3/issue/${key}`,
        queryParams: { fields: "status,assignee" },
        jq: ISSUE,
      });
      issues.set(key, `${data.status}, ${data.assignee ?? "unassigned"}`);
    } catch (err) {
      issues.set(key, String(err.message).includes("404") ? "not found" : `error: ${err.message.split("\n")[0]}`);
    }
  }

  const table = rows.map(({ run, failing, keys }) => {
    const jira = keys.map((key) => `${key} (${issues.get(key)})`).join(", ") || "-";
    return `| ${run.id} | ${run.name} | ${run.head_branch} | ${failing} | ${jira} |`;
  });
  return {
    summary: `${failed.length} failed of ${scanned} runs of ${repo.owner}/${repo.repo} (${pages} page(s), ${artifactsRead} read from artifacts)`,
    rows: table,
  };
}
