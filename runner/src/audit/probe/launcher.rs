//! The `no-launcher` fault: the program a hook command looks up on PATH to
//! run its guard (`node`, `python3`, `uv`, `npx`, `bun`, a globally
//! installed guard binary) is not on the PATH the hook gets, as when a
//! version manager's node is on the user's shell PATH but not on the PATH
//! Claude Code was started with.
//!
//! Measured on Claude Code 2.1.328 (a guard that wrote its `$PATH` and its
//! parent's command line): a hook runs as `/bin/sh -c COMMAND` with Claude
//! Code's own PATH, unchanged. So the hook's PATH is set in front of its
//! command ([`command_without`]) to a shim directory ([`path_without`]) that
//! links every program of the audit's PATH except the launcher: the agent
//! keeps its PATH (an older Claude Code is a Node script and needs node),
//! and the hook gets exactly what it would get from a Claude Code started
//! without the launcher on PATH.

use std::path::{Path, PathBuf};

use crate::audit::intake::command;
use crate::audit::intake::file_read::shebang_interpreter;

/// Shells: always on PATH, and what Claude Code runs every hook through.
const SHELLS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh", "fish"];

/// The program `command` looks up on PATH to run its guard, or why there is
/// none: the interpreter word (`node x.js`), the program itself when it is a
/// bare name (`cc-safety-net --hook`), or the `#!/usr/bin/env X` of the
/// script it runs directly. `home` expands `~` and `$HOME` in a script path.
pub fn launcher(command: &str, project_dir: &Path, home: Option<&Path>) -> Result<String, String> {
    let g = command::parse(command).guard;
    if g.words.is_none() {
        return Err("not a simple command: no launcher to take off PATH".into());
    }
    let program = match (&g.interpreter, &g.script) {
        (Some(interpreter), _) => interpreter.clone(),
        (None, Some(script)) => script.clone(),
        (None, None) => return Err("runs a shell builtin: no launcher to take off PATH".into()),
    };
    if !program.contains('/') {
        return on_path(program);
    }
    if g.interpreter.is_some() {
        return Err(format!("runs its interpreter {program} by path, not from PATH"));
    }
    let script = command::expand(&program, project_dir, home);
    let script = command::resolve(&script, project_dir, "").ok_or("its script cannot be found")?;
    match shebang_interpreter(&script) {
        Some(interpreter) if !interpreter.contains('/') => on_path(interpreter),
        Some(interpreter) => Err(format!("its script's #! runs {interpreter} by path, not from PATH")),
        None => Err("its script has no #! line naming a program on PATH".into()),
    }
}

fn on_path(program: String) -> Result<String, String> {
    if SHELLS.contains(&program.as_str()) {
        return Err(format!("runs through the shell {program}, which is always on PATH"));
    }
    Ok(program)
}

/// A directory under `dir` holding a link to every program on `path_var`
/// (the first of each name, as a lookup finds it) except `launcher`; made
/// once, whole (built aside, then renamed into place).
pub fn path_without(launcher: &str, path_var: &str, dir: &Path) -> std::io::Result<PathBuf> {
    let name: String = launcher.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let shim = dir.join(format!("path-without-{name}"));
    if shim.is_dir() {
        return Ok(shim);
    }
    std::fs::create_dir_all(dir)?;
    let aside = tempfile::Builder::new().prefix(".path-").tempdir_in(dir)?;
    for d in std::env::split_paths(path_var).filter(|d| d.is_absolute()) {
        let Ok(entries) = std::fs::read_dir(&d) else { continue };
        for entry in entries.flatten() {
            let file = entry.file_name();
            let link = aside.path().join(&file);
            if file == launcher || link.symlink_metadata().is_ok() {
                continue;
            }
            std::os::unix::fs::symlink(d.join(&file), &link)?;
        }
    }
    let built = aside.keep();
    if std::fs::rename(&built, &shim).is_err() {
        // Another session built it first: use theirs.
        let _ = std::fs::remove_dir_all(&built);
    }
    Ok(shim)
}

