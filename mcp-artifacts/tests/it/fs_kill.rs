//! `FsStore` durability under SIGKILL: a child process (this test binary, re-invoked with
//! `MCP_ARTIFACTS_KILL_TEST_DIR` set) writes 4 MiB artifacts in a loop and prints the id of each
//! put that returned; after a few such lines the parent waits until the next put's temporary
//! file appears and kills the child with SIGKILL (so that put is in flight), then reopens the
//! directory and checks that no temporary file is left, every finished artifact reads back
//! exactly, and every artifact file served is complete.
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use bytes::Bytes;
use mcp_artifacts::{ArtifactStore, FsStore, MAX_READ_MAX_BYTES, StoreConfig};
use rand::{RngCore, SeedableRng};

const CHILD_DIR_ENV: &str = "MCP_ARTIFACTS_KILL_TEST_DIR";
const OWNER: &str = "writer";
const SIZE: usize = 4 * 1024 * 1024;
const MAX_PUTS: u64 = 100;

/// The body of put number `seq`: `seq` as 8 little-endian bytes, then a 64 KiB block of bytes
/// seeded by `seq`, repeated, so any artifact found on disk can be checked without knowing which
/// put made it (and debug builds make it fast).
fn body(seq: u64) -> Vec<u8> {
    let mut block = vec![0u8; 64 * 1024];
    rand::rngs::StdRng::seed_from_u64(seq).fill_bytes(&mut block);
    let mut bytes = block.repeat(SIZE / block.len());
    bytes[..8].copy_from_slice(&seq.to_le_bytes());
    bytes
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

/// The child's side; does nothing unless run by the parent test with `CHILD_DIR_ENV` set.
#[test]
fn kill_test_child_writer() {
    let Ok(dir) = std::env::var(CHILD_DIR_ENV) else {
        return;
    };
    runtime().block_on(async {
        let store = FsStore::open(dir, StoreConfig::default()).await.expect("open");
        let mut next = body(0);
        for seq in 0..MAX_PUTS {
            let id = store
                .put(OWNER, "application/octet-stream", Bytes::from(next))
                .await
                .expect("put");
            // Prepare the next body first, so the next put starts right after the line is out.
            next = body(seq + 1);
            println!("DONE {seq} {id}");
        }
    });
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".tmp-artifact-"))
        .collect()
}

async fn read_whole(store: &FsStore, id: &str) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let chunk = store
            .read_chunk(OWNER, id, out.len() as u64, MAX_READ_MAX_BYTES)
            .await
            .expect("read");
        out.extend_from_slice(&chunk.data);
        if chunk.eof {
            return out;
        }
    }
}

/// Waits (at most 10 s, polling every millisecond) until a temporary file is in `dir`.
fn wait_for_temp_file(dir: &Path) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while temp_files(dir).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// One round: start the writer, wait for `finished_before_kill` finished puts and for the next
/// put's temporary file, SIGKILL the writer, check the directory. Returns whether a temporary
/// file (a put in flight) was still there after the kill.
fn kill_round(finished_before_kill: usize) -> bool {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("artifacts");
    let mut child = Command::new(std::env::current_exe().expect("test binary"))
        // The test's name in this binary: its module path without the crate (`fs_kill::kill_test_child_writer`).
        .args([
            "--exact",
            "fs_kill::kill_test_child_writer",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_DIR_ENV, &dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the writer");
    let stdout = child.stdout.take().expect("stdout");
    let mut finished: Vec<(u64, String)> = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.expect("line");
        let Some(rest) = line.strip_prefix("DONE ") else {
            continue;
        };
        let (seq, id) = rest.split_once(' ').expect("DONE <seq> <id>");
        finished.push((seq.parse().expect("seq"), id.to_owned()));
        if finished.len() >= finished_before_kill {
            break;
        }
    }
    wait_for_temp_file(&dir);
    child.kill().expect("SIGKILL"); // std sends SIGKILL on Unix
    child.wait().expect("wait");
    assert_eq!(finished.len(), finished_before_kill, "the writer stopped early");
    let in_flight = !temp_files(&dir).is_empty();

    runtime().block_on(async {
        let store = FsStore::open(&dir, StoreConfig::default()).await.expect("reopen");
        assert!(temp_files(&dir).is_empty(), "temporary files survived the reopen");
        // Nothing finished is lost.
        for (seq, id) in &finished {
            assert!(read_whole(&store, id).await == body(*seq), "artifact {seq} changed");
        }
        // Nothing partial is served: every artifact file is a complete body.
        for entry in std::fs::read_dir(&dir).expect("read_dir") {
            let name = entry.expect("entry").file_name().to_string_lossy().into_owned();
            let id = name.strip_suffix(".artifact").expect("only artifact files are left");
            let data = read_whole(&store, id).await;
            assert_eq!(data.len(), SIZE, "partial artifact {id} is readable");
            let seq = u64::from_le_bytes(data[..8].try_into().expect("8 bytes"));
            assert!(data == body(seq), "artifact {id} is not the body of put {seq}");
        }
    });
    in_flight
}

#[test]
fn sigkill_mid_put_exposes_no_partial_artifact_and_loses_nothing() {
    let mut saw_put_in_flight = false;
    for round in 0..6 {
        saw_put_in_flight |= kill_round(1 + round % 3);
        if saw_put_in_flight && round >= 2 {
            break;
        }
    }
    assert!(
        saw_put_in_flight,
        "no kill landed during a put; the test proved nothing"
    );
}
