//! Cline CLI's hook files as audit reads them: an executable named
//! `PreToolUse` (any case, any extension) in the project's
//! `.clinerules/hooks/` (or a named `~/.cline/hooks/PreToolUse`). The file
//! is the hook: it runs for every tool (no matcher), is waited for 120 s
//! (fixed), its shebang picks the interpreter, and Cline reads only a JSON
//! `{"cancel": true}` on its stdout as a refusal, no exit code
//! (docs/cline.md). Each file is read as one Claude-shaped hook whose
//! command is the file's path, so audit's faults (missing, crash, hang,
//! signal) apply to it as to a script a command names.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::hook_config::{ConfigNote, HookConfig, HookConfigError, NoteLevel};

/// Cline CLI's hook files.
pub struct ClineHookConfig;

/// The directories whose `hooks/` Cline reads a hook file from: the
/// project's `.clinerules` and the user's `.cline`.
const HOOK_DIR_PARENTS: [&str; 2] = [".clinerules", ".cline"];

/// Whether `name` is a PreToolUse hook file's: `PreToolUse`, in any case,
/// with any extension or none.
fn is_hook_name(name: &str) -> bool {
    let stem = name.split_once('.').map_or(name, |(stem, _)| stem);
    stem.eq_ignore_ascii_case(EVENT)
}

impl HookConfig for ClineHookConfig {
    /// A file named `PreToolUse[.ext]` in `.clinerules/hooks/` or `.cline/hooks/`.
    fn owns_path(&self, path: &Path) -> bool {
        let mut up = path.ancestors().skip(1).map(Path::file_name);
        path.file_name().and_then(|n| n.to_str()).is_some_and(is_hook_name)
            && up.next().flatten().is_some_and(|d| d == "hooks")
            && up.next().flatten().is_some_and(|d| HOOK_DIR_PARENTS.iter().any(|p| d == *p))
    }

    /// The project's `.clinerules/hooks/PreToolUse*` files, in name order.
    fn default_paths(&self, cwd: &Path, _read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(cwd.join(".clinerules/hooks")) else { return Vec::new() };
        let mut out: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(is_hook_name) && p.is_file())
            .collect();
        out.sort();
        out
    }

    /// One group without a matcher, of one command hook that runs the file
    /// by its absolute path (no timeout: Cline's is fixed).
    fn read_groups(&self, path: &Path, _text: &str) -> Result<Vec<Value>, HookConfigError> {
        let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let Some(abs) = abs.to_str() else {
            return Err(HookConfigError::Shape(format!(
                "the hook file's path {} is not UTF-8: audit cannot name it in a command",
                abs.display()
            )));
        };
        Ok(vec![json!({"hooks": [{"type": "command", "command": crate::seal::decision::shell_quote(abs)}]})])
    }

    fn id_prefix(&self) -> &'static str {
        "L"
    }

    /// Cline waits 120 s for a hook file, fixed: nothing to set.
    fn timeout_is_settable(&self) -> bool {
        false
    }

    fn session_layer(&self) -> &'static str {
        "~/.cline/hooks/PreToolUse"
    }

    fn version_flag(&self) -> &'static str {
        "--cline"
    }

    /// A hook file runs no command line: the guard moves to
    /// `PreToolUse.guard` beside it, and the hook file becomes a script that
    /// runs it under seal.
    fn sealed_snippet(&self, command: &str, wrapped: &str) -> String {
        let guard = format!("{command}.guard");
        match wrapped.contains(command) {
            true => format!(
                "mv {command} {guard}, then write as the (executable) hook file:\n#!/bin/sh\nexec {}",
                wrapped.replacen(command, &guard, 1)
            ),
            false => format!(
                "move the hook file to {guard}, and write as the (executable) hook file a script that runs it \
                 under seal, as:\n#!/bin/sh\nexec {wrapped}"
            ),
        }
    }

    /// A hook file that never writes `cancel` refuses nothing on Cline.
    fn notes(&self, path: &Path, text: &str) -> Vec<ConfigNote> {
        if text.contains("cancel") {
            return Vec::new();
        }
        let claude_style = ["exit 2", "permissionDecision", "sys.exit(2)", "process.exit(2)"];
        let speaks = claude_style.iter().find(|w| text.contains(*w));
        let why = match speaks {
            Some(w) => format!(" It answers as a Claude Code hook does (`{w}`), which Cline does not read."),
            None => String::new(),
        };
        vec![ConfigNote {
            hook: Some((0, 0)),
            level: NoteLevel::Warning,
            code: "cline-no-cancel",
            message: format!(
                "{} never writes `cancel`: Cline CLI refuses a call only when its PreToolUse hook prints \
                 {{\"cancel\": true}} on stdout, and reads no exit code and no permissionDecision, so this hook \
                 refuses nothing as written.{why}",
                path.display()
            ),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hook_file_is_told_by_its_name_and_directory() {
        for p in
            ["/p/.clinerules/hooks/PreToolUse", "/p/.clinerules/hooks/pretooluse.py", "/h/.cline/hooks/PreToolUse.sh"]
        {
            assert!(ClineHookConfig.owns_path(Path::new(p)), "{p}");
        }
        for p in ["/p/.clinerules/hooks/PostToolUse", "/p/hooks/PreToolUse", "/p/.clinerules/PreToolUse"] {
            assert!(!ClineHookConfig.owns_path(Path::new(p)), "{p}");
        }
    }

    #[test]
    fn the_file_is_one_hook_for_every_tool_and_a_hook_without_cancel_is_a_warning() {
        let d = tempfile::tempdir().unwrap();
        let hooks = d.path().join(".clinerules/hooks");
        std::fs::create_dir_all(&hooks).unwrap();
        assert!(ClineHookConfig.default_paths(d.path(), &|_| None).is_empty());
        std::fs::write(hooks.join("PreToolUse.sh"), "#!/bin/sh\nexit 2\n").unwrap();
        std::fs::write(hooks.join("README.md"), "x").unwrap();
        let found = ClineHookConfig.default_paths(d.path(), &|_| None);
        assert_eq!(found, [hooks.join("PreToolUse.sh")]);
        let groups = ClineHookConfig.read_groups(&found[0], "").unwrap();
        assert!(groups[0].get("matcher").is_none());
        let command = groups[0]["hooks"][0]["command"].as_str().unwrap();
        assert!(command.ends_with("/.clinerules/hooks/PreToolUse.sh") && command.starts_with('/'), "{command}");
        let notes = ClineHookConfig.notes(&found[0], "#!/bin/sh\necho no >&2; exit 2\n");
        assert_eq!(
            (notes[0].code, notes[0].hook, notes[0].level),
            ("cline-no-cancel", Some((0, 0)), NoteLevel::Warning)
        );
        assert!(notes[0].message.contains("`exit 2`"), "{}", notes[0].message);
        assert!(ClineHookConfig.notes(&found[0], "echo '{\"cancel\": true}'").is_empty());
        let snippet = ClineHookConfig.sealed_snippet("/p/PreToolUse", "/b/failopen seal -- /bin/sh -c '/p/PreToolUse'");
        assert!(snippet.ends_with("exec /b/failopen seal -- /bin/sh -c '/p/PreToolUse.guard'"), "{snippet}");
    }
}
