//! How an agent's user hook config is found and read, for `failopen audit`:
//! the [`HookConfig`] a driver returns ([`super::AgentDriver::hook_config`]).
//!
//! Each agent's config is read into Claude Code's shape (`PreToolUse`
//! matcher groups, timeouts in seconds), so that audit's entries, faults,
//! judge and seal re-check apply as they are; a session of the agent turns
//! the entry back into its own format.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// Why a hook config could not be read (audit adds the file's path).
#[derive(Debug, Clone, PartialEq)]
pub enum HookConfigError {
    /// The text is not valid JSON or TOML.
    Parse { line: usize, column: usize, message: String },
    /// It parses, but a field has the wrong type.
    Shape(String),
}

/// What audit needs to know of an agent's hook config files.
pub trait HookConfig: Sync {
    /// Whether `path` is one of this agent's hook configs, by its name.
    fn owns_path(&self, path: &Path) -> bool;
    /// Its hook configs in the project `cwd` that exist and may hold hooks;
    /// `read` gives a file's text (bounded, regular files only).
    fn default_paths(&self, cwd: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf>;
    /// The Claude-shaped `PreToolUse` groups in the config `text` read from `path`.
    fn read_groups(&self, path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError>;
    /// The letter its hook ids start with in a report (`C1`, `G1`).
    fn id_prefix(&self) -> &'static str;
    /// Where an audit session puts the hook, in words for the report.
    fn session_layer(&self) -> &'static str;
    /// The command-line flag that names the version an audit runs (`--codex`).
    fn version_flag(&self) -> &'static str;
    /// The variables it replaces in a hook's command text with the project
    /// directory (Gemini CLI's `$GEMINI_PROJECT_DIR`); none by default.
    fn project_dir_vars(&self) -> &'static [&'static str] {
        &[]
    }
    /// Whether a `timeout` that is not a whole number of seconds breaks the
    /// whole file (Codex CLI's "expected u64").
    fn timeout_must_be_whole_seconds(&self) -> bool {
        false
    }
    /// Whether a hook's timeout can be set (Cline CLI's is fixed): when it
    /// cannot, a hook without one is no finding.
    fn timeout_is_settable(&self) -> bool {
        true
    }
    /// Where the hook `(group, index)` of `path` is, in words after the
    /// file's path; `None`: `<event>[group].hooks[index]`.
    fn entry_location(&self, _path: &Path, _group: usize, _index: usize) -> Option<String> {
        None
    }
    /// The write tools an audit's sessions write through, of the agent's
    /// ([`super::AgentDriver::write_tools`]); `None`: all of them.
    fn session_write_tools(&self) -> Option<&'static [&'static str]> {
        None
    }
    /// The hook types of its configs that it runs (a hook of another type
    /// is one it never runs: a finding): command hooks by default.
    fn hook_types(&self) -> &'static [&'static str] {
        &COMMAND_ONLY
    }
    /// The advice's snippet that puts `wrapped` (the hook's `command`
    /// wrapped by seal) in place of the hook: a `"command"` value by default.
    fn sealed_snippet(&self, _command: &str, wrapped: &str) -> String {
        format!("\"command\": {}", Value::String(wrapped.to_string()))
    }
    /// What the agent does with the config `text` read from `path` that its
    /// hooks as read do not show (a project file it loads only in a trusted
    /// folder, a timeout one release reads in other units): audit's lint
    /// reports each. None by default.
    fn notes(&self, _path: &Path, _text: &str) -> Vec<ConfigNote> {
        Vec::new()
    }
    /// The whole config `text` read from `path`, Claude-shaped: by default
    /// `{"hooks": {"PreToolUse": `[`HookConfig::read_groups`]`}}`; an agent
    /// whose file is a whole settings document audit checks the other keys
    /// of ([`AuditReach::settings_schema`]) keeps them.
    fn read_settings(&self, path: &Path, text: &str) -> Result<Value, HookConfigError> {
        Ok(json!({"hooks": {"PreToolUse": self.read_groups(path, text)?}}))
    }
    /// The directory the hooks of the config at `abs` (absolute) run in,
    /// the audit running from `cwd`: `cwd` by default.
    fn project_dir(&self, _abs: &Path, cwd: &Path, _home: Option<&Path>) -> PathBuf {
        cwd.to_path_buf()
    }
    /// Its user-level hook configs under `home` that exist (read besides the
    /// project's when no file is named); none by default.
    fn home_paths(&self, _home: &Path) -> Vec<PathBuf> {
        Vec::new()
    }
    /// Whether a file no other agent's config claims by its name is this
    /// agent's (Claude Code's settings, which any name may hold).
    fn owns_unclaimed_paths(&self) -> bool {
        false
    }
    /// What an audit reads and measures of this agent beyond its hook files
    /// ([`AuditReach`]): nothing more by default.
    fn reach(&self) -> AuditReach {
        AuditReach::default()
    }
}

