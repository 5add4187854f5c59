//! Peak memory of one oversized result: a 16 MiB JSON page through [`Responder::respond`]
//! (render the text, measure and seal against the default 256 KiB bound, put the compact bytes into a memory
//! store, build the `CallToolResult` and serialize it as the transport would), with the peak resident set size read
//! from `/proc/self/status` (`VmHWM`, reset through `/proc/self/clear_refs` once the page is parsed).
//!
//! What is counted: the peak RSS above the RSS right after the page was parsed into a `serde_json::Value` (and its
//! bytes freed), so the parse's own tree is left out, and the artifact kept by the store (16 MiB) is in.
//!
//! Run: `cargo run --release -p mcp-results --example seal_rss [toon|json]` (Linux only).
#![allow(missing_docs, clippy::unwrap_used)]

use std::sync::Arc;

use mcp_artifacts::{MemoryStore, StoreConfig};
use mcp_envelope::{OutputFormat, PageMeta, SizeBound};
use mcp_results::{Responder, View};
use serde_json::Value;

const RUNS_LARGE: &str = include_str!("../../fixtures/github/runs-large.json");
const MIB: usize = 1024 * 1024;
const TARGET: usize = 16 * MIB;

/// A `/proc/self/status` field in bytes (its value is in kB).
fn status(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with(field)).unwrap();
    let kb: usize = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    kb * 1024
}

/// The compact bytes of a runs page of at least [`TARGET`] bytes (the fixture's runs repeated), built as text so
/// that no large value is freed before the measurement (its memory would stay resident and hide later growth).
fn page() -> Vec<u8> {
    let runs_large: Value = serde_json::from_str(RUNS_LARGE).unwrap();
    let runs: Vec<String> = runs_large["workflow_runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|run| serde_json::to_string(run).unwrap())
        .collect();
    drop(runs_large);
    let mut items = String::with_capacity(TARGET + 2 * MIB);
    let mut count = 0;
    for run in runs.iter().cycle() {
        if items.len() >= TARGET {
            break;
        }
        if count > 0 {
            items.push(',');
        }
        items.push_str(run);
        count += 1;
    }
    format!("{{\"total_count\":{count},\"workflow_runs\":[{items}]}}").into_bytes()
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / MIB as f64)
}

fn main() {
    let format: OutputFormat = std::env::args().nth(1).as_deref().unwrap_or("toon").parse().unwrap();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    let store = Arc::new(MemoryStore::new(StoreConfig::default()));
    let responder = Responder::new(store, SizeBound::default(), Arc::new(mcp_projection::InProcess))
        .with_pipeline_timeout(std::time::Duration::from_secs(120));

    let bytes = page();
    let size = bytes.len();
    let before_parse = status("VmRSS:");
    let value: Value = serde_json::from_slice(&bytes).unwrap();
    drop(bytes);
    let parsed = status("VmRSS:");
    std::fs::write("/proc/self/clear_refs", "5").unwrap();

    let view = View::new(None, format);
    let result = runtime.block_on(responder.respond("alice", value, PageMeta::new(Some(2)), &view));
    let wire = serde_json::to_vec(&result).unwrap();
    let peak = status("VmHWM:");

    let incomplete = &result.structured_content.as_ref().unwrap()["incomplete"];
    // The artifact is the whole envelope: the page plus `{"data":...,"nextPage":2}`.
    assert!(
        incomplete["bytes"].as_u64().is_some_and(|bytes| bytes > size as u64),
        "{incomplete}"
    );
    assert!(
        incomplete["artifactId"].is_string(),
        "the store refused the artifact: {incomplete}"
    );
    let above = peak.saturating_sub(parsed);
    println!(
        "format {format}: page {} ({size} bytes), result line {} bytes",
        mib(size),
        wire.len()
    );
    println!(
        "RSS before parse {}, after parse {} (the tree: {})",
        mib(before_parse),
        mib(parsed),
        mib(parsed - before_parse)
    );
    println!(
        "peak while responding {}: {} above the parsed page = {:.2}x the page (target <= 4x)",
        mib(peak),
        mib(above),
        above as f64 / size as f64
    );
}
