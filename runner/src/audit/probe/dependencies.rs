//! The `no-deps` fault: the guard's script is there but a dependency is
//! not (a `node_modules` or a virtualenv not installed on this machine,
//! pruned, or from another platform), so the script fails at import. It is
//! injected without touching the user's files: the nearest folder above the
//! script that holds a dependency folder (`node_modules`, or a `.venv` or
//! `venv` with a `pyvenv.cfg`) is copied into the audit's temp root without
//! its dependency folders, and the hook runs the copy of the script.

use std::path::{Path, PathBuf};

use crate::audit::intake::command;

/// The most files and bytes copied for one hook's root.
const MAX_FILES: usize = 20_000;
const MAX_BYTES: u64 = 200 << 20;
/// How far above the script a dependency folder is looked for.
const MAX_LEVELS: usize = 6;

/// The script `command` runs (expanded, existing) and the folder above it
/// that holds its dependencies, or why the fault does not apply.
pub fn dependency_root(command: &str, project_dir: &Path, home: Option<&Path>) -> Result<(String, PathBuf), String> {
    let g = command::parse(command).guard;
    if g.inline {
        return Err("an inline script: no dependency folder to take away".into());
    }
    let word = g.script.ok_or("no script file: no dependency folder to take away")?;
    let script = command::expand(&word, project_dir, home);
    if !script.contains('/') {
        return Err(format!("{word} is a program on PATH, not a script with a dependency folder"));
    }
    let path =
        command::resolve(&script, project_dir, "").filter(|p| p.is_file()).ok_or("its script cannot be found")?;
    let root = path
        .ancestors()
        .skip(1)
        .take(MAX_LEVELS)
        .find(|d| !dependency_dirs(d).is_empty())
        .ok_or("no node_modules or virtualenv beside its script")?;
    Ok((word, root.to_path_buf()))
}

/// The dependency folders directly in `dir`.
fn dependency_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let node = dir.join("node_modules");
    if node.is_dir() && !node.is_symlink() {
        out.push(node);
    }
    for venv in [".venv", "venv"] {
        let v = dir.join(venv);
        if v.join("pyvenv.cfg").is_file() {
            out.push(v);
        }
    }
    out
}

/// `command` with its script word (`word`, under `root`) pointing at a copy
/// of `root` under `dir` that lacks its dependency folders. The copy is
/// made once per root (built aside, then renamed into place).
pub fn command_without(
    command: &str,
    word: &str,
    root: &Path,
    dir: &Path,
    project_dir: &Path,
    home: Option<&Path>,
) -> std::io::Result<String> {
    let copy = copy_without_dependencies(root, dir)?;
    let script = command::expand(word, project_dir, home);
    let script = command::resolve(&script, project_dir, "").unwrap_or_default();
    let inside = script.strip_prefix(root).map_err(|_| std::io::Error::other("script is not under its root"))?;
    let copied = copy.join(inside).to_string_lossy().into_owned();
    let words: Vec<String> = command::simple_words(command)
        .unwrap_or_default()
        .into_iter()
        .map(|w| if w == word { copied.clone() } else { w })
        .collect();
    shlex::try_join(words.iter().map(String::as_str)).map_err(std::io::Error::other)
}

fn copy_without_dependencies(root: &Path, dir: &Path) -> std::io::Result<PathBuf> {
    use sha2::{Digest, Sha256};
    let hash = Sha256::digest(root.as_os_str().as_encoded_bytes());
    let name: String = hash.iter().take(6).map(|b| format!("{b:02x}")).collect();
    let copy = dir.join(format!("deps-{name}"));
    if copy.is_dir() {
        return Ok(copy);
    }
    std::fs::create_dir_all(dir)?;
    let aside = tempfile::Builder::new().prefix(".deps-").tempdir_in(dir)?;
    let mut budget = (MAX_FILES, MAX_BYTES);
    copy_tree(root, aside.path(), &mut budget)?;
    let built = aside.keep();
    if std::fs::rename(&built, &copy).is_err() {
        let _ = std::fs::remove_dir_all(&built);
    }
    Ok(copy)
}

/// Copy `from` into `to`, leaving out dependency folders and `.git`, and
/// keeping symlinks as links; refused past `budget` (files, bytes).
fn copy_tree(from: &Path, to: &Path, budget: &mut (usize, u64)) -> std::io::Result<()> {
    let skip = dependency_dirs(from);
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let src = entry.path();
        if skip.contains(&src) || entry.file_name() == ".git" {
            continue;
        }
        let dst = to.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(&src)?, &dst)?;
        } else if kind.is_dir() {
            std::fs::create_dir(&dst)?;
            copy_tree(&src, &dst, budget)?;
        } else if kind.is_file() {
            let len = entry.metadata()?.len();
            if budget.0 == 0 || budget.1 < len {
                return Err(std::io::Error::other(format!(
                    "{} is over {MAX_FILES} files or {} MB without its dependencies: not copied",
                    from.display(),
                    MAX_BYTES >> 20
                )));
            }
            *budget = (budget.0 - 1, budget.1 - len);
            std::fs::copy(&src, &dst)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_script_runs_from_a_copy_without_node_modules() {
        let d = tempfile::tempdir().unwrap();
        let plugin = d.path().join("plugin");
        std::fs::create_dir_all(plugin.join("dist/bin")).unwrap();
        std::fs::create_dir_all(plugin.join("node_modules/dep")).unwrap();
        std::fs::write(plugin.join("dist/bin/g.js"), "require('dep')").unwrap();
        std::fs::write(plugin.join("node_modules/dep/index.js"), "").unwrap();
        std::fs::write(plugin.join("package.json"), "{}").unwrap();
        let cmd = format!("node {}/dist/bin/g.js --claude-code", plugin.display());
        let (word, root) = dependency_root(&cmd, d.path(), None).unwrap();
        assert_eq!(root, plugin);
        let faults = d.path().join("faults");
        let out = command_without(&cmd, &word, &root, &faults, d.path(), None).unwrap();
        let copy = std::fs::read_dir(&faults).unwrap().flatten().map(|e| e.path()).find(|p| p.is_dir()).unwrap();
        assert_eq!(out, format!("node {}/dist/bin/g.js --claude-code", copy.display()));
        assert!(copy.join("dist/bin/g.js").is_file() && copy.join("package.json").is_file());
        assert!(!copy.join("node_modules").exists(), "the dependency folder is left out");
        assert!(plugin.join("node_modules/dep/index.js").is_file(), "the user's files are untouched");
    }

    #[test]
    fn no_dependency_folder_or_no_script_is_said() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("g.py"), "").unwrap();
        let e = dependency_root("python3 $CLAUDE_PROJECT_DIR/g.py", d.path(), None).unwrap_err();
        assert!(e.contains("no node_modules or virtualenv"), "{e}");
        std::fs::create_dir_all(d.path().join(".venv")).unwrap();
        std::fs::write(d.path().join(".venv/pyvenv.cfg"), "").unwrap();
        let (_, root) = dependency_root("python3 $CLAUDE_PROJECT_DIR/g.py", d.path(), None).unwrap();
        assert_eq!(root, d.path());
        assert!(dependency_root("uv run g.py", d.path(), None).unwrap_err().contains("program on PATH"));
        assert!(dependency_root("bash -c 'exit 2'", d.path(), None).unwrap_err().contains("inline"));
    }
}
