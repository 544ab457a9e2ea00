//! Writing a settings file and its backup without loosening who can read them.
//!
//! A settings file may hold secrets (its `env`), so it is often mode 0600.
//! A backup created with the default mode (0666 less the umask, typically
//! 0644) would hand those secrets to every local user. The backup is created
//! 0600, then given the original's mode and owner; the rewritten settings
//! file keeps them too.

use std::fs::{self, File, Metadata, Permissions};
use std::io::{self, ErrorKind, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use nix::errno::Errno;
use nix::unistd::{fchown, Gid, Uid};

/// Save `bytes` next to `target` under the first free backup name
/// (`TARGET.failopen-backup`, then `.failopen-backup.N`; an existing backup
/// is never overwritten), with `target`'s mode and owner.
pub fn write_backup(target: &Path, bytes: &[u8]) -> Result<PathBuf> {
    let meta = fs::metadata(target).with_context(|| format!("cannot read the mode of {}", target.display()))?;
    let base = format!("{}.failopen-backup", target.display());
    for n in 0..1000 {
        let candidate = PathBuf::from(if n == 0 { base.clone() } else { format!("{base}.{n}") });
        // 0600 from the start: the bytes are never readable by more users
        // than the original allows, not even for a moment.
        match fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&candidate) {
            Ok(mut file) => {
                file.write_all(bytes)
                    .and_then(|_| copy_mode_and_owner(&file, &meta))
                    .and_then(|_| file.sync_all())
                    .with_context(|| format!("cannot write backup {}", candidate.display()))?;
                return Ok(candidate);
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e).with_context(|| format!("cannot create backup {}", candidate.display())),
        }
    }
    bail!("too many backups already exist next to {}", target.display())
}

/// Replace `target` with `bytes`: temp file in the same directory (created
/// 0600), the original's mode and owner, fsync, rename.
pub fn replace_atomically(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = target.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    if let Ok(meta) = fs::metadata(target) {
        copy_mode_and_owner(tmp.as_file(), &meta)?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(target).map_err(|e| e.error)?;
    Ok(())
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

        replace_atomically(&target, b"{\"new\":1}").unwrap();
        let meta = fs::metadata(&target).unwrap();
        assert_eq!((meta.uid(), meta.gid(), meta.mode() & 0o7777), (4242, 4343, 0o600));
    }
}
