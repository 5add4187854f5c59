//! The zip listing and entry reads of the ci tools (`mcp_devtools_tools::archive::Archive`, issue 42): a CI
//! artifact's bytes, refused as a zip bomb by entry count, total uncompressed size or one entry's ratio, else listed
//! and each file read back within a cap.
//!
//! Input: the archive's bytes, under small limits (100 entries, 4 MiB uncompressed in all, ratio 100, 1 MiB read
//! per entry) so that bombs and large entries are reached quickly.
//!
//! Checked: no panic; a listing holds at most 100 files whose declared sizes add up to at most 4 MiB, each above
//! 64 KiB within the ratio; a read gives exactly the file's declared size (never more), or an error naming the
//! entry; a name that is not listed is `NoEntry`.
#![no_main]

use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use mcp_devtools_tools::ArchiveLimits;
use mcp_devtools_tools::archive::{Archive, ArchiveError};

const MAX_ENTRIES: u64 = 100;
const MAX_TOTAL: u64 = 4 * 1024 * 1024;
const MAX_RATIO: u64 = 100;
const READ_CAP: u64 = 1024 * 1024;

fuzz_target!(|input: &[u8]| {
    let limits = ArchiveLimits::default()
        .with_max_entries(MAX_ENTRIES)
        .with_max_uncompressed_bytes(MAX_TOTAL)
        .with_max_ratio(MAX_RATIO);
    let mut archive = match Archive::open(Cursor::new(input), &limits) {
        Ok(archive) => archive,
        Err(err) => {
            assert!(!err.to_string().is_empty());
            return;
        }
    };
    let entries: Vec<_> = archive.entries().cloned().collect();
    assert!(entries.len() as u64 <= MAX_ENTRIES);
    let total: u64 = entries.iter().map(|e| e.size).fold(0, u64::saturating_add);
    assert!(total <= MAX_TOTAL, "{total}");
    for entry in &entries {
        if entry.size > mcp_devtools_tools::RATIO_FLOOR_BYTES {
            assert!(entry.size / entry.compressed_size.max(1) <= MAX_RATIO, "{entry:?}");
        }
        match archive.read(&entry.name, READ_CAP, "CAP") {
            // A duplicate name reads the first file of that name.
            Ok(bytes) => assert!(
                entries
                    .iter()
                    .any(|e| e.name == entry.name && e.size == bytes.len() as u64),
                "{entry:?} read {} bytes",
                bytes.len()
            ),
            Err(ArchiveError::EntryTooLarge { size, limit, .. }) => assert!(size > limit),
            Err(err) => assert!(err.to_string().contains(&format!("`{}`", entry.name)), "{err}"),
        }
    }
    assert!(matches!(
        archive.read("\u{0}not listed\u{0}", READ_CAP, "CAP"),
        Err(ArchiveError::NoEntry { .. }) | Ok(_)
    ));
});
