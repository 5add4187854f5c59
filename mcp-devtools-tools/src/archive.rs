//! Zip archives (CI artifacts) read within bounds: the listing is refused whole when it is a zip bomb
//! ([`crate::ArchiveLimits`]: entry count, total uncompressed size, one entry's compression ratio), and an entry is
//! read into memory only up to a cap and must inflate to exactly the size its header declares (never read past it). Entry names are names: nothing is
//! ever written to disk under them (`../x` is the name `../x`).
//!
//! Blocking (file I/O and inflating): call it off the async workers. Never panics on any input (fuzzed:
//! `fuzz/fuzz_targets/zip_listing.rs`).

use std::io::{Read, Seek};

use schemars::JsonSchema;
use serde::Serialize;
use zip::ZipArchive;

use crate::config::{ArchiveLimits, RATIO_FLOOR_BYTES};

/// The name of [`ArchiveLimits::max_entries`] in errors and the docs.
pub const MAX_ENTRIES_NAME: &str = "CI_ARCHIVE_MAX_ENTRIES";
/// The name of [`ArchiveLimits::max_uncompressed_bytes`] in errors and the docs.
pub const MAX_UNCOMPRESSED_NAME: &str = "CI_ARCHIVE_MAX_UNCOMPRESSED_BYTES";
/// The name of [`ArchiveLimits::max_ratio`] in errors and the docs.
pub const MAX_RATIO_NAME: &str = "CI_ARCHIVE_MAX_RATIO";

/// One file of an archive (directories are not listed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Entry {
    /// Its name in the archive (a path with `/`), as ci_artifact_entry's entry.
    pub name: String,
    /// Bytes uncompressed, as its header declares.
    pub size: u64,
    /// Bytes stored in the archive.
    pub compressed_size: u64,
}

/// Why an archive or an entry was not read. Texts name the entry, and the limit (by its setting) when one was hit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ArchiveError {
    /// The bytes are not a zip archive (or its central directory is broken).
    #[error("not a zip archive ({detail}); the first bytes are {head}")]
    NotZip {
        /// What the zip reader said.
        detail: String,
        /// The first bytes, escaped (e.g. `"<?xml versi"`).
        head: String,
    },
    /// More entries than [`ArchiveLimits::max_entries`].
    #[error(
        "refused as a possible zip bomb: {count} entries, more than {MAX_ENTRIES_NAME} ({limit}); nothing was \
         extracted"
    )]
    TooManyEntries {
        /// Entries listed.
        count: u64,
        /// The limit.
        limit: u64,
    },
    /// More uncompressed bytes in all than [`ArchiveLimits::max_uncompressed_bytes`].
    #[error(
        "refused as a possible zip bomb: the entries hold {total} bytes uncompressed, more than \
         {MAX_UNCOMPRESSED_NAME} ({limit} bytes); nothing was extracted"
    )]
    TooLarge {
        /// Declared uncompressed bytes of all entries (saturating).
        total: u64,
        /// The limit, bytes.
        limit: u64,
    },
    /// An entry inflates more than [`ArchiveLimits::max_ratio`] times.
    #[error(
        "refused as a possible zip bomb: entry `{name}` inflates {compressed} bytes to {size} ({ratio}:1), more \
         than {MAX_RATIO_NAME} ({limit}:1); nothing was extracted"
    )]
    Ratio {
        /// The entry.
        name: String,
        /// Its uncompressed bytes.
        size: u64,
        /// Its compressed bytes.
        compressed: u64,
        /// `size / compressed`, rounded down.
        ratio: u64,
        /// The limit.
        limit: u64,
    },
    /// No file of that name.
    #[error("no entry `{name}` in the archive (ci_artifact_entries lists them)")]
    NoEntry {
        /// The name asked for.
        name: String,
    },
    /// The entry is larger than what is read into memory.
    #[error("entry `{name}` holds {size} bytes, more than the {limit} bytes read at once ({setting})")]
    EntryTooLarge {
        /// The entry.
        name: String,
        /// Its declared uncompressed bytes.
        size: u64,
        /// The cap, bytes.
        limit: u64,
        /// The cap's setting.
        setting: &'static str,
    },
    /// The entry does not inflate to its declared size (more, or fewer: a lying or broken header).
    #[error("entry `{name}` does not inflate to the {declared} bytes its header declares ({found}); refused")]
    SizeMismatch {
        /// The entry.
        name: String,
        /// Its declared uncompressed bytes.
        declared: u64,
        /// What it gave: `more`, or `N bytes`.
        found: String,
    },
    /// The entry could not be read (an unsupported compression method, encryption, a CRC mismatch, I/O).
    #[error("entry `{name}` cannot be read: {detail}")]
    Unreadable {
        /// The entry.
        name: String,
        /// Why.
        detail: String,
    },
}

