//! Reading the settings files an audit looks at, and listing their
//! PreToolUse hook entries.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use crate::hook_type::HookType;

/// Why a settings file could not be audited.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read settings file {path}: {source}")]
    Read { path: String, source: std::io::Error },
    /// The file is not valid JSON.
    #[error("settings file {path}:{line}:{column}: not valid JSON: {message}")]
    Parse { path: String, line: usize, column: usize, message: String },
    /// The JSON is valid but not shaped like a settings file.
    #[error("settings file {path}: {message}")]
    Shape { path: String, message: String },
}

/// One settings file, parsed.
#[derive(Debug, Clone)]
pub struct SettingsFile {
    /// The path, as given.
    pub path: PathBuf,
    /// The directory Claude Code would use as `$CLAUDE_PROJECT_DIR` for it.
    pub project_dir: PathBuf,
    /// The JSON.
    pub value: Value,
    /// A machine-wide managed settings file (Claude Code reads it in every session).
    pub managed: bool,
    /// The plugin whose hooks file this is, as the agent starts its hooks.
    pub plugin: Option<PluginRun>,
}

/// Where a plugin's hooks run from, as Claude Code 2.1.328 starts them
/// (measured with a census hook: `runner/tests/fixtures/hook-start/`): its
/// `CLAUDE_PLUGIN_ROOT` is the directory it is loaded from (the source
/// directory for a `directory` marketplace, not the cache copy), and its
/// `CLAUDE_PLUGIN_DATA` is `~/.claude/plugins/data/<name>-<marketplace>`
/// (`<name>-inline` for `--plugin-dir`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PluginRun {
    /// `CLAUDE_PLUGIN_ROOT`.
    pub root: PathBuf,
    /// `CLAUDE_PLUGIN_DATA`, when HOME is known.
    pub data: Option<PathBuf>,
}

/// The kind of hook.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum HookKind {
    /// `"type": "command"`.
    Command {
        /// The shell command string.
        command: String,
    },
    /// `"type": "http"`.
    Http {
        /// The URL.
        url: String,
    },
    /// `"type": "prompt"` or `"type": "agent"`: a model decides.
    Model {
        /// [`HookType::Prompt`] or [`HookType::Agent`].
        model_kind: HookType,
        /// The hook's prompt.
        prompt: String,
    },
    /// `"type": "mcp_tool"`: a tool on an MCP server decides.
    McpTool {
        /// The MCP server's name.
        server: String,
        /// The tool.
        tool: String,
    },
    /// Anything else (a missing or unknown type...).
    Other {
        /// The type as written.
        kind: String,
    },
}

/// One PreToolUse hook entry (one element of a group's `hooks` array).
#[derive(Debug, Clone, Serialize)]
pub struct HookEntry {
    /// Short id in reports: `H1`, `H2`, ...
    pub id: String,
    /// The settings file.
    pub file: PathBuf,
    /// Index of the matcher group in `hooks.PreToolUse`.
    pub group: usize,
    /// Index of the hook in the group's `hooks`.
    pub index: usize,
    /// The group's matcher, as written.
    pub matcher: Option<String>,
    /// What the hook runs.
    pub kind: HookKind,
    /// `timeout` in seconds, if set.
    pub timeout: Option<f64>,
    /// `onFailure`, if set.
    pub on_failure: Option<String>,
    /// The hook object exactly as written.
    #[serde(skip)]
    pub raw: Value,
    /// `$CLAUDE_PROJECT_DIR` for this file.
    #[serde(skip)]
    pub project_dir: PathBuf,
    /// It comes from a managed settings file: it runs beside every audited
    /// hook in every session, and is checked statically only.
    pub managed: bool,
    /// The plugin it belongs to: its hook runs with `CLAUDE_PLUGIN_ROOT` and
    /// `CLAUDE_PLUGIN_DATA` set.
    #[serde(skip)]
    pub plugin: Option<PluginRun>,
}

impl HookEntry {
    /// Where the entry is, e.g. `.claude/settings.json PreToolUse[0].hooks[1]`.
    pub fn location(&self) -> String {
        format!("{} PreToolUse[{}].hooks[{}]", self.file.display(), self.group, self.index)
    }

    /// Whether `onFailure` is `block`.
    pub fn on_failure_block(&self) -> bool {
        self.on_failure.as_deref() == Some("block")
    }
}

