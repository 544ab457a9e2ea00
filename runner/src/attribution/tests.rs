//! Unit tests of [`super`] (attribution.rs).

use super::*;
use crate::agent::auggie::wording::AuggieWording;
use crate::agent::claude_code::wording::ClaudeCodeWording;
use crate::agent::codex::driver::CodexWording;
use crate::agent::copilot::driver::CopilotWording;
use crate::agent::droid::wording::DroidWording;
use crate::agent::gemini::driver::GeminiWording;

/// [`super::refuser`] in Claude Code's words, the agent of most of these tests.
fn refuser(text: &str, hook: &HookIdentity, decided_reasons: &[String]) -> Refuser {
    super::refuser(text, hook, decided_reasons, &ClaudeCodeWording)
}

fn ours() -> HookIdentity {
    HookIdentity::new("/g/crash.sh", vec!["this session may not write files (failopen json-deny guard)".into()])
}

#[test]
fn a_codex_refusal_is_ours_by_its_reason_or_as_the_only_hook_codex_loads() {
    let mut h = ours();
    let json = "Command blocked by PreToolUse hook: this session may not write files (failopen json-deny guard). Command: printf";
    assert_eq!(super::refuser(json, &h, &[], &CodexWording), Refuser::HookUnderTest, "one of its own reasons");
    let exit2 =
        "Command blocked by PreToolUse hook: guard could not decide (exit 1), refusing by default. Command: printf";
    assert_eq!(super::refuser(exit2, &h, &[], &CodexWording), Refuser::Unattributed, "another hook may have said it");
    h.sole_pretooluse_hook = true;
    assert_eq!(super::refuser(exit2, &h, &[], &CodexWording), Refuser::HookUnderTest, "no other hook could have");
    assert_eq!(
        super::refuser("Command blocked by PreToolUse hook: . Command: x", &h, &[], &CodexWording),
        Refuser::Unattributed,
        "no reason"
    );
    h.sole_pretooluse_hook = true;
    let gemini = "Tool execution blocked: guard could not decide (exit 1)";
    assert_eq!(super::refuser(gemini, &h, &[], &GeminiWording), Refuser::HookUnderTest);
    h.sole_pretooluse_hook = false;
    assert_eq!(super::refuser(gemini, &h, &[], &GeminiWording), Refuser::Unattributed);
}

#[test]
fn only_the_wording_of_the_agent_that_ran_counts() {
    let mut h = ours();
    h.sole_pretooluse_hook = true;
    let codex = "Command blocked by PreToolUse hook: this session may not write files (failopen json-deny guard). Command: printf";
    let gemini = "Tool execution blocked: this session may not write files (failopen json-deny guard)";
    let claude = "PreToolUse:Bash hook error: [/g/crash.sh]: no";
    assert_eq!(super::refuser(codex, &h, &[], &CodexWording), Refuser::HookUnderTest);
    assert_eq!(super::refuser(codex, &h, &[], &GeminiWording), Refuser::Unattributed, "Codex's words on Gemini");
    assert_eq!(
        super::refuser(codex, &h, &[], &ClaudeCodeWording),
        Refuser::Unattributed,
        "Codex's words on Claude Code"
    );
    assert_eq!(super::refuser(gemini, &h, &[], &CodexWording), Refuser::Unattributed, "Gemini's words on Codex");
    assert_eq!(super::refuser(claude, &h, &[], &ClaudeCodeWording), Refuser::HookUnderTest);
    assert_eq!(super::refuser(claude, &h, &[], &CodexWording), Refuser::Unattributed, "Claude Code's words on Codex");
    assert_eq!(super::refuser(claude, &h, &[], &GeminiWording), Refuser::Unattributed, "Claude Code's words on Gemini");
}

