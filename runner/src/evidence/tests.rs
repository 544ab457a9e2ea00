//! Unit tests of [`super`]: stream parsing, classification and attribution.

use super::*;
use crate::agent::claude_code::stream::parse_stream;
use crate::agent::claude_code::wording::ClaudeCodeWording;
use serde_json::json;

fn hook() -> HookIdentity {
    HookIdentity::new("x", vec!["this session may not write files".into()])
}

fn who(h: &HookIdentity) -> Attribution<'_> {
    Attribution { hook: h, decided_reasons: &[], wording: &ClaudeCodeWording }
}

#[test]
fn tool_failure_is_not_a_refusal() {
    let h = hook();
    assert!(matches!(classify(true, "EACCES: permission denied", false, who(&h)), AttemptResult::Failed(_)));
    assert!(matches!(
        classify(true, "PreToolUse:Write hook error: [x]: no", false, who(&h)),
        AttemptResult::Refused(_)
    ));
    // 2.1.240's JSON deny: bare reason text, but the stream says the tool never ran.
    assert!(matches!(classify(true, "this session may not write files", true, who(&h)), AttemptResult::Refused(_)));
    assert!(matches!(classify(false, "(Bash completed with no output)", false, who(&h)), AttemptResult::Allowed(_)));
    // A success is a success even if it mentions hooks.
    assert!(matches!(classify(false, "PreToolUse hook ran", true, who(&h)), AttemptResult::Allowed(_)));
}

#[test]
fn refusals_by_someone_else_are_foreign() {
    let h = hook();
    // Another hook beside ours (or a managed one) names its own command.
    let other = classify(true, "PreToolUse:Write hook error: [/etc/company.sh]: no", false, who(&h));
    assert_eq!(
        other,
        AttemptResult::ForeignRefused {
            by: Refuser::OtherHook("/etc/company.sh".into()),
            text: "PreToolUse:Write hook error: [/etc/company.sh]: no".into()
        }
    );
    // A permission rule's refusal (settings or managed `permissions.deny`).
    let rule = "Permission to use Bash with command printf 'ready\\n' > notes.txt has been denied.";
    assert!(matches!(
        classify(true, rule, true, who(&h)),
        AttemptResult::ForeignRefused { by: Refuser::PermissionRule, .. }
    ));
    let e = Evidence {
        attempts: vec![Attempt { tool: "Bash".into(), matched: true, result: classify(true, rule, true, who(&h)) }],
        ..Evidence::default()
    };
    assert_eq!(e.attempts_csv(), "Bash:foreign-refused");
    assert_eq!(e.foreign_refusers(), ["Bash=permission-rule"]);
    assert_eq!(e.last_refusal(), Some(rule));
}

#[test]
fn matched_follows_the_hooks_own_matcher_and_side_calls_are_apart() {
    use serde_json::json;
    let mut t = Transcript::default();
    let mcp = crate::task::MCP_WRITE_TOOL;
    t.sent("t1", mcp, &json!({"path": "notes.txt", "content": "ready\n"}));
    t.sent("t2", "Agent", &json!({"prompt": "x"}));
    t.sent("t3", "Write", &json!({"file_path": "/w/notes-2.txt", "content": "ready\n"}));
    t.tool_results.push(crate::standin::transcript::ReturnedToolResult {
        tool_use_id: "t3".into(),
        is_error: true,
        text: "PreToolUse:Write hook error: [x]: no".into(),
    });
    let facts = StreamFacts::default();
    // The battery's matcher does not cover the MCP tool; the Agent call is no write.
    let judged = attempts_from_transcript(&t, &facts, &hook(), &ClaudeCodeWording);
    assert_eq!(judged.iter().map(|a| (a.tool.as_str(), a.matched)).collect::<Vec<_>>(), [(mcp, false)]);
    let mut covering = hook();
    covering.matcher = Some("mcp__.*".into());
    assert!(attempts_from_transcript(&t, &facts, &covering, &ClaudeCodeWording)[0].matched);
    covering.matcher = Some("mcp__failopen-fs".into());
    assert!(
        !attempts_from_transcript(&t, &facts, &covering, &ClaudeCodeWording)[0].matched,
        "the server alone matches nothing"
    );
    // The call at notes-2.txt is reported beside, never judged.
    let side = side_attempts_from_transcript(&t, &facts, &hook(), &ClaudeCodeWording);
    assert_eq!(side.len(), 1);
    assert_eq!((side[0].0, side[0].1.tool.as_str()), ("notes-2.txt", "Write"));
    let e = Evidence { side_attempts: side, side_landed: vec![], ..Evidence::default() };
    assert_eq!(e.side_flag().as_deref(), Some("parallel:notes-2.txt:Write:refused=absent"));
    assert_eq!(Evidence::default().side_flag(), None);
}

