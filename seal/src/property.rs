//! Seal's reader fed arbitrary answers (issue 44): any bytes on either
//! stream, any exit code, each agent's payload and one seal cannot place.
//!
//! - Seal exits 0 only with its canonical allow (or Claude Code's ask):
//!   empty stderr, and a stdout that is exactly what seal writes for the
//!   allow it reads back from that stdout, which refuses nothing; and only
//!   when the guard exited 0 and refused nowhere.
//! - Every other answer is exit 2 with a reason that is not blank and not
//!   JSON under any agent's trim, and the agent's own JSON refusal on stdout
//!   where it reads one: each agent's model ([`crate::answer`]) reads it as a
//!   refusal.

use std::os::unix::process::ExitStatusExt;
use std::process::ExitStatus;
use std::time::Duration;

use proptest::prelude::*;
use serde_json::Value;

use crate::answer::{cline, copilot, gemini, Reading};
use crate::caller::{self, Caller};
use crate::decision::judge;
use crate::guard_process::{GuardEnd, GuardRun};
use crate::lenient::{self, Stream};
use crate::reading::{self, Decision};

const PAYLOADS: [&str; 9] = [
    r#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"x"},"tool_use_id":"t"}"#,
    r#"{"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse","model":"m","tool_name":"Bash","tool_input":{}}"#,
    r#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"BeforeTool","timestamp":"2026-12-01T20:23:34.795Z","tool_name":"run_shell_command"}"#,
    r#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","hook_event_name":"PreToolUse","timestamp":"2026-12-01T20:23:34.795Z","tool_name":"run_shell_command","tool_input":{}}"#,
    r#"{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"ls"}}"#,
    r#"{"hookName":"tool_call","tool_call":{"id":"c"},"preToolUse":{"toolName":"run_commands"}}"#,
    r#"{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/w","permission_mode":"auto-high","hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{}}"#,
    r#"{"hook_event_name":"PreToolUse","conversation_id":"c","workspace_roots":["/w"],"tool_name":"save-file","tool_input":{},"is_mcp_tool":false}"#,
    r#"{"hook_event_name":"PreToolUse"}"#,
];

/// Pieces an answer is built from: spaces every agent trims differently,
/// keys and values of every agent's shapes, and JSON's punctuation.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            " ",
            "\n",
            "\u{a0}",
            "\u{2028}",
            "\u{feff}",
            "\u{85}",
            "\u{b}",
            "{",
            "}",
            "[",
            "]",
            ",",
            ":",
            "\"",
            "null",
            "1",
            "true",
            "false",
            "\"deny\"",
            "\"Deny\"",
            "\"allow\"",
            "\"ask\"",
            "\"block\"",
            "\"approve\"",
            "\"defer\"",
            "\"{}\"",
            "\"why\"",
            "\"\"",
            "\"decision\"",
            "\"permissionDecision\"",
            "\"permissionDecisionReason\"",
            "\"hookSpecificOutput\"",
            "\"hookEventName\"",
            "\"PreToolUse\"",
            "\"BeforeTool\"",
            "\"reason\"",
            "\"cancel\"",
            "\"async\"",
            "\"continue\"",
            "\"updatedInput\"",
            "\"additionalContext\"",
            "\"systemMessage\"",
            "\"suppressOutput\"",
            "\"errorMessage\"",
            "\"contextModification\"",
            "\"behavior\"",
            "\"level\"",
            "no writes",
        ])
        .prop_map(str::to_string),
        "[ -~]{0,6}",
    ]
}

/// An answer: whole JSON shapes, or pieces strung together, or raw bytes.
fn stream() -> impl Strategy<Value = Vec<u8>> {
    let shaped = (
        prop::sample::select(vec!["", "\u{a0}", "\u{2028}", "\u{feff}", " \n"]),
        prop::sample::select(vec![
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"ls"},"additionalContext":"c"}}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}"#,
            r#"{"decision":"deny","reason":"r"}"#,
            r#"{"decision":"Deny"}"#,
            r#"{"decision":"allow","reason":"ok","systemMessage":"m"}"#,
            r#"{"async":true,"decision":"block"}"#,
            r#"{"permissionDecision":"deny","permissionDecisionReason":"x"}"#,
            r#"{"permissionDecision":"allow"}"#,
            r#"{"cancel":true,"errorMessage":"e"}"#,
            r#"{"cancel":false,"contextModification":"c"}"#,
            r#"{"level":"error"}"#,
            "null",
            "1",
            "[\"deny\"]",
            "\"{}\"",
            "{}",
            "",
        ]),
        prop::sample::select(vec!["", "\n", "\u{a0}", "\u{feff}"]),
    )
        .prop_map(|(a, b, c)| format!("{a}{b}{c}").into_bytes());
    prop_oneof![
        shaped,
        prop::collection::vec(piece(), 0..12).prop_map(|p| p.concat().into_bytes()),
        prop::collection::vec(any::<u8>(), 0..40),
    ]
}

