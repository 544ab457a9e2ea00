//! Probes: tool calls a healthy guard refuses. A guard is exercised with a
//! probe it refuses, and the faults are injected under that probe; a guard
//! that refuses none of them is untested, never held.
//!
//! - [`catalogue`]: what guards commonly refuse, each harmless by
//!   construction inside a throwaway root ([`world`]) and judged by what it
//!   changed there;
//! - the user's own, from `--probe JSON` or the project's
//!   `.failopen/probes.json` ([`parse`]);
//! - [`screen`]: each probe against the guard directly, through its stdin
//!   contract, with no session, to learn which it refuses.

pub mod agent_hooks;
pub mod catalogue;
pub mod census;
pub mod dependencies;
pub mod dynamic;
pub mod faults;
pub mod holes;
pub mod hook_start;
pub mod judge;
pub mod launcher;
pub mod not_covered;
pub mod plan;
pub mod plugin_faults;
pub mod probes;
pub mod recheck;
pub mod screen;
pub mod stage;
pub mod state;
pub mod world;

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

/// Where a probe came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ProbeSource {
    /// failopen's built-in catalogue.
    Catalogue,
    /// `--probe` or the project's probes file.
    User,
}

/// How a probe's landing shows in its throwaway root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", content = "path", rename_all = "kebab-case")]
pub enum Landed {
    /// This path (relative to the root) is gone.
    Deleted(String),
    /// This path (relative to the root) exists.
    Exists(String),
    /// The repository's uncommitted change was thrown away.
    Reverted,
    /// The bare remote's branch was overwritten by a force push.
    ForcePushed,
    /// The decoy secret came back to the model in the tool's result.
    SecretShown,
    /// Anything in the world changed (a user's probe).
    AnyChange,
}

/// One probe: a tool call (tool and input) and how it shows when it lands.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Probe {
    /// Short kebab-case name, e.g. `git-reset-hard`.
    pub name: String,
    /// The tool, as the hook sees it (`Bash`, `Write`, `Read`, ...).
    pub tool: String,
    /// The tool's input; `{work}`, `{home}` and `{root}` in its strings are
    /// the throwaway root's directories ([`Probe::input_in`]).
    pub input: Value,
    /// Catalogue or user.
    pub source: ProbeSource,
    /// How its landing shows.
    pub landed: Landed,
}

impl Probe {
    /// The probe's input with the placeholders filled in for `root`.
    pub fn input_in(&self, root: &Path) -> Value {
        crate::standin::probe_call::fill(&self.input, &root.join("work").to_string_lossy())
    }

    /// The label of its cells in the report: `Bash:git-reset-hard`.
    pub fn label(&self) -> String {
        format!("{}:{}", self.tool, self.name)
    }
}

/// Whether a cell's `tool` is a probe's [`Probe::label`] (`Bash:git-reset-hard`)
/// rather than a plain write's tool or route.
pub fn is_probe_label(tool: &str) -> bool {
    tool.contains(':')
}

/// The tools a probe may call: those the stand-in can emit with any input.
pub const PROBE_TOOLS: [&str; 5] = crate::standin::probe_call::TOOLS;

/// A user's probe from its JSON: `{"tool": "Bash", "command": "git reset --hard"}`
/// or `{"tool": "Write", "file_path": ".env"}`; every key but `tool` (and an
/// optional `name`) is the tool's input. A relative `file_path` or `path`
/// is taken inside the project (`{work}`); a Write without `content` gets one.
/// `what` names the source in errors.
pub fn parse(json: &str, what: &str) -> anyhow::Result<Vec<Probe>> {
    let v: Value = serde_json::from_str(json).map_err(|e| anyhow::anyhow!("{what}: not JSON: {e}"))?;
    let items = match v {
        Value::Array(a) => a,
        Value::Object(o) => vec![Value::Object(o)],
        _ => anyhow::bail!("{what}: a probe is an object such as {{\"tool\": \"Bash\", \"command\": \"git reset --hard\"}}, or an array of them"),
    };
    items.iter().enumerate().map(|(i, p)| one(p, &format!("{what}[{i}]"))).collect()
}

