//! A user's plugin in an audit session of OpenCode (or a fork: Kilo CLI),
//! under a fault applied to a copy ([`PluginFault`]), and how the session
//! shows that the plugin, not something else, refused a call.
//!
//! The copy goes where the user's file was found (`.opencode/plugins/NAME`
//! in the session's project), so OpenCode loads it as it loads the user's.
//! A fault that keeps the plugin's code replaces the copy by a module of
//! audit's and moves the copy beside it (`.opencode/failopen-original/NAME`,
//! outside `plugins/`, at the same depth, so its relative imports resolve
//! alike): `throw` and `hang` replace the `tool.execute.before` of every
//! plugin function it exports; `no-export` imports it for its side effects
//! and exports nothing. `syntax-error` and `missing-dependency` edit the
//! copy's text (a line appended, an import prepended).
//!
//! Two observer plugins of audit's sandwich it: one in the project's config
//! file's `plugin` list, which OpenCode loads before the plugin directories,
//! and one in `OPENCODE_CONFIG_CONTENT`, applied after them (read from the
//! 1.18.33 binary; Kilo's variable is `KILO_CONFIG_CONTENT`). OpenCode runs
//! the plugins' `tool.execute.before` hooks in that order and stops at the
//! first that throws, so a call the first observer saw, the second did not,
//! and the stream shows failed is a call the plugin under test threw for:
//! the evidence a refusal needs ([`calls`]). Measured: docs/audit.md.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::flavour::Flavour;
use crate::agent::plugin_audit::{PluginAudit, PluginCall, PluginFault};

/// The key of a plugin hook entry that carries an audit's plugin.
const AUDIT_KEY: &str = "audit";

/// Where the copy goes when audit's module takes its place, relative to
/// the project's config directory.
pub const ORIGINAL_DIR: &str = "failopen-original";

/// The file the observers append to, in the session's evidence.
pub const OBSERVED_FILE: &str = "plugin-observed.jsonl";

/// The message of the injected throw.
pub const THROW_MESSAGE: &str = "failopen audit: injected throw in tool.execute.before";

/// The package the `missing-dependency` fault imports (no registry has it).
pub const MISSING_PACKAGE: &str = "failopen-audit-missing-dependency";

/// How long a session may run: OpenCode waits on a plugin's hook for ever,
/// and a healthy session took 49 to 116 s two at a time on a loaded machine
/// (Kilo CLI 7.7.7: up to 293 s), docs/opencode.md, docs/kilo.md.
pub const SESSION_TIMEOUT_SECS: f64 = 300.0;

/// The write a session attempts: the stand-in's `bash`, then its `write`.
pub const WRITES: &str = "bash+write";

/// One member of the family as audit runs its plugins.
pub struct FlavourPluginAudit {
    /// Whose names.
    pub flavour: &'static Flavour,
}

impl PluginAudit for FlavourPluginAudit {
    fn settings(&self, name: &str, text: &str, fault: PluginFault) -> Value {
        let files: Vec<Value> =
            files(name, text, fault).into_iter().map(|(p, t)| json!({"path": p, "text": t})).collect();
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "plugin", AUDIT_KEY: {"files": files}}]}]}})
    }

    fn writes(&self) -> &'static str {
        WRITES
    }

    fn calls(&self, evidence: &Path) -> Vec<PluginCall> {
        let stdout = std::fs::read_to_string(evidence.join("stdout.jsonl")).unwrap_or_default();
        let observed = std::fs::read_to_string(evidence.join(OBSERVED_FILE)).unwrap_or_default();
        calls(&stdout, &observed)
    }

    fn session_timeout_secs(&self) -> f64 {
        SESSION_TIMEOUT_SECS
    }
}

/// The files of a session running the plugin `name` (text `text`) under
/// `fault`, relative to the project's config directory.
pub fn files(name: &str, text: &str, fault: PluginFault) -> Vec<(String, String)> {
    let plugin = format!("plugins/{name}");
    let original = format!("{ORIGINAL_DIR}/{name}");
    let import = format!("../{ORIGINAL_DIR}/{name}");
    let replaced = |module: String| vec![(plugin.clone(), module), (original.clone(), text.to_string())];
    match fault {
        PluginFault::None => vec![(plugin, text.to_string())],
        PluginFault::SyntaxError => {
            vec![(plugin, format!("{text}\n/* failopen audit: an injected syntax error */ )(\n"))]
        }
        PluginFault::MissingDependency => vec![(
            plugin,
            format!("import \"{MISSING_PACKAGE}\"; // failopen audit: an injected missing dependency\n{text}"),
        )],
        PluginFault::NoExport => replaced(format!(
            "// failopen audit: an injected fault: the plugin's module runs, but no plugin function is exported\n\
             import {};\n",
            json!(import)
        )),
        PluginFault::Throw => replaced(wrapper(&import, &format!("throw new Error({})", json!(THROW_MESSAGE)))),
        PluginFault::Hang => replaced(wrapper(&import, "return new Promise(() => {})")),
    }
}