#[test]
fn the_generic_deny_is_ours_only_as_the_sole_hook_with_json_decisions() {
    let mut h = ours();
    assert_eq!(refuser(GENERIC_HOOK_DENY, &h, &[]), Refuser::Unattributed);
    h.sole_pretooluse_hook = true;
    assert_eq!(refuser(GENERIC_HOOK_DENY, &h, &[]), Refuser::HookUnderTest);
    assert_eq!(refuser("Hook requested permission behavior: ask", &h, &[]), Refuser::Unattributed);
    // 2.1.240's wording of a deny without permissionDecisionReason.
    assert_eq!(refuser("Hook PreToolUse:Write denied this tool", &h, &[]), Refuser::HookUnderTest);
    assert!(!is_generic_hook_deny("Hook PreToolUse: denied this tool"));
    assert!(!is_generic_hook_deny("Hook PreToolUse:Write denied this tool, and more"));
    // A guard that never decides in JSON cannot have asked for this.
    h.reasons.clear();
    assert_eq!(refuser(GENERIC_HOOK_DENY, &h, &[]), Refuser::Unattributed);
    assert_eq!(refuser("Hook PreToolUse:Write denied this tool", &h, &[]), Refuser::Unattributed);
}

#[test]
fn claude_code_1_0_lists_the_refusing_hooks() {
    let h = ours();
    // Recorded on 1.0.61: an exit-2 refusal, then a JSON deny.
    assert_eq!(refuser("Bash operation blocked by hook:\n- [/g/crash.sh]: no\n", &h, &[]), Refuser::HookUnderTest);
    let json = "Write operation blocked by hook:\n- this session may not write files (failopen json-deny guard)";
    assert_eq!(refuser(json, &h, &[]), Refuser::HookUnderTest);
    // Another hook beside ours: not the hook under test's refusal alone.
    let both = "Bash operation blocked by hook:\n- [/g/crash.sh]: no\n- [/etc/policy.sh]: company";
    assert_eq!(refuser(both, &h, &[]), Refuser::OtherHook("/etc/policy.sh".into()));
    // An unknown reason, or no item at all, ties to nobody.
    assert_eq!(refuser("Bash operation blocked by hook:\n- go away", &h, &[]), Refuser::Unattributed);
    assert_eq!(refuser("Bash operation blocked by hook:", &h, &[]), Refuser::Unattributed);
    // The header must open the text, after a tool's name.
    assert_eq!(blocked_by_hook_items("the Bash operation blocked by hook:\n- [/g/crash.sh]: no"), None);
    assert_eq!(blocked_by_hook_items("note: operation blocked by hook:\n- x").map(|v| v.len()), None);
}

#[test]
fn the_bracket_names_the_hook() {
    let h = ours();
    assert_eq!(refuser("PreToolUse:Bash hook error: [/g/crash.sh]: no\n", &h, &[]), Refuser::HookUnderTest);
    // A managed or sibling hook names its own command (2.1.240 and 2.1.328 alike).
    let other = "PreToolUse:Bash hook error: [printf \"company policy: no writes\\n\" >&2; exit 2]: company policy";
    assert_eq!(
        refuser(other, &h, &[]),
        Refuser::OtherHook("printf \"company policy: no writes\\n\" >&2; exit 2".into())
    );
    // A label that merely starts with ours is not ours.
    assert_eq!(
        refuser("PreToolUse:Bash hook error: [/g/crash.sh --x]: no", &h, &[]),
        Refuser::OtherHook("/g/crash.sh --x".into())
    );
    // Wrapped in <tool_use_error> (seen with a managed hook's refusal, 2.1.328).
    let wrapped = "<tool_use_error>PreToolUse:Write hook error: [/usr/local/bin/company.sh]: review </tool_use_error>";
    assert_eq!(refuser(wrapped, &h, &[]), Refuser::OtherHook("/usr/local/bin/company.sh".into()));
    let ours_wrapped = "<tool_use_error>PreToolUse:Write hook error: [/g/crash.sh]: no</tool_use_error>";
    assert_eq!(refuser(ours_wrapped, &h, &[]), Refuser::HookUnderTest);
    // onFailure's own wording keeps the bracket.
    let native = "PreToolUse:Write hook error: [/g/crash.sh]: failed; blocking because onFailure is \"block\" boom";
    assert_eq!(refuser(native, &h, &[]), Refuser::HookUnderTest);
}