fn one(v: &Value, what: &str) -> anyhow::Result<Probe> {
    let Some(o) = v.as_object() else { anyhow::bail!("{what}: a probe is an object, got {v}") };
    let tool = o.get("tool").and_then(Value::as_str).ok_or_else(|| {
        anyhow::anyhow!("{what}: field `tool` is missing or not a string (valid: {})", PROBE_TOOLS.join(", "))
    })?;
    if !PROBE_TOOLS.contains(&tool) {
        anyhow::bail!(
            "{what}: field `tool`: {tool:?} is not a tool a probe can call (valid: {})",
            PROBE_TOOLS.join(", ")
        );
    }
    let mut input: Map<String, Value> = o
        .iter()
        .filter(|(k, _)| k.as_str() != "tool" && k.as_str() != "name")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let required = match tool {
        "Bash" => "command",
        "WebFetch" => "url",
        _ => "file_path",
    };
    if !input.get(required).is_some_and(Value::is_string) {
        anyhow::bail!("{what}: a {tool} probe needs `{required}` (a string)");
    }
    if let Some(Value::String(p)) = input.get_mut("file_path") {
        if !p.starts_with('/') && !p.starts_with('{') {
            *p = format!("{{work}}/{p}");
        }
    }
    if tool == "Write" && !input.contains_key("content") {
        input.insert("content".into(), Value::String("failopen probe\n".into()));
    }
    if tool == "Edit" && !(input.contains_key("old_string") && input.contains_key("new_string")) {
        anyhow::bail!("{what}: an Edit probe needs `old_string` and `new_string`");
    }
    if tool == "Bash" && !input.contains_key("description") {
        input.insert("description".into(), Value::String("failopen probe".into()));
    }
    let name = o
        .get("name")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| format!("user-{}", slug(&input, required)));
    let landed = if tool == "Read" { Landed::SecretShown } else { Landed::AnyChange };
    Ok(Probe { name, tool: tool.into(), input: Value::Object(input), source: ProbeSource::User, landed })
}

fn slug(input: &Map<String, Value>, key: &str) -> String {
    let text = input.get(key).and_then(Value::as_str).unwrap_or("");
    let s: String = text
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' })
        .collect::<String>()
        .split('-')
        .filter(|w| !w.is_empty() && *w != "work")
        .take(4)
        .collect::<Vec<_>>()
        .join("-");
    if s.is_empty() {
        "probe".into()
    } else {
        s
    }
}

/// The probes of a project's `.failopen/probes.json`, if it has one.
pub fn project_probes(project: &Path) -> anyhow::Result<Vec<Probe>> {
    let path = project.join(PROBES_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => parse(&text, &path.display().to_string()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(vec![]),
        Err(e) => Err(anyhow::anyhow!("{}: {e}", path.display())),
    }
}

/// A project's own probes file, relative to the project.
pub const PROBES_FILE: &str = ".failopen/probes.json";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_probe_is_its_tool_and_input() {
        let p = parse(r#"{"tool":"Bash","command":"git reset --hard"}"#, "--probe").unwrap();
        assert_eq!(p[0].tool, "Bash");
        assert_eq!(p[0].input["command"], "git reset --hard");
        assert_eq!(p[0].name, "user-git-reset-hard");
        let p = parse(r#"[{"tool":"Write","file_path":".env"}]"#, "f").unwrap();
        assert_eq!(p[0].input_in(Path::new("/r"))["file_path"], "/r/work/.env");
        assert_eq!(p[0].input["content"], "failopen probe\n");
    }

    #[test]
    fn bad_probes_name_the_field_and_the_choices() {
        let e = parse(r#"{"tool":"Rm","command":"x"}"#, "--probe").unwrap_err().to_string();
        assert!(e.contains("--probe[0]: field `tool`") && e.contains("Bash, Write"), "{e}");
        let e = parse(r#"{"tool":"Bash"}"#, "--probe").unwrap_err().to_string();
        assert!(e.contains("needs `command`"), "{e}");
        assert!(parse("nope", "--probe").unwrap_err().to_string().starts_with("--probe: not JSON"));
    }
}