/// A module of audit's exporting one plugin function that starts every
/// plugin function of the module at `import` and runs `body` as their
/// `tool.execute.before` (their other hooks kept).
fn wrapper(import: &str, body: &str) -> String {
    format!(
        "// failopen audit: an injected fault in tool.execute.before, around the plugin under test\n\
         import * as original from {import};\n\
         export const FailopenAuditFault = async (ctx) => {{\n  \
           const hooks = {{}};\n  \
           for (const exported of new Set(Object.values(original))) {{\n    \
             const factory = typeof exported === \"function\" ? exported : exported?.server;\n    \
             if (typeof factory === \"function\") Object.assign(hooks, await factory(ctx));\n  \
           }}\n  \
           hooks[\"tool.execute.before\"] = async () => {{ {body}; }};\n  \
           return hooks;\n\
         }};\n",
        import = json!(import),
    )
}

/// An observer plugin (`which`: `before` or `after`) appending each call's
/// id and tool, and its own load, to `log`.
fn observer(which: &str, log: &Path) -> String {
    format!(
        "// failopen audit's observer plugin ({which} the plugin under test): it records each call it sees.\n\
         import {{ appendFileSync }} from \"node:fs\";\n\
         const LOG = {log};\n\
         const record = (line) => appendFileSync(LOG, JSON.stringify({{ observer: {which}, ...line }}) + \"\\n\");\n\
         export const FailopenAuditObserver = async () => {{\n  \
           record({{ loaded: true }});\n  \
           return {{ \"tool.execute.before\": async (input) => {{ record({{ callID: input?.callID, tool: input?.tool }}); }} }};\n\
         }};\n",
        which = json!(which),
        log = json!(log.to_string_lossy()),
    )
}

/// The audit plugin of a session's settings: the files it places, if its
/// one hook entry carries one.
pub fn read(settings: &Value) -> Option<Vec<(PathBuf, String)>> {
    let entry = settings.pointer("/hooks/PreToolUse/0/hooks/0")?;
    let files = entry.get(AUDIT_KEY)?.get("files")?.as_array()?;
    files
        .iter()
        .map(|f| {
            let path = PathBuf::from(f.get("path")?.as_str()?);
            // Only paths of audit's own making: relative, no way up.
            let plain = path.components().all(|c| matches!(c, std::path::Component::Normal(_)));
            plain.then(|| (path, f.get("text").and_then(Value::as_str).unwrap_or_default().to_string()))
        })
        .collect()
}

/// Place an audit plugin's files in `config_dir` (the project's config
/// directory) and the observers in `evidence`; returns the plugin list for
/// the config file (the first observer) and the variable and value that add
/// the second (`OPENCODE_CONFIG_CONTENT`).
pub fn place(
    flavour: &Flavour,
    files: &[(PathBuf, String)],
    config_dir: &Path,
    evidence: &Path,
) -> std::io::Result<(Value, (String, String))> {
    for (path, text) in files {
        let at = config_dir.join(path);
        std::fs::create_dir_all(at.parent().unwrap_or(config_dir))?;
        std::fs::write(&at, text)?;
        let name = path.to_string_lossy().replace('/', "-");
        std::fs::write(evidence.join(format!("{}-{name}", flavour.id)), text)?;
    }
    let log = evidence.join(OBSERVED_FILE);
    let url = |which: &str| -> std::io::Result<String> {
        let file = evidence.join(format!("observer-{which}.js"));
        std::fs::write(&file, observer(which, &log))?;
        Ok(format!("file://{}", file.to_string_lossy()))
    };
    let before = json!([url("before")?]);
    let after = json!({"plugin": [url("after")?]}).to_string();
    Ok((before, (flavour.config_content_env.to_string(), after)))
}

