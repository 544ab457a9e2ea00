//! The report as SARIF 2.1.0 (`failopen audit --format sarif`), the format
//! GitHub code scanning and most security CI read: one result per proven
//! hole and one per static finding (at its level), each at the line of the
//! hook entry in its settings file. The rules are the kinds of hole and the
//! findings' codes. Checked against the SARIF 2.1.0 schema by
//! `runner/tests/integration/audit_sarif.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::audit::checks::Checks;
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::intake::file_read::{read_text, MAX_CONFIG_BYTES};
use crate::audit::model::Severity;
use crate::audit::probe::faults::fault_words;
use crate::audit::probe::holes::{Hole, HoleKind};
use crate::audit::report::AuditReport;

/// Where the repository's documentation of audit's results is.
const HELP_URI: &str = "https://github.com/failopen/failopen/blob/main/docs/audit.md";

/// The SARIF log (pretty, trailing newline). Paths under `cwd` are written
/// relative to it (`%SRCROOT%`, the checkout code scanning resolves them
/// against), others as `file://` URIs.
pub fn sarif(r: &AuditReport, exit_code: i32, cwd: &Path) -> String {
    let mut rules = Rules::default();
    let mut results = Vec::new();
    let mut lines = LineFinder::default();
    for a in &r.agents {
        let by_id: HashMap<&str, &HookEntry> = a.hooks.iter().map(|h| (h.entry.id.as_str(), &h.entry)).collect();
        section_results(a.agent, &by_id, &a.checks, a.files.first(), &mut rules, &mut lines, cwd, &mut results);
    }
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "failopen",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/failopen/failopen",
                "rules": rules.list,
            }},
            "originalUriBaseIds": { "%SRCROOT%": { "uri": dir_uri(cwd) } },
            "invocations": [{ "executionSuccessful": true, "exitCode": exit_code }],
            "results": results,
        }],
    });
    format!("{}\n", serde_json::to_string_pretty(&log).unwrap_or_default())
}

/// One agent's holes and findings as results.
#[allow(clippy::too_many_arguments)]
fn section_results(
    agent: &str,
    by_id: &HashMap<&str, &HookEntry>,
    checks: &Checks,
    first_file: Option<&PathBuf>,
    rules: &mut Rules,
    lines: &mut LineFinder,
    cwd: &Path,
    out: &mut Vec<Value>,
) {
    for h in &checks.holes {
        let (id, name, text) = hole_rule(h.kind);
        let index = rules.index(id, name, text, "error");
        let entry = by_id.get(h.hook.as_str()).copied();
        let fix: Vec<&str> = checks.advice.iter().filter(|a| a.hook == h.hook).map(|a| a.change.as_str()).collect();
        let message = format!(
            "{} ({}): {}{}",
            h.hook,
            entry.map(HookEntry::location).unwrap_or_default(),
            hole_words(h),
            if fix.is_empty() { String::new() } else { format!(" Fix: {}", fix.join(" ")) }
        );
        let props = json!({ "agent": agent, "hook": h.hook, "tool": h.tool, "fault": h.fault.as_str() });
        out.push(result(id, index, "error", message, entry, first_file, lines, cwd, props));
    }
    for f in &checks.findings {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "note",
        };
        let id = format!("finding/{}", f.code);
        // The rule reads as the first finding of its code says it.
        let index = rules.index(&id, &f.code, &f.message, level);
        let entry = f.hook.as_deref().and_then(|h| by_id.get(h).copied());
        let message = match (&f.hook, entry) {
            (Some(h), Some(e)) => format!("{h} ({}): {}", e.location(), f.message),
            (Some(h), None) => format!("{h}: {}", f.message),
            (None, _) => f.message.clone(),
        };
        let props = json!({ "agent": agent, "hook": f.hook, "severity": f.severity.as_str() });
        out.push(result(&id, index, level, message, entry, first_file, lines, cwd, props));
    }
}

/// One result at the entry's line in its file (else line 1 of the section's first file).
#[allow(clippy::too_many_arguments)]
fn result(
    rule: &str,
    index: usize,
    level: &str,
    message: String,
    entry: Option<&HookEntry>,
    first_file: Option<&PathBuf>,
    lines: &mut LineFinder,
    cwd: &Path,
    properties: Value,
) -> Value {
    let mut v = json!({
        "ruleId": rule,
        "ruleIndex": index,
        "level": level,
        "message": { "text": message },
        "properties": properties,
    });
    let place = match entry {
        Some(e) => Some((e.file.as_path(), lines.line_of(e))),
        None => first_file.map(|f| (f.as_path(), 1)),
    };
    if let Some((file, line)) = place {
        v["locations"] = json!([{ "physicalLocation": {
            "artifactLocation": artifact(file, cwd),
            "region": { "startLine": line },
        }}]);
    }
    v
}

/// The rule of a kind of hole: id, name, short description.
fn hole_rule(kind: HoleKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        HoleKind::FailsOpen => {
            ("hole/fails-open", "FailsOpen", "A guard that refuses this write let it land when it broke")
        }
        HoleKind::BrokenAsConfigured => {
            ("hole/broken-as-configured", "BrokenAsConfigured", "The guard errors as configured, and writes land")
        }
        HoleKind::UncoveredTool => {
            ("hole/uncovered-tool", "UncoveredTool", "A write tool no hook's matcher covers lands writes")
        }
        HoleKind::NeverRan => {
            ("hole/never-ran", "NeverRan", "The agent ran a call the guard refuses without running the guard")
        }
    }
}

