//! Writing a settings file and its backup without loosening who can read them.
//!
//! A settings file may hold secrets (its `env`), so it is often mode 0600.
//! A backup created with the default mode (0666 less the umask, typically
//! 0644) would hand those secrets to every local user. The backup is created
//! 0600, then given the original's mode and owner; the rewritten settings
//! file keeps them too.

use std::fs::{self, File, Metadata, Permissions};
use std::io::{self, ErrorKind, Read, Seek, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use nix::errno::Errno;
use nix::unistd::{fchown, Gid, Uid};

/// Read the settings file `target` (already resolved), refusing at once
/// anything that is not a regular file: a FIFO would block the read until a
/// writer comes, a device may never end. The type is checked with `stat`
/// (which never blocks) before opening, and again on the opened file
/// (opened non-blocking, so a FIFO swapped in between cannot hold it).
pub fn read_regular(target: &Path) -> Result<Vec<u8>> {
    let meta = fs::metadata(target).with_context(|| format!("cannot read {}", target.display()))?;
    refuse_unless_regular(target, &meta)?;
    let mut file = fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY)
        .open(target)
        .with_context(|| format!("cannot open {}", target.display()))?;
    refuse_unless_regular(target, &file.metadata()?)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).with_context(|| format!("cannot read {}", target.display()))?;
    Ok(bytes)
}

fn refuse_unless_regular(path: &Path, meta: &Metadata) -> Result<()> {
    let t = meta.file_type();
    let what = if t.is_file() {
        return Ok(());
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_char_device() {
        "a character device"
    } else if t.is_block_device() {
        "a block device"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    bail!("{} is {what}, not a settings file; left it untouched", path.display())
}

/// Save `bytes` (the original settings) next to `target` with `target`'s
/// mode and owner, and return where.
///
/// The backup appears under its name complete or not at all: it is written
/// to a temporary file in the same directory, synced, read back and compared,
/// and only then given its name (`link`/`renameat2` without replacing), and
/// the directory is synced. A run that fails part way (`ulimit -f`, a full
/// disk) leaves no backup name behind, and its temporary file is removed.
///
/// The name is `TARGET.failopen-backup`, or the first free
/// `.failopen-backup.N`. An existing backup is never overwritten, with one
/// exception that loses nothing: a backup whose bytes are a strict prefix of
/// `bytes` (what an older failopen left truncated when its write failed) is
/// replaced by the complete copy. A backup that already holds exactly
/// `bytes` is used as it is.
pub fn write_backup(target: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let meta = fs::metadata(target).with_context(|| format!("cannot read the mode of {}", target.display()))?;
    let base = format!("{}.failopen-backup", target.display());
    for n in 0..1000 {
        let candidate = PathBuf::from(if n == 0 { base.clone() } else { format!("{base}.{n}") });
        let replace = match existing_backup(&candidate)? {
            Existing::Absent => false,
            Existing::File(old) if old == bytes => return Ok(candidate),
            Existing::File(old) if old.len() < bytes.len() && bytes.starts_with(&old) => true,
            Existing::File(_) | Existing::Other => continue,
        };
        let tmp = verified_temp(target, bytes, &meta)
            .with_context(|| format!("cannot write backup {}", candidate.display()))?;
        let placed =
            if replace { tmp.persist(&candidate).map(drop) } else { tmp.persist_noclobber(&candidate).map(drop) };
        match placed {
            Ok(()) => {
                sync_dir(&candidate)
                    .with_context(|| format!("cannot sync the directory of {}", candidate.display()))?;
                return Ok(candidate);
            }
            Err(e) if e.error.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e.error).with_context(|| format!("cannot create backup {}", candidate.display())),
        }
    }
    bail!("too many backups already exist next to {}", target.display())
}

enum Existing {
    Absent,
    /// A regular file, and its bytes.
    File(Vec<u8>),
    /// Something else (a link, a directory, ...): never touched.
    Other,
}

fn existing_backup(candidate: &Path) -> Result<Existing> {
    match fs::symlink_metadata(candidate) {
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Existing::Absent),
        Err(e) => Err(e).with_context(|| format!("cannot look at {}", candidate.display())),
        Ok(m) if !m.file_type().is_file() => Ok(Existing::Other),
        Ok(_) => Ok(Existing::File(read_regular(candidate)?)),
    }
}

