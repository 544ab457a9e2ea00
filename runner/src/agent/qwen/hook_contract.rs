//! Qwen Code's PreToolUse stdin contract ([`HookContract`]), as 0.24.4
//! reads a command hook (docs/qwen.md, and its hook runner's
//! `child.on("close")`, `convertPlainTextToHookOutput` and
//! `PreToolUseHookOutput`): the guard gets Claude Code's payload with Qwen's
//! (Gemini CLI's) tool names, a shell call being `run_shell_command` with the
//! command in `tool_input.command`.
//!
//! On exit 2 Qwen reads stderr, on any other ending stdout, or stderr when
//! stdout is blank, each trimmed as JavaScript trims. Nothing to read
//! decides nothing: the call runs (an exit 2 with its reason on stdout only
//! is no refusal). A JSON object is read as an answer on any ending (Claude
//! Code's JSON deny refuses on exit 1 too): `hookSpecificOutput.
//! permissionDecision` first, else the top-level `decision`; `deny`/`block`
//! and `ask` (no one to ask headless) refuse, and so does `continue: false`.
//! Text that is not an object refuses on exit 2 only; on other endings it is
//! a message or a non-blocking error, and the call runs. 0.15.6 took any
//! exit of 2 or more with text as a refusal: a screen reads the pinned
//! release's rule, and the sessions judge the release they run.

use std::path::Path;

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::gemini::hook_contract::GeminiContract;
use crate::agent::hook_contract::{first_line, HookContract};

/// Qwen Code's contract.
#[derive(Debug)]
pub struct QwenContract;

impl HookContract for QwenContract {
    /// Its hooks get these set to the session's directory (measured for
    /// Gemini CLI by `audit_hook_start`; the others by their docs).
    fn project_vars(&self) -> &'static [&'static str] {
        &super::hook_config::PROJECT_VARS
    }

    /// Its shell is Gemini CLI's.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        GeminiContract.probe_tool(tool)
    }

    /// Gemini CLI's payload under Claude Code's event, with the keys Qwen adds.
    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value {
        let mut payload = GeminiContract.payload(tool, input, cwd, transcript);
        payload["hook_event_name"] = json!(EVENT);
        payload["permission_mode"] = json!("yolo");
        payload["tool_use_id"] = json!("toolu_failopen_screen");
        payload
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        let blocking = code == Some(2);
        let (out, err) = (String::from_utf8_lossy(stdout), String::from_utf8_lossy(stderr));
        let (out, err) = (js_trim(&out), js_trim(&err));
        let text = if blocking || out.is_empty() { err } else { out };
        let ending = code.map_or_else(|| "killed by a signal".to_string(), |n| format!("exit {n}"));
        if text.is_empty() {
            return (false, format!("{ending} with nothing Qwen reads (allowed)"));
        }
        match parse(text) {
            Some(answer @ Value::Object(_)) => decide(&answer, &ending),
            _ if blocking => {
                let reason = first_line(text.as_bytes());
                (true, format!("exit 2: {reason}"))
            }
            _ => (false, format!("{ending}: {} (allowed)", first_line(text.as_bytes()))),
        }
    }
}

/// `text` without what JavaScript's `String.prototype.trim()` strips: the
/// Unicode spaces and line ends and U+FEFF, but not U+0085.
fn js_trim(text: &str) -> &str {
    text.trim_matches(|c: char| (c.is_whitespace() && c != '\u{85}') || c == '\u{feff}')
}

/// `JSON.parse` as Qwen's hook runner calls it: a JSON string is parsed
/// once more; `None` when either parse fails.
fn parse(text: &str) -> Option<Value> {
    match serde_json::from_str::<Value>(text).ok()? {
        Value::String(inner) => serde_json::from_str(&inner).ok(),
        v => Some(v),
    }
}

