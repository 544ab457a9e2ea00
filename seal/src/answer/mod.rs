//! What the agent will make of a guard's answer: seal passes an answer on
//! only when every agent that could have sent the payload reads it as the
//! guard meant.
//!
//! Each agent validates a hook's output in its own way, and an answer it
//! rejects is no decision at all: the call runs. Measured (arms/shapes.json,
//! docs/seal.md), on a JSON deny printed on exit 0:
//!
//! | the deny | Claude Code | Codex | Gemini CLI |
//! | --- | --- | --- | --- |
//! | `permissionDecisionReason: null` | runs (schema: a string or nothing) | runs (a deny needs a reason) | runs |
//! | no `hookEventName` | runs (the schema is keyed on it) | runs | runs |
//! | `hookEventName: "PostToolUse"` | runs ("incorrect event name") | refuses | runs |
//! | `async: true` beside `decision: block` | runs (async: no answer yet) | runs (unknown key) | refuses |
//! | the reason only in the top-level `reason` | refuses | runs | runs |
//! | `suppressOutput: true` | refuses | runs (unsupported) | runs |
//! | a key of the guard's own in `hookSpecificOutput` | refuses | runs (unknown key) | runs |
//!
//! So seal reads an answer the way each agent does ([`claude_code`],
//! [`codex`], [`gemini`]), for every agent the payload may come from
//! ([`host`]), and:
//!
//! - passes it on unchanged when all of them read the same decision from
//!   it, and a deny is in the one form each words with the guard's reason
//!   (`permissionDecisionReason`, or a top-level `decision: block` with a
//!   `reason`);
//! - refuses (exit 2, the reason on stderr) when the guard meant to refuse
//!   in a shape some agent would not read, or when the agents would read it
//!   differently: a refusal is what the guard meant, and exit 2 with a
//!   reason is the one refusal every agent reads;
//! - under `--expect-json`, also refuses an exit 0 that carries no decision.
//!
//! On exit 2 ([`exit2`]) the agents differ too: Gemini CLI reads a hook's
//! JSON whatever the exit code (a log line `{"level":"error"}` on stdout, or
//! Claude Code's deny shape, is no decision to it), and Codex and Gemini
//! trim a reason as Unicode whitespace before they look for one.

pub mod claude_code;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod host;

use serde_json::Value;

pub use host::Host;

/// What one agent reads in an answer on exit 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// An allow (or an answer the agent runs the call on as if it were one,
    /// such as Codex's unsupported plain allow).
    Allow,
    /// A refusal, worded with the guard's own reason.
    Deny,
    /// Claude Code's `ask`.
    Ask,
    /// A well-formed answer without a decision (`{}`, plain text).
    NoDecision(String),
    /// An answer the agent rejects as malformed, or reads no decision from
    /// although it names one: the call runs. Why, in words.
    Rejected(String),
}

/// Why seal will not pass an exit 0 on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// One sentence, to follow the guard's name ("exited 0 ...").
    pub why: String,
}

/// Check a guard's exit-0 `stdout` against the `payload` it was given.
/// `None`: pass it on. `expect_json`: an answer without a decision is a
/// problem too.
pub fn exit0(payload: &[u8], stdout: &[u8], expect_json: bool) -> Option<Problem> {
    let payload: Value = serde_json::from_slice(payload).unwrap_or(Value::Null);
    let event = payload.get("hook_event_name").and_then(Value::as_str);
    let hosts = host::hosts(&payload);
    let answer = match parse(stdout) {
        Ok(answer) => answer,
        // Plain text (or nothing) is no decision to any agent: an allow.
        Err(why) if !expect_json && !looks_like_json(stdout) => {
            let _ = why;
            return None;
        }
        Err(why) => {
            return Some(Problem {
                why: format!("exited 0 without a JSON decision: {why}"),
            })
        }
    };
    let for_event = match event {
        Some(e) => format!("a {e} decision"),
        None => "a decision".to_string(),
    };
    let readings: Vec<(Host, Reading)> =
        hosts.iter().map(|h| (*h, h.read(event, &answer))).collect();
    let meant_refusal = means_refusal(&answer)
        || readings
            .iter()
            .any(|(_, r)| matches!(r, Reading::Deny | Reading::Ask));
    // A refusal every agent reads as the guard meant: pass it on.
    let all_refuse = readings
        .iter()
        .all(|(h, r)| matches!(r, Reading::Deny) || (*r == Reading::Ask && h.has_ask()));
    if meant_refusal {
        if all_refuse && canonical_refusal(&answer) {
            return None;
        }
        let (host, why) = first_not_refusing(&readings, &answer);
        return Some(Problem {
            why: format!(
                "exited 0 with a refusal {host} would not read as the guard meant ({why})"
            ),
        });
    }
    if !expect_json {
        return None;
    }
    let as_read_by = |host: &Host| {
        if hosts.len() > 1 {
            format!(" (as {host} reads it)")
        } else {
            String::new()
        }
    };
    match readings.iter().find(|(_, r)| !matches!(r, Reading::Allow)) {
        None => None,
        Some((host, Reading::NoDecision(why) | Reading::Rejected(why))) => Some(Problem {
            why: format!("exited 0 without {for_event}: {why}{}", as_read_by(host)),
        }),
        Some((host, _)) => Some(Problem {
            why: format!("exited 0 with an answer {host} reads differently"),
        }),
    }
}

