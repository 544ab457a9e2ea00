//! Failure modes the article never ran (arms/extended.json, arms/http.json) on
//! real Claude Code. Each expectation carries its reasoning; the ones that
//! rest on Claude Code's own behaviour say where that was measured.

mod common;

use common::{arms_file, run_battery, verdict_of, OLD, PINNED};

/// Guards that do decide to refuse, and why Claude Code reads them as a refusal.
fn refuses(guard: &str) -> bool {
    matches!(
        guard,
        // exit 2 within the timeout (slow: 2 s < 3 s deadline < 5 s timeout)
        "slow" | "stdout-deny" | "big-output"
        // exit 2; its `sleep 30 &` holds the pipe, but Claude Code does not wait for EOF (measured)
        | "orphan"
        // python3 exits 2 when the script is missing: an accidental deny
        | "python-missing"
        // "ask" with nobody to answer in `claude -p` is refused (measured on 2.1.240 and 2.1.328)
        | "json-ask"
        // Claude Code reads the JSON deny although the guard exits 1 (measured on
        // 2.1.240 and 2.1.328; the hooks reference says JSON is read on exit 0 only)
        | "json-deny-exit1"
        | "http-deny"
    )
}

/// Guards whose hook gives no decision (a failure, or an exit 0 with nothing usable).
fn expected(guard: &str, wrapper: &str, honours_on_failure: bool) -> &'static str {
    let no_objection = matches!(guard, "http-allow" | "garbage-json");
    match wrapper {
        "bare" if refuses(guard) => "blocked",
        // no-exec (126), bad-interpreter and shell-missing (127), signal (139),
        // garbage JSON on exit 0, HTTP 500 / non-JSON / hang / refused connection:
        // none is a decision, and Claude Code lets the call through.
        "bare" => "wrote",
        "native" if refuses(guard) => "blocked",
        // exit 0 (with garbage, or an HTTP 200 `{}`) is not a failure: onFailure does not act.
        "native" if no_objection => "wrote",
        "native" => if honours_on_failure { "blocked" } else { "wrote" },
        // The article's wrappers move the guard's stdout to stderr and pass exit 0
        // on: garbage JSON stays "no objection", and the "ask" decision is lost.
        "plain" | "timed" if matches!(guard, "garbage-json" | "json-ask") => "wrote",
        // perl's `exec` of a file it cannot run fails and `perl -e` exits 0.
        "timed" if matches!(guard, "no-exec" | "bad-interpreter") => "wrote",
        // Every other exit (126, 127, 139, 1) becomes 2; exit 2 passes on. For
        // big-output that makes the 5 MB of stdout the refusal reason: still a
        // refusal (see `oversized_refusals_are_compacted_away`).
        "plain" | "timed" => "blocked",
        // seal refuses every failure to decide (with --expect-json for JSON guards).
        "sealed" => "blocked",
        other => panic!("unexpected wrapper {other}"),
    }
}

fn extended_matches_reasoning(version: &str, honours_on_failure: bool) {
    let (rows, _dir) =
        run_battery(&["--arms", &arms_file("extended.json"), "--arms", &arms_file("http.json"), "--claude", version, "-j", "4"]);
    assert_eq!(rows.len(), 56 + 12);
    let mut wrong = Vec::new();
    for r in &rows {
        let want = expected(&r.guard, &r.wrapper, honours_on_failure);
        if verdict_of(r) != want {
            wrong.push(format!("{}: got {} {} [{}], expected {want}", r.arm, r.verdict, r.reason, r.flags));
        }
    }
    assert!(wrong.is_empty(), "{version}:\n{}", wrong.join("\n"));
    // The sealed column blocks every failure guard.
    for r in rows.iter().filter(|r| r.wrapper == "sealed") {
        assert_eq!(verdict_of(r), "blocked", "{}", r.arm);
    }
}

#[test]
fn extended_and_http_on_the_pinned_version() {
    extended_matches_reasoning(PINNED, true);
}

#[test]
fn extended_and_http_on_2_1_240() {
    extended_matches_reasoning(OLD, false);
}

/// The article's wrappers put big-output's 5 MB into the refusal text, past
/// the context window (2.1.328 counts 1.3 M tokens). 2.1.328 then compacts
/// the conversation before going on: it asks the model for a summary, which
/// the stand-in gives as a model would (a stand-in that answered with a tool
/// call instead, or one that turned away bodies over 2 MB, made these
/// sessions end in "Prompt is too long": `invalid`). The summary is real
/// evidence that the refusal reached the model: checked here in the flags.
#[test]
fn oversized_refusals_are_compacted_away() {
    let (rows, _dir) = run_battery(&["--arms", &arms_file("extended.json"), "--only", "big-output/*", "--claude", PINNED]);
    assert_eq!(rows.len(), 5);
    for r in &rows {
        assert_eq!(verdict_of(r), "blocked", "{}: {} [{}]", r.arm, r.reason, r.flags);
        assert_eq!(r.attempts, "Bash:refused;Write:refused", "{}", r.arm);
        let wrapped = r.wrapper == "plain" || r.wrapper == "timed";
        // Bare, native and sealed, Claude Code keeps only the stderr reason (one line), not the 5 MB.
        assert_eq!(r.flags.contains("compacted:"), wrapped, "{}: {}", r.arm, r.flags);
    }
}