#[test]
fn file_reads_ready() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("notes.txt");
    assert_eq!(file_on_disk(&p), None);
    std::fs::write(&p, "ready\n").unwrap();
    assert_eq!(file_on_disk(&p), Some(FileFound { bytes: 6, reads_ready: true }));
    std::fs::write(&p, "nope").unwrap();
    assert_eq!(file_on_disk(&p), Some(FileFound { bytes: 4, reads_ready: false }));
}

/// A recorded stream (trimmed, paths redacted) with the transcript the
/// stand-in kept: its calls, as the stream shows them.
fn recorded(era: &str) -> (String, String, Transcript) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/streams/");
    let stdout = std::fs::read_to_string(format!("{dir}{era}.stdout.jsonl")).unwrap();
    let trace = std::fs::read_to_string(format!("{dir}{era}.trace.jsonl")).unwrap();
    let mut t = Transcript::default();
    for v in stdout.lines().filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok()) {
        for b in v["message"]["content"].as_array().into_iter().flatten().filter(|b| b["type"] == "tool_use") {
            t.sent(b["id"].as_str().unwrap(), b["name"].as_str().unwrap(), &b["input"]);
        }
    }
    (stdout, trace, t)
}

fn judged(stdout: &str, trace: &str, t: &Transcript, h: &HookIdentity) -> (Vec<Attempt>, crate::verdict::Verdict) {
    let mut facts = parse_stream(stdout, h);
    facts.traced = traced_calls(trace);
    let attempts = attempts_from_transcript(t, &facts, h, &ClaudeCodeWording);
    let e = Evidence {
        exit: SessionExit::Code(0),
        attempts: attempts.clone(),
        hook_invocations: count_trace_text(trace),
        hook_outcomes: facts.hook_outcomes,
        ..Evidence::default()
    };
    (attempts, crate::judge::judge_battery(&e))
}

fn count_trace_text(trace: &str) -> u32 {
    super::trace::entries(trace).len() as u32
}

fn json_deny() -> HookIdentity {
    let body = include_str!("../../guards/json-deny.sh");
    HookIdentity::new("/g/json-deny.sh", crate::attribution::reasons_in_script(body))
}

