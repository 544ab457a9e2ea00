//! A release whose binary is byte-identical to one already run measures
//! nothing new: its rows are the earlier version's, copied, each flagged
//! `identical-binary:EARLIER` so no one mistakes them for sessions.

use std::collections::HashSet;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::cells::CellKey;
use crate::record::Row;

/// The flag a copied row carries, before the version it was copied from.
pub const FLAG: &str = "identical-binary:";

/// SHA-256 (hex) and size of the file at `path` (symlinks followed).
pub fn hash_file(path: &Path) -> std::io::Result<(String, u64)> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut bytes = 0u64;
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        bytes += n as u64;
    }
    let hex = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((hex, bytes))
}

/// SHA-256 (hex) and size of a build made of `files` under `root`: the
/// hash of the file itself when it is one file (so a one-file build keeps
/// the hash [`hash_file`] gives), else of each file's path relative to
/// `root`, a NUL, its length and its bytes, in the order given. `None` when
/// there is no file: no build to compare, nothing to copy.
pub fn hash_build(root: &Path, files: &[std::path::PathBuf]) -> std::io::Result<Option<(String, u64)>> {
    match files {
        [] => Ok(None),
        [one] => hash_file(one).map(Some),
        many => {
            let mut hasher = Sha256::new();
            let mut total = 0u64;
            let mut buf = vec![0u8; 1 << 20];
            for path in many {
                let rel = path.strip_prefix(root).unwrap_or(path);
                let mut file = std::fs::File::open(path)?;
                let len = file.metadata()?.len();
                hasher.update(rel.to_string_lossy().as_bytes());
                hasher.update([0u8]);
                hasher.update(len.to_le_bytes());
                loop {
                    let n = file.read(&mut buf)?;
                    if n == 0 {
                        break;
                    }
                    hasher.update(&buf[..n]);
                    total += n as u64;
                }
            }
            Ok(Some((hasher.finalize().iter().map(|b| format!("{b:02x}")).collect(), total)))
        }
    }
}

/// `source`'s rows re-labelled as `version`'s, for the cells in `wanted`
/// (keys with `version`'s number). `None` unless `source` has a row for
/// every wanted cell: a partial copy would mix copies with sessions.
pub fn copy_rows(source: &[Row], from: &str, version: &str, wanted: &HashSet<CellKey>) -> Option<Vec<Row>> {
    let mut out = Vec::new();
    for row in source.iter().filter(|r| r.agent_version == from) {
        let mut copy = row.clone();
        copy.agent_version = version.to_string();
        if !wanted.contains(&CellKey::of(&copy)) {
            continue;
        }
        let flag = format!("{FLAG}{from}");
        copy.flags = if copy.flags.is_empty() { flag } else { format!("{};{flag}", copy.flags) };
        out.push(copy);
    }
    let covered: HashSet<CellKey> = out.iter().map(CellKey::of).collect();
    (covered.len() == wanted.len()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::VerdictKind;

    fn row(version: &str, arm: &str, flags: &str) -> Row {
        let mut row = crate::test_helpers::row(version, arm, 1, VerdictKind::Blocked, "");
        row.flags = flags.into();
        row
    }

    #[test]
    fn copies_are_relabelled_and_flagged_and_only_whole_sets_are_copied() {
        let source =
            [row("2.1.1", "deny/bare", ""), row("2.1.1", "crash/bare", "compacted:1"), row("2.1.0", "x/bare", "")];
        let wanted: HashSet<CellKey> =
            [row("2.1.2", "deny/bare", ""), row("2.1.2", "crash/bare", "")].iter().map(CellKey::of).collect();
        let copied = copy_rows(&source, "2.1.1", "2.1.2", &wanted).unwrap();
        assert_eq!(copied.len(), 2);
        assert!(copied.iter().all(|r| r.agent_version == "2.1.2"));
        assert_eq!(copied[0].flags, "identical-binary:2.1.1");
        assert_eq!(copied[1].flags, "compacted:1;identical-binary:2.1.1");
        let more: HashSet<CellKey> =
            wanted.iter().cloned().chain([CellKey::of(&row("2.1.2", "hang/bare", ""))]).collect();
        assert!(copy_rows(&source, "2.1.1", "2.1.2", &more).is_none(), "2.1.1 has no hang/bare row");
    }

    #[test]
    fn a_build_of_many_files_differs_by_any_file_and_not_by_where_it_is_installed() {
        let dir = tempfile::tempdir().unwrap();
        let build = |version: &str, chunk: &[u8]| {
            let root = dir.path().join(version);
            let launcher = root.join("node_modules/pkg/launcher.js");
            let platform = root.join("node_modules/pkg-linux-x64/bin");
            std::fs::create_dir_all(launcher.parent().unwrap()).unwrap();
            std::fs::create_dir_all(platform.parent().unwrap()).unwrap();
            std::fs::write(&launcher, b"same launcher").unwrap();
            std::fs::write(&platform, chunk).unwrap();
            hash_build(&root, &[launcher, platform]).unwrap().unwrap()
        };
        let (a, a_bytes) = build("1.0.1", b"release one");
        let (b, _) = build("1.0.2", b"release two");
        let (c, _) = build("1.0.3", b"release one");
        assert_ne!(a, b, "the same launcher in front of another build is another build");
        assert_eq!(a, c, "the same files in another version's directory are the same build");
        assert_eq!(a_bytes, 24);
        let one = dir.path().join("1.0.1/node_modules/pkg/launcher.js");
        assert_eq!(hash_build(dir.path(), std::slice::from_ref(&one)).unwrap(), Some(hash_file(&one).unwrap()));
        assert_eq!(hash_build(dir.path(), &[]).unwrap(), None);
    }

    #[test]
    fn hashes_are_sha256() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"abc").unwrap();
        let (hex, bytes) = hash_file(&path).unwrap();
        assert_eq!(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(bytes, 3);
    }
}
