//! Blocking filesystem operations of the filesystem store (run inside `spawn_blocking`).

use std::collections::HashMap;
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use bytes::Bytes;

use super::format::{ARTIFACT_SUFFIX, Entry, TEMP_PREFIX, decode_header};
use crate::clock::is_expired;
use crate::id::ArtifactId;

/// Mode of the store directory: owner only.
#[cfg(unix)]
const DIR_MODE: u32 = 0o700;
/// Mode of artifact files: owner read/write only.
#[cfg(unix)]
const FILE_MODE: u32 = 0o600;

/// The path of artifact `id` in `dir`. The id's format is validated, so the file name has no
/// separators and cannot leave `dir`.
pub(crate) fn artifact_path(dir: &Path, id: &ArtifactId) -> PathBuf {
    dir.join(format!("{id}{ARTIFACT_SUFFIX}"))
}

/// Creates `dir` (and missing parents) and sets its mode to 0700.
pub(crate) fn ensure_dir(dir: &Path) -> io::Result<()> {
    let mut builder = fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(DIR_MODE);
        builder.create(dir)?;
        fs::set_permissions(dir, fs::Permissions::from_mode(DIR_MODE))?;
    }
    #[cfg(not(unix))]
    builder.create(dir)?;
    Ok(())
}

/// Writes `header` then `data` to a 0600 temporary file in `dir`, fsyncs it, renames it to
/// `path` and fsyncs `dir`, so `path` either does not exist or holds the complete artifact.
pub(crate) fn write_atomic(dir: &Path, path: &Path, header: &[u8], data: &Bytes) -> io::Result<()> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(FILE_MODE));
    }
    let mut temp = builder.tempfile_in(dir)?;
    temp.write_all(header)?;
    temp.write_all(data)?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    sync_dir(dir)
}

#[cfg(unix)]
fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir(_dir: &Path) -> io::Result<()> {
    Ok(())
}

/// Opens `path` for reading; `None` if it does not exist (deleted meanwhile).
pub(crate) fn open(path: &Path) -> io::Result<Option<File>> {
    match File::open(path) {
        Ok(file) => Ok(Some(file)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// Reads exactly `len` bytes at file position `pos`; never reads more than `len`.
///
/// This is what keeps chunk reads cheap whatever the artifact's size: one seek, then a read
/// limited by `take(len)` into a buffer allocated for exactly `len` bytes (at most 1 MiB, the
/// clamped `maxBytes`), so reading 1 byte of a 16 MiB artifact reads and allocates 1 byte of data.
pub(crate) fn read_at(file: &mut File, pos: u64, len: u64) -> io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(pos))?;
    let capacity = usize::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))?;
    let mut buf = Vec::with_capacity(capacity);
    file.take(len).read_to_end(&mut buf)?;
    if buf.len() != capacity {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "artifact file is shorter than recorded",
        ));
    }
    Ok(buf)
}

/// Removes `path`; a file that is already gone is not an error.
pub(crate) fn remove(path: &Path) -> io::Result<()> {
    match fs::remove_file(path) {
        Err(err) if err.kind() != io::ErrorKind::NotFound => Err(err),
        _ => Ok(()),
    }
}

/// Indexes `dir`: deletes leftover temporary files, unreadable artifact files and artifacts
/// expired at `now`; returns the rest. Files with other names are left alone.
pub(crate) fn scan(dir: &Path, now: SystemTime, retention: Duration) -> io::Result<HashMap<ArtifactId, Entry>> {
    let mut index = HashMap::new();
    for dir_entry in fs::read_dir(dir)? {
        let dir_entry = dir_entry?;
        if !dir_entry.file_type()?.is_file() {
            continue;
        }
        let path = dir_entry.path();
        let Some(name) = dir_entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        if name.starts_with(TEMP_PREFIX) {
            tracing::info!("removing leftover temporary artifact file");
            remove_logged(&path);
            continue;
        }
        let Some(id) = name
            .strip_suffix(ARTIFACT_SUFFIX)
            .and_then(|stem| stem.parse::<ArtifactId>().ok())
        else {
            continue;
        };
        match read_entry(&path) {
            Ok(entry) if is_expired(entry.created, now, retention) => remove_logged(&path),
            Ok(entry) => {
                index.insert(id, entry);
            }
            Err(err) => {
                tracing::warn!(artifact_id = %id, error = %err, "removing unreadable artifact file");
                remove_logged(&path);
            }
        }
    }
    Ok(index)
}

fn read_entry(path: &Path) -> io::Result<Entry> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    decode_header(&mut file, len)
}

/// Removes `path`, logging (not returning) a failure.
pub(crate) fn remove_logged(path: &Path) {
    if let Err(err) = remove(path) {
        tracing::warn!(error = %err, "could not remove artifact file");
    }
}