#[test]
fn a_bare_json_deny_of_2_1_100_is_the_hooks_only_with_its_trace() {
    use crate::verdict::{InvalidReason, Verdict};
    // 2.1.100: the tool_result is exactly the reason, with no PreToolUse and no non_execution_kind.
    let (stdout, trace, t) = recorded("2.1.100-json-deny");
    let h = json_deny();
    let facts = parse_stream(&stdout, &h);
    assert!(facts.not_executed.is_empty(), "the era has no non_execution_kind");
    let (attempts, verdict) = judged(&stdout, &trace, &t, &h);
    assert_eq!(attempts.len(), 2);
    assert!(attempts.iter().all(|a| matches!(a.result, AttemptResult::Refused(_))), "{attempts:?}");
    assert_eq!(verdict, Verdict::Blocked);
    // The same stream without a trace: nothing ties the bare text to the guard.
    let (attempts, verdict) = judged(&stdout, "", &t, &h);
    assert!(attempts.iter().all(|a| matches!(a.result, AttemptResult::Failed(_))), "{attempts:?}");
    assert_eq!(verdict, Verdict::Invalid(InvalidReason::ToolError));
    // A trace of other calls (another session's ids) is no trace of these.
    let other = trace.replace("toolu_fo", "toolu_xx");
    assert_ne!(judged(&stdout, &other, &t, &h).1, Verdict::Blocked);
    // The trace, but a guard whose reasons are not this text: not ours either.
    let stranger = HookIdentity::new("/g/json-deny.sh", vec!["another reason".into()]);
    assert_ne!(judged(&stdout, &trace, &t, &stranger).1, Verdict::Blocked);
}

#[test]
fn a_trace_without_ids_matches_by_tool_and_input() {
    let input = serde_json::json!({"command": "printf 'ready\\n' > notes.txt"});
    let line =
        serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": input}).to_string();
    let traced = traced_calls(&format!("{line}\nnot json\n"));
    assert_eq!(traced.len(), 1);
    assert!(traced[0].is_for("any", "Bash", &input));
    assert!(!traced[0].is_for("any", "Write", &input));
    assert!(!traced[0].is_for("any", "Bash", &serde_json::json!({"command": "true"})));
    let reason = "this session may not write files (failopen json-deny guard)";
    assert!(trace::guard_refused(&traced, "t1", "Bash", &input, reason, &json_deny(), &ClaudeCodeWording));
    assert!(!trace::guard_refused(
        &traced,
        "t1",
        "Bash",
        &input,
        &format!("{reason}!"),
        &json_deny(),
        &ClaudeCodeWording
    ));
    assert!(!trace::guard_refused(&[], "t1", "Bash", &input, reason, &json_deny(), &ClaudeCodeWording));
    // A PermissionRequest payload counts (its deny comes back as the bare reason);
    // a payload of another event (PostToolUse, UserPromptSubmit) does not.
    for (event, counts) in [("PermissionRequest", true), ("PostToolUse", false), ("UserPromptSubmit", false)] {
        let line = serde_json::json!({"hook_event_name": event, "tool_name": "Bash", "tool_input": input}).to_string();
        assert_eq!(traced_calls(&line).len(), usize::from(counts), "{event}");
    }
}

#[test]
fn a_json_deny_of_2_0_50_without_hook_events_is_the_hooks_only_with_its_trace() {
    use crate::verdict::{InvalidReason, Verdict};
    // 2.0.50 has no --include-hook-events: the stream shows no hook at all.
    let (stdout, trace, t) = recorded("2.0.50-json-deny");
    let h = json_deny();
    assert!(parse_stream(&stdout, &h).hook_outcomes.is_empty());
    let (attempts, verdict) = judged(&stdout, &trace, &t, &h);
    assert_eq!(attempts.len(), 2);
    assert_eq!(verdict, Verdict::Blocked);
    // Without the trace nothing shows the hook ran, let alone refused.
    let (_, verdict) = judged(&stdout, "", &t, &h);
    assert_eq!(verdict, Verdict::Invalid(InvalidReason::HookNotRun));
}

#[test]
fn claude_code_1_0_refusals_list_the_hook_exit_2_and_json_alike() {
    use crate::verdict::Verdict;
    // 1.0.61: `<Tool> operation blocked by hook:` then `- [<command>]: <reason>` (exit 2) or `- <reason>` (JSON).
    let (stdout, trace, t) = recorded("1.0.61-deny");
    let deny = HookIdentity::new("/RUN/guards/deny.sh", vec![]);
    let (attempts, verdict) = judged(&stdout, &trace, &t, &deny);
    assert_eq!(attempts.len(), 2);
    assert_eq!(verdict, Verdict::Blocked, "{attempts:?}");
    // Another command in the item is another hook's refusal.
    let other = HookIdentity::new("/RUN/guards/other.sh", vec![]);
    let (attempts, _) = judged(&stdout, &trace, &t, &other);
    assert!(attempts.iter().all(|a| matches!(a.result, AttemptResult::ForeignRefused { .. })), "{attempts:?}");
    let (stdout, trace, t) = recorded("1.0.61-json-deny");
    let (attempts, verdict) = judged(&stdout, &trace, &t, &json_deny());
    assert_eq!(attempts.len(), 2);
    assert_eq!(verdict, Verdict::Blocked, "{attempts:?}");
}

