//! The conformance suite against `FsStore`, plus filesystem-specific behaviour.

use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use mcp_artifacts::conformance::Fixture;
use mcp_artifacts::{ArtifactError, ArtifactReadResult, ArtifactStore, FsStore, ManualClock, StoreConfig};

async fn fs_fixture(config: StoreConfig) -> Fixture<FsStore> {
    let dir = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(ManualClock::starting_now());
    let store = FsStore::open_with_clock(dir.path().join("artifacts"), config, clock.clone())
        .await
        .expect("open");
    Fixture {
        store,
        clock,
        config,
        _guard: Some(dir),
    }
}

mcp_artifacts::conformance_suite!(fs_fixture);

async fn open(dir: &Path, clock: &Arc<ManualClock>) -> FsStore {
    FsStore::open_with_clock(dir, StoreConfig::default(), clock.clone())
        .await
        .expect("open")
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("read_dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[tokio::test]
async fn restart_keeps_artifacts_for_the_same_owner() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(ManualClock::starting_now());
    let store = open(tmp.path(), &clock).await;
    let id = store
        .put("alice", "application/json", Bytes::from_static(b"{\"a\":1}"))
        .await
        .expect("put");
    let deleted = store
        .put("alice", "text/plain", Bytes::from_static(b"gone"))
        .await
        .expect("put");
    store.delete("alice", deleted.as_str()).await.expect("delete");
    drop(store);

    clock.advance(StoreConfig::default().retention / 2);
    let store = open(tmp.path(), &clock).await;
    let chunk = store
        .read_chunk("alice", id.as_str(), 0, 1024)
        .await
        .expect("read after restart");
    assert_eq!(&chunk.data[..], b"{\"a\":1}");
    assert_eq!(chunk.mime_type, "application/json");
    let other = store.read_chunk("bob", id.as_str(), 0, 1024).await;
    assert!(matches!(other, Err(ArtifactError::NotFound)));
    let gone = store.read_chunk("alice", deleted.as_str(), 0, 1024).await;
    assert!(matches!(gone, Err(ArtifactError::NotFound)));

    // Creation time survives the restart: the artifact still expires on schedule.
    clock.advance(StoreConfig::default().retention / 2);
    let expired = store.read_chunk("alice", id.as_str(), 0, 1024).await;
    assert!(matches!(expired, Err(ArtifactError::NotFound)));
}

#[tokio::test]
async fn open_deletes_expired_temp_and_corrupt_files_and_keeps_others() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let clock = Arc::new(ManualClock::starting_now());
    let store = open(tmp.path(), &clock).await;
    let old = store
        .put("alice", "text/plain", Bytes::from_static(b"old"))
        .await
        .expect("put");
    clock.advance(StoreConfig::default().retention / 2);
    let fresh = store
        .put("alice", "text/plain", Bytes::from_static(b"fresh"))
        .await
        .expect("put");
    drop(store);

    std::fs::write(tmp.path().join(".tmp-artifact-abc123"), b"half written").expect("write");
    let corrupt = "0123456789abcdef0123456789abcdef.artifact";
    std::fs::write(tmp.path().join(corrupt), b"garbage").expect("write");
    std::fs::write(tmp.path().join("README"), b"not ours").expect("write");

    clock.advance(StoreConfig::default().retention / 2);
    let store = open(tmp.path(), &clock).await;
    let mut expected = vec!["README".to_owned(), format!("{fresh}.artifact")];
    expected.sort();
    assert_eq!(file_names(tmp.path()), expected, "old artifact {old}");
    let chunk = store
        .read_chunk("alice", fresh.as_str(), 0, 64)
        .await
        .expect("fresh survives");
    assert_eq!(&chunk.data[..], b"fresh");
    assert_eq!(store.sweep_expired().await.expect("sweep"), 0);
}

#[tokio::test]
async fn put_leaves_exactly_one_file_and_delete_removes_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let store = FsStore::open(tmp.path(), StoreConfig::default()).await.expect("open");
    let id = store
        .put("alice", "text/plain", Bytes::from_static(b"x"))
        .await
        .expect("put");
    assert_eq!(file_names(tmp.path()), vec![format!("{id}.artifact")]);
    store.delete("alice", id.as_str()).await.expect("delete");
    assert!(file_names(tmp.path()).is_empty());
}

#[cfg(unix)]
#[tokio::test]
async fn files_are_0600_and_directory_is_0700() {
    use std::os::unix::fs::PermissionsExt;

    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join("nested").join("artifacts");
    let store = FsStore::open(&dir, StoreConfig::default()).await.expect("open");
    let id = store
        .put("alice", "text/plain", Bytes::from_static(b"private"))
        .await
        .expect("put");
    let mode = |p: &Path| std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    assert_eq!(mode(&dir.join(format!("{id}.artifact"))), 0o600);

    // An existing, wider directory is tightened.
    let wide = tmp.path().join("wide");
    std::fs::create_dir(&wide).expect("mkdir");
    std::fs::set_permissions(&wide, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    FsStore::open(&wide, StoreConfig::default()).await.expect("open");
    assert_eq!(mode(&wide), 0o700);
}

#[tokio::test]
async fn no_filesystem_path_in_results_or_errors() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let path_text = tmp.path().to_string_lossy().into_owned();
    let store = FsStore::open(tmp.path(), StoreConfig::default()).await.expect("open");
    let id = store
        .put("alice", "application/json", Bytes::from_static(b"[1,2,3]"))
        .await
        .expect("put");
    let chunk = store.read_chunk("alice", id.as_str(), 0, 1024).await.expect("read");
    assert!(!format!("{chunk:?}").contains(&path_text));
    let json = serde_json::to_string(&ArtifactReadResult::from(chunk)).expect("json");
    assert!(!json.contains(&path_text), "{json}");
    assert!(!json.contains(".artifact"), "{json}");

    // Opening a regular file as the store directory fails without naming the path.
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, b"").expect("write");
    let err = FsStore::open(&file, StoreConfig::default())
        .await
        .expect_err("not a directory");
    assert!(matches!(err, ArtifactError::Io(_)), "{err:?}");
    assert!(!err.to_string().contains(&path_text), "{err}");
}
