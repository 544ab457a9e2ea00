//! uv in the sandbox: a hook run by `uvx pkg`, `uv tool run` or `uv run`
//! needs what uv keeps under HOME, which the sandbox hides.
//!
//! Where uv keeps it is asked of uv itself, outside the sandbox, with the
//! user's environment (`uv cache dir`, `uv tool dir`: each honours the user's
//! `UV_CACHE_DIR`, `XDG_*` and config), and its user configuration
//! (`~/.config/uv/uv.toml` and the global `.python-version` that `uv python
//! pin --global` writes) is read for the paths it names (a `find-links`
//! wheel folder, a pinned interpreter), as a settings file is. Measured with
//! uv 0.13.9 in `bwrap`:
//!
//! - uv takes a lock in its cache and in its tool directory on every `uvx`,
//!   even when all it needs is cached: with either read-only it exits **2**
//!   ("Could not acquire lock ... Read-only file system"), which Claude Code
//!   reads as a refusal. So the hook gets a writable directory of its own
//!   for each, in the session's temp root, whose entries link to the user's
//!   (bound read-only): uv's locks and temporary files land in the session,
//!   what is cached is read where it lies, and nothing of the user's is
//!   written (`UV_CACHE_DIR` and `UV_TOOL_DIR` name them).
//! - A `find-links` folder uv's config names and cannot read is exit 2 too:
//!   it is bound back read-only, like the interpreter a global pin names.
//! - With no network (every sandbox but a live session's), uv is told
//!   `UV_OFFLINE=1`: it answers from its cache, as it does on the user's
//!   machine when the cache is fresh, instead of failing (exit 2) on a
//!   lookup it cannot make.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// What a contained process that runs uv needs besides what its
/// configuration names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UvDirs {
    /// Texts to read for paths to bind back (uv's config files' contents and
    /// the directories uv named).
    pub texts: Vec<String>,
    /// Variables to set inside (the writable cache and tool directories).
    pub env: Vec<(String, String)>,
}

/// Whether any of `texts` runs uv (`uv` or `uvx` as a word of its own).
pub fn named(texts: &[String]) -> bool {
    texts.iter().any(|t| {
        t.split(|c: char| c.is_whitespace() || "\"'`;&|()".contains(c))
            .any(|w| matches!(Path::new(w).file_name().and_then(|n| n.to_str()), Some("uv" | "uvx")))
    })
}

/// uv's directories for a process contained with `writable` as its temp
/// root, when `texts` run uv and a `uv` can be asked (on `path_var`, or
/// beside a `uvx` they name by path). None when they do not.
pub fn prepare(texts: &[String], path_var: &str, writable: &Path, network: bool) -> Option<UvDirs> {
    if !named(texts) {
        return None;
    }
    let uv = find_uv(texts, path_var)?;
    let ask = |args: &[&str]| -> Option<PathBuf> {
        let out = Command::new(&uv).args(args).stdin(Stdio::null()).stderr(Stdio::null()).output().ok()?;
        let p = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
        (out.status.success() && p.is_absolute()).then_some(p)
    };
    let mut dirs = UvDirs::default();
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))
        .map(|c| c.join("uv"));
    for dir in config.iter().chain(std::iter::once(&PathBuf::from("/etc/uv"))) {
        for name in ["uv.toml", ".python-version", ".python-versions"] {
            if let Ok(text) = std::fs::read_to_string(dir.join(name)) {
                dirs.texts.push(text);
            }
        }
        if dir.is_dir() {
            dirs.texts.push(dir.to_string_lossy().into_owned());
        }
    }
    for (args, var, own) in
        [(&["cache", "dir"], "UV_CACHE_DIR", "uv-cache"), (&["tool", "dir"], "UV_TOOL_DIR", "uv-tools")]
    {
        let Some(real) = ask(args) else { continue };
        let Ok(mine) = linked_copy(&real, &writable.join(".failopen-uv").join(own)) else { continue };
        if real.is_dir() {
            dirs.texts.push(real.to_string_lossy().into_owned());
        }
        dirs.env.push((var.into(), mine.to_string_lossy().into_owned()));
    }
    if !network {
        dirs.env.push(("UV_OFFLINE".into(), "1".into()));
    }
    Some(dirs)
}

/// The `uv` to ask: on `path_var`, else beside a `uvx` named by path.
fn find_uv(texts: &[String], path_var: &str) -> Option<PathBuf> {
    let runs = |p: &Path| p.is_file();
    std::env::split_paths(path_var).map(|d| d.join("uv")).find(|p| runs(p)).or_else(|| {
        texts
            .iter()
            .flat_map(|t| t.split(|c: char| c.is_whitespace() || "\"'`;&|()".contains(c)))
            .map(Path::new)
            .filter(|p| p.is_absolute() && p.file_name().is_some_and(|n| n == "uvx" || n == "uv"))
            .filter_map(|p| p.parent().map(|d| d.join("uv")))
            .find(|p| runs(p))
    })
}

/// `mine`, made anew: a directory whose entries link to `real`'s, except uv's
/// lock and temporary files (uv makes its own there).
fn linked_copy(real: &Path, mine: &Path) -> std::io::Result<PathBuf> {
    std::fs::create_dir_all(mine)?;
    for entry in std::fs::read_dir(real).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let s = name.to_string_lossy();
        if s == ".lock" || s.starts_with(".tmp") {
            continue;
        }
        let link = mine.join(&name);
        if link.symlink_metadata().is_err() {
            std::os::unix::fs::symlink(entry.path(), &link)?;
        }
    }
    Ok(mine.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uv_is_named_as_a_word_of_its_own() {
        let t = |s: &str| vec![s.to_string()];
        assert!(named(&t("uvx claude-code-guardian hook")));
        assert!(named(&t("FOO=1 /opt/bin/uv run \"$CLAUDE_PROJECT_DIR\"/g.py")));
        assert!(named(&t("PATH=/x; export PATH; uvx g")));
        assert!(!named(&t("python3 /home/u/uvx-notes/g.py")));
        assert!(!named(&t("node uv.js")));
    }

    #[test]
    fn the_linked_copy_leaves_out_uvs_lock_and_temporary_files() {
        let d = tempfile::tempdir().unwrap();
        let real = d.path().join("real");
        std::fs::create_dir_all(real.join("archive-v0")).unwrap();
        for f in [".lock", ".tmpAbc", "CACHEDIR.TAG"] {
            std::fs::write(real.join(f), "").unwrap();
        }
        let mine = linked_copy(&real, &d.path().join("mine")).unwrap();
        assert_eq!(std::fs::read_link(mine.join("archive-v0")).unwrap(), real.join("archive-v0"));
        assert_eq!(std::fs::read_link(mine.join("CACHEDIR.TAG")).unwrap(), real.join("CACHEDIR.TAG"));
        assert!(mine.join(".lock").symlink_metadata().is_err());
        assert!(mine.join(".tmpAbc").symlink_metadata().is_err());
        // Made again (a second hook of the same session): the same links, no error.
        assert_eq!(linked_copy(&real, &mine).unwrap(), mine);
    }
}
