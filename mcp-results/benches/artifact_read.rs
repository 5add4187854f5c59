//! `artifact_read` on the result path: decoded bytes per second for 1 MiB chunks from the memory
//! store, through `artifact_read::call` and the serialization of the `CallToolResult` as the transport writes it.
//!
//! `before` is the previous server path (the chunk encoded into an `ArtifactReadResult`, copied into a JSON value
//! with `serde_json::to_value`, then printed for the text), kept here to compare in the same run.
//!
//! Run: `cargo bench -p mcp-results --bench artifact_read`.
#![allow(missing_docs, clippy::unwrap_used)]

use std::hint::black_box;
use std::sync::Arc;

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mcp_artifacts::{ArtifactReadResult, ArtifactStore, MemoryStore, StoreConfig};
use mcp_results::artifact_read;
use serde_json::json;

const CHUNK: u64 = 1024 * 1024;
const ARTIFACT: usize = 16 * 1024 * 1024;

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
    let store = Arc::new(MemoryStore::new(StoreConfig::default()));
    // Bytes of every value, so base64 has no easy patterns.
    let content: Vec<u8> = (0..ARTIFACT)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let id = runtime
        .block_on(store.put("alice", "application/json", Bytes::from(content)))
        .unwrap()
        .to_string();
    let chunks = ARTIFACT as u64 / CHUNK;

    let mut group = c.benchmark_group("artifact_read_1MiB");
    group.throughput(Throughput::Bytes(CHUNK));
    let mut n = 0u64;
    group.bench_function("after", |b| {
        b.to_async(&runtime).iter(|| {
            n = (n + 1) % chunks;
            let args = json!({"artifactId": id, "offset": n * CHUNK, "maxBytes": CHUNK});
            let store = store.clone();
            async move {
                let result = artifact_read::call(store.as_ref(), "alice", args.as_object().cloned(), true).await;
                black_box(serde_json::to_vec(&result).unwrap())
            }
        });
    });
    let mut n = 0u64;
    group.bench_function("before", |b| {
        b.to_async(&runtime).iter(|| {
            n = (n + 1) % chunks;
            let store = store.clone();
            let id = id.clone();
            async move {
                let chunk = store.read_chunk("alice", &id, n * CHUNK, CHUNK).await.unwrap();
                let value = serde_json::to_value(ArtifactReadResult::from(chunk)).unwrap();
                let text = value.to_string();
                let result = mcp_envelope::rmcp::success_result(text, Some(value));
                black_box(serde_json::to_vec(&result).unwrap())
            }
        });
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
