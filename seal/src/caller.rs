//! Which agent called seal, from the payload it sent, and the answer that
//! agent reads: seal writes every byte the agent reads itself.
//!
//! Each agent is one [`Form`]; [`Caller::form`] is the one place that picks
//! it, so an agent added later is one more `Form` and one more arm there.
//! Measured payloads (docs/seal.md, the drivers, /work/shared/agent-notes.md):
//!
//! | agent | its payload |
//! | --- | --- |
//! | Claude Code | `hook_event_name`, a `transcript_path` string, no `turn_id`, no `timestamp` |
//! | Codex | `hook_event_name`, `turn_id` (and `model`, a `null` `transcript_path`) |
//! | Gemini CLI | `hook_event_name: "BeforeTool"` |
//! | Qwen Code | `hook_event_name` (Claude Code's events) and an ISO `timestamp` string |
//! | Copilot CLI | camelCase `toolName`, no `hook_event_name` |
//! | Cline CLI | `hookName` and `preToolUse`, no `hook_event_name` |
//! | Droid CLI | Claude Code's keys, `permission_mode` one of its autonomy levels (`auto-high`) |
//! | Auggie CLI | `hook_event_name`, `conversation_id` and `workspace_roots`, no `transcript_path` |
//!
//! A payload none of these fits gets [`Unplaced`]'s answer: a refusal every
//! one of them reads as one (and an allow is refused too: seal cannot tell
//! what the caller would make of it).
//!
//! Every refusal is exit 2 with a reason on stderr that is not empty and not
//! JSON under any agent's trim ([`crate::lenient`]): Claude Code, Codex,
//! Qwen Code and Droid CLI refuse on that; Gemini CLI, Copilot CLI and Cline CLI also get
//! their own JSON refusal on stdout, which they read first.

use std::fmt;

use serde_json::{json, Map, Value};

use crate::reading::Allow;

/// An agent seal knows how to answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caller {
    /// Claude Code (and the Claude Agent SDK's CLI).
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
    /// Qwen Code (Claude Code's hooks on Gemini CLI's code).
    Qwen,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cline CLI.
    Cline,
    /// Factory's Droid CLI (Claude Code's hooks and payload).
    Droid,
    /// Augment's Auggie CLI.
    Auggie,
}

/// The `permission_mode` values of Droid CLI's autonomy levels (`droid exec
/// --auto low|medium|high`; 0.225.2 sends `auto-high`), which Claude Code
/// never sends.
const DROID_MODES: [&str; 3] = ["auto-low", "auto-medium", "auto-high"];

impl Caller {
    /// The agent that sent `payload`, if seal can place it.
    pub fn of(payload: &Value) -> Option<Caller> {
        let str_at = |k: &str| payload.get(k).and_then(Value::as_str);
        let event = str_at("hook_event_name");
        match event {
            Some("BeforeTool") => Some(Caller::Gemini),
            Some(_) if payload.get("turn_id").is_some() => Some(Caller::Codex),
            Some(_) if str_at("timestamp").is_some() => Some(Caller::Qwen),
            Some(_) if payload.get("model").is_some() && payload.get("transcript_path").is_some_and(Value::is_null) => {
                Some(Caller::Codex)
            }
            Some(_) if str_at("permission_mode").is_some_and(|m| DROID_MODES.contains(&m)) => Some(Caller::Droid),
            Some(_) if str_at("transcript_path").is_some() => Some(Caller::ClaudeCode),
            Some(_) if str_at("conversation_id").is_some() && payload.get("workspace_roots").is_some() => {
                Some(Caller::Auggie)
            }
            Some(_) => None,
            None if payload.get("hookName").is_some() && payload.get("preToolUse").is_some() => Some(Caller::Cline),
            None if payload.get("toolName").is_some() => Some(Caller::Copilot),
            None => None,
        }
    }

    /// How this agent reads an answer.
    pub fn form(self) -> &'static dyn Form {
        match self {
            Caller::ClaudeCode => &ClaudeCode,
            Caller::Codex => &Codex,
            Caller::Gemini => &Gemini,
            Caller::Qwen => &Qwen,
            Caller::Copilot => &Copilot,
            Caller::Cline => &Cline,
            Caller::Droid => &DROID,
            Caller::Auggie => &AUGGIE,
        }
    }
}

/// The form of `caller` (`None`: a payload seal could not place).
pub fn form_of(caller: Option<Caller>) -> &'static dyn Form {
    caller.map_or(&Unplaced as &dyn Form, Caller::form)
}