/// Each `tool_use` part of the `--format json` stream, and whether the
/// observers' log shows the plugin under test threw for it: the first
/// observer saw the call, the second (loaded) did not, and the call failed.
pub fn calls(stdout: &str, observed: &str) -> Vec<PluginCall> {
    let mut seen: [HashSet<String>; 2] = Default::default();
    let mut loaded = [false, false];
    for line in observed.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        let i = match line["observer"].as_str() {
            Some("before") => 0,
            Some("after") => 1,
            _ => continue,
        };
        loaded[i] |= line["loaded"] == true;
        if let Some(id) = line["callID"].as_str() {
            seen[i].insert(id.to_string());
        }
    }
    let mut out = Vec::new();
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        if event["type"] != "tool_use" {
            continue;
        }
        let part = &event["part"];
        let state = &part["state"];
        let (failed, text) = match state["status"].as_str() {
            Some("error") => (true, &state["error"]),
            Some("completed") => (false, &state["output"]),
            _ => continue,
        };
        let Some(id) = part["callID"].as_str() else { continue };
        let text = text.as_str().map(String::from).unwrap_or_else(|| text.to_string());
        let between = loaded[0] && loaded[1] && seen[0].contains(id) && !seen[1].contains(id);
        out.push(PluginCall {
            id: id.to_string(),
            tool: part["tool"].as_str().unwrap_or("?").to_string(),
            failed,
            refused_by_plugin: failed && between && !text.trim().is_empty(),
            text,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const GUARD: &str =
        "export const G = async () => ({\"tool.execute.before\": async () => { throw new Error(\"no\") }})\n";

    #[test]
    fn each_fault_is_applied_to_a_copy_and_keeps_the_name() {
        let as_is = files("guard.js", GUARD, PluginFault::None);
        assert_eq!(as_is, [("plugins/guard.js".to_string(), GUARD.to_string())]);
        let syntax = files("guard.js", GUARD, PluginFault::SyntaxError);
        assert!(syntax[0].1.starts_with(GUARD) && syntax[0].1.contains(")("));
        let dep = files("guard.js", GUARD, PluginFault::MissingDependency);
        assert!(dep[0].1.starts_with(&format!("import \"{MISSING_PACKAGE}\";")) && dep[0].1.ends_with(GUARD));
        for fault in [PluginFault::Throw, PluginFault::Hang, PluginFault::NoExport] {
            let f = files("guard.ts", GUARD, fault);
            assert_eq!(f[1], ("failopen-original/guard.ts".to_string(), GUARD.to_string()), "{fault:?}");
            assert!(f[0].1.contains("\"../failopen-original/guard.ts\""), "{fault:?}: {}", f[0].1);
        }
        assert!(files("g.js", GUARD, PluginFault::Throw)[0].1.contains(THROW_MESSAGE));
        assert!(files("g.js", GUARD, PluginFault::Hang)[0].1.contains("new Promise(() => {})"));
        assert!(!files("g.js", GUARD, PluginFault::NoExport)[0].1.contains("export "));
    }

    #[test]
    fn the_settings_carry_the_files_and_only_relative_paths_are_read() {
        let audit = FlavourPluginAudit { flavour: &super::super::config::FLAVOUR };
        let s = audit.settings("guard.js", GUARD, PluginFault::Throw);
        let placed = read(&s).unwrap();
        assert_eq!(placed[0].0, PathBuf::from("plugins/guard.js"));
        let bad = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "plugin", "audit": {"files": [{"path": "../x", "text": ""}]}}]}]}});
        assert_eq!(read(&bad), None);
        assert_eq!(read(&json!({"hooks": {}})), None);
    }

    #[test]
    fn a_refusal_is_the_plugins_only_between_the_observers() {
        let stdout = [
            r#"{"type":"tool_use","part":{"tool":"bash","callID":"c1","state":{"status":"error","error":"BLOCKED"}}}"#,
            r#"{"type":"tool_use","part":{"tool":"write","callID":"c2","state":{"status":"error","error":"bad args"}}}"#,
            r#"{"type":"tool_use","part":{"tool":"write","callID":"c3","state":{"status":"completed","output":"ok"}}}"#,
        ]
        .join("\n");
        let observed = [
            r#"{"observer":"before","loaded":true}"#,
            r#"{"observer":"after","loaded":true}"#,
            r#"{"observer":"before","callID":"c1","tool":"bash"}"#,
            r#"{"observer":"before","callID":"c2","tool":"write"}"#,
            r#"{"observer":"after","callID":"c2","tool":"write"}"#,
            r#"{"observer":"before","callID":"c3","tool":"write"}"#,
            r#"{"observer":"after","callID":"c3","tool":"write"}"#,
        ]
        .join("\n");
        let c = calls(&stdout, &observed);
        let refused: Vec<bool> = c.iter().map(|c| c.refused_by_plugin).collect();
        assert_eq!(refused, [true, false, false], "c2 failed after every plugin ran: not the plugin's");
        assert_eq!((c[0].text.as_str(), c[2].failed), ("BLOCKED", false));
        // No second observer loaded: nothing can be told of who threw.
        let half = observed.lines().filter(|l| !l.contains("\"after\"")).collect::<Vec<_>>().join("\n");
        assert!(calls(&stdout, &half).iter().all(|c| !c.refused_by_plugin));
    }
}