/// One hole in words.
fn hole_words(h: &Hole) -> String {
    // A read probe's call changes no file: its secret reached the model.
    let went = if crate::audit::probe::probes::is_read(&h.tool) {
        format!("a read through {} showed its secret to the model", h.tool)
    } else {
        format!("a write through {} landed", h.tool)
    };
    match h.kind {
        HoleKind::FailsOpen => format!("fails open: {went} under the fault {}.", fault_words(h.fault)),
        HoleKind::BrokenAsConfigured => format!("broken as configured: the guard errors, and {went}."),
        HoleKind::UncoveredTool => {
            format!("uncovered: the matcher lets {} through, and no other hook covers it.", h.tool)
        }
        HoleKind::NeverRan => {
            format!("never ran: the guard refuses {} on its own, and the agent ran it without the hook.", h.tool)
        }
    }
}

/// The rules referenced so far, in order, each once.
#[derive(Default)]
struct Rules {
    list: Vec<Value>,
    ids: Vec<String>,
}

impl Rules {
    /// The index of rule `id`, added with its description and default level if new.
    fn index(&mut self, id: &str, name: &str, text: &str, level: &str) -> usize {
        if let Some(i) = self.ids.iter().position(|r| r == id) {
            return i;
        }
        self.ids.push(id.to_string());
        self.list.push(json!({
            "id": id,
            "name": name,
            "shortDescription": { "text": text },
            "helpUri": HELP_URI,
            "defaultConfiguration": { "level": level },
        }));
        self.ids.len() - 1
    }
}

/// The line of a hook entry in its file, each file read once (bounded, as
/// every user file audit reads).
#[derive(Default)]
struct LineFinder {
    files: HashMap<PathBuf, Option<String>>,
}

impl LineFinder {
    /// The 1-based line where the entry's command (or URL, prompt, server)
    /// is written, else where its event's key is, else 1.
    fn line_of(&mut self, e: &HookEntry) -> usize {
        let text = self.files.entry(e.file.clone()).or_insert_with(|| read_text(&e.file, MAX_CONFIG_BYTES).ok());
        let Some(text) = text.as_deref() else { return 1 };
        line_in(text, e)
    }
}

/// [`LineFinder::line_of`] on a file's text: the needle as JSON writes it
/// (quoted, escaped), then as written raw (TOML, a script's path), then the
/// event's keys, else line 1.
fn line_in(text: &str, e: &HookEntry) -> usize {
    let what = match &e.kind {
        HookKind::Command { command } => command.as_str(),
        HookKind::Http { url } => url.as_str(),
        HookKind::Model { prompt, .. } => prompt.as_str(),
        HookKind::McpTool { server, .. } => server.as_str(),
        HookKind::Other { kind } => kind.as_str(),
    };
    let quoted = serde_json::to_string(what).unwrap_or_default();
    let needles = [quoted.as_str(), what, "PreToolUse", "BeforeTool"];
    needles
        .iter()
        .filter(|n| !n.is_empty() && **n != "\"\"")
        .find_map(|n| text.find(n))
        .map_or(1, |at| text[..at].matches('\n').count() + 1)
}

/// A file's SARIF artifact location: relative to `%SRCROOT%` under `cwd`, else a `file://` URI.
fn artifact(file: &Path, cwd: &Path) -> Value {
    let absolute = if file.is_absolute() { file.to_path_buf() } else { cwd.join(file) };
    match absolute.strip_prefix(cwd) {
        Ok(rel) => json!({ "uri": uri_path(rel), "uriBaseId": "%SRCROOT%" }),
        Err(_) => json!({ "uri": format!("file://{}", uri_path(&absolute)) }),
    }
}

/// The directory `%SRCROOT%` stands for, as a `file://` URI ending in `/`.
fn dir_uri(dir: &Path) -> String {
    let path = uri_path(dir);
    if path.ends_with('/') {
        format!("file://{path}")
    } else {
        format!("file://{path}/")
    }
}

/// A path's `/`-separated components, each percent-encoded where a URI needs it.
fn uri_path(p: &Path) -> String {
    let mut s = String::new();
    for b in p.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => s.push(b as char),
            _ => s.push_str(&format!("%{b:02X}")),
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(command: &str) -> HookEntry {
        HookEntry {
            plugin: None,
            id: "H1".into(),
            file: PathBuf::from(".claude/settings.json"),
            group: 0,
            index: 0,
            matcher: Some("Write".into()),
            kind: HookKind::Command { command: command.into() },
            timeout: None,
            on_failure: None,
            raw: Value::Null,
            project_dir: PathBuf::new(),
            managed: false,
        }
    }

    #[test]
    fn an_entry_is_found_at_the_line_of_its_command_as_json_writes_it() {
        let text = "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\"hooks\": [{\"type\": \"command\",\n        \"command\": \"node \\\"$DIR/g.js\\\"\"}]}\n    ]\n  }\n}\n";
        assert_eq!(line_in(text, &entry("node \"$DIR/g.js\"")), 5);
        assert_eq!(line_in(text, &entry("elsewhere")), 3, "its event's key when the command is not found");
        assert_eq!(line_in("", &entry("x")), 1);
    }

    #[test]
    fn paths_under_the_checkout_are_relative_and_others_file_uris() {
        let cwd = Path::new("/work/repo");
        assert_eq!(
            artifact(Path::new(".claude/settings.json"), cwd),
            json!({"uri": ".claude/settings.json", "uriBaseId": "%SRCROOT%"})
        );
        assert_eq!(
            artifact(Path::new("/home/u/my settings.json"), cwd),
            json!({"uri": "file:///home/u/my%20settings.json"})
        );
        assert_eq!(dir_uri(cwd), "file:///work/repo/");
    }
}
