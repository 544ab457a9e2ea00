//! A decision still on its way through a helper process when the guard
//! exits, under CPU load: seal must wait for it, never answer without it.

use super::*;

/// Busy loops that keep every CPU busy while they live.
struct CpuLoad(Vec<std::process::Child>);

impl CpuLoad {
    fn start(n: usize) -> CpuLoad {
        CpuLoad(
            (0..n)
                .map(|_| std::process::Command::new("/bin/sh").args(["-c", "while :; do :; done"]).spawn().unwrap())
                .collect(),
        )
    }
}

impl Drop for CpuLoad {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

const DENY: &str = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;

/// The logging idioms of issue 29: the guard's stdout goes through a
/// process substitution, so its deny is still in `tee` or `cat` when the
/// guard exits 0. Seal used to kill the group at the guard's exit and answer
/// exit 0 with empty stdout (an allow) in most runs under load.
#[test]
fn a_deny_in_flight_through_tee_or_cat_always_arrives_under_load() {
    let f = Fixture::new();
    let log = f.path("guard.log");
    let guards = [
        f.raw_script(
            "tee.sh",
            &format!("#!/bin/bash\nexec > >(tee -a '{}')\ncat >/dev/null\necho '{DENY}'\nexit 0\n", p(&log)),
            0o755,
        ),
        f.raw_script("cat.sh", &format!("#!/bin/bash\nexec > >(cat)\ncat >/dev/null\necho '{DENY}'\nexit 0\n"), 0o755),
    ];
    let _load = CpuLoad::start(3);
    for guard in &guards {
        for run in 0..40 {
            for expect_json in [false, true] {
                let mut args = vec!["--deadline", "10"];
                if expect_json {
                    args.push("--expect-json");
                }
                args.extend(["--", p(guard)]);
                let (out, _) = f.seal(&args, PAYLOAD);
                let stdout = String::from_utf8_lossy(&out.stdout);
                // Seal's own refusal: exit 2 (the guard's bytes never pass).
                assert_eq!(
                    (out.status.code(), stdout.trim()),
                    (Some(2), ""),
                    "{} run {run} (--expect-json {expect_json}): the deny was lost: {}",
                    p(guard),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
    f.assert_no_survivors();
}

/// An exit 0 whose output is still held open at the deadline (a background
/// child inherited stdout) is not a clean allow: seal refuses, naming the
/// cause, and the child dies with the group.
#[test]
fn an_exit_0_whose_pipes_stay_open_is_refused_at_the_deadline() {
    let f = Fixture::new();
    let g = f.script("bg-allow.sh", "cat >/dev/null; sleep 30 & exit 0");
    let (out, took) = f.seal(&["--deadline", "1", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        refusal_line(&out),
        format!(
            "guard {} could not decide (exited 0, but a process it left behind still held its output open after 1s, \
             so its answer may not have arrived whole); refusing by default",
            p(&g)
        )
    );
    assert!(out.stdout.is_empty());
    assert!(took >= Duration::from_millis(900), "answered before the deadline: {took:?}");
    f.assert_no_survivors();
    // A background child that does not hold the pipes is no reason to wait.
    let g = f.script("bg-quiet.sh", "cat >/dev/null; sleep 30 >/dev/null 2>&1 & exit 0");
    let (out, _) = f.seal(&["--deadline", "10", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    f.assert_no_survivors();
}
