//! The size bound: `mcp_envelope::seal` on an arbitrary JSON value and bound.
//!
//! Input: 4 bytes little-endian bound in bytes (taken modulo 1 MiB, and the clamped `SizeBound::new` when the
//! top bit is set), 1 byte choosing `nextPage` (`0` = null), then a JSON document as `data`.
//!
//! Checked: inline ⇒ the compact serialization fits the bound and the envelope is unchanged; oversized ⇒ it does
//! not fit, the full bytes are exactly that serialization and parse back to the same envelope, and the finished
//! envelope has `data: null`, the metadata kept and `incomplete = {size, bytes, limitBytes, artifactId}`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mcp_envelope::{Envelope, IncompleteReason, PageMeta, Sealed, SizeBound, seal};
use serde_json::Value;

fuzz_target!(|input: &[u8]| {
    let Some((head, document)) = input.split_first_chunk::<5>() else {
        return;
    };
    let raw_bound = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let bound = if raw_bound & 0x8000_0000 != 0 {
        SizeBound::new(u64::from(raw_bound & 0x7fff_ffff)).0
    } else {
        SizeBound::unclamped_for_tests((raw_bound % (1 << 20)) as usize)
    };
    let next_page = (head[4] != 0).then_some(u64::from(head[4]));
    let Ok(data) = serde_json::from_slice::<Value>(document) else {
        return;
    };
    let envelope = Envelope::new(data, PageMeta::new(next_page));
    let compact = serde_json::to_vec(&envelope).expect("an envelope of a JSON value serializes");
    match seal(envelope.clone(), &bound).expect("seal of a JSON value succeeds") {
        Sealed::Inline(inline) => {
            assert!(
                compact.len() <= bound.bytes(),
                "inline but {} > {}",
                compact.len(),
                bound.bytes()
            );
            assert_eq!(inline, envelope);
        }
        Sealed::Oversized(oversized) => {
            assert!(
                compact.len() > bound.bytes(),
                "oversized but {} <= {}",
                compact.len(),
                bound.bytes()
            );
            assert_eq!(oversized.full_bytes(), compact.as_slice());
            assert_eq!(oversized.full_len(), compact.len() as u64);
            let back: Envelope<serde_json::Value, PageMeta> =
                serde_json::from_slice(oversized.full_bytes()).expect("the full bytes parse back");
            assert_eq!(back, envelope);
            let finished = oversized.finish(Some("artifact".to_owned()));
            assert!(finished.data.is_null());
            assert_eq!(finished.meta, PageMeta::new(next_page));
            let incomplete = finished.incomplete.expect("an oversized envelope is incomplete");
            assert_eq!(incomplete.reason, IncompleteReason::Size);
            assert_eq!(incomplete.bytes, compact.len() as u64);
            assert_eq!(incomplete.limit_bytes, bound.bytes() as u64);
            assert_eq!(incomplete.artifact_id.as_deref(), Some("artifact"));
        }
    }
});
