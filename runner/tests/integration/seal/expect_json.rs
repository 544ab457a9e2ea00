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
            refusal_line(&out).starts_with(&format!("guard {} exited 0 without a PreToolUse decision: ", p(&g))),
            "{answer}: {}",
            refusal_line(&out)
        );
    }
}

#[test]
fn expect_json_accepts_each_events_own_decision_byte_for_byte() {
    let f = Fixture::new();
    let event = |name: &str| format!(r#"{{"session_id":"s","hook_event_name":"{name}"}}"#).into_bytes();
    let cases: [(Vec<u8>, &str, i32); 8] = [
        (PAYLOAD.to_vec(), r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#, 0),
        (PAYLOAD.to_vec(), r#"{"decision":"block","reason":"deprecated but honoured"}"#, 0),
        (event("PermissionRequest"), r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"}}}"#, 0),
        (event("PermissionRequest"), r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#, 2),
        (event("Stop"), r#"{"decision":"block","reason":"tests are red"}"#, 0),
        (event("Stop"), r#"{"continue":true}"#, 2),
        (b"not json".to_vec(), r#"{"decision":"block"}"#, 0),
        (b"not json".to_vec(), r#"{"systemMessage":"hi"}"#, 2),
    ];
    for (i, (payload, answer, code)) in cases.into_iter().enumerate() {
        let g = f.script(&format!("answer{i}.sh"), &format!("cat >/dev/null; printf '%s\\n' '{answer}'"));
        let (out, _) = f.seal(&["--expect-json", "--", p(&g)], &payload);
        assert_eq!(out.status.code(), Some(code), "{answer}: {}", String::from_utf8_lossy(&out.stderr));
        if code == 0 {
            assert_eq!(out.stdout, format!("{answer}\n").into_bytes(), "passed through byte for byte");
            assert!(out.stderr.is_empty());
        }
    }
}

#[test]
fn expect_json_leaves_exit_2_alone() {
    let f = Fixture::new();
    let g = f.script("deny2.sh", "echo 'not json' >&2; exit 2");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"not json\n");
}