#[test]
fn the_generic_deny_of_2_0_20_is_the_hooks_only_as_sole_hook_with_its_trace() {
    use crate::verdict::Verdict;
    // 2.0.20: a JSON deny comes back as `Hook requested permission behavior: deny`, nothing more.
    let (stdout, trace, t) = recorded("2.0.20-json-deny");
    let mut h = json_deny();
    // Another hook may run beside it (a managed policy, another entry): not attributable.
    assert_ne!(judged(&stdout, &trace, &t, &h).1, Verdict::Blocked);
    h.sole_pretooluse_hook = true;
    let (attempts, verdict) = judged(&stdout, &trace, &t, &h);
    assert_eq!(attempts.len(), 2);
    assert_eq!(verdict, Verdict::Blocked, "{attempts:?}");
    // Without the guard's trace for these calls, the words alone prove nothing.
    assert_ne!(judged(&stdout, "", &t, &h).1, Verdict::Blocked);
    // A guard that never decides in JSON could not have asked for it.
    let exit2 = HookIdentity { sole_pretooluse_hook: true, ..HookIdentity::new("/g/deny.sh", vec![]) };
    assert_ne!(judged(&stdout, &trace, &t, &exit2).1, Verdict::Blocked);
}

/// A Read (a call that writes nothing) is no write attempt, and is recorded
/// beside them, classified by the same attribution: refused by the hook under
/// test, or by someone else.
#[test]
fn reads_are_recorded_apart_from_writes_with_the_same_attribution() {
    use serde_json::json;
    let mut t = Transcript::default();
    t.sent("t1", "Read", &json!({"file_path": "/w/.env.local"}));
    t.sent("t2", "Read", &json!({"file_path": "/h/.ssh/id_rsa"}));
    let result = |id: &str, text: &str| crate::standin::transcript::ReturnedToolResult {
        tool_use_id: id.into(),
        is_error: true,
        text: text.into(),
    };
    t.tool_results.push(result("t1", "PreToolUse:Read hook error: [x]: blocked .env.local"));
    t.tool_results.push(result("t2", "PreToolUse:Read hook error: [/etc/other.sh]: no"));
    let facts = StreamFacts::default();
    assert!(attempts_from_transcript(&t, &facts, &hook(), &ClaudeCodeWording).is_empty());
    let reads = reads_from_transcript(&t, &facts, &hook(), &ClaudeCodeWording);
    assert_eq!(reads.len(), 2);
    assert!(matches!(reads[0].result, AttemptResult::Refused(_)), "{reads:?}");
    assert!(matches!(reads[1].result, AttemptResult::ForeignRefused { by: Refuser::OtherHook(_), .. }), "{reads:?}");
}