/// What an audit reads and measures of an agent beyond its hook files, as
/// its driver says ([`HookConfig::reach`]). Audit asks these, never which
/// agent runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AuditReach {
    /// It reads the machine's managed settings in every session: they are
    /// read and listed, their hooks checked statically, and run beside the
    /// audited one.
    pub managed_settings: bool,
    /// It loads the hooks of plugins (`--plugin-dir`, those its settings
    /// enable) and of skills' frontmatter.
    pub plugins_and_skills: bool,
    /// Its hook files are whole settings documents audit knows: the mistakes
    /// that make it skip a file or ignore an entry, its other events' hooks
    /// that can refuse, and each hook's `onFailure` and version rules are
    /// checked.
    pub settings_schema: bool,
    /// It may honour an `"onFailure": "block"` key: measured in one session
    /// before lint.
    pub on_failure_key: bool,
    /// A session with copies of the user's own configuration reports the
    /// hooks it started (audit's census).
    pub census: bool,
    /// Audit's sessions write through every route of it (each write tool,
    /// a subagent, an MCP tool), the faults through two of them; otherwise
    /// through its few write tools, the faults through each.
    pub every_write_route: bool,
    /// A refusal in a shape it rejects as malformed is reported as such
    /// (`answer-rejected`); otherwise as one it does not read
    /// (`refusal-not-read`).
    pub rejects_malformed_answers: bool,
    /// `failopen seal --install` rewrites its hook files (each guard wrapped,
    /// `"onFailure": "block"` added): the advice names it.
    pub seal_install: bool,
}

/// The agent whose hook config `path` is: the first whose config claims it
/// by its name ([`HookConfig::owns_path`]), else the one that owns unclaimed
/// paths; `None`: no agent's.
pub fn owner_of(path: &Path) -> Option<super::Agent> {
    let configs = || super::Agent::ALL.iter().filter_map(|(_, a)| a.driver().hook_config().map(|c| (*a, c)));
    configs()
        .find(|(_, c)| !c.owns_unclaimed_paths() && c.owns_path(path))
        .or_else(|| configs().find(|(_, c)| c.owns_unclaimed_paths()))
        .map(|(a, _)| a)
}

/// The project of a config at `abs` in a directory named `dir` (`.codex`):
/// the directory above it; else `cwd`.
pub fn above_dir(abs: &Path, dir: &str, cwd: &Path) -> PathBuf {
    match abs.parent() {
        Some(p) if p.file_name().is_some_and(|n| n == dir) => p.parent().unwrap_or(cwd).to_path_buf(),
        _ => cwd.to_path_buf(),
    }
}

/// How much a [`ConfigNote`] matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoteLevel {
    /// Worth knowing: no guard is weaker for it here.
    Info,
    /// A likely hole: on some release, or in some folder, the guard does not hold.
    Warning,
}

/// One thing an agent does with a hook config that its hooks as read do
/// not show ([`HookConfig::notes`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigNote {
    /// The hook it is about, by `(group, index)` in the file's PreToolUse
    /// groups as read; `None`: the whole file.
    pub hook: Option<(usize, usize)>,
    /// How much it matters.
    pub level: NoteLevel,
    /// A stable kebab-case code.
    pub code: &'static str,
    /// What it means, in words.
    pub message: String,
}

/// The hook types Codex CLI and Gemini CLI run: command hooks only.
pub const COMMAND_ONLY: [&str; 1] = ["command"];

/// Whether `path` is a `settings.json` in a directory named `dir` (`.gemini`, `.qwen`).
pub fn is_settings_in(path: &Path, dir: &str) -> bool {
    let parent = path.parent().and_then(Path::file_name);
    parent.is_some_and(|p| p == dir) && path.file_name().is_some_and(|n| n == "settings.json")
}