/// Read and parse one settings file.
pub fn load(path: &Path, project_dir: PathBuf) -> Result<SettingsFile, ConfigError> {
    let shown = path.display().to_string();
    let text = super::file_read::read_text(path, super::file_read::MAX_CONFIG_BYTES)
        .map_err(|source| ConfigError::Read { path: shown.clone(), source })?;
    let value: Value = serde_json::from_str(&text).map_err(|e| ConfigError::Parse {
        path: shown.clone(),
        line: e.line(),
        column: e.column(),
        message: crate::json_error::message_without_position(&e),
    })?;
    if !value.is_object() {
        return Err(ConfigError::Shape { path: shown, message: "the top level is not a JSON object".into() });
    }
    if let Some(pre) = value.pointer("/hooks/PreToolUse") {
        if !pre.is_array() {
            return Err(ConfigError::Shape { path: shown, message: "hooks.PreToolUse is not an array".into() });
        }
    }
    Ok(SettingsFile { path: path.to_path_buf(), project_dir, value, managed: false, plugin: None })
}

/// The first hook entry of a settings value read as a user's `s.json` in
/// `project_dir`: the later stages' unit tests build their entries with it.
#[cfg(test)]
pub fn first_entry(project_dir: &Path, value: Value) -> HookEntry {
    let f =
        SettingsFile { path: "s.json".into(), project_dir: project_dir.into(), value, managed: false, plugin: None };
    entries(&[f]).remove(0)
}

/// The PreToolUse hook entries of several files, numbered `H1`, `H2`, ...
pub fn entries(files: &[SettingsFile]) -> Vec<HookEntry> {
    let mut out = Vec::new();
    for f in files {
        let groups = f.value.pointer("/hooks/PreToolUse").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        for (group, g) in groups.iter().enumerate() {
            let matcher = g.get("matcher").and_then(Value::as_str).map(str::to_string);
            let hooks = g.get("hooks").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
            for (index, h) in hooks.iter().enumerate() {
                let written = h.get("type").and_then(Value::as_str);
                let kind = match written.and_then(HookType::parse) {
                    Some(HookType::Command) => HookKind::Command { command: str_of(h, "command") },
                    Some(HookType::Http) => HookKind::Http { url: str_of(h, "url") },
                    Some(t @ (HookType::Prompt | HookType::Agent)) => {
                        HookKind::Model { model_kind: t, prompt: str_of(h, "prompt") }
                    }
                    Some(HookType::McpTool) => {
                        HookKind::McpTool { server: str_of(h, "server"), tool: str_of(h, "tool") }
                    }
                    // The SDK's callbacks and OpenCode's plugins are no type a settings file can hold.
                    Some(HookType::Callback | HookType::CanUseTool | HookType::Plugin) | None => {
                        HookKind::Other { kind: written.unwrap_or("(none)").to_string() }
                    }
                };
                out.push(HookEntry {
                    id: format!("H{}", out.len() + 1),
                    file: f.path.clone(),
                    group,
                    index,
                    matcher: matcher.clone(),
                    kind,
                    timeout: h.get("timeout").and_then(Value::as_f64),
                    on_failure: h.get("onFailure").and_then(Value::as_str).map(str::to_string),
                    raw: h.clone(),
                    project_dir: f.project_dir.clone(),
                    managed: f.managed,
                    plugin: f.plugin.clone(),
                });
            }
        }
    }
    out
}

fn str_of(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// What a hook runs, e.g. `command /path/guard.sh`.
pub fn kind_words(kind: &HookKind) -> String {
    match kind {
        HookKind::Command { command } => format!("command {command}"),
        HookKind::Http { url } => format!("http {url}"),
        HookKind::Model { model_kind, prompt } => format!("{model_kind} {prompt:?}"),
        HookKind::McpTool { server, tool } => format!("mcp_tool {server}/{tool}"),
        HookKind::Other { kind } => format!("type {kind}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_error_names_file_line_and_column() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("s.json");
        std::fs::write(&p, "{\n  \"hooks\": {,\n}").unwrap();
        let e = load(&p, d.path().into()).unwrap_err().to_string();
        assert!(e.contains("s.json:2:"), "{e}");
    }

    #[test]
    fn entries_are_numbered_across_groups() {
        let v = serde_json::json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "a", "timeout": 5}, {"type": "http", "url": "u"}]},
            {"hooks": [{"type": "agentic"}]}
        ]}});
        let f =
            SettingsFile { path: "s.json".into(), project_dir: "/p".into(), value: v, managed: false, plugin: None };
        let e = entries(&[f]);
        assert_eq!(e.len(), 3);
        assert_eq!(e[1].id, "H2");
        assert_eq!(e[1].kind, HookKind::Http { url: "u".into() });
        assert_eq!(e[0].timeout, Some(5.0));
        assert_eq!(e[2].matcher, None);
        assert_eq!(e[2].location(), "s.json PreToolUse[1].hooks[0]");
    }
}
