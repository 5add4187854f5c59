// A code-mode program written only from devtools.d.ts (what @cloudflare/codemode's McpConnector generates from the
// server's tools/list): wait for a workflow run, then read the log of each job the wait reports failed and keep the
// lines that say why. `github_wait_for_run` answers once the run completed (here at once: the recorded run finished)
// with every job, the failed ones carrying the `jobId` that `github_get_job_logs` takes; `grep` and `tailLines` run
// on the server while the log streams in, and the jq keeps the step names and line texts.
async () => {
  const repo = { owner: "octo-org", repo: "octo-repo" };
  const ERROR_LINES = "^(FAILED|ERROR:|E +|[A-Za-z]+Error:)";
  const STEP_LINES = "[.jobs[] | .steps[] | select(.lines != []) | {step: .name, lines: [.lines[].text]}]";

  const { data: run } = await devtools.github_wait_for_run({ ...repo, runId: 2802600146, timeoutSeconds: 60 });
  if (run.timedOut) return { run: `${run.target}: still ${run.state} after 60 s`, failing: [] };

  const failing = [];
  for (const job of run.jobs.filter((job) => job.failed && job.jobId !== null)) {
    const { data: steps } = await devtools.github_get_job_logs({
      ...repo,
      jobId: job.jobId,
      grep: ERROR_LINES,
      tailLines: 2,
      jq: STEP_LINES,
    });
    for (const { step, lines } of steps) failing.push(`${job.name} / ${step}:`, ...lines.map((line) => `  ${line}`));
  }
  return {
    run: `${run.target}: ${run.state}, ${run.conclusion} (${run.stoppedBy})`,
    failedJobs: run.jobs.filter((job) => job.failed).map((job) => `${job.name} (jobId ${job.jobId})`),
    failing,
  };
}