/// How one agent reads seal's answer.
pub trait Form: Sync {
    /// The agent's name, for messages.
    fn name(&self) -> &'static str;
    /// Stdout for an allow on `event` (empty: nothing to say), or why this
    /// agent cannot be told it (seal then refuses).
    fn allow(&self, event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String>;
    /// Stdout for an ask, or `None`: the agent has no ask, so seal refuses.
    fn ask(&self, _event: Option<&str>, _reason: Option<&str>) -> Option<Vec<u8>> {
        None
    }
    /// Stdout beside a refusal's exit 2 (empty: the exit code and stderr are enough).
    fn deny(&self, _reason: &str) -> Vec<u8> {
        Vec::new()
    }
    /// Where this agent ignores exit 2 on `event`, the refusal it reads on
    /// exit 0 instead (`None`: exit 2 refuses).
    fn deny_on_exit_0(&self, _event: Option<&str>, _reason: &str) -> Option<Vec<u8>> {
        None
    }
}

fn line(v: Value) -> Vec<u8> {
    let mut out = v.to_string().into_bytes();
    out.push(b'\n');
    out
}

/// Fields an agent cannot be told: the first one `allow` carries.
fn unsupported(allow: &Allow, fields: &[&str]) -> Result<(), String> {
    let has = |f: &str| match f {
        "reason" => allow.reason.is_some(),
        "updatedInput" => allow.updated_input.is_some(),
        "additionalContext" => allow.additional_context.is_some(),
        "systemMessage" => allow.system_message.is_some(),
        "suppressOutput" => allow.suppress_output.is_some(),
        _ => false,
    };
    match fields.iter().find(|f| has(f)) {
        Some(f) => Err(format!("an allow with {f}")),
        None => Ok(()),
    }
}

/// Claude Code's `hookSpecificOutput` answer for `event`.
fn claude_shape(event: Option<&str>, decision: Option<&str>, allow: &Allow, name: &str) -> Result<Value, String> {
    let event = event.unwrap_or("PreToolUse");
    let mut specific = Map::new();
    specific.insert("hookEventName".into(), json!(event));
    match event {
        "PreToolUse" => {
            if let Some(d) = decision {
                specific.insert("permissionDecision".into(), json!(d));
                if let Some(r) = &allow.reason {
                    specific.insert("permissionDecisionReason".into(), json!(r));
                }
            } else if allow.reason.is_some() {
                return Err(format!("a reason without a decision, which {name} does not read"));
            }
            if let Some(i) = &allow.updated_input {
                specific.insert("updatedInput".into(), Value::Object(i.clone()));
            }
        }
        "PermissionRequest" => {
            let mut d = Map::new();
            d.insert("behavior".into(), json!("allow"));
            if let Some(i) = &allow.updated_input {
                d.insert("updatedInput".into(), Value::Object(i.clone()));
            }
            specific.insert("decision".into(), Value::Object(d));
            unsupported(allow, &["reason"])?;
        }
        // Other events: an allow is no objection (their decision field only
        // ever refuses), so only the context is written.
        other => {
            if allow.updated_input.is_some() || allow.reason.is_some() {
                return Err(format!("an allow with updatedInput or a reason on {other}, which seal does not pass on"));
            }
        }
    }
    if let Some(c) = &allow.additional_context {
        specific.insert("additionalContext".into(), json!(c));
    }
    let mut top = Map::new();
    if let Some(m) = &allow.system_message {
        top.insert("systemMessage".into(), json!(m));
    }
    if let Some(s) = allow.suppress_output {
        top.insert("suppressOutput".into(), json!(s));
    }
    if specific.len() > 1 {
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    Ok(Value::Object(top))
}

/// An allow with nothing to say is no output at all: every agent runs the call on that.
fn bare(allow: &Allow) -> bool {
    !allow.explicit && allow.is_bare()
}

struct ClaudeCode;
impl Form for ClaudeCode {
    fn name(&self) -> &'static str {
        "Claude Code"
    }
    fn allow(&self, event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        if bare(allow) {
            return Ok(Vec::new());
        }
        Ok(line(claude_shape(event, allow.explicit.then_some("allow"), allow, self.name())?))
    }
    fn ask(&self, event: Option<&str>, reason: Option<&str>) -> Option<Vec<u8>> {
        if event.is_some_and(|e| e != "PreToolUse") {
            return None;
        }
        let allow = Allow { reason: reason.map(str::to_string), ..Allow::default() };
        claude_shape(Some("PreToolUse"), Some("ask"), &allow, self.name()).ok().map(line)
    }
    /// Claude Code ignores exit 2 on `PermissionRequest`: its refusal there is
    /// `decision.behavior: "deny"` on exit 0.
    fn deny_on_exit_0(&self, event: Option<&str>, reason: &str) -> Option<Vec<u8>> {
        (event == Some("PermissionRequest")).then(|| {
            line(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest",
                "decision": {"behavior": "deny", "message": reason}}}))
        })
    }
}

