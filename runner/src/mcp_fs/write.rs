//! The `write_file` tool's one job: put `content` at `path`, inside the
//! server's root (its working directory) and nowhere else.

use std::path::{Component, Path, PathBuf};

/// Where `path` lands under `root`, or why it may not: absolute paths must
/// lie under `root`; `..` and empty paths are refused.
pub fn resolve(root: &Path, path: &str) -> Result<PathBuf, String> {
    if path.is_empty() {
        return Err("path is empty".into());
    }
    let p = Path::new(path);
    let relative = if p.is_absolute() {
        p.strip_prefix(root).map_err(|_| format!("{path}: outside the working directory {}", root.display()))?
    } else {
        p
    };
    if relative.as_os_str().is_empty() || !relative.components().all(|c| matches!(c, Component::Normal(_))) {
        return Err(format!("{path}: must name a file inside the working directory (no `..`)"));
    }
    Ok(root.join(relative))
}

/// Write `content` to `path` under `root`, creating parent directories;
/// returns the number of bytes written.
pub fn write_file(root: &Path, path: &str, content: &str) -> Result<usize, String> {
    let target = resolve(root, path)?;
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{path}: {e}"))?;
    }
    std::fs::write(&target, content).map_err(|e| format!("{path}: {e}"))?;
    Ok(content.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_inside_the_root_only() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        assert_eq!(write_file(root, "notes.txt", "ready\n"), Ok(6));
        assert_eq!(std::fs::read_to_string(root.join("notes.txt")).unwrap(), "ready\n");
        let abs = root.join("sub/n.txt");
        assert_eq!(write_file(root, abs.to_str().unwrap(), "x"), Ok(1));
        for bad in ["", "../x", "a/../../x", "/etc/passwd", "."] {
            assert!(write_file(root, bad, "x").is_err(), "{bad:?}");
        }
    }
}
