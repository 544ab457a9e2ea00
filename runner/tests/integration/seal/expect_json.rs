//! `--expect-json`: an exit 0 must carry a decision for the payload's event.

use super::*;

#[test]
fn expect_json_refuses_exit_0_with_garbage() {
    let f = Fixture::new();
    let g = f.script("garbage.sh", "echo 'allowed!'; exit 0");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "a refused decision's stdout is not forwarded");
    assert!(
        refusal_line(&out).starts_with(&format!("guard {} exited 0 without a JSON decision", p(&g))),
        "{}",
        refusal_line(&out)
    );
}

#[test]
fn expect_json_refuses_exit_0_with_empty_stdout() {
    let f = Fixture::new();
    let g = f.script("silent.sh", "exit 0");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(refusal_line(&out).contains("exited 0 without a JSON decision"), "{}", refusal_line(&out));
    // Without the flag the same guard is an allow.
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn expect_json_requires_a_decision_not_just_an_object() {
    // `{}` and `{"continue":true}` on exit 0 are "no objection" to Claude Code.
    let f = Fixture::new();
    for (i, answer) in ["{}", r#"{"continue":true}"#, r#"{"hookSpecificOutput":{"permissionDecision":"maybe"}}"#]
        .into_iter()
        .enumerate()
    {
        let g = f.script(&format!("no-decision{i}.sh"), &format!("cat >/dev/null; printf '%s' '{answer}'"));
        let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "{answer}");
        assert!(out.stdout.is_empty(), "{answer}");
        assert!(
            refusal_line(&out).starts_with(&format!("guard {} exited 0", p(&g))),
            "{answer}: {}",
            refusal_line(&out)
        );
    }
}

/// A payload as Claude Code sends it (a transcript path, no `turn_id`), and
/// one as Codex does (`turn_id`, `model`, no transcript): seal reads an
/// answer the way the agent that sent the payload will.
const CLAUDE_PAYLOAD: &[u8] = br#"{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;
const CODEX_PAYLOAD: &[u8] = br#"{"session_id":"s","turn_id":"t","transcript_path":null,"model":"gpt-5.5","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#;

#[test]
fn expect_json_reads_each_events_decision_and_writes_seals_own() {
    let f = Fixture::new();
    let event = |name: &str| {
        format!(r#"{{"session_id":"s","transcript_path":"/t.jsonl","hook_event_name":"{name}"}}"#).into_bytes()
    };
    let ask = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a person decides"}}"#;
    let perm_deny =
        r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}"#;
    // (payload, the guard's answer on exit 0, seal's exit, seal's stdout)
    let cases: [(Vec<u8>, &str, i32, &str); 9] = [
        // `ask` is Claude Code's, written again as seal's own; Codex runs the call on it, so seal refuses.
        (CLAUDE_PAYLOAD.to_vec(), ask, 0, ask),
        (CODEX_PAYLOAD.to_vec(), ask, 2, ""),
        (PAYLOAD.to_vec(), r#"{"decision":"block","reason":"deprecated but honoured"}"#, 2, ""),
        // Claude Code ignores exit 2 on PermissionRequest: seal's refusal there is its deny on exit 0.
        (event("PermissionRequest"), perm_deny, 0, perm_deny),
        (
            event("PermissionRequest"),
            r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"}}}"#,
            0,
            perm_deny,
        ),
        (event("Stop"), r#"{"decision":"block","reason":"tests are red"}"#, 2, ""),
        (event("Stop"), r#"{"continue":true}"#, 2, ""),
        // Not a payload seal can place: a refusal every agent reads, whatever the guard said.
        (b"not json".to_vec(), r#"{"decision":"allow"}"#, 2, "*"),
        (b"not json".to_vec(), r#"{"systemMessage":"hi"}"#, 2, "*"),
    ];
    for (i, (payload, answer, code, stdout)) in cases.into_iter().enumerate() {
        let g = f.script(&format!("answer{i}.sh"), &format!("cat >/dev/null; printf '%s\\n' '{answer}'"));
        let (out, _) = f.seal(&["--expect-json", "--", p(&g)], &payload);
        assert_eq!(out.status.code(), Some(code), "{answer}: {}", String::from_utf8_lossy(&out.stderr));
        let got = String::from_utf8_lossy(&out.stdout);
        match stdout {
            "*" => assert!(got.contains(r#""cancel":true"#), "{answer}: {got}"),
            "" => assert!(got.is_empty(), "{answer}: {got}"),
            want => assert_eq!(got.trim_end(), want, "{answer}"),
        }
    }
}

/// The JSON denies an agent rejects as malformed (issue 29 §2): each let
/// the call through in real sessions when seal passed it on (arms/shapes.json
/// measures them). Seal refuses each, with and without --expect-json, and
/// names the shape, not a deadline.
#[test]
fn denies_an_agent_would_not_read_are_refused_naming_the_shape() {
    let f = Fixture::new();
    let cases: [(&[u8], &str, &str); 8] = [
        (
            CLAUDE_PAYLOAD,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}"#,
            "permissionDecisionReason is null",
        ),
        (CLAUDE_PAYLOAD, r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#, "has no hookEventName"),
        (
            CLAUDE_PAYLOAD,
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
            "but the hook ran for PreToolUse",
        ),
        (CLAUDE_PAYLOAD, r#"{"async":true,"decision":"block","reason":"no"}"#, "async: true"),
        (
            CODEX_PAYLOAD,
            r#"{"reason":"no","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#,
            "non-empty permissionDecisionReason",
        ),
        (
            CODEX_PAYLOAD,
            r#"{"suppressOutput":true,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#,
            "suppressOutput",
        ),
        (
            CODEX_PAYLOAD,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no","ruleId":"r"}}"#,
            "hookSpecificOutput.ruleId",
        ),
        (
            CLAUDE_PAYLOAD,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"Deny","permissionDecisionReason":"no"}}"#,
            "not one of allow, deny, ask, defer",
        ),
    ];
    for (i, (payload, answer, names)) in cases.into_iter().enumerate() {
        let g = f.script(&format!("shape{i}.sh"), &format!("cat >/dev/null; printf '%s\\n' '{answer}'"));
        for flags in [&["--expect-json", "--"][..], &["--"][..]] {
            let mut args = flags.to_vec();
            args.push(p(&g));
            let (out, _) = f.seal(&args, payload);
            let line = refusal_line(&out);
            assert_eq!(out.status.code(), Some(2), "{answer} {flags:?}: {line}");
            assert!(out.stdout.is_empty(), "{answer}");
            let _ = names; // seal no longer names how an agent would misread it: it refuses in its own words
            assert!(line.starts_with("guard ") || line == "no", "{answer} {flags:?}: {line}");
            assert!(!line.contains("within"), "a refusal, not a deadline: {line}");
        }
    }
    // The same deny in Claude Code's canonical form is seal's exit 2 with its reason.
    let ok = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let g = f.script("canonical.sh", &format!("cat >/dev/null; printf '%s\\n' '{ok}'"));
    for payload in [CLAUDE_PAYLOAD, CODEX_PAYLOAD, PAYLOAD] {
        let (out, _) = f.seal(&["--", p(&g)], payload);
        assert_eq!((out.status.code(), out.stdout, out.stderr), (Some(2), Vec::new(), b"no\n".to_vec()));
    }
}

/// Exit 2 as each agent reads it (issue 29 §3): Codex and Gemini CLI trim a
/// reason as Unicode whitespace, so a vertical tab or a no-break space is no
/// reason; Gemini reads a hook's JSON whatever its exit code, so a stdout
/// that is not its deny is dropped and stderr gets seal's line.
#[test]
fn exit_2_gets_a_reason_every_agent_reads() {
    let f = Fixture::new();
    let gemini =
        br#"{"session_id":"s","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{}}"#;
    let blank = f.script("blank.sh", "cat >/dev/null; printf '\\v\\302\\240\\n' >&2; exit 2");
    for payload in [CODEX_PAYLOAD, &gemini[..], CLAUDE_PAYLOAD] {
        let (out, _) = f.seal(&["--", p(&blank)], payload);
        assert_eq!(out.status.code(), Some(2));
        assert!(
            refusal_line(&out).ends_with("refused (exit 2) without giving a reason on stderr"),
            "{}",
            refusal_line(&out)
        );
    }
    let log = f.script("log.sh", "cat >/dev/null; echo '{\"level\":\"error\"}'; echo 'no writes' >&2; exit 2");
    let (out, _) = f.seal(&["--", p(&log)], gemini);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        out.stdout, b"{\"decision\":\"deny\",\"reason\":\"no writes\"}\n",
        "Gemini gets its own deny, not the log line"
    );
    assert_eq!(out.stderr, b"no writes\n");
    // Claude Code and Codex read the exit code: the guard's stdout does not pass.
    let (out, _) = f.seal(&["--", p(&log)], CLAUDE_PAYLOAD);
    assert_eq!(out.stdout, b"");
    // A Gemini deny on stdout is kept.
    let deny = f.script("gdeny.sh", "cat >/dev/null; echo '{\"decision\":\"deny\",\"reason\":\"no\"}'; exit 2");
    let (out, _) = f.seal(&["--", p(&deny)], gemini);
    assert_eq!(out.stdout, b"{\"decision\":\"deny\",\"reason\":\"no\"}\n");
    // A stderr Gemini would parse as an answer without a deny gets seal's line first.
    let json_err = f.script("jerr.sh", "cat >/dev/null; echo '{\"decision\":\"allow\"}' >&2; exit 2");
    let (out, _) = f.seal(&["--", p(&json_err)], gemini);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("guard ") && err.ends_with("refused (exit 2) without giving a reason on stderr\n"),
        "{err}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(r#""decision":"deny""#));
}

#[test]
fn expect_json_leaves_exit_2_alone() {
    let f = Fixture::new();
    let g = f.script("deny2.sh", "echo 'not json' >&2; exit 2");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"not json\n");
}
