//! Issue 44: seal writes every byte the agent reads, and leaves no process
//! behind. Each hole the review found, on the payload of the agent it opened
//! on (and on every other agent's), through the real binary: seal refuses it
//! in the form that agent reads. What each agent's form is: [`refused_for`].

use super::*;

/// Payloads as each agent sends them (recorded by the battery's guards;
/// Qwen Code's from its hook runner's `createBaseInput`, 0.24.4).
const AGENTS: [(&str, &str); 6] = [
    (
        "claude",
        r#"{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","cwd":"/w","permission_mode":"bypassPermissions","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"t"}"#,
    ),
    (
        "codex",
        r#"{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":"ls"},"tool_use_id":"c"}"#,
    ),
    (
        "gemini",
        r#"{"session_id":"s","transcript_path":"/h/.gemini/tmp/w/chats/s.jsonl","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-01T20:23:34.795Z","tool_name":"run_shell_command","tool_input":{"command":"ls"}}"#,
    ),
    (
        "qwen",
        r#"{"session_id":"s","transcript_path":"/h/.qwen/tmp/w/chats/s.jsonl","cwd":"/w","hook_event_name":"PreToolUse","timestamp":"2026-12-01T20:23:34.795Z","permission_mode":"yolo","tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_use_id":"t"}"#,
    ),
    ("copilot", r#"{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"ls"}}"#),
    (
        "cline",
        r#"{"clineVersion":"","hookName":"tool_call","taskId":"t","workspaceRoots":["/w"],"tool_call":{"id":"call_fo1","name":"run_commands","input":{"commands":["ls"]}},"preToolUse":{"toolName":"run_commands","parameters":{"commands":"[\"ls\"]"}}}"#,
    ),
];

/// `printf` escapes of the characters JavaScript's `trim()` strips and a plain ASCII trim keeps.
const NBSP: &str = r"\302\240";
const LINE_SEPARATOR: &str = r"\342\200\250";
const BOM: &str = r"\357\273\277";

/// Whether `out` is a refusal `agent` reads as one: exit 2, a reason on
/// stderr that no agent's trim empties and no agent parses as JSON, and on
/// stdout the JSON refusal of the agents that read one there.
fn refused_for(agent: &str, out: &Output) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let reason = stderr.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let stdout: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    let ok = out.status.code() == Some(2)
        && !reason.is_empty()
        && !reason.starts_with(['{', '[', '"'])
        && serde_json::from_str::<serde_json::Value>(reason).is_err()
        && match agent {
            "claude" | "codex" | "qwen" => out.stdout.is_empty(),
            "gemini" => stdout["decision"] == "deny" && stdout["reason"].is_string(),
            "copilot" => stdout["permissionDecision"] == "deny",
            "cline" => stdout["cancel"] == true,
            _ => stdout["decision"] == "deny" && stdout["permissionDecision"] == "deny" && stdout["cancel"] == true,
        };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "{agent}: exit {:?}, stdout {:?}, stderr {:?}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            stderr
        ))
    }
}

/// Run a guard that prints `stdout` and `stderr` (printf formats) and exits
/// `code` under seal on every agent's payload; each must be refused.
fn assert_refused_everywhere(f: &Fixture, name: &str, stdout: &str, stderr: &str, code: i32) {
    let g = f.script(name, &format!("cat >/dev/null; printf '{stdout}'; printf '{stderr}' >&2; exit {code}"));
    let failures: Vec<String> = AGENTS
        .iter()
        .filter_map(|(agent, payload)| refused_for(agent, &f.seal(&["--", p(&g)], payload.as_bytes()).0).err())
        .collect();
    assert!(failures.is_empty(), "{name}: {failures:#?}");
}