/// Qwen Code reads Claude Code's hooks; `ask` is not measured there, so seal refuses it.
struct Qwen;
impl Form for Qwen {
    fn name(&self) -> &'static str {
        "Qwen Code"
    }
    fn allow(&self, event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        if bare(allow) {
            return Ok(Vec::new());
        }
        unsupported(allow, &["suppressOutput"])?;
        Ok(line(claude_shape(event, allow.explicit.then_some("allow"), allow, self.name())?))
    }
}

/// Droid CLI and Auggie CLI read Claude Code's answer: exit 2 and a reason,
/// or the `permissionDecision` deny (Droid 0.215.0, 0.225.2); on exit 0
/// `continue`, `systemMessage`, `suppressOutput` and `hookSpecificOutput`
/// (Auggie 0.36.0's hook executor). Neither's `ask` is measured (Auggie has
/// none), so seal refuses it.
struct ClaudeShapeWithoutAsk(&'static str);
const DROID: ClaudeShapeWithoutAsk = ClaudeShapeWithoutAsk("Droid CLI");
const AUGGIE: ClaudeShapeWithoutAsk = ClaudeShapeWithoutAsk("Auggie CLI");
impl Form for ClaudeShapeWithoutAsk {
    fn name(&self) -> &'static str {
        self.0
    }
    fn allow(&self, event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        if bare(allow) {
            return Ok(Vec::new());
        }
        Ok(line(claude_shape(event, allow.explicit.then_some("allow"), allow, self.name())?))
    }
}

/// Codex takes no unknown key and drops `suppressOutput: true`; a plain
/// allow is "unsupported" there, which runs the call as an allow does.
struct Codex;
impl Form for Codex {
    fn name(&self) -> &'static str {
        "Codex"
    }
    fn allow(&self, event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        unsupported(allow, &["suppressOutput"])?;
        if allow.is_bare() {
            return Ok(Vec::new());
        }
        let explicit = allow.explicit || allow.updated_input.is_some();
        Ok(line(claude_shape(event, explicit.then_some("allow"), allow, self.name())?))
    }
}

/// Gemini CLI reads a top-level `decision` from stdout (or stderr when stdout is empty), whatever the exit code.
struct Gemini;
impl Form for Gemini {
    fn name(&self) -> &'static str {
        "Gemini CLI"
    }
    fn allow(&self, _event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        unsupported(allow, &["updatedInput", "suppressOutput"])?;
        if bare(allow) {
            return Ok(Vec::new());
        }
        let mut top = Map::new();
        top.insert("decision".into(), json!("allow"));
        if let Some(r) = &allow.reason {
            top.insert("reason".into(), json!(r));
        }
        if let Some(m) = &allow.system_message {
            top.insert("systemMessage".into(), json!(m));
        }
        if let Some(c) = &allow.additional_context {
            top.insert("hookSpecificOutput".into(), json!({"hookEventName": "BeforeTool", "additionalContext": c}));
        }
        Ok(line(Value::Object(top)))
    }
    fn deny(&self, reason: &str) -> Vec<u8> {
        line(json!({"decision": "deny", "reason": reason}))
    }
}

/// Copilot CLI reads a top-level `permissionDecision`; 1.0.55 to 1.0.69 ran the call after a plain exit 2.
struct Copilot;
impl Form for Copilot {
    fn name(&self) -> &'static str {
        "Copilot CLI"
    }
    fn allow(&self, _event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        unsupported(allow, &["updatedInput", "additionalContext", "systemMessage", "suppressOutput"])?;
        if bare(allow) {
            return Ok(Vec::new());
        }
        let mut top = Map::new();
        top.insert("permissionDecision".into(), json!("allow"));
        if let Some(r) = &allow.reason {
            top.insert("permissionDecisionReason".into(), json!(r));
        }
        Ok(line(Value::Object(top)))
    }
    fn deny(&self, reason: &str) -> Vec<u8> {
        line(json!({"permissionDecision": "deny", "permissionDecisionReason": reason}))
    }
}

/// Cline CLI reads no exit code: only `cancel`, and `contextModification`.
struct Cline;
impl Form for Cline {
    fn name(&self) -> &'static str {
        "Cline CLI"
    }
    fn allow(&self, _event: Option<&str>, allow: &Allow) -> Result<Vec<u8>, String> {
        unsupported(allow, &["updatedInput", "reason", "systemMessage", "suppressOutput"])?;
        if bare(allow) {
            return Ok(Vec::new());
        }
        let mut top = Map::new();
        top.insert("cancel".into(), json!(false));
        if let Some(c) = &allow.additional_context {
            top.insert("contextModification".into(), json!(c));
        }
        Ok(line(Value::Object(top)))
    }
    fn deny(&self, reason: &str) -> Vec<u8> {
        line(json!({"cancel": true, "errorMessage": reason}))
    }
}

