//! Decisions pass through byte for byte; every failure to decide is refused.

use super::*;

// ---------------------------------------------------------------- pass-through

/// Seal's answer is its own (issue 44): the guard's bytes never reach the agent.
#[test]
fn exit_0_is_seals_own_allow_and_the_guards_bytes_never_pass() {
    let f = Fixture::new();
    let g = f.script("allow.sh", r"cat >/dev/null; printf 'a\000b\377no newline'; printf 'note\n' >&2; exit 0");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!((out.stdout.as_slice(), out.stderr.as_slice()), (&b""[..], &b""[..]));
    f.assert_no_survivors();
}

#[test]
fn exit_2_passes_the_reason_on_trimmed_and_drops_stdout() {
    let f = Fixture::new();
    let g =
        f.script("deny.sh", r"printf '\302\240Blocked: rm -rf is not allowed\n\twith detail' >&2; printf out; exit 2");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "Blocked: rm -rf is not allowed\n\twith detail\n");
    assert_eq!(out.stdout, b"");
}

#[test]
fn a_json_deny_on_exit_0_becomes_seals_exit_2_with_its_reason() {
    let f = Fixture::new();
    let json = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let g = f.script("json.sh", &format!("printf '%s\\n' '{json}'"));
    for args in [vec!["--", p(&g)], vec!["--expect-json", "--", p(&g)]] {
        let (out, _) = f.seal(&args, PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!((out.stdout.as_slice(), out.stderr.as_slice()), (&b""[..], &b"no\n"[..]), "{args:?}");
    }
}

#[test]
fn guard_receives_the_exact_payload() {
    let f = Fixture::new();
    let copy = f.path("copy.bin");
    let g = f.script("copy.sh", &format!("cat > '{}'; exit 0", p(&copy)));
    // Bigger than a pipe buffer, with every byte value.
    let payload: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let (out, _) = f.seal(&["--", p(&g)], &payload);
    // Not a payload seal can tell the agent of, so even an allow is refused.
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(fs::read(&copy).unwrap(), payload);
}

#[test]
fn guard_that_never_reads_stdin_does_not_block_seal() {
    let f = Fixture::new();
    let g = f.script("deaf.sh", "echo fine >&2; exit 2");
    let (out, took) = f.seal(&["--deadline", "10", "--", p(&g)], &vec![b'x'; 4 << 20]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"fine\n");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn five_megabytes_on_each_stream_are_all_read() {
    let f = Fixture::new();
    let big: Vec<u8> = (0..5_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
    let file = f.path("big.bin");
    fs::write(&file, &big).unwrap();
    // stderr first: a seal that read stdout to the end first would deadlock.
    for code in [0, 2] {
        let g = f.script(&format!("big{code}.sh"), &format!("cat '{0}' >&2; cat '{0}'; exit {code}", p(&file)));
        let (out, _) = f.seal(&["--deadline", "20", "--", p(&g)], PAYLOAD);
        assert_eq!(out.status.code(), Some(code));
        // An allow is seal's own (nothing); a refusal's reason is the guard's stderr, whole.
        assert!(out.stdout.is_empty(), "{code}: stdout passed");
        let want = if code == 0 { Vec::new() } else { [big.as_slice(), b"\n"].concat() };
        assert!(out.stderr == want, "{code}: stderr differs ({} bytes)", out.stderr.len());
    }
}

// ---------------------------------------------------------------- refusals

#[test]
fn exit_1_is_refused_with_one_line_naming_the_guard() {
    let f = Fixture::new();
    let g = f.script("crash.sh", "echo 'Traceback: boom' >&2; exit 1");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(refusal_line(&out), format!("guard {} could not decide (exit 1); refusing by default", p(&g)));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Traceback: boom"), "guard stderr appended");
    assert!(out.stdout.is_empty());
}

#[test]
fn other_exit_codes_are_refused() {
    let f = Fixture::new();
    for code in [3, 127, 255, 1] {
        let g = f.script(&format!("exit{code}.sh"), &format!("exit {code}"));
        let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "exit {code}");
        assert!(refusal_line(&out).contains(&format!("(exit {code})")), "{}", refusal_line(&out));
    }
}

#[test]
fn death_by_signal_is_refused_naming_the_signal() {
    let f = Fixture::new();
    let g = f.script("segv.sh", "kill -SEGV $$");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        refusal_line(&out),
        format!("guard {} could not decide (killed by SIGSEGV); refusing by default", p(&g))
    );
}

#[test]
fn missing_guard_is_refused() {
    let f = Fixture::new();
    let g = f.path("nowhere.sh");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        refusal_line(&out),
        format!("guard {} could not decide (did not start: No such file or directory); refusing by default", p(&g))
    );
}

#[test]
fn guard_without_exec_bit_is_refused() {
    let f = Fixture::new();
    let g = f.script_mode("noexec.sh", "exit 0", 0o644);
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(refusal_line(&out).contains("(did not start: Permission denied)"), "{}", refusal_line(&out));
}

#[test]
fn bad_interpreter_is_refused_and_named() {
    let f = Fixture::new();
    let g = f.raw_script("badshebang.sh", "#!/nonexistent/interp\nexit 0\n", 0o755);
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    let line = refusal_line(&out);
    assert!(line.contains("did not start") && line.contains("#! interpreter /nonexistent/interp is missing"), "{line}");
}

#[test]
fn no_guard_or_bad_arguments_still_exit_2() {
    let f = Fixture::new();
    // Anything but 0/2 from seal itself would fail open, argument errors included.
    for args in [vec![], vec!["--"], vec!["--deadline", "soon", "--", "/bin/true"]] {
        let (out, _) = f.seal(&args, PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
