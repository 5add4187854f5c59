//! The price of `jq` over stdio: `jira_get` of one issue with `jq: ".key"` against the same call
//! without `jq`, in the same run. (The issue measured `.fields.summary`; the recorded issue `ED-1`, Atlassian's
//! documented example, has no `summary` field, so that program answers `null`. `.key` costs the same — the worker
//! still receives the whole body — and answers a string this bench can check.) Whole chain: rmcp client → the `mcp-devtools` binary built by this
//! `cargo bench` (release) over stdio → its pooled `--jq-worker` processes → a wiremock upstream on 127.0.0.1 serving
//! the recorded Jira issue. Target: with `jq` at most 1.5× without. Results: `BENCHMARKS.md`.
#![allow(missing_docs, clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use recorded_upstream::RecordedUpstream;
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::{Map, Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");

async fn start() -> (RecordedUpstream, RunningService<RoleClient, ()>) {
    let upstream = RecordedUpstream::atlassian().await.unwrap();
    let uri = upstream.uri();
    let env = [
        ("PATH", std::env::var("PATH").unwrap_or_default()),
        ("MCP_STRUCTURED_OUTPUT", "true".to_owned()),
        ("STREAMING_ARTIFACT_STORE", "memory".to_owned()),
        ("RUST_LOG", "warn".to_owned()),
        ("JIRA_BASE_URL", uri.clone()),
        ("ATLASSIAN_USER_EMAIL", "mia@example.com".to_owned()),
        ("ATLASSIAN_API_TOKEN", "ATATT-bench".to_owned()),
    ];
    let command = tokio::process::Command::new(BIN).configure(|cmd| {
        cmd.env_clear().envs(env);
    });
    let client = ().serve(TokioChildProcess::new(command).unwrap()).await.unwrap();
    (upstream, client)
}

fn arguments(value: Value) -> Map<String, Value> {
    value.as_object().cloned().unwrap()
}

async fn jira_get(client: &RunningService<RoleClient, ()>, args: &Map<String, Value>) -> usize {
    let result = client
        .call_tool(CallToolRequestParams::new("jira_get").with_arguments(args.clone()))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    result.content.len()
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (_upstream, client) = runtime.block_on(start());
    let plain = arguments(json!({"path": "/rest/api/3/issue/ED-1"}));
    let projected = arguments(json!({"path": "/rest/api/3/issue/ED-1", "jq": ".key"}));
    // The answer with jq is the issue key; both calls reach the upstream the same way.
    runtime.block_on(async {
        let result = client
            .call_tool(CallToolRequestParams::new("jira_get").with_arguments(projected.clone()))
            .await
            .unwrap();
        let structured = result.structured_content.unwrap();
        assert_eq!(structured["data"], "ED-1", "{structured}");
    });
    let mut group = c.benchmark_group("stdio jira_get one issue");
    group
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    group.bench_function("without jq", |b| b.iter(|| runtime.block_on(jira_get(&client, &plain))));
    group.bench_function("with jq .key", |b| {
        b.iter(|| runtime.block_on(jira_get(&client, &projected)))
    });
    group.finish();
    runtime.block_on(async move { client.cancel().await.unwrap() });
}

criterion_group!(benches, bench);
criterion_main!(benches);