/// The first agent that would not refuse, and why.
fn first_not_refusing(readings: &[(Host, Reading)], answer: &Value) -> (Host, String) {
    for (host, reading) in readings {
        match reading {
            Reading::Deny if canonical_refusal(answer) => {}
            Reading::Deny => {
                return (
                    *host,
                    "its reason is not in permissionDecisionReason, where every agent reads it"
                        .into(),
                )
            }
            Reading::Ask if host.has_ask() => {}
            Reading::Ask => return (*host, "it has no ask: the call runs".into()),
            Reading::Allow => return (*host, "it reads an allow".into()),
            Reading::NoDecision(why) | Reading::Rejected(why) => return (*host, why.clone()),
        }
    }
    (
        readings
            .first()
            .map(|(h, _)| *h)
            .unwrap_or(Host::ClaudeCode),
        "the agents read it differently".into(),
    )
}

/// Whether a refusal is in a form every agent that reads it words with the
/// guard's reason: `hookSpecificOutput.permissionDecision` `deny` with a
/// non-empty `permissionDecisionReason` (or `ask`), a top-level `decision`
/// `block` (or Gemini CLI's `deny`) with a non-empty `reason`, or a
/// PermissionRequest `behavior: deny`.
fn canonical_refusal(answer: &Value) -> bool {
    let nonblank = |v: Option<&Value>| {
        v.and_then(Value::as_str)
            .is_some_and(|s| !s.trim().is_empty())
    };
    let specific = answer.get("hookSpecificOutput");
    let pre_tool = specific
        .and_then(|s| s.get("permissionDecision"))
        .and_then(Value::as_str);
    if answer.get("cancel").is_some() {
        return cline::is_worded_cancel(answer);
    }
    match pre_tool {
        Some("deny") => nonblank(specific.and_then(|s| s.get("permissionDecisionReason"))),
        // An ask is a question to a person, not a refusal's reason: Claude Code
        // (the one agent with ask) words it either way.
        Some("ask") => true,
        Some(_) => false,
        None => {
            let top = answer.get("decision").and_then(Value::as_str);
            let behavior = specific
                .and_then(|s| s.pointer("/decision/behavior"))
                .and_then(Value::as_str);
            matches!(top, Some("block" | "deny")) && nonblank(answer.get("reason"))
                || behavior == Some("deny")
        }
    }
}

/// Whether the answer names a refusal anywhere an agent looks for one,
/// whatever its shape or case: the guard meant to refuse.
pub fn means_refusal(answer: &Value) -> bool {
    let refusing = |v: Option<&Value>, words: &[&str]| {
        v.and_then(Value::as_str)
            .is_some_and(|s| words.iter().any(|w| s.trim().eq_ignore_ascii_case(w)))
    };
    let specific = answer.get("hookSpecificOutput");
    refusing(
        specific.and_then(|s| s.get("permissionDecision")),
        &["deny", "ask"],
    ) || refusing(
        specific.and_then(|s| s.pointer("/decision/behavior")),
        &["deny"],
    ) || refusing(answer.get("decision"), &["block", "deny"])
        || refusing(answer.get("permissionDecision"), &["deny", "ask"])
        || answer.get("cancel") == Some(&Value::Bool(true))
}

/// `stdout` as a JSON object (surrounding whitespace allowed), or why not.
pub fn parse(stdout: &[u8]) -> Result<Value, String> {
    let trimmed = trim(stdout);
    if trimmed.is_empty() {
        return Err("stdout was empty".into());
    }
    match serde_json::from_slice::<Value>(trimmed) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("stdout is JSON but not an object".into()),
        Err(e) => Err(format!("stdout is not JSON ({e})")),
    }
}

/// Whether an agent would try to read `stdout` as JSON: it starts with `{`
/// (Claude Code's rule; Codex and Gemini CLI try any stdout).
fn looks_like_json(stdout: &[u8]) -> bool {
    trim(stdout).starts_with(b"{")
}

fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}

/// What to forward of an exit 2: `None` to pass stdout and stderr as they
/// are, or the (stdout, reason line) to send instead.
///
/// - A reason that is blank once trimmed as Unicode whitespace (as Codex and
///   Gemini CLI trim it) gets seal's own line, so those agents refuse.
/// - Where Gemini CLI may be the agent, stdout that is not a Gemini deny is
///   dropped (Gemini reads a hook's JSON whatever its exit code, and a JSON
///   log line or Claude Code's deny shape is no decision to it), and a
///   stderr that would parse as a JSON answer without a deny gets seal's
///   line in front of it.
pub fn exit2(payload: &[u8], stdout: &[u8], stderr: &[u8]) -> Exit2 {
    let payload: Value = serde_json::from_slice(payload).unwrap_or(Value::Null);
    let gemini = host::hosts(&payload).contains(&Host::Gemini);
    let mut fix = Exit2 {
        drop_stdout: false,
        needs_reason: false,
    };
    if gemini && !trim(stdout).is_empty() && !gemini::is_deny(stdout) {
        fix.drop_stdout = true;
    }
    let stdout_read = !fix.drop_stdout && !trim(stdout).is_empty();
    if String::from_utf8_lossy(stderr).trim().is_empty()
        || (gemini && !stdout_read && trim(stderr).starts_with(b"{") && !gemini::is_deny(stderr))
    {
        fix.needs_reason = true;
    }
    fix
}

/// What [`exit2`] found to mend.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Exit2 {
    /// Send no stdout: it is not a refusal to an agent that would read it.
    pub drop_stdout: bool,
    /// Put seal's own reason line first on stderr.
    pub needs_reason: bool,
}
