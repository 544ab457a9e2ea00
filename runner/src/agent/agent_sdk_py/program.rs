//! The Python program of one SDK session: `session.py` (failopen's driver,
//! the same for every arm) beside `sdk-session.json` (what this arm asks,
//! [`crate::agent::agent_sdk::session_config`]), both written into the
//! session's evidence directory; and what an install's package says of
//! itself (its version, and the Claude Code it bundles).

use std::path::{Path, PathBuf};

use crate::agent::agent_sdk::callback::CallbackAsk;
use crate::agent::agent_sdk::session_config;

/// The callback behaviours `session.py` knows: the TypeScript ones
/// (`undefined` is a hook that forgets its `return`, Python's nearest), plus
/// `def-deny`, a plain `def` returning a correct deny.
pub const BEHAVIOURS: &[&str] = &[
    "allow",
    "deny",
    "throw",
    "reject",
    "string",
    "number",
    "null",
    "undefined",
    "wrong-case",
    "misspelt-key",
    "hang",
    "late",
    "garbage",
    "def-deny",
];

/// failopen's driver program.
const SESSION_PY: &str = include_str!("session.py");

/// Write the program into `evidence` for the venv whose interpreter is
/// `python`, in work directory `cwd`; returns the path to run with it.
pub fn write(evidence: &Path, python: &Path, cwd: &Path, prompt: &str, ask: &CallbackAsk) -> std::io::Result<PathBuf> {
    let sealed = ("sealed_callback.py", crate::agent::agent_sdk::SEALED_CALLBACK_PY);
    session_config::write_program(evidence, python, cwd, prompt, ask, ("session.py", SESSION_PY), &[sealed])
}

/// The SDK's own version: `__version__` in its `_version.py`.
pub fn sdk_version(python: &Path) -> Option<String> {
    dunder(&package_dir(python)?.join("_version.py"), "__version__")
}

/// The Claude Code version the SDK bundles: `__cli_version__` in its `_cli_version.py`.
pub fn bundled_cli_version(python: &Path) -> Option<String> {
    dunder(&package_dir(python)?.join("_cli_version.py"), "__cli_version__")
}

/// `claude_agent_sdk/` in the venv of `python` (`<venv>/bin/python`):
/// `<venv>/lib/python3.X/site-packages/claude_agent_sdk`.
fn package_dir(python: &Path) -> Option<PathBuf> {
    let lib = python.parent()?.parent()?.join("lib");
    std::fs::read_dir(lib).ok()?.flatten().map(|e| e.path().join("site-packages/claude_agent_sdk")).find(|p| p.is_dir())
}

/// The string assigned to `name` in a module of lines like `name = "0.2.189"`.
fn dunder(file: &Path, name: &str) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    text.lines().find_map(|l| {
        let value = l.trim().strip_prefix(name)?.trim_start().strip_prefix('=')?.trim();
        Some(value.trim_matches(|c| c == '"' || c == '\'').to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_version_and_the_bundled_cli_beside_the_venvs_python() {
        let dir = tempfile::tempdir().unwrap();
        let pkg = dir.path().join("venv/lib/python3.11/site-packages/claude_agent_sdk");
        std::fs::create_dir_all(&pkg).unwrap();
        std::fs::write(pkg.join("_version.py"), "\"\"\"Version.\"\"\"\n\n__version__ = \"0.2.189\"\n").unwrap();
        std::fs::write(pkg.join("_cli_version.py"), "__cli_version__ = '2.1.332'\n").unwrap();
        let python = dir.path().join("venv/bin/python");
        assert_eq!(sdk_version(&python).as_deref(), Some("0.2.189"));
        assert_eq!(bundled_cli_version(&python).as_deref(), Some("2.1.332"));
        assert_eq!(sdk_version(&dir.path().join("elsewhere/bin/python")), None);
    }
}
