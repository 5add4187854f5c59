// A code-mode program written only from devtools.d.ts (what @cloudflare/codemode's McpConnector generates from the
// server's tools/list): which tests fail on a pull request. `ci_status` gives one state for its head commit with every
// check, GitHub's and CircleCI's, each carrying the ids the other tools take; for each failing one whose reports
// exist, `ci_test_results` reads them: a GitHub check run's from its run's `test-results` artifact (its id from the
// run's artifacts, read with `github_get` and a jq), a CircleCI job's from the job's tests. Each artifact or job is
// read once; each failed test becomes one line, `file:line name: message`, with what of it exists.
async () => {
  const repo = { owner: "octo-org", repo: "octo-repo" };
  const TEST_RESULTS_ARTIFACTS = '[.artifacts[] | select(.name == "test-results") | .id]';

  const { data: status } = await devtools.ci_status({ ...repo, pullNumber: 2402 });
  const failing = status.checks.filter((check) => check.state === "failure");

  // The report sources of the failing checks, each once.
  const sources = new Map();
  for (const check of failing) {
    if (check.kind === "check_run" && check.runId !== null) {
      const path = `/repos/${repo.owner}/${repo.repo}/actions/runs/${check.runId}/artifacts`;
      const { data: ids } = await devtools.github_get({ path, jq: TEST_RESULTS_ARTIFACTS });
      for (const artifactId of ids) sources.set(`artifact ${artifactId}`, { check: check.name, input: { ...repo, artifactId } });
    } else if (check.kind === "circleci_job" && check.jobNumber !== null && status.circleci !== null) {
      const input = { projectSlug: status.circleci.projectSlug, jobNumber: check.jobNumber };
      sources.set(`job ${check.jobNumber}`, { check: `CircleCI job ${check.jobNumber} (${check.name})`, input });
    }
  }

  const line = (test) => {
    const where = test.file === null ? "" : `${test.file}${test.line === null ? "" : `:${test.line}`} `;
    const message = test.message === null ? "" : test.message.split("\n")[0];
    return `${where}${test.name}${message === "" ? "" : `: ${message}`}`;
  };
  const reports = [];
  const failed = [];
  for (const { check, input } of sources.values()) {
    const { data: results } = await devtools.ci_test_results(input);
    reports.push(`${check}: ${results.source}: ${results.totals.failed} failed of ${results.totals.total}`);
    failed.push(...results.failed.map(line));
    if (results.failedOmitted > 0) failed.push(`(${results.failedOmitted} more)`);
  }
  return {
    commit: `${status.sha} (${status.branch}): ${status.state}`,
    failingChecks: failing.map((check) => `${check.kind} ${check.name}`),
    reports,
    failed,
  };
}