#[test]
fn json_decisions_are_known_by_their_reason() {
    let h = ours();
    let reason = "this session may not write files (failopen json-deny guard)";
    assert_eq!(refuser(&format!("PreToolUse:Write hook error: {reason}"), &h, &[]), Refuser::HookUnderTest);
    // 2.1.240 gives the bare reason.
    assert_eq!(refuser(reason, &h, &[]), Refuser::HookUnderTest);
    // An agent hook's refusal carries Claude Code's preamble (2.1.328).
    let agent = format!("PreToolUse:Bash hook error: Agent hook condition was not met: {reason}");
    assert_eq!(refuser(&agent, &h, &[]), Refuser::HookUnderTest);
    assert_eq!(refuser(&format!("PreToolUse:Bash hook error: a{reason}"), &h, &[]), Refuser::Unattributed);
    // Another hook's JSON deny: not ours, even though it names PreToolUse.
    assert_eq!(refuser("PreToolUse:Write hook error: company json policy", &h, &[]), Refuser::Unattributed);
    assert_eq!(refuser("company json policy", &h, &["company json policy".into()]), Refuser::Unattributed);
}

#[test]
fn hook_events_count_only_when_ours_is_the_sole_hook() {
    let mut h = HookIdentity::new("python3 /u/g.py", vec![]);
    let seen = vec!["only src/ may change".to_string()];
    assert_eq!(refuser("PreToolUse:Write hook error: only src/ may change", &h, &seen), Refuser::Unattributed);
    h.sole_pretooluse_hook = true;
    assert_eq!(refuser("PreToolUse:Write hook error: only src/ may change", &h, &seen), Refuser::HookUnderTest);
    assert_eq!(refuser("PreToolUse:Write hook error: something else", &h, &seen), Refuser::Unattributed);
    // An empty reason is never enough.
    assert_eq!(refuser("PreToolUse:Write hook error: ", &h, &[String::new()]), Refuser::Unattributed);
}

