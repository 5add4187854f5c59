//! `artifact_read` arguments at the store level: arbitrary owner, id text, offset and `maxBytes` against a
//! `mcp_artifacts::MemoryStore` holding a few artifacts, plus `mcp_artifacts::ArtifactId::from_str`.
//!
//! Checked: no panic; a read returns `Ok` or a typed error — `NotFound` exactly when the id is not one of the
//! caller's artifacts, `OffsetPastEnd` exactly when `offset > totalBytes` — and an `Ok` chunk is exactly the bytes
//! `[offset, nextOffset)` with `nextOffset - offset <= clamp(maxBytes)`, `eof == (nextOffset == totalBytes)`, and
//! base64 data that decodes to them. `from_str` accepts exactly 32 lowercase hex characters and keeps them.
#![no_main]

use std::str::FromStr;
use std::sync::LazyLock;

use arbitrary::{Arbitrary, Unstructured};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use libfuzzer_sys::fuzz_target;
use mcp_artifacts::{
    ArtifactError, ArtifactId, ArtifactReadResult, ArtifactStore, MemoryStore, StoreConfig, clamp_read_max_bytes,
};

const OWNERS: [&str; 2] = ["alice", "bob"];

struct Fixture {
    runtime: tokio::runtime::Runtime,
    store: MemoryStore,
    /// (owner, id, content)
    artifacts: Vec<(&'static str, ArtifactId, Bytes)>,
}

static FIXTURE: LazyLock<Fixture> = LazyLock::new(|| {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime");
    let store = MemoryStore::new(StoreConfig::default());
    let contents: [(&str, Bytes); 5] = [
        ("alice", Bytes::new()),
        ("alice", Bytes::from_static(b"{\"data\":null}")),
        (
            "alice",
            Bytes::from((0..=255u8).cycle().take(70_000).collect::<Vec<u8>>()),
        ),
        ("alice", Bytes::from(vec![b'x'; 1_048_577])),
        ("bob", Bytes::from_static(b"bob's")),
    ];
    let artifacts = contents
        .into_iter()
        .map(|(owner, content)| {
            let id = runtime
                .block_on(store.put(owner, "application/json", content.clone()))
                .expect("put into an empty store");
            (owner, id, content)
        })
        .collect();
    Fixture {
        runtime,
        store,
        artifacts,
    }
});

/// How the fuzzer picks the id text.
#[derive(Arbitrary, Debug)]
enum IdChoice {
    Known(u8),
    /// A known id with one byte replaced.
    Mutated(u8, u8, u8),
    Raw(String),
}

/// How the fuzzer picks the offset.
#[derive(Arbitrary, Debug)]
enum OffsetChoice {
    /// `totalBytes` of the chosen artifact plus this delta (wrapping), to probe the end.
    NearEnd(i8),
    Raw(u64),
}

#[derive(Arbitrary, Debug)]
struct Read {
    owner: Result<u8, String>,
    id: IdChoice,
    offset: OffsetChoice,
    max_bytes: Option<u64>,
}

fuzz_target!(|input: &[u8]| {
    let fixture = &*FIXTURE;
    let mut u = Unstructured::new(input);
    let Ok(read) = Read::arbitrary(&mut u) else {
        return;
    };

    let owner = match &read.owner {
        Ok(i) => OWNERS[usize::from(*i) % OWNERS.len()].to_owned(),
        Err(text) => text.clone(),
    };
    let id_text = match &read.id {
        IdChoice::Known(i) => fixture.artifacts[usize::from(*i) % fixture.artifacts.len()]
            .1
            .to_string(),
        IdChoice::Mutated(i, at, byte) => {
            let mut bytes = fixture.artifacts[usize::from(*i) % fixture.artifacts.len()]
                .1
                .to_string()
                .into_bytes();
            let at = usize::from(*at) % bytes.len();
            bytes[at] = *byte;
            String::from_utf8_lossy(&bytes).into_owned()
        }
        IdChoice::Raw(text) => text.clone(),
    };

    // ArtifactId::from_str: exactly 32 lowercase hex characters, kept as given.
    let well_formed = id_text.len() == 32 && id_text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    match ArtifactId::from_str(&id_text) {
        Ok(id) => {
            assert!(well_formed, "accepted {id_text:?}");
            assert_eq!(id.as_str(), id_text);
        }
        Err(_) => assert!(!well_formed, "rejected {id_text:?}"),
    }

    let target = fixture
        .artifacts
        .iter()
        .find(|(o, id, _)| *o == owner && id.as_str() == id_text);
    let total_for_offset = target.map_or(0, |(_, _, content)| content.len() as u64);
    let offset = match read.offset {
        OffsetChoice::NearEnd(delta) => total_for_offset.wrapping_add_signed(i64::from(delta)),
        OffsetChoice::Raw(offset) => offset,
    };
    let max_bytes = clamp_read_max_bytes(read.max_bytes);

    let result = fixture
        .runtime
        .block_on(fixture.store.read_chunk(&owner, &id_text, offset, max_bytes));
    match (target, result) {
        (None, Err(ArtifactError::NotFound)) => {}
        (None, other) => panic!("not the caller's artifact, yet {other:?}"),
        (Some((_, _, content)), Ok(chunk)) => {
            let total = content.len() as u64;
            assert!(offset <= total);
            assert_eq!(chunk.artifact_id, id_text);
            assert_eq!((chunk.offset, chunk.total_bytes), (offset, total));
            assert!(chunk.next_offset >= chunk.offset && chunk.next_offset <= total);
            assert!(chunk.next_offset - chunk.offset <= max_bytes);
            assert_eq!(chunk.eof, chunk.next_offset == total);
            assert!(
                chunk.eof || chunk.next_offset - chunk.offset == max_bytes,
                "a short chunk before the end"
            );
            assert_eq!(&chunk.data[..], &content[offset as usize..chunk.next_offset as usize]);
            let encoded = ArtifactReadResult::from(chunk.clone());
            let decoded = STANDARD.decode(&encoded.data).expect("standard padded base64");
            assert_eq!(decoded, chunk.data.to_vec());
        }
        (Some((_, _, content)), Err(ArtifactError::OffsetPastEnd { offset: o, total_bytes })) => {
            assert_eq!((o, total_bytes), (offset, content.len() as u64));
            assert!(offset > total_bytes);
        }
        (Some(_), Err(other)) => panic!("unexpected error for the caller's artifact: {other:?}"),
    }
});
