//! Latency through the official TypeScript SDK client over streamable HTTP against stdio, same run: a cached `circleci_get /me`, median per call. Whole chain: `clients/ts/latency.mjs`
//! (`@modelcontextprotocol/sdk`, `StreamableHTTPClientTransport` and `StdioClientTransport`) → the `mcp-devtools`
//! binary built by this `cargo bench` (release), once with `--http 127.0.0.1:0` and once over stdio → the recorded
//! CircleCI upstream on 127.0.0.1 (read once; then the server's HTTP cache answers). Target: HTTP median at most 2×
//! the stdio median. The same run also measures the floor: `clients/ts/replay-server.mjs`, which answers with
//! the real server's recorded results and does no work, over each transport, so the client's own cost per transport
//! is printed beside the server's. Needs `npm ci` in `clients/ts` (`scripts/test` runs it). Not a criterion bench (the
//! client is a Node process); it prints a table. Run with `cargo bench -p mcp-devtools-server --bench ts_latency`.
#![allow(missing_docs, dead_code, clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/common/http.rs"]
mod http;

use std::path::Path;

use http::{HttpServer, tokens_file};
use recorded_upstream::RecordedUpstream;
use serde_json::Value;

/// The server binary built by this `cargo bench` (release profile).
const BIN: &str = env!("CARGO_BIN_EXE_mcp-devtools");
const TOKEN: &str = "bench-token-ts";
/// Measured calls per transport.
const CALLS: &str = "500";

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../clients/ts");
    assert!(
        dir.join("node_modules/@modelcontextprotocol/sdk").exists(),
        "run `npm ci` in {} first (scripts/test does)",
        dir.display()
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let upstream = RecordedUpstream::circleci().await.unwrap();
        let temp = tempfile::tempdir().unwrap();
        let tokens = tokens_file(&temp, &[(TOKEN, "bench")]);
        let env = http::bench_env(&upstream);
        let mut server = HttpServer::start(env, &["--tokens-file", tokens.to_str().unwrap()], temp).await;
        let output = tokio::process::Command::new("node")
            .arg(dir.join("latency.mjs"))
            .env("MCP_DEVTOOLS_BIN", BIN)
            .env("UPSTREAM_URL", upstream.uri())
            .env("MCP_URL", &server.url)
            .env("TOKEN", TOKEN)
            .env("CALLS", CALLS)
            .output()
            .await
            .expect("run node");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "latency.mjs failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let figures: Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
        println!("\nts_latency: cached circleci_get /me, official TypeScript SDK client, ms per call\n");
        println!("| transport | calls | median | p90 | p99 | mean | cache misses |");
        println!("|---|---:|---:|---:|---:|---:|---:|");
        for name in ["stdio", "http", "replay-stdio", "replay-http"] {
            let f = &figures[name];
            let ms = |k: &str| f[k].as_f64().unwrap_or(f64::NAN);
            println!(
                "| {name} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {} |",
                f["calls"],
                ms("median"),
                ms("p90"),
                ms("p99"),
                ms("mean"),
                f["misses"]
            );
        }
        let median = |name: &str| figures[name]["median"].as_f64().unwrap_or(f64::NAN);
        println!(
            "\nHTTP median / stdio median: {:.2}x (target <= 2x); the same ratio for the no-work replay server \
             (the client's floor): {:.2}x; the server's own share of the median: stdio {:.3} ms, HTTP {:.3} ms",
            median("http") / median("stdio"),
            median("replay-http") / median("replay-stdio"),
            median("stdio") - median("replay-stdio"),
            median("http") - median("replay-http"),
        );
        server.terminate().await;
    });
}