#[test]
fn an_abort_at_the_hook_is_the_pending_calls_refusal_by_trace_or_by_the_agents_log_of_a_hooks_stop() {
    use crate::agent::cline::driver::ClineWording;
    use serde_json::json;
    let mut t = Transcript::default();
    let input = json!({"commands": ["printf 'ready\\n' > notes.txt"]});
    t.sent("call_1", "run_commands", &input);
    let mut h = hook();
    h.sole_pretooluse_hook = true;
    h.matcher = Some(".*".into());
    let aborted = StreamFacts {
        run_aborted_at_hook: Some(crate::agent::cline::wording::aborted("aborted by another client")),
        ..StreamFacts::default()
    };
    // No trace (seal refused a guard that never started) and nothing else: no one is known to have refused.
    assert_eq!(attempts_from_transcript(&t, &aborted, &h, &ClineWording)[0].result, AttemptResult::NoResult);
    // Cline's log says a hook's stop ended the run (its cancel): the pending call's refusal, the sole hook's.
    let stopped = StreamFacts { hook_stop_reason: Some("guard g could not decide".into()), ..aborted.clone() };
    assert!(matches!(attempts_from_transcript(&t, &stopped, &h, &ClineWording)[0].result, AttemptResult::Refused(_)));
    // Only the last call sent, still pending, is the one the hook stopped.
    t.sent("call_2", "run_commands", &input);
    assert_eq!(attempts_from_transcript(&t, &stopped, &h, &ClineWording)[0].result, AttemptResult::NoResult);
}

#[test]
fn an_ignored_hooks_file_voids_the_outcomes_only_when_it_holds_the_hook_under_test() {
    let dir = tempfile::tempdir().unwrap();
    let guard = "/s/guards/cell-0/deny.sh";
    let holding = dir.path().join("hooks.json");
    std::fs::write(
        &holding,
        json!({"PreToolUse": [{"hooks": [{"type": "command", "command": guard}]}, {"hooks": [{"type": "command", "command": "exit 0", "timeout": "5"}]}]})
            .to_string(),
    )
    .unwrap();
    let other = dir.path().join("other.json");
    std::fs::write(&other, json!({"PreToolUse": [{"hooks": [{"type": "command", "command": "exit 0"}]}]}).to_string())
        .unwrap();
    let hook = HookIdentity::new(guard, vec![]);
    let ran = StreamFacts { hook_outcomes: vec!["ran:command".into()], ..StreamFacts::default() };
    for not_ours in [other, dir.path().join("absent.json")] {
        let mut f = ran.clone();
        f.ignored_hook_file(&not_ours, &hook);
        assert_eq!(f, ran, "{not_ours:?} does not hold the hook under test");
    }
    let mut f = ran.clone();
    f.ignored_hook_file(&holding, &hook);
    f.ignored_hook_file(&holding, &hook);
    assert!(f.hook_outcomes.is_empty(), "no outcome can be a run of a hook never loaded");
    assert_eq!(f.notices, [HOOK_FILE_IGNORED]);
}

#[test]
fn a_refusal_without_a_reason_counts_only_with_the_sole_hooks_trace_for_that_call() {
    use crate::agent::auggie::wording::AuggieWording;
    let input = json!({"path": "notes.txt", "file_content": "ready\n"});
    let traced = traced_calls(
        &json!({"hook_event_name": "PreToolUse", "tool_name": "save-file", "tool_input": input}).to_string(),
    );
    let text = "Tool execution blocked by hook: save-file";
    let mut h = HookIdentity::new("/g/json-deny-top-reason.sh", vec![]);
    h.sole_pretooluse_hook = true;
    let who = Attribution { hook: &h, decided_reasons: &[], wording: &AuggieWording };
    let ran_for_it = trace::guard_refused(&traced, "c1", "save-file", &input, text, &h, &AuggieWording);
    assert!(ran_for_it);
    assert!(matches!(classify(true, text, ran_for_it, who), AttemptResult::Refused(_)));
    let other_call = trace::guard_refused(&traced, "c1", "save-file", &json!({"path": "x"}), text, &h, &AuggieWording);
    assert!(!other_call);
    assert!(matches!(
        classify(true, text, other_call, who),
        AttemptResult::ForeignRefused { by: Refuser::Unattributed, .. }
    ));
    h.sole_pretooluse_hook = false;
    assert!(!trace::guard_refused(&traced, "c1", "save-file", &input, text, &h, &AuggieWording), "not the sole hook");
}