/// An archive whose listing passed the limits.
pub struct Archive<R> {
    zip: ZipArchive<R>,
    entries: Vec<(usize, Entry)>,
}

impl<R: Read + Seek> Archive<R> {
    /// Reads the central directory of `reader` and checks it against `limits`.
    ///
    /// Errors: [`ArchiveError::NotZip`] (with the first bytes), [`ArchiveError::TooManyEntries`],
    /// [`ArchiveError::TooLarge`], [`ArchiveError::Ratio`].
    pub fn open(mut reader: R, limits: &ArchiveLimits) -> Result<Self, ArchiveError> {
        // The first bytes, for the error of a body that is not a zip (an HTML or XML error page, a report).
        let head = head(&mut reader);
        reader.rewind().map_err(|err| ArchiveError::NotZip {
            detail: err.to_string(),
            head: head.clone(),
        })?;
        let mut zip = ZipArchive::new(reader).map_err(|err| not_zip(&err, head))?;
        let count = zip.len() as u64;
        if count > limits.max_entries {
            return Err(ArchiveError::TooManyEntries {
                count,
                limit: limits.max_entries,
            });
        }
        let mut total: u64 = 0;
        let mut entries = Vec::new();
        for index in 0..zip.len() {
            let file = zip.by_index_raw(index).map_err(|err| not_zip(&err, String::new()))?;
            let entry = Entry {
                name: file.name().map_or_else(
                    |_| String::from_utf8_lossy(file.name_raw()).into_owned(),
                    |name| name.into_owned(),
                ),
                size: file.size(),
                compressed_size: file.compressed_size(),
            };
            let directory = file.is_dir();
            drop(file);
            check_ratio(&entry, limits.max_ratio)?;
            total = total.saturating_add(entry.size);
            if total > limits.max_uncompressed_bytes {
                return Err(ArchiveError::TooLarge {
                    total: declared_total(&mut zip),
                    limit: limits.max_uncompressed_bytes,
                });
            }
            if !directory {
                entries.push((index, entry));
            }
        }
        Ok(Archive { zip, entries })
    }

    /// The files, in archive order.
    pub fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().map(|(_, entry)| entry)
    }

    /// The bytes of the file `name`, at most `max_bytes` (`setting` names that cap in the error).
    ///
    /// Errors: [`ArchiveError::NoEntry`], [`ArchiveError::EntryTooLarge`], [`ArchiveError::SizeMismatch`],
    /// [`ArchiveError::Unreadable`].
    pub fn read(&mut self, name: &str, max_bytes: u64, setting: &'static str) -> Result<Vec<u8>, ArchiveError> {
        let Some((index, entry)) = self.entries.iter().find(|(_, entry)| entry.name == name).cloned() else {
            return Err(ArchiveError::NoEntry { name: name.to_owned() });
        };
        if entry.size > max_bytes {
            return Err(ArchiveError::EntryTooLarge {
                name: entry.name,
                size: entry.size,
                limit: max_bytes,
                setting,
            });
        }
        let unreadable = |detail: String| ArchiveError::Unreadable {
            name: entry.name.clone(),
            detail,
        };
        let file = self.zip.by_index(index).map_err(|err| unreadable(err.to_string()))?;
        let capacity = usize::try_from(entry.size).unwrap_or(0);
        let mut bytes = Vec::with_capacity(capacity);
        file.take(entry.size.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|err| unreadable(err.to_string()))?;
        let read = bytes.len() as u64;
        if read != entry.size {
            return Err(ArchiveError::SizeMismatch {
                name: entry.name,
                declared: entry.size,
                found: if read > entry.size {
                    "more".to_owned()
                } else {
                    format!("{read} bytes")
                },
            });
        }
        Ok(bytes)
    }
}

/// Refuses an entry past `max_ratio` (above [`RATIO_FLOOR_BYTES`]).
fn check_ratio(entry: &Entry, max_ratio: u64) -> Result<(), ArchiveError> {
    if entry.size <= RATIO_FLOOR_BYTES {
        return Ok(());
    }
    let ratio = entry.size / entry.compressed_size.max(1);
    if ratio > max_ratio {
        return Err(ArchiveError::Ratio {
            name: entry.name.clone(),
            size: entry.size,
            compressed: entry.compressed_size,
            ratio,
            limit: max_ratio,
        });
    }
    Ok(())
}

/// The declared uncompressed bytes of every entry (saturating), for the error.
fn declared_total<R: Read + Seek>(zip: &mut ZipArchive<R>) -> u64 {
    (0..zip.len())
        .filter_map(|index| zip.by_index_raw(index).ok().map(|file| file.size()))
        .fold(0u64, u64::saturating_add)
}