/// A temporary file next to `target` holding `bytes`, with `meta`'s mode
/// and owner, synced, and read back equal to `bytes`.
fn verified_temp(target: &Path, bytes: &[u8], meta: &Metadata) -> io::Result<tempfile::NamedTempFile> {
    let dir = target.parent().unwrap_or(Path::new("."));
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // 0600 from the start: the bytes are never readable by more users than
    // the original allows, not even for a moment.
    let mut tmp = tempfile::Builder::new().prefix(&format!(".{name}.failopen-tmp")).tempfile_in(dir)?;
    tmp.write_all(bytes)?;
    copy_mode_and_owner(tmp.as_file(), meta)?;
    tmp.as_file().sync_all()?;
    let mut back = Vec::with_capacity(bytes.len());
    let file = tmp.as_file_mut();
    file.rewind()?;
    file.read_to_end(&mut back)?;
    if back != bytes {
        return Err(io::Error::other(format!(
            "read back {} bytes that differ from the {} written",
            back.len(),
            bytes.len()
        )));
    }
    Ok(tmp)
}

/// Replace `target` with `bytes`: a temporary file in the same directory
/// (created 0600, then given the original's mode and owner), synced, renamed
/// over `target`, and the directory synced. Refused, with `target` left as it
/// is, when `target` no longer holds `original` (edited meanwhile).
pub fn replace_atomically(target: &Path, original: &[u8], bytes: &[u8]) -> Result<()> {
    let meta = fs::metadata(target).with_context(|| format!("cannot read the mode of {}", target.display()))?;
    let tmp = verified_temp(target, bytes, &meta)?;
    if read_regular(target)? != original {
        bail!("{} changed while --install ran; run it again", target.display());
    }
    tmp.persist(target).map_err(|e| e.error)?;
    sync_dir(target)?;
    Ok(())
}

/// fsync the directory holding `path`, so a rename in it is on disk.
fn sync_dir(path: &Path) -> io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    File::open(dir)?.sync_all()
}

/// Give `file` the owner and mode of `meta`. Changing the owner needs root:
/// without it (EPERM) the file keeps ours, but the mode is set regardless.
/// The owner goes first because a chown may clear set-id mode bits.
fn copy_mode_and_owner(file: &File, meta: &Metadata) -> io::Result<()> {
    match fchown(file, Some(Uid::from_raw(meta.uid())), Some(Gid::from_raw(meta.gid()))) {
        Ok(()) | Err(Errno::EPERM) => {}
        Err(e) => return Err(e.into()),
    }
    file.set_permissions(Permissions::from_mode(meta.mode() & 0o7777))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o7777
    }

    #[test]
    fn the_backup_keeps_the_originals_mode() {
        let dir = tempfile::tempdir().unwrap();
        for original_mode in [0o600, 0o640, 0o644, 0o400] {
            let target = dir.path().join(format!("s{original_mode:o}.json"));
            fs::write(&target, "{}").unwrap();
            fs::set_permissions(&target, Permissions::from_mode(original_mode)).unwrap();
            let backup = write_backup(&target, b"{\"env\":{\"TOKEN\":\"secret\"}}").unwrap();
            assert_eq!(mode(&backup), original_mode, "{}", backup.display());
            assert_eq!(fs::read(&backup).unwrap(), b"{\"env\":{\"TOKEN\":\"secret\"}}");
        }
    }

    #[test]
    fn the_backup_and_the_rewrite_keep_the_originals_owner_when_root() {
        if !Uid::effective().is_root() {
            eprintln!("skipped: changing a file's owner needs root");
            return;
        }
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("settings.json");
        fs::write(&target, "{}").unwrap();
        fs::set_permissions(&target, Permissions::from_mode(0o600)).unwrap();
        nix::unistd::chown(&target, Some(Uid::from_raw(4242)), Some(Gid::from_raw(4343))).unwrap();

        let backup = write_backup(&target, b"{}").unwrap();
        let meta = fs::metadata(&backup).unwrap();
        assert_eq!((meta.uid(), meta.gid(), meta.mode() & 0o7777), (4242, 4343, 0o600));

        replace_atomically(&target, b"{}", b"{\"new\":1}").unwrap();
        let meta = fs::metadata(&target).unwrap();
        assert_eq!((meta.uid(), meta.gid(), meta.mode() & 0o7777), (4242, 4343, 0o600));
    }
}