/// A refusal in a shape some agent rejects, behind U+00A0, U+2028 or a BOM:
/// seal used to read it as plain text and exit 0.
#[test]
fn a_refusal_behind_unicode_spaces_or_a_bom_is_refused_on_every_agent() {
    let f = Fixture::new();
    let denies = [
        (
            "null-reason",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}"#,
        ),
        ("gemini-shape", r#"{"decision":"deny"}"#),
        ("gemini-case", r#"{"decision":"Deny","reason":"r"}"#),
        ("async", r#"{"async":true,"decision":"block","reason":"r"}"#),
        (
            "claude-deny",
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
        ),
    ];
    for (i, space) in [NBSP, LINE_SEPARATOR, BOM].iter().enumerate() {
        for (name, deny) in denies {
            assert_refused_everywhere(&f, &format!("{name}-{i}.sh"), &format!("{space}{deny}\\n"), "", 0);
        }
    }
}

/// Gemini CLI parses `stdout.trim() || stderr.trim()` whatever the exit
/// code: an exit 2 whose stderr is JSON without a deny ran the call there.
#[test]
fn an_exit_2_whose_stderr_is_json_or_a_lone_bom_is_refused_on_every_agent() {
    let f = Fixture::new();
    let stderrs = ["null", "1", r#"["deny"]"#, r#""{}""#, &format!(r#"{NBSP}{{"level":"error"}}"#), BOM];
    for (i, stderr) in stderrs.iter().enumerate() {
        assert_refused_everywhere(&f, &format!("exit2-{i}.sh"), "", stderr, 2);
    }
}

/// Codex's reader may take the first of two keys, Claude Code's the last:
/// an answer with `permissionDecision` twice is refused.
#[test]
fn a_duplicate_key_is_refused() {
    let f = Fixture::new();
    let dup = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecision":"deny","permissionDecisionReason":"x"}}"#;
    assert_refused_everywhere(&f, "dup.sh", dup, "", 0);
    let dup_allow = r#"{"decision":"allow","decision":"allow"}"#;
    assert_refused_everywhere(&f, "dup-allow.sh", dup_allow, "", 0);
}

/// A payload seal cannot place gets one refusal every agent reads, even
/// when the guard allowed.
#[test]
fn a_payload_seal_cannot_place_is_refused_in_every_agents_form() {
    let f = Fixture::new();
    let g = f.script("allow.sh", "cat >/dev/null; exit 0");
    for payload in [&br#"{"hook_event_name":"PreToolUse"}"#[..], b"", b"not json", b"[1]"] {
        let (out, _) = f.seal(&["--", p(&g)], payload);
        refused_for("unplaced", &out).unwrap();
        assert!(refusal_line(&out).contains("cannot tell from the payload"), "{}", refusal_line(&out));
    }
}

/// Seal's allow is its own: the guard's bytes never pass, an allow with
/// fields is written again from what seal validated, in the agent's form.
#[test]
fn an_allow_is_rewritten_in_the_agents_form() {
    let f = Fixture::new();
    let answer = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls -a"},"additionalContext":"c"}}"#;
    let g = f.script("fields.sh", &format!("cat >/dev/null; printf '{NBSP}%s\\n' '{answer}'; echo log >&2"));
    let (out, _) = f.seal(&["--", p(&g)], AGENTS[0].1.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{answer}\n"));
    assert!(out.stderr.is_empty());
    // Copilot CLI reads no updatedInput: seal cannot write it, so it refuses.
    let (out, _) = f.seal(&["--", p(&g)], AGENTS[4].1.as_bytes());
    refused_for("copilot", &out).unwrap();
    // A plain allow with text is no output at all on every agent.
    let g = f.script("plain.sh", "cat >/dev/null; echo fine; echo log >&2; exit 0");
    for (agent, payload) in AGENTS {
        let (out, _) = f.seal(&["--", p(&g)], payload.as_bytes());
        assert_eq!((out.status.code(), out.stdout.len(), out.stderr.len()), (Some(0), 0, 0), "{agent}");
    }
}

/// Qwen Code parses an exit 2's stderr, and a JSON object without a deny
/// there let the call run; seal used to read Qwen's payload as Claude Code's.
#[test]
fn qwens_payload_is_placed_and_its_exit_2_is_worded() {
    let f = Fixture::new();
    let g = f.script("level.sh", r#"cat >/dev/null; printf '{"level":"error"}' >&2; exit 2"#);
    let (out, _) = f.seal(&["--", p(&g)], AGENTS[3].1.as_bytes());
    refused_for("qwen", &out).unwrap();
    assert_eq!(refusal_line(&out), format!("guard {} refused (exit 2) without giving a reason on stderr", p(&g)));
}

/// A `setsid` daemon, and a child that left the guard's group with
/// `setpgid(0, 0)`, used to outlive seal: seal is their subreaper now.
#[test]
fn escapees_from_the_guards_group_do_not_outlive_seal() {
    let f = Fixture::new();
    let daemon =
        f.script("daemon.sh", "cat >/dev/null; setsid sleep 30 >/dev/null 2>&1 </dev/null & sleep 0.2; exit 0");
    let pgrp = f.script(
        "pgrp.sh",
        r#"cat >/dev/null; python3 -c 'import os; os.setpgid(0, 0); os.execvp("sleep", ["sleep", "30"])' >/dev/null 2>&1 </dev/null & sleep 0.2; exit 2"#,
    );
    let double = f.script(
        "double.sh",
        "cat >/dev/null; (setsid sh -c 'sleep 30 & sleep 30' >/dev/null 2>&1 </dev/null &); sleep 0.2; exit 0",
    );
    for g in [daemon, pgrp, double] {
        let (out, _) = f.seal(&["--", p(&g)], AGENTS[0].1.as_bytes());
        assert!(matches!(out.status.code(), Some(0 | 2)), "{out:?}");
        f.assert_no_survivors();
    }
}