#[test]
fn a_plugins_hook_is_known_by_either_spelling_and_permission_request_refusals_by_theirs() {
    let mut h = HookIdentity::new("${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh", vec![]);
    h.aliases = vec!["/p/35/hooks/deny.sh".into()];
    // 2.1.240 writes the command as given; 2.1.328 with the directory put in, and a line naming the plugin.
    let old = "PreToolUse:Bash hook error: [${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh]: no";
    let new =
        "PreToolUse:Bash hook error: [/p/35/hooks/deny.sh]: no\nThis hook comes from the failopen-guard@inline plugin.";
    assert_eq!(refuser(old, &h, &[]), Refuser::HookUnderTest);
    assert_eq!(refuser(new, &h, &[]), Refuser::HookUnderTest);
    let elsewhere = "PreToolUse:Bash hook error: [/p/36/hooks/deny.sh]: no";
    assert_eq!(refuser(elsewhere, &h, &[]), Refuser::OtherHook("/p/36/hooks/deny.sh".into()));
    // A PermissionRequest hook's onFailure refusal opens with the bracket (2.1.295 on).
    let h = HookIdentity::new("/g/crash.sh", vec![]);
    let native = "[/g/crash.sh]: failed; blocking because onFailure is \"block\"\nguard failed before deciding";
    assert_eq!(refuser(native, &h, &[]), Refuser::HookUnderTest);
    assert_eq!(refuser("[/etc/x.sh]: failed", &h, &[]), Refuser::OtherHook("/etc/x.sh".into()));
    // Its JSON deny is the bare message, read out of the guard's script.
    let body = include_str!("../../guards/perm-deny.sh");
    let h = HookIdentity::new("/g/perm-deny.sh", reasons_in_script(body));
    assert_eq!(refuser("this session may not write files (failopen perm-deny guard)", &h, &[]), Refuser::HookUnderTest);
    assert_eq!(
        decision_reason(r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"m"}}}"#).as_deref(),
        Some("m")
    );
    assert_eq!(decision_reason(r#"{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}"#), None);
}

#[test]
fn claude_codes_own_refusal_for_want_of_a_grant_is_named() {
    let h = ours();
    for text in [
        "Claude requested permissions to write to /w/notes.txt, but you haven't granted it yet.",
        "Output redirection to '/w/notes.txt' needs approval. The path is inside the working directories",
        "Output redirection to '/w/notes.txt' was blocked. For security, Claude Code may only write to files",
        "Permission to use Bash has been denied because Claude Code is running in don't ask mode.",
    ] {
        assert!(is_permission_prompt_text(text), "{text}");
        assert_eq!(refuser(text, &h, &[]), Refuser::PermissionPrompt, "{text}");
    }
    assert_eq!(Refuser::PermissionPrompt.describe(), "permission-prompt");
    assert!(!is_permission_prompt_text("Output redirection worked"));
}

#[test]
fn permission_rules_are_named() {
    let text = "Permission to use Bash with command printf 'ready\\n' > notes.txt has been denied.";
    assert_eq!(refuser(text, &ours(), &[]), Refuser::PermissionRule);
    let path = "<tool_use_error>File is in a directory that is denied by your permission settings.</tool_use_error>";
    assert!(is_permission_rule_text(path));
    assert_eq!(refuser(path, &ours(), &[]), Refuser::PermissionRule);
    assert!(!is_permission_rule_text("EACCES: permission denied"));
}

#[test]
fn decision_reasons_come_from_deny_and_ask_only() {
    let deny = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    assert_eq!(decision_reason(deny).as_deref(), Some("no"));
    assert_eq!(decision_reason(&deny.replace("deny", "ask")).as_deref(), Some("no"));
    assert_eq!(decision_reason(&deny.replace("deny", "allow")), None);
    assert_eq!(decision_reason("not json"), None);
}

#[test]
fn reasons_are_read_out_of_guard_scripts() {
    let body =
        r#"printf '%s\n' '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"a (b)"}}'"#;
    assert_eq!(reasons_in_script(body), ["a (b)"]);
    assert!(reasons_in_script("exit 2").is_empty());
}

/// The deny guard's exit-2 reason, as failopen's guards/deny.sh writes it.
const DENY_REASON: &str = "this session may not write files (failopen deny guard)";

/// The deny guard beside `others`, as the session's settings give them, its exit-2 reasons kept as `run` keeps them.
fn deny_beside(others: Option<&[Value]>) -> HookIdentity {
    let body = include_str!("../../guards/deny.sh");
    let mut h = HookIdentity::new("/g/deny.sh", reasons_in_script(body));
    h.exit_reasons = unshared_reasons(exit_reasons_in_script(body), others);
    h
}

fn command(c: &str) -> Value {
    serde_json::json!({"type": "command", "command": c, "timeout": 5})
}

#[test]
fn the_exit_2_reason_is_read_from_the_deny_guards_script() {
    assert_eq!(exit_reasons_in_script(include_str!("../../guards/deny.sh")), vec![DENY_REASON.to_string()]);
    assert!(reasons_in_script(include_str!("../../guards/deny.sh")).is_empty(), "no JSON reason");
    // A blank reason (printf escapes) and stdout only are no reasons.
    assert!(exit_reasons_in_script(include_str!("../../guards/deny-blank-reason.sh")).is_empty());
    assert!(exit_reasons_in_script(include_str!("../../guards/stdout-deny.sh")).is_empty());
    assert!(exit_reasons_in_script("printf 'no (exit 1)\\n' >&2\nexit 1\n").is_empty(), "not an exit 2");
}

#[test]
fn an_exit_2_reason_is_ours_beside_a_crashing_or_allowing_hook_on_agents_that_name_no_hook() {
    let crash = command("cat >/dev/null; printf 'sibling hook failed before deciding\\n' >&2; exit 1");
    let allow = command("cat >/dev/null; exit 0");
    let refusing = command("cat >/dev/null; printf 'sibling hook refuses writes\\n' >&2; exit 2");
    let unknown_key = serde_json::json!({"type": "command", "command": "cat >/dev/null; exit 0", "onFaliure": "block"});
    for others in [vec![crash], vec![allow], vec![refusing], vec![unknown_key]] {
        let h = deny_beside(Some(&others));
        assert_eq!(h.exit_reasons, vec![DENY_REASON.to_string()], "{others:?}");
        let codex = format!("Command blocked by PreToolUse hook: {DENY_REASON}. Command: printf");
        let gemini = format!("Tool execution blocked: {DENY_REASON}");
        let droid = format!("Error: {DENY_REASON}\n");
        assert_eq!(super::refuser(&codex, &h, &[], &CodexWording), Refuser::HookUnderTest);
        assert_eq!(super::refuser(&gemini, &h, &[], &GeminiWording), Refuser::HookUnderTest);
        assert_eq!(super::refuser(&droid, &h, &[], &DroidWording), Refuser::HookUnderTest);
        // Another reason, or the guard's joined with another hook's, is not its alone.
        let joined = format!("Tool execution blocked: {DENY_REASON}\nsibling hook refuses writes");
        assert_eq!(super::refuser(&joined, &h, &[], &GeminiWording), Refuser::Unattributed);
        let other = "Error: sibling hook refuses writes";
        assert_eq!(super::refuser(other, &h, &[], &DroidWording), Refuser::Unattributed);
    }
}

#[test]
fn an_exit_2_reason_another_hook_may_give_is_nobodys() {
    let codex = format!("Command blocked by PreToolUse hook: {DENY_REASON}. Command: printf");
    let same_text = command(&format!("printf '{DENY_REASON}\\n' >&2; exit 2"));
    // Spelled out in pieces, still the same output.
    let echoed = command("echo 'this session may not'   write files '(failopen deny guard)' >&2; exit 2");
    let same_script = command("/elsewhere/deny.sh");
    let through_bash = command("bash -c 'exit 0'");
    let expanded = command("printf \"$REASON\" >&2; exit 2");
    let escaped = command("printf '\\164his session may not write files (failopen deny guard)' >&2; exit 2");
    let reads_a_file = command("cat reason.txt >&2; exit 2");
    let http = serde_json::json!({"type": "http", "url": "http://127.0.0.1:1/deny"});
    let with_env = serde_json::json!({"type": "command", "command": "cat >/dev/null; exit 0", "env": {"A": "1"}});
    for other in
        [same_text, echoed, same_script, through_bash, expanded, escaped, reads_a_file, http, with_env, Value::Null]
    {
        let h = deny_beside(Some(std::slice::from_ref(&other)));
        assert!(h.exit_reasons.is_empty(), "{other}");
        assert_eq!(super::refuser(&codex, &h, &[], &CodexWording), Refuser::Unattributed, "{other}");
    }
}

#[test]
fn an_exit_2_reason_is_nobodys_when_a_hook_failopen_did_not_write_may_run() {
    let h = deny_beside(None);
    assert!(h.exit_reasons.is_empty());
    let droid = format!("Error: {DENY_REASON}\n");
    assert_eq!(super::refuser(&droid, &h, &[], &DroidWording), Refuser::Unattributed);
}

#[test]
fn an_exit_2_reason_does_not_change_claude_codes_bracket_rule() {
    let h = deny_beside(Some(&[command("cat >/dev/null; exit 0")]));
    // Claude Code names the hook: another command in the bracket is that hook's, whatever the reason.
    let other = format!("PreToolUse:Bash hook error: [/elsewhere/deny.sh]: {DENY_REASON}");
    assert_eq!(refuser(&other, &h, &[]), Refuser::OtherHook("/elsewhere/deny.sh".into()));
    let ours = format!("PreToolUse:Bash hook error: [/g/deny.sh]: {DENY_REASON}");
    assert_eq!(refuser(&ours, &h, &[]), Refuser::HookUnderTest);
}

/// A hook's matcher is read as the agent that runs it reads it: Gemini CLI
/// tests it as an unanchored regex, so `write` covers write_file there, and a
/// Copilot entry (no matcher of its own) runs for every tool; by Claude
/// Code's rule (exact names) neither does.
#[test]
fn a_hooks_matcher_covers_a_tool_as_its_agent_reads_it() {
    use crate::agent::Agent;
    let mut h = HookIdentity::new("/g/deny.sh", vec![]);
    h.matcher = Some("bash|write".into());
    assert!(!h.covers("write_file") && !h.covers("task"), "Claude Code's rule: exact names");
    h.matching = Agent::Gemini.driver().hook_vocabulary().matching;
    assert!(h.covers("write_file"), "Gemini's regex finds write in write_file");
    assert!(!h.covers("run_shell_command"));
    h.matching = Agent::Copilot.driver().hook_vocabulary().matching;
    assert!(h.covers("task"), "a Copilot entry has no matcher: every tool");
}

/// The Copilot-worded endings the hook under test's refusals can be credited
/// with, beside `others`.
fn copilot_endings(others: &[Value]) -> Vec<String> {
    unshared_endings(&CopilotWording, Some(others))
}

#[test]
fn copilots_own_words_for_an_ending_are_ours_when_no_other_hook_can_end_so() {
    let exit2 = "Denied by preToolUse hook: hook exited with code 2";
    let errored = r#"Denied by preToolUse hook from "~/.copilot/hooks/failopen.json" (hook errored)"#;
    let both = ["hook exited with code 2", "hook errored"];
    let allow = command("cat >/dev/null; exit 0");
    let crash = command("cat >/dev/null; printf 'sibling hook failed before deciding\\n' >&2; exit 1");
    let refusing = command("printf 'company policy: no writes\\n' >&2; exit 2");
    let json_deny = command(r#"printf '%s\n' '{"hookSpecificOutput":{"permissionDecision":"deny"}}'"#);
    assert_eq!(copilot_endings(std::slice::from_ref(&allow)), both);
    assert_eq!(copilot_endings(std::slice::from_ref(&json_deny)), both, "a %s format cannot fail");
    assert_eq!(copilot_endings(std::slice::from_ref(&crash)), ["hook exited with code 2"], "the sibling may error");
    assert_eq!(copilot_endings(std::slice::from_ref(&refusing)), ["hook errored"], "the other hook may exit 2");
    assert_eq!(copilot_endings(&[command("sleep 10; exit 0")]), ["hook exited with code 2"], "a sleep may time out");
    assert_eq!(copilot_endings(&[command("true; false")]), ["hook exited with code 2"]);
    let spelled = command(r#"printf '%s\n' '{"permissionDecision":"deny","permissionDecisionReason":"hook errored"}'"#);
    assert_eq!(copilot_endings(&[spelled]), ["hook exited with code 2"], "its answer spells the words out");
    let format = command("printf '%d\\n' x >&2; exit 0");
    let with_env = serde_json::json!({"type": "command", "command": "exit 0", "env": {"A": "1"}});
    for other in [command("/elsewhere/guard.sh"), format, with_env, Value::Null] {
        assert!(copilot_endings(&[allow.clone(), other.clone()]).is_empty(), "{other}");
    }
    assert!(unshared_endings(&CopilotWording, None).is_empty(), "a hook failopen did not write may run");
    let codex_beside = unshared_endings(&CodexWording, Some(std::slice::from_ref(&allow)));
    assert!(codex_beside.is_empty(), "Codex gives the hook's own words");
    let mut h = HookIdentity::new("/g/deny.sh", vec![]);
    h.exit_reasons = copilot_endings(&[crash]);
    assert_eq!(super::refuser(exit2, &h, &[], &CopilotWording), Refuser::HookUnderTest);
    assert_eq!(super::refuser(errored, &h, &[], &CopilotWording), Refuser::Unattributed, "the sibling's error?");
    h.exit_reasons = copilot_endings(&[refusing]);
    assert_eq!(super::refuser(errored, &h, &[], &CopilotWording), Refuser::HookUnderTest);
    assert_eq!(super::refuser(exit2, &h, &[], &CopilotWording), Refuser::Unattributed, "the other hook's exit 2?");
}

#[test]
fn a_refusal_without_a_reason_is_the_sole_hooks_only_in_words_that_say_a_hook_refused() {
    let mut h = HookIdentity::new("/g/stdout-deny.sh", vec![]);
    let droid = "Error: Tool execution blocked by hook";
    let auggie = "Tool execution blocked by hook: save-file";
    let blank = "Error: \u{b}\u{a0}\n";
    for (text, wording) in
        [(droid, &DroidWording as &dyn RefusalWording), (auggie, &AuggieWording), (blank, &DroidWording)]
    {
        assert_eq!(super::refuser(text, &h, &[], wording), Refuser::Unattributed, "{text:?}: another hook's?");
    }
    h.sole_pretooluse_hook = true;
    assert_eq!(super::refuser(droid, &h, &[], &DroidWording), Refuser::HookUnderTest);
    assert_eq!(super::refuser(auggie, &h, &[], &AuggieWording), Refuser::HookUnderTest);
    assert_eq!(super::refuser(blank, &h, &[], &DroidWording), Refuser::Unattributed, "a blank reason says no hook");
    assert_eq!(super::refuser(auggie, &h, &[], &DroidWording), Refuser::Unattributed, "Auggie's words on Droid");
}