/// A JSON object's answer, as `firePreToolUseHook` reads it: a deny or an
/// ask (`hookSpecificOutput.permissionDecision` first, else `decision`)
/// refuses, and so does `continue: false`.
fn decide(answer: &Value, ending: &str) -> (bool, String) {
    let specific = answer
        .pointer("/hookSpecificOutput/permissionDecision")
        .and_then(Value::as_str)
        .filter(|d| ["allow", "deny", "ask"].contains(d));
    let decision = specific.or_else(|| match answer.get("decision").and_then(Value::as_str) {
        Some("allow" | "approve") => Some("allow"),
        Some("deny" | "block") => Some("deny"),
        Some("ask") => Some("ask"),
        _ => None,
    });
    let text = |v: Option<&Value>| v.and_then(Value::as_str).unwrap_or("").chars().take(120).collect::<String>();
    let reason = || {
        let specific = answer.pointer("/hookSpecificOutput/permissionDecisionReason").filter(|r| r.is_string());
        text(specific.or_else(|| answer.get("reason")))
    };
    match decision {
        Some("deny") => (true, format!("deny: {}", reason())),
        Some("ask") => (true, format!("ask, refused with no one to ask: {}", reason())),
        _ if answer.get("continue") == Some(&Value::Bool(false)) => {
            (true, format!("continue false: {}", text(answer.get("stopReason").or_else(|| answer.get("reason")))))
        }
        _ => (false, format!("{ending}: JSON with no refusal (allowed)")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwen_refuses_on_exit_2_with_text_or_a_json_deny_only() {
        let c = QwenContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert!(!c.read(Some(1), b"", b"boom").0, "a crash is a non-blocking error");
        assert!(!c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0, "0.24.4: only exit 2 refuses");
        let claude = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
        assert_eq!(c.read(Some(0), claude, b""), (true, "deny: json says no".into()));
        assert!(c.read(Some(0), br#"{"decision":"block","reason":"x"}"#, b"").0);
        assert!(!c.read(Some(0), br#"{"decision":"allow"}"#, b"").0);
        assert!(!c.read(Some(0), b"garbage", b"").0);
        assert!(!c.read(Some(0), b"{\"hookSpecificOutput\":{\"permissionDecision\":\"deny\",", b"").0, "broken JSON");
        assert!(!c.read(None, b"", b"").0);
        assert_eq!((c.probe_tool("Bash"), c.probe_tool("Write")), (Some("run_shell_command"), None));
        let p = c.payload("run_shell_command", &json!({"command": "ls"}), Path::new("/w"), Path::new("/t"));
        assert_eq!((p["hook_event_name"].as_str(), p["tool_input"]["command"].as_str()), (Some(EVENT), Some("ls")));
    }

    /// Measured on 0.24.4 (results/qwen-grids-0.24.4.csv): stdout-deny/bare
    /// (exit 2, its reason on stdout only) wrote; json-deny-exit1/bare (the
    /// JSON deny on exit 1) and json-ask/bare were refused; json-deny/plain
    /// (the JSON deny moved to stderr on exit 0) was refused.
    #[test]
    fn qwen_reads_what_its_hook_runner_reads_on_each_ending() {
        let c = QwenContract;
        let deny = br#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
        assert!(!c.read(Some(2), b"refused\n", b"").0, "exit 2 reads stderr only: nothing there, no refusal");
        assert!(!c.read(Some(2), b"", "\u{b}\u{a0}\u{feff}\n".as_bytes()).0, "JavaScript's trim leaves nothing");
        assert!(c.read(Some(2), b"", "\u{85}".as_bytes()).0, "U+0085 is no space to JavaScript");
        assert!(c.read(Some(1), deny, b"").0, "a JSON deny is read on exit 1 too");
        assert!(c.read(Some(0), b"", deny).0, "stderr is read when stdout is blank");
        assert!(!c.read(Some(0), b"ok", deny).0, "stdout first");
        let bom = ["\u{feff}".as_bytes(), deny].concat();
        assert!(c.read(Some(0), &bom, b"").0, "JavaScript's trim strips a BOM");
        let ask = br#"{"hookSpecificOutput":{"permissionDecision":"ask","permissionDecisionReason":"ask me"}}"#;
        assert!(c.read(Some(0), ask, b"").0, "ask: no one to ask headless");
        assert!(c.read(Some(0), br#"{"continue":false,"stopReason":"halt"}"#, b"").0);
        let allow_first = br#"{"decision":"block","hookSpecificOutput":{"permissionDecision":"allow"}}"#;
        assert!(!c.read(Some(0), allow_first, b"").0, "permissionDecision wins over decision");
        assert!(!c.read(Some(2), b"", br#""{}""#).0, "a JSON string is parsed again: {{}} decides nothing");
        assert!(c.read(Some(2), b"", b"null").0 && c.read(Some(2), b"", br#"["deny"]"#).0, "not an object: text");
        assert!(c.read(Some(2), b"", br#""not json""#).0);
        assert!(!c.read(Some(2), b"", br#"{"level":"error"}"#).0, "an object with no decision");
    }
}