/// `command` run with PATH set to `shim` first (a plain assignment: the
/// path is quoted, never re-parsed).
pub fn command_without(command: &str, shim: &Path) -> String {
    let quoted = shlex::try_quote(&shim.to_string_lossy()).map(|q| q.into_owned()).unwrap_or_default();
    format!("PATH={quoted}; export PATH; {command}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launcher_is_the_interpreter_the_bare_program_or_the_env_shebang() {
        let p = Path::new("/p");
        assert_eq!(launcher("node \"${CLAUDE_PLUGIN_ROOT}\"/dist/bin/g.js --claude-code", p, None).unwrap(), "node");
        assert_eq!(launcher("python3 $CLAUDE_PROJECT_DIR/.claude/hooks/g.py", p, None).unwrap(), "python3");
        assert_eq!(launcher("uv run $CLAUDE_PROJECT_DIR/.claude/hooks/g.py", p, None).unwrap(), "uv");
        assert_eq!(launcher("npx -y some-guard", p, None).unwrap(), "npx");
        assert_eq!(launcher("FOO=1 env BAR=2 bunx g", p, None).unwrap(), "bunx");
        // Sealed: the guard inside seal.
        assert_eq!(launcher("/b/failopen seal --deadline 4 -- node /g.js", p, None).unwrap(), "node");
        let e = launcher("/usr/bin/python3 /g.py", p, None).unwrap_err();
        assert!(e.contains("by path"), "{e}");
        assert!(launcher("bash /g.sh", p, None).unwrap_err().contains("shell bash"));
        assert!(launcher("cat | node g.js", p, None).unwrap_err().contains("not a simple command"));
        assert!(launcher("exit 2", p, None).unwrap_err().contains("builtin"));
    }

    #[test]
    fn a_script_run_directly_is_launched_by_its_env_shebang() {
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("env.py"), "#!/usr/bin/env python3\nprint()\n").unwrap();
        std::fs::write(d.path().join("abs.sh"), "#!/bin/bash\nexit 2\n").unwrap();
        std::fs::write(d.path().join("none"), "exit 2\n").unwrap();
        assert_eq!(launcher("$CLAUDE_PROJECT_DIR/env.py", d.path(), None).unwrap(), "python3");
        assert!(launcher("./abs.sh", d.path(), None).unwrap_err().contains("runs /bin/bash by path"));
        assert!(launcher("./none", d.path(), None).unwrap_err().contains("no #! line"));
        assert!(launcher("./gone.py", d.path(), None).is_err());
    }

    #[test]
    fn the_shim_has_every_program_but_the_launcher() {
        let d = tempfile::tempdir().unwrap();
        let (a, b) = (d.path().join("a"), d.path().join("b"));
        for (dir, names) in [(&a, ["node", "git"]), (&b, ["git", "python3"])] {
            std::fs::create_dir_all(dir).unwrap();
            for n in names {
                std::fs::write(dir.join(n), "").unwrap();
            }
        }
        let path = std::env::join_paths([&a, &b, Path::new("relative")]).unwrap();
        let shim = path_without("node", path.to_str().unwrap(), &d.path().join("faults")).unwrap();
        assert!(shim.join("node").symlink_metadata().is_err(), "the launcher is gone");
        assert_eq!(std::fs::read_link(shim.join("git")).unwrap(), a.join("git"), "the first git wins");
        assert_eq!(std::fs::read_link(shim.join("python3")).unwrap(), b.join("python3"));
        // Made once: a second call reuses it.
        assert_eq!(path_without("node", "", &d.path().join("faults")).unwrap(), shim);
        assert!(shim.join("git").symlink_metadata().is_ok());
        assert_eq!(command_without("node g.js", Path::new("/t/x y")), "PATH='/t/x y'; export PATH; node g.js");
    }
}