/// A payload seal cannot place: every answer is a refusal, written so that
/// each agent above reads it as one (exit 2 and a reason for Claude Code,
/// Codex and Qwen Code; on stdout Gemini CLI's `decision`, Copilot CLI's
/// `permissionDecision`, Cline CLI's `cancel`).
struct Unplaced;
impl Form for Unplaced {
    fn name(&self) -> &'static str {
        "an agent it cannot tell from the payload"
    }
    fn allow(&self, _event: Option<&str>, _allow: &Allow) -> Result<Vec<u8>, String> {
        Err("an allow".into())
    }
    fn deny(&self, reason: &str) -> Vec<u8> {
        line(json!({"decision": "deny", "reason": reason, "permissionDecision": "deny",
            "permissionDecisionReason": reason, "cancel": true, "errorMessage": reason}))
    }
}

impl fmt::Display for Caller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.form().name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As recorded by the battery's guards, and Qwen Code 0.24.4's hook runner (`createBaseInput`).
    #[test]
    fn payloads_name_their_agent() {
        let claude = json!({"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","cwd":"/w","prompt_id":"p",
            "permission_mode":"bypassPermissions","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"tool_use_id":"t"});
        let codex = json!({"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse",
            "model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{},"tool_use_id":"c"});
        let gemini = json!({"session_id":"s","transcript_path":"/h/.gemini/tmp/w/chats/s.jsonl","cwd":"/w",
            "hook_event_name":"BeforeTool","timestamp":"2026-12-01T20:23:34.795Z","tool_name":"run_shell_command"});
        let qwen = json!({"session_id":"s","transcript_path":"/h/.qwen/tmp/w/chats/s.jsonl","cwd":"/w",
            "hook_event_name":"PreToolUse","timestamp":"2026-12-01T20:23:34.795Z","permission_mode":"yolo",
            "tool_name":"run_shell_command","tool_input":{},"tool_use_id":"t"});
        let copilot = json!({"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"ls"}});
        let cline = json!({"hookName":"tool_call","tool_call":{"id":"c"},"preToolUse":{"toolName":"run_commands"}});
        let droid = json!({"session_id":"s","transcript_path":"/h/.factory/sessions/-w/s.jsonl","cwd":"/w",
            "permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{}});
        assert_eq!(Caller::of(&droid), Some(Caller::Droid));
        // Auggie CLI 0.36.0's PreToolUse payload, as its hook executor wrote it to a guard.
        let auggie = json!({"hook_event_name":"PreToolUse","conversation_id":"a29b","workspace_roots":["/w"],
            "tool_name":"save-file","tool_input":{"path":"notes.txt"},"tool_output":"[undefined]","tool_error":null,"is_mcp_tool":false});
        assert_eq!(Caller::of(&auggie), Some(Caller::Auggie));
        assert_eq!(Caller::of(&claude), Some(Caller::ClaudeCode));
        assert_eq!(Caller::of(&codex), Some(Caller::Codex));
        assert_eq!(Caller::of(&gemini), Some(Caller::Gemini));
        assert_eq!(Caller::of(&qwen), Some(Caller::Qwen));
        assert_eq!(Caller::of(&copilot), Some(Caller::Copilot));
        assert_eq!(Caller::of(&cline), Some(Caller::Cline));
        for unplaced in [json!({"hook_event_name":"PreToolUse"}), json!({}), Value::Null, json!([1])] {
            assert_eq!(Caller::of(&unplaced), None, "{unplaced}");
        }
    }

    #[test]
    fn allows_are_rewritten_in_each_agents_form() {
        let fields = Allow {
            explicit: true,
            updated_input: json!({"command": "ls"}).as_object().cloned(),
            additional_context: Some("c".into()),
            ..Allow::default()
        };
        let claude: Value = serde_json::from_slice(&ClaudeCode.allow(Some("PreToolUse"), &fields).unwrap()).unwrap();
        assert_eq!(
            claude,
            json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                "updatedInput": {"command": "ls"}, "additionalContext": "c"}})
        );
        assert!(Copilot.allow(None, &fields).is_err());
        assert!(Unplaced.allow(None, &Allow::default()).is_err());
        for form in [&ClaudeCode as &dyn Form, &Codex, &Gemini, &Qwen, &Copilot, &Cline, &DROID, &AUGGIE] {
            assert_eq!(form.allow(Some("PreToolUse"), &Allow::default()).unwrap(), b"", "{}", form.name());
        }
    }
}
