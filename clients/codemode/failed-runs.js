// A code-mode program written only from devtools.d.ts (what @cloudflare/codemode's McpConnector generates from the
// server's tools/list): every failed GitHub Actions run of octo-org/octo-repo in one call. `allPages` has the server
// read and merge the pages (at most 5 here), and the jq keeps only what a triage needs of each failed run, so the
// answer is small: no page to loop over, no artifact to read back. `pages` says how many pages were read and why
// reading stopped; `nextPage` continues when it was the cap, not the last page.
async () => {
  const repo = { owner: "octo-org", repo: "octo-repo" };
  const FAILED = '[.workflow_runs[] | select(.conclusion == "failure") | {id, name, branch: .head_branch}]';

  const result = await devtools.github_list_workflow_runs({ ...repo, perPage: 100, allPages: 5, jq: FAILED });
  return {
    failed: result.data.length,
    pages: result.pages,
    nextPage: result.nextPage,
    incomplete: result.incomplete ?? null,
    runs: result.data.map((run) => `${run.id} ${run.name} (${run.branch})`),
  };
}