/// `<cwd>/<dir>/settings.json`, if it is a file.
pub fn settings_file_in(cwd: &Path, dir: &str) -> Vec<PathBuf> {
    let settings = cwd.join(dir).join("settings.json");
    if settings.is_file() {
        vec![settings]
    } else {
        Vec::new()
    }
}

/// JSON `text`, parsed; an error gives its line and column.
pub fn parse_json(text: &str) -> Result<Value, HookConfigError> {
    serde_json::from_str(text).map_err(|e| HookConfigError::Parse {
        line: e.line(),
        column: e.column(),
        message: crate::json_error::message_without_position(&e),
    })
}

/// The groups of `event` in `value`, as Claude Code's `PreToolUse` groups:
/// each hook's `timeout` (in `unit`) divided by `per_second` into seconds,
/// the rest as written. A field of the wrong type is an error that names it
/// and says what it may be.
pub fn groups(value: &Value, event: &str, unit: &str, per_second: f64) -> Result<Vec<Value>, HookConfigError> {
    groups_checked(value, event, unit, per_second).map_err(HookConfigError::Shape)
}

fn groups_checked(value: &Value, event: &str, unit: &str, per_second: f64) -> Result<Vec<Value>, String> {
    let Some(top) = value.as_object() else { return Err("the top level is not an object".into()) };
    let Some(hooks) = top.get("hooks") else { return Ok(Vec::new()) };
    let Some(events) = hooks.as_object() else {
        return Err(format!("field hooks is {}: it must be an object of events ({event}: [...])", kind(hooks)));
    };
    let Some(groups) = events.get(event) else { return Ok(Vec::new()) };
    let Some(groups) = groups.as_array() else {
        return Err(format!("field hooks.{event} is {}: it must be an array of matcher groups", kind(groups)));
    };
    let mut out = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let at = format!("hooks.{event}[{g}]");
        let Some(obj) = group.as_object() else {
            return Err(format!("field {at} is {}: it must be an object {{matcher, hooks}}", kind(group)));
        };
        if let Some(m) = obj.get("matcher").filter(|m| !m.is_string()) {
            return Err(format!("field {at}.matcher is {}: it must be a string (a tool name or regex)", kind(m)));
        }
        let entries = match obj.get("hooks") {
            None => &Vec::new(),
            Some(Value::Array(a)) => a,
            Some(other) => return Err(format!("field {at}.hooks is {}: it must be an array of hooks", kind(other))),
        };
        let mut converted = Vec::new();
        for (i, h) in entries.iter().enumerate() {
            let at = format!("{at}.hooks[{i}]");
            let Some(mut hook) = h.as_object().cloned() else {
                return Err(format!("field {at} is {}: it must be an object {{type, command, timeout}}", kind(h)));
            };
            match hook.get("type") {
                Some(Value::String(_)) | None => {}
                Some(other) => {
                    return Err(format!(
                        "field {at}.type is {}: valid types are {}",
                        kind(other),
                        quoted(&COMMAND_ONLY)
                    ))
                }
            }
            if let Some(c) = hook.get("command").filter(|c| !c.is_string()) {
                return Err(format!("field {at}.command is {}: it must be a string (a shell command)", kind(c)));
            }
            match hook.get("timeout") {
                None => {}
                Some(t) => match t.as_f64() {
                    // Seconds stay as written: Codex reads an integer only (a `5.0` is its own finding).
                    Some(n) if per_second != 1.0 => {
                        hook.insert("timeout".into(), json!(n / per_second));
                    }
                    Some(_) => {}
                    None => return Err(format!("field {at}.timeout is {}: it must be a number of {unit}", kind(t))),
                },
            }
            converted.push(Value::Object(hook));
        }
        let mut group = json!({"hooks": converted});
        if let Some(m) = obj.get("matcher") {
            group["matcher"] = m.clone();
        }
        out.push(group);
    }
    Ok(out)
}

fn quoted(items: &[&str]) -> String {
    items.iter().map(|i| format!("{i:?}")).collect::<Vec<_>>().join(", ")
}

/// How a JSON value is named in an error (`the string "5"`, `an array`).
pub fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}