fn code() -> impl Strategy<Value = i32> {
    prop_oneof![3 => Just(0), 3 => Just(2), 1 => 0..256i32]
}

/// Whether the model of `caller`'s reader (`None`: every agent's) reads
/// exit 2 with `stdout` and `stderr` as a refusal.
fn refused(caller: Option<Caller>, stdout: &[u8], stderr: &[u8]) -> bool {
    let parsed = lenient::parse_json(lenient::trim(&String::from_utf8_lossy(stdout))).ok();
    let reads = |r: fn(&Value) -> Reading| parsed.as_ref().is_some_and(|v| r(v) == Reading::Deny);
    // Exit 2 with a reason no agent's trim empties, and that no agent parses as JSON.
    let text = String::from_utf8_lossy(stderr);
    let t = lenient::trim(&text);
    let reason_ok = !t.is_empty()
        && !text.trim().is_empty()
        && !t.starts_with(['{', '[', '"'])
        && serde_json::from_str::<Value>(t).is_err();
    let by = |c: Caller| match c {
        Caller::ClaudeCode | Caller::Codex | Caller::Qwen | Caller::Droid | Caller::Auggie => reason_ok,
        Caller::Gemini => reads(gemini::read) && reason_ok,
        Caller::Copilot => reads(copilot::read) && reason_ok,
        Caller::Cline => reads(cline::read),
    };
    let all = [
        Caller::ClaudeCode,
        Caller::Codex,
        Caller::Qwen,
        Caller::Gemini,
        Caller::Copilot,
        Caller::Cline,
        Caller::Droid,
        Caller::Auggie,
    ];
    match caller {
        Some(c) => by(c),
        None => all.into_iter().all(by),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]
    #[test]
    fn seal_exits_0_only_with_its_canonical_allow(
        stdout in stream(), stderr in stream(), code in code(), which in 0..PAYLOADS.len(), expect_json in any::<bool>()
    ) {
        let payload = PAYLOADS[which].as_bytes();
        let run = GuardRun {
            end: GuardEnd::Exited(ExitStatus::from_raw(code << 8)),
            stdout: stdout.clone(),
            stderr: stderr.clone(),
            pipes_left_open: false,
            held_open: false,
            output_problem: None,
        };
        let v = judge(&["/g".to_string()], run, payload, expect_json, Duration::from_secs(3));
        let v = crate::decision::in_callers_form(payload, v);
        let (caller, event) = crate::decision::placed(payload);
        let form = caller::form_of(caller);
        prop_assert!(v.code == 0 || v.code == 2, "exit {}", v.code);
        if v.code == 0 {
            prop_assert_eq!(code, 0, "an allow from a guard that exited {}", code);
            prop_assert!(v.stderr.is_empty());
            for s in [&stdout, &stderr] {
                if let Stream::Json(j) = lenient::read_stream(s) {
                    prop_assert!(!reading::means_refusal(&j), "allowed over a refusal: {}", j);
                }
            }
            // The stdout is exactly what seal writes for what it reads back from it.
            let rewritten = match reading::read(0, &v.stdout, b"", event.as_deref()) {
                Decision::Allow(a) => form.allow(event.as_deref(), &a).ok(),
                Decision::Ask(r) => form.ask(event.as_deref(), r.as_deref()),
                other => panic!("seal's own allow reads back as {other:?}"),
            };
            prop_assert_eq!(rewritten.as_deref(), Some(v.stdout.as_slice()));
        } else {
            prop_assert!(refused(caller, &v.stdout, &v.stderr),
                "not a refusal to {:?}: stdout {:?} stderr {:?}", caller,
                String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&v.stderr));
        }
    }
}
