//! A session's working directory as a copy of a project
//! ([`super::SessionSpec::project`]): the agent runs in it, so its hooks get
//! the copy as their working directory, as their payload's `cwd` and as the
//! agent's project variable (`CLAUDE_PROJECT_DIR`), natively, for every
//! agent; and the write the session attempts lands in it.
//!
//! The copy holds the project's own files (rule files and configs beside a
//! guard), with `.git` left out, and dependency folders ([`LINKED_DIRS`]),
//! big files and whatever passes the size budget linked to the original. The
//! agent's own project hook configs are taken out of it, and the files a
//! session's write is judged by: the session runs only the hook under audit,
//! and only a write of its own shows in the judged file.

use std::path::Path;

use crate::agent::AgentDriver;

/// The most bytes of the project copied (beyond: linked).
pub const MAX_COPY_BYTES: u64 = 32 << 20;
/// A file bigger than this is linked, not copied.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// The most entries copied (beyond: linked).
const MAX_ENTRIES: usize = 5_000;
/// Folders deeper than this are linked, not copied.
const MAX_DEPTH: usize = 8;
/// Folders linked, not copied: a guard's dependencies, as installed.
pub const LINKED_DIRS: &[&str] = &["node_modules", ".venv", "venv", "env", ".tox", "target", "dist", "build"];
/// Folders left out.
const LEFT_OUT: &[&str] = &[".git"];
/// The files a session's write is judged by ([`crate::landed`]): a project's
/// own would read as a write that never happened.
const JUDGED: &[&str] = &[crate::task::NOTES_FILE, crate::task::NOTEBOOK_FILE];

/// Copy `project` into the (empty) directory `work`, then take out what
/// `driver`'s agent would load as its own project hook configs there and the
/// judged files.
pub fn copy_into(project: &Path, work: &Path, driver: &dyn AgentDriver) -> std::io::Result<()> {
    let mut budget = Budget { bytes: MAX_COPY_BYTES, entries: MAX_ENTRIES };
    copy_dir(project, work, 0, &mut budget)?;
    for name in JUDGED {
        let p = work.join(name);
        if p.symlink_metadata().is_ok() {
            remove(&p)?;
        }
    }
    if let Some(config) = driver.hook_config() {
        let read = |p: &Path| std::fs::read_to_string(p).ok();
        for p in config.default_paths(work, &read) {
            if p.starts_with(work) {
                remove(&p)?;
            }
        }
    }
    Ok(())
}

fn remove(p: &Path) -> std::io::Result<()> {
    match p.symlink_metadata() {
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(p),
        Ok(_) => std::fs::remove_file(p),
        Err(_) => Ok(()),
    }
}

struct Budget {
    bytes: u64,
    entries: usize,
}

fn copy_dir(from: &Path, to: &Path, depth: usize, budget: &mut Budget) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let Ok(entries) = std::fs::read_dir(from) else { return Ok(()) };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let (src, dst) = (e.path(), to.join(&name));
        if LEFT_OUT.iter().any(|n| name == *n) {
            continue;
        }
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_symlink() {
            if let Ok(target) = std::fs::read_link(&src) {
                let _ = std::os::unix::fs::symlink(target, &dst);
            }
            continue;
        }
        let over = budget.entries == 0;
        budget.entries = budget.entries.saturating_sub(1);
        if kind.is_dir() {
            if over || depth >= MAX_DEPTH || LINKED_DIRS.iter().any(|n| name == *n) {
                std::os::unix::fs::symlink(&src, &dst)?;
            } else {
                copy_dir(&src, &dst, depth + 1, budget)?;
            }
        } else if kind.is_file() {
            let len = e.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
            if over || len > MAX_FILE_BYTES || len > budget.bytes || std::fs::copy(&src, &dst).is_err() {
                let _ = std::fs::remove_file(&dst);
                std::os::unix::fs::symlink(&src, &dst)?;
            } else {
                budget.bytes -= len;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;

    #[test]
    fn the_copy_holds_the_projects_files_links_dependencies_and_leaves_out_git_hook_configs_and_judged_files() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("proj");
        std::fs::create_dir_all(p.join(".claude/hooks")).unwrap();
        std::fs::create_dir_all(p.join("node_modules/dep")).unwrap();
        std::fs::create_dir_all(p.join(".git")).unwrap();
        std::fs::create_dir_all(p.join(".gemini")).unwrap();
        std::fs::write(p.join(".claude/hooks/rules.yaml"), "deny: rm -rf\n").unwrap();
        std::fs::write(p.join(".gemini/settings.json"), r#"{"hooks": {}}"#).unwrap();
        std::fs::write(p.join(crate::task::NOTES_FILE), "the project's own notes\n").unwrap();
        std::fs::write(p.join("big.bin"), vec![0u8; (MAX_FILE_BYTES + 1) as usize]).unwrap();
        let work = d.path().join("work");
        copy_into(&p, &work, Agent::ClaudeCode.driver()).unwrap();
        assert_eq!(std::fs::read_to_string(work.join(".claude/hooks/rules.yaml")).unwrap(), "deny: rm -rf\n");
        assert!(!work.join(".claude/hooks/rules.yaml").symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_link(work.join("node_modules")).unwrap(), p.join("node_modules"));
        assert_eq!(std::fs::read_link(work.join("big.bin")).unwrap(), p.join("big.bin"));
        assert!(!work.join(".git").exists());
        assert!(!work.join(crate::task::NOTES_FILE).exists(), "a project's notes.txt would read as a write");
        assert!(work.join(".gemini/settings.json").exists(), "not Claude Code's: kept");
        // Gemini CLI would load the project's own hooks beside the audited one: taken out.
        let work = d.path().join("work-gemini");
        copy_into(&p, &work, Agent::Gemini.driver()).unwrap();
        assert!(!work.join(".gemini/settings.json").exists());
        assert!(work.join(".claude/hooks/rules.yaml").exists());
    }
}