fn not_zip(err: &zip::result::ZipError, head: String) -> ArchiveError {
    ArchiveError::NotZip {
        detail: err.to_string(),
        head: if head.is_empty() {
            "(not shown)".to_owned()
        } else {
            head
        },
    }
}

/// The first 16 bytes of `reader`, escaped like a Rust byte string.
fn head<R: Read + Seek>(reader: &mut R) -> String {
    let mut buf = [0u8; 16];
    if reader.rewind().is_err() {
        return String::new();
    }
    let mut read = 0;
    while read < buf.len() {
        match reader.read(&mut buf[read..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => read += n,
        }
    }
    if read == 0 {
        return "none (an empty body)".to_owned();
    }
    format!("\"{}\"", buf[..read].escape_ascii())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use std::io::{Cursor, Write};

    use zip::write::SimpleFileOptions;

    use super::*;

    fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
        let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, bytes) in files {
            writer.start_file(*name, SimpleFileOptions::default()).unwrap();
            writer.write_all(bytes).unwrap();
        }
        writer.finish().unwrap().into_inner()
    }

    #[test]
    fn lists_and_reads_files_by_name() {
        let bytes = zip_of(&[("a/report.xml", b"<testsuites/>"), ("../escape.txt", b"just a name")]);
        let mut archive = Archive::open(Cursor::new(bytes), &ArchiveLimits::default()).unwrap();
        let names: Vec<_> = archive.entries().map(|e| e.name.clone()).collect();
        assert_eq!(names, ["a/report.xml", "../escape.txt"]);
        assert_eq!(archive.read("../escape.txt", 100, "X").unwrap(), b"just a name");
        assert!(matches!(archive.read("b", 100, "X"), Err(ArchiveError::NoEntry { .. })));
        let err = archive.read("a/report.xml", 3, "HTTP_MAX_BODY_BYTES").unwrap_err();
        assert!(err.to_string().contains("HTTP_MAX_BODY_BYTES"), "{err}");
    }

    #[test]
    fn bombs_are_refused_naming_the_limit() {
        let zeros = vec![0u8; 1024 * 1024];
        let bytes = zip_of(&[("zeros.bin", &zeros)]);
        let err = Archive::open(Cursor::new(bytes.clone()), &ArchiveLimits::default())
            .err()
            .unwrap();
        assert!(matches!(err, ArchiveError::Ratio { .. }), "{err}");
        assert!(err.to_string().contains(MAX_RATIO_NAME), "{err}");
        let limits = ArchiveLimits::default()
            .with_max_ratio(10_000)
            .with_max_uncompressed_bytes(1000);
        let err = Archive::open(Cursor::new(bytes), &limits).err().unwrap();
        assert!(err.to_string().contains(MAX_UNCOMPRESSED_NAME), "{err}");
        let many = zip_of(&[("a", b""), ("b", b""), ("c", b"")]);
        let err = Archive::open(Cursor::new(many), &ArchiveLimits::default().with_max_entries(2))
            .err()
            .unwrap();
        assert!(
            err.to_string().contains("3 entries") && err.to_string().contains(MAX_ENTRIES_NAME),
            "{err}"
        );
    }

    #[test]
    fn an_entry_must_inflate_to_its_declared_size() {
        // A stored file of 5 bytes whose headers declare 9 (found by the zip_listing fuzz target: a lying size).
        let mut bytes = zip_of(&[("a.txt", b"hello")]);
        for (signature, offset) in [(b"PK\x03\x04", 22), (b"PK\x01\x02", 24)] {
            let at = bytes.windows(4).position(|w| w == signature).unwrap() + offset;
            bytes[at..at + 4].copy_from_slice(&9u32.to_le_bytes());
        }
        let mut archive = Archive::open(Cursor::new(bytes), &ArchiveLimits::default()).unwrap();
        let err = archive.read("a.txt", 100, "X").unwrap_err();
        assert!(matches!(err, ArchiveError::SizeMismatch { declared: 9, .. }), "{err}");
        assert!(err.to_string().contains("(5 bytes)"), "{err}");
    }

    #[test]
    fn other_bytes_are_not_a_zip() {
        let err = Archive::open(
            Cursor::new(b"<?xml version=\"1.0\"?><x/>".to_vec()),
            &ArchiveLimits::default(),
        )
        .err()
        .unwrap();
        let text = err.to_string();
        assert!(
            text.starts_with("not a zip archive") && text.contains("<?xml"),
            "{text}"
        );
        let err = Archive::open(Cursor::new(Vec::new()), &ArchiveLimits::default())
            .err()
            .unwrap();
        assert!(err.to_string().contains("empty body"), "{err}");
    }
}
