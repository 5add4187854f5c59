// The same server through the AI SDK path: @ai-sdk/mcp's tools handed to codemode's createCodeTool. Its methods
// (on `codemode`) return the whole CallToolResult, {content, structuredContent, isError}: an isError result does
// not throw, and the data is under structuredContent (set MCP_STRUCTURED_OUTPUT=true on the server).
async () => {
  const runs = await codemode.github_list_workflow_runs({
    owner: "octo-org",
    repo: "octo-repo",
    perPage: 5,
    jq: "[.workflow_runs[] | {id, conclusion}]",
  });
  const missing = await codemode.jira_get({ path: "/rest/api/3/issue/EX-404" });
  return {
    keys: Object.keys(runs).sort(),
    runs: runs.structuredContent.data,
    nextPage: runs.structuredContent.nextPage,
    missing: { isError: missing.isError, text: missing.content[0].text.split("\n")[0] },
  };
}
