//! The expected verdict of every guard under every wrapper (arms/all.json:
//! full + extended + http), with the reasoning, in one place. The article's
//! own arms carry its published table as `expect` in arms/article.json, and
//! arms/trust.json carries its reasoning per arm; tests check those from the
//! arm files.

use failopen::agent::Agent;
use failopen::version::Version;

/// The first Claude Code release that applies `"onFailure": "block"` to a
/// command hook that failed to decide: found by
/// `failopen bisect --arm crash/native --good 2.1.240 --bad 2.1.328`
/// (results/bisect-crash-native.txt). The hooks reference documents the
/// key; 2.1.240 (the article's version) ignores it.
pub const ON_FAILURE_SINCE: &str = "2.1.295";

/// The first release that applies `"onFailure": "block"` to an `mcp_tool`
/// hook that failed: `failopen bisect --arm mcp-error/native --good 2.1.240
/// --bad 2.1.328` (results/bisect-mcp-error-native.txt): 2.1.327 still lets
/// the write through.
pub const MCP_ON_FAILURE_SINCE: &str = "2.1.328";

/// Whether Claude Code `version` honours `onFailure: "block"` on a command
/// (or HTTP) hook.
pub fn honours_on_failure(version: &str) -> bool {
    at_least(version, ON_FAILURE_SINCE)
}

fn at_least(version: &str, since: &str) -> bool {
    let since: Version = since.parse().expect("a version");
    version.parse::<Version>().is_ok_and(|v| v >= since)
}

/// The verdict `guard` under `wrapper` gives on Claude Code `version`.
pub fn expected_on(guard: &str, wrapper: &str, version: &str) -> &'static str {
    let honours =
        if guard.starts_with("mcp-") { at_least(version, MCP_ON_FAILURE_SINCE) } else { honours_on_failure(version) };
    expected(guard, wrapper, honours)
}

/// What Claude Code makes of a guard's answer when nothing wraps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    /// No objection: exit 0 (allow), or an exit 0 / HTTP 200 with nothing
    /// usable in it (garbage-json, http-allow's `{}`): not a failure, so
    /// `onFailure` does not act either.
    Allows,
    /// A refusal Claude Code honours.
    Refuses,
    /// No decision: a failure, and Claude Code lets the call through.
    FailsToDecide,
}

fn answer(guard: &str) -> Answer {
    if let Some(policy) = model_policy(guard) {
        // The stand-in answers the hook's model: a well-formed "ok" allows and a
        // well-formed refusal refuses (on 2.1.240 and 2.1.328 alike, for prompt and
        // agent hooks and for model-command.sh). Every other answer (HTTP 500, 529
        // or 401, a hang past the 5 s timeout, a stream cut mid-answer, text that is
        // not the JSON asked for, an empty answer) is no decision: Claude Code lets
        // the call through (measured on both versions), and model-command.sh exits 1.
        // An mcp_tool hook's server answering with isError, hanging past the
        // timeout, answering garbage, crashing at start or missing (its command does
        // not exist) is no decision either: the write goes through bare on both
        // versions, and 2.1.328's onFailure counts each as a failure, garbage
        // included (docs/mcp-tool-hooks.md).
        return match policy {
            "allow" => Answer::Allows,
            "deny" => Answer::Refuses,
            _ => Answer::FailsToDecide,
        };
    }
    match guard {
        "allow" | "http-allow" | "garbage-json" => Answer::Allows,
        // exit 2, or a JSON deny on exit 0, within the timeout.
        "deny" | "json-deny" | "http-deny"
        // exit 2 in 2 s: inside the 3 s deadline and the 5 s timeout.
        | "slow"
        // exit 2 with the reason on stdout only: the reason is lost, not the exit code.
        | "stdout-deny"
        // exit 2 after 5 MB of stdout.
        | "big-output"
        // exit 2; its `sleep 30 &` holds the pipe, but Claude Code does not wait for EOF (measured).
        | "orphan"
        // exit 2 without reading the payload; Claude Code copes with the closed pipe (measured).
        | "never-reads"
        // exit 2 for any call naming notes.txt, which every article call does.
        | "deny-notes"
        // python3 exits 2 when the script is missing: an accidental deny.
        | "python-missing"
        // "ask" with nobody to answer in `claude -p` is refused (measured on 2.1.240 and 2.1.328).
        | "json-ask"
        // The JSON deny is read although the guard exits 1 (measured on 2.1.240 and 2.1.328;
        // the hooks reference says JSON is read on exit 0 only).
        | "json-deny-exit1" => Answer::Refuses,
        // crash (1), missing (127), json-crash (1), hang (past the 5 s timeout), no-exec (126),
        // bad-interpreter and shell-missing (127), signal (139), HTTP 500 / non-JSON / hang /
        // refused connection: none is a decision (the article's table, and measured).
        _ => Answer::FailsToDecide,
    }
}

/// The model policy of a `prompt-*`, `agent-*` or `model-cmd-*` guard, or
/// the `mcp-guard` policy of an `mcp-*` guard: the same words for the same
/// behaviour (`allow`, `deny`, and failures to decide).
fn model_policy(guard: &str) -> Option<&str> {
    ["prompt-", "agent-", "model-cmd-", "mcp-"].iter().find_map(|p| guard.strip_prefix(p))
}

/// Whether the guard is a prompt or agent hook (not a command or HTTP hook).
fn is_model_hook(guard: &str) -> bool {
    guard.starts_with("prompt-") || guard.starts_with("agent-")
}

/// The verdict `guard` under `wrapper` gives on a Claude Code that does or
/// does not honour `onFailure`: `"blocked"` or `"wrote"`.
pub fn expected(guard: &str, wrapper: &str, honours_on_failure: bool) -> &'static str {
    let bare = if answer(guard) == Answer::Refuses { "blocked" } else { "wrote" };
    match wrapper {
        "bare" => bare,
        // onFailure only acts when the hook failed; decisions pass unchanged. On prompt
        // and agent hooks Claude Code accepts the key (the hook still runs) and ignores
        // it, on 2.1.240 and 2.1.328 alike (measured): the hooks reference accepts
        // onFailure on command and http hooks only.
        "native" if is_model_hook(guard) => bare,
        "native" => match answer(guard) {
            Answer::FailsToDecide if honours_on_failure => "blocked",
            _ => bare,
        },
        // The article's wrappers send the guard's stdout to stderr and pass exit 0 on,
        // so a JSON decision (deny, ask) no longer reaches Claude Code, and an exit 0
        // with garbage stays "no objection".
        "plain" | "timed" if matches!(guard, "allow" | "json-deny" | "json-ask" | "garbage-json") => "wrote",
        // The plain wrapper waits for the hanging guard; the harness kills it first.
        "plain" if guard == "hang" => "wrote",
        // perl's `exec @ARGV` of a file it cannot run fails, and `perl -e` without
        // `or die` then exits 0: the timed wrapper passes a 0 on. A flaw of the
        // article's recipe, kept as published.
        "timed" if matches!(guard, "missing" | "no-exec" | "bad-interpreter") => "wrote",
        // Exit 2 passes on; every other exit (1, 126, 127, 139, the alarm's 142) becomes 2.
        // For big-output that makes the 5 MB of stdout the refusal reason: still a refusal.
        "plain" | "timed" => "blocked",
        // seal refuses every failure to decide (with --expect-json for JSON guards,
        // so garbage JSON is a failure too) and passes decisions through.
        "sealed" => {
            if answer(guard) == Answer::Allows && guard != "garbage-json" {
                "wrote"
            } else {
                "blocked"
            }
        }
        other => panic!("unknown wrapper {other}"),
    }
}

#[test]
fn model_guards_are_reasoned_like_the_others() {
    assert_eq!(expected("prompt-deny", "bare", true), "blocked");
    assert_eq!(expected("prompt-500", "native", true), "wrote", "onFailure does nothing on a prompt hook");
    assert_eq!(expected("model-cmd-500", "native", true), "blocked", "it does on a command hook");
    assert_eq!(expected("model-cmd-hang", "sealed", false), "blocked");
    assert_eq!(expected("model-cmd-allow", "sealed", false), "wrote");
    assert_eq!(expected("mcp-garbage", "native", true), "blocked", "garbage is a failure to an mcp_tool hook");
    assert_eq!(expected("mcp-missing", "native", false), "wrote");
}

#[test]
fn on_failure_is_honoured_from_the_release_bisect_found() {
    assert!(!honours_on_failure("2.1.240"));
    assert!(!honours_on_failure("2.1.294"));
    assert!(honours_on_failure("2.1.295"));
    assert!(honours_on_failure("2.1.328"));
    assert_eq!(expected_on("mcp-error", "native", "2.1.327"), "wrote");
    assert_eq!(expected_on("mcp-error", "native", "2.1.328"), "blocked");
    assert_eq!(expected_on("model-cmd-500", "native", "2.1.295"), "blocked");
}

/// What Codex CLI or Gemini CLI makes of a guard's answer when nothing wraps
/// it, measured on Codex 0.149.0 and 0.171.0 and Gemini 0.45.2 and 0.61.0
/// (docs/codex.md, docs/gemini.md; the same on both versions of each).
fn answer_on(agent: Agent, guard: &str) -> Answer {
    match (agent, guard) {
        (Agent::ClaudeCode, g) => answer(g),
        (_, "allow" | "garbage-json") => Answer::Allows,
        // Neither has Claude Code's `ask`: no decision they honour, so the call runs.
        (_, "json-ask") => Answer::Allows,
        // Exit 2 with a reason on stderr, within the timeout: the one refusal both honour.
        (_, "deny" | "slow" | "big-output" | "deny-notes") => Answer::Refuses,
        // python3 exits 2 and says why on stderr when the script is missing: an accidental deny.
        (_, "python-missing") => Answer::Refuses,
        // Exit 2 with the reason on stdout only: Codex honours exit 2 only with a reason
        // on stderr (else it is a failed hook), Gemini takes any text as the reason.
        (Agent::Codex, "stdout-deny") => Answer::FailsToDecide,
        (Agent::Gemini, "stdout-deny") => Answer::Refuses,
        // Claude Code's JSON (`hookSpecificOutput.permissionDecision: "deny"`): Codex
        // reads it; Gemini reads only its own `{"decision": "deny"}` and ignores it.
        (Agent::Codex, "json-deny") => Answer::Refuses,
        (Agent::Gemini, "json-deny") => Answer::Allows,
        // Gemini blocks on any exit from 2 up with text, so the shell's own "not found"
        // (127), "permission denied" (126) and "bad interpreter" (127) become refusals.
        (Agent::Gemini, "missing" | "no-exec" | "bad-interpreter" | "shell-missing") => Answer::Refuses,
        // Exits 2 with its reason, but its `sleep 30 &` holds the hook's pipes: both wait
        // for them to close, past the 5 s timeout, and the hook counts as failed.
        (_, "orphan") => Answer::FailsToDecide,
        // The JSON deny on exit 1: both read JSON on exit 0 only (Gemini on exit 0 or 2).
        // crash, json-crash (1), hang (past the timeout), signal (killed), and on Codex
        // missing (127), no-exec (126), bad-interpreter, shell-missing: failures, so the call runs.
        _ => Answer::FailsToDecide,
    }
}

/// What Copilot CLI makes of a guard's answer when nothing wraps it,
/// measured on 1.0.102 and 1.0.73 (docs/copilot.md; the same on both). Its
/// contract is the other way round from the others': any exit but 0 is a
/// refusal (exit 2 "Denied by preToolUse hook", any other a "hook errored"
/// it logs as fail-closed), and only an exit 0 or no exit lets the call run.
fn answer_on_copilot(guard: &str) -> Answer {
    match guard {
        // Exit 0 without Copilot's own top-level `permissionDecision`: no objection.
        // Claude Code's JSON (`hookSpecificOutput`) and its `ask` are not read, and
        // garbage is none.
        "allow" | "garbage-json" | "json-ask" | "json-deny" => Answer::Allows,
        // Past `timeoutSec` Copilot says "timed out; allowing the tool call to
        // proceed"; orphan exits 2 but its `sleep 30 &` holds the hook's pipes past
        // the 5 s timeout, so Copilot never sees the exit and times it out too (from
        // [`COPILOT_TIMES_OUT_HELD_PIPES_SINCE`]; before, it waits for the pipes).
        "hang" | "orphan" => Answer::FailsToDecide,
        // Every exit but 0, whatever its cause: deny, slow, big-output, stdout-deny (2);
        // crash, json-crash, json-deny-exit1 (1); missing, bad-interpreter,
        // python-missing's 2, shell-missing (127 or 2); signal (139). And no-exec: Copilot
        // makes a hook's script executable (0644 to 0755) and runs it, so the guard
        // itself refuses with exit 2.
        _ => Answer::Refuses,
    }
}

/// The first Copilot CLI release that times out a hook whose exit it cannot
/// read because a child holds its pipes (orphan: exit 2, then `sleep 30 &`),
/// and lets the call run. 1.0.73 waits the 30 s for the pipes to close and
/// honours the exit 2 (a 69 s session); 1.0.102 gives up at `timeoutSec`.
/// Found by `failopen history --agent copilot` over every release from 1.0.50
/// (results/copilot-history.csv).
pub const COPILOT_TIMES_OUT_HELD_PIPES_SINCE: &str = "1.0.102";

/// The first Copilot CLI release that fails closed on a hook that exits 1
/// ("hook errored"): 1.0.55 lets the call run, 1.0.57 and 1.0.59 leave no
/// file and no refusal (`invalid allowed-without-file`), 1.0.60 refuses
/// (results/copilot-history.csv).
pub const COPILOT_FAILS_CLOSED_SINCE: &str = "1.0.60";

/// The first Copilot CLI release that honours a hook's exit 2: before it,
/// back to 1.0.55, a guard that refuses with exit 2 and its reason on stderr
/// runs and the call goes through, while from 1.0.60 one that crashes is
/// refused (results/copilot-history.csv).
pub const COPILOT_EXIT_2_DENIES_SINCE: &str = "1.0.70";

/// The first TypeScript Agent SDK release whose stream warns its caller
/// that a hook callback failed (a `system`/`informational` message tagged
/// `hook_callback_failed`, the row flag `sdk-notice:hook_callback_failed`):
/// before it the only sign is `Error in hook callback hook_0` on the bundled
/// CLI's stderr, which the caller never sees. Found by `failopen bisect
/// --flag` (results/bisect-sdk-ts-callback-failed-notice.txt) and seen in
/// results/agent-sdk-ts-history.csv.
pub const SDK_TS_CALLBACK_FAILED_NOTICE_SINCE: &str = "0.3.317";

/// The first TypeScript Agent SDK release that honours `onFailure: 'block'`
/// on a hook callback's matcher: before it the key is dropped silently and a
/// throw or garbage lets the call run. Found by `failopen bisect`
/// (results/bisect-sdk-ts-callback-throw-native.txt); arms/sdk.json's native
/// arms change verdict at this release.
pub const SDK_TS_ON_FAILURE_SINCE: &str = "0.3.317";

/// The first Python Agent SDK release whose `HookMatcher` takes
/// `on_failure`: before it, `HookMatcher(on_failure="block")` is a
/// `TypeError` and the program never starts a session (`invalid
/// session-error`); from it, a failed callback under `on_failure="block"` is
/// refused at once (it bundles Claude Code 2.1.317, the release whose
/// callbacks first honour the key, as TypeScript's 0.3.317 does). Found by
/// `failopen bisect --invalid-as-verdict session-error`
/// (results/bisect-sdk-py-callback-throw-native.txt) and seen in
/// results/agent-sdk-py-history.csv; arms/sdk.json's native Python arms
/// change at this release.
pub const SDK_PY_ON_FAILURE_SINCE: &str = "0.2.177";

/// The first Python Agent SDK release whose stream warns its caller that a
/// hook callback failed (`sdk-notice:hook_callback_failed`), the same
/// bundled Claude Code 2.1.317 as [`SDK_TS_CALLBACK_FAILED_NOTICE_SINCE`].
/// Found by `failopen bisect --flag`
/// (results/bisect-sdk-py-callback-failed-notice.txt) and seen in
/// results/agent-sdk-py-history.csv.
pub const SDK_PY_CALLBACK_FAILED_NOTICE_SINCE: &str = "0.2.177";

/// Whether an Agent SDK `version` is `since` or later.
pub fn sdk_at_least(version: &str, since: &str) -> bool {
    at_least(version, since)
}

/// The oldest Copilot CLI release `.ci/run` installs, for
/// `copilot.rs::seal_blocks_on_a_copilot_that_ignores_exit_2`: it ran the
/// call after a guard's exit 2 (before [`COPILOT_EXIT_2_DENIES_SINCE`]).
pub const COPILOT_SEAL_OLDEST_PINNED: &str = "1.0.69";

/// Whether Copilot CLI `version` is `since` or later.
pub fn copilot_at_least(version: &str, since: &str) -> bool {
    at_least(version, since)
}

/// The verdict `guard` under `wrapper` gives on Copilot CLI `version`.
fn expected_on_copilot(guard: &str, wrapper: &str, version: &str) -> &'static str {
    let answer = match answer_on_copilot(guard) {
        Answer::FailsToDecide if guard == "orphan" && !at_least(version, COPILOT_TIMES_OUT_HELD_PIPES_SINCE) => {
            Answer::Refuses
        }
        answer => answer,
    };
    match wrapper {
        // Copilot has no `onFailure`: failopen drops the key, so native is bare.
        "bare" | "native" => {
            if answer == Answer::Refuses {
                "blocked"
            } else {
                "wrote"
            }
        }
        // The article's wrappers turn every exit but 0 and 2 into 2 and pass exit 0
        // on: an exit-0 answer stays an allow; the plain wrapper waits for a hang past
        // the timeout; the wrapper's temp file, not the hook's pipe, holds an orphan's
        // output, so orphan refuses in time.
        "plain" | "timed" if answer == Answer::Allows => "wrote",
        "plain" if guard == "hang" => "wrote",
        // perl cannot exec a missing script or a bad interpreter, and the timed wrapper
        // passes its exit 0 on: the call runs, but Copilot's `-p` output has no hook
        // events and the guard never wrote its trace, so nothing shows the hook ran
        // (`invalid hook-not-run`, as in Claude Code's interactive mode). no-exec too:
        // the wrapper, not Copilot, runs the script, so nothing makes it executable.
        "timed" if matches!(guard, "missing" | "no-exec" | "bad-interpreter") => "invalid",
        "plain" | "timed" => "blocked",
        // seal passes an exit 0 on only when Copilot reads it as the guard meant: an
        // allow with no decision; a Claude-shaped deny or ask, and garbage under
        // --expect-json, become exit 2 (seal/answer/copilot.rs). Every failure is exit 2.
        // On every release: seal writes Copilot's top-level JSON deny beside its exit 2,
        // which 1.0.55 to 1.0.69 honour although they run the call after a bare exit 2
        // (results/copilot-seal.csv, 7 releases from 1.0.55 to 1.0.102).
        "sealed" if guard == "allow" => "wrote",
        "sealed" => "blocked",
        other => panic!("unknown wrapper {other}"),
    }
}

/// The verdict `guard` under `wrapper` gives on `agent` (its expectation on
/// Claude Code is [`expected_on`]'s, which depends on the version).
pub fn expected_on_agent(agent: Agent, guard: &str, wrapper: &str, version: &str) -> &'static str {
    if agent == Agent::ClaudeCode {
        return expected_on(guard, wrapper, version);
    }
    if agent == Agent::Copilot {
        return expected_on_copilot(guard, wrapper, version);
    }
    let bare = if answer_on(agent, guard) == Answer::Refuses { "blocked" } else { "wrote" };
    match wrapper {
        // Neither agent has `onFailure` (Codex ignores the key, Gemini's settings drop it).
        "bare" | "native" => bare,
        // The article's wrappers, as on Claude Code: a JSON decision goes to stderr, the
        // plain wrapper waits for a hang, the timed one passes perl's exit 0 on when the
        // guard cannot be executed; every other exit becomes 2 with a line on stderr, which
        // both agents honour. The wrapper's temp file, not the hook's pipe, holds an
        // orphan's output, so orphan refuses in time.
        "plain" | "timed" if matches!(guard, "allow" | "json-deny" | "json-ask" | "garbage-json") => "wrote",
        "plain" if guard == "hang" => "wrote",
        "timed" if matches!(guard, "missing" | "no-exec" | "bad-interpreter") => "wrote",
        "plain" | "timed" => "blocked",
        // seal passes an exit 0 on only when the agent reads it as the guard meant (with
        // --expect-json, only with a decision for the event; garbage is none) and turns every
        // failure into exit 2 with a reason on stderr, also a silent exit 2 (which Codex would
        // otherwise run).
        "sealed" => match answer_on(agent, guard) {
            Answer::Allows if guard == "garbage-json" => "blocked",
            // Gemini's event is BeforeTool, whose decision is the top-level `decision`:
            // seal finds none in Claude Code's JSON (its deny or ask) and refuses.
            Answer::Allows if agent == Agent::Gemini && matches!(guard, "json-deny" | "json-ask") => "blocked",
            // Codex's payload carries turn_id and model: seal knows Codex has no ask (the call
            // would run on it) and refuses the ask with exit 2 and its reason (issue 29).
            Answer::Allows if agent == Agent::Codex && guard == "json-ask" => "blocked",
            Answer::Allows => "wrote",
            _ => "blocked",
        },
        other => panic!("unknown wrapper {other}"),
    }
}

#[test]
fn the_agents_differ_where_their_contracts_do() {
    let on = |agent, guard, wrapper| expected_on_agent(agent, guard, wrapper, "0");
    assert_eq!(expected_on_agent(Agent::Copilot, "orphan", "bare", "1.0.73"), "blocked", "waits for held pipes");
    assert_eq!(expected_on_agent(Agent::Copilot, "orphan", "bare", "1.0.102"), "wrote", "times them out");
    assert_eq!(on(Agent::Codex, "stdout-deny", "bare"), "wrote", "a silent exit 2 is a failure to Codex");
    assert_eq!(on(Agent::Codex, "stdout-deny", "sealed"), "blocked", "seal gives it a reason");
    assert_eq!(on(Agent::Gemini, "json-deny", "bare"), "wrote", "Gemini ignores Claude Code's JSON");
    assert_eq!(on(Agent::Gemini, "json-deny", "sealed"), "blocked", "seal knows Gemini's decision is not there");
    assert_eq!(on(Agent::Codex, "json-ask", "bare"), "wrote", "an ask is no decision Codex honours");
    assert_eq!(on(Agent::Codex, "json-ask", "sealed"), "blocked", "seal reads Codex's payload and refuses the ask");
    assert_eq!(on(Agent::Gemini, "missing", "bare"), "blocked", "127 with text is a refusal to Gemini");
    assert_eq!(on(Agent::Codex, "crash", "native"), "wrote", "no onFailure outside Claude Code");
    assert_eq!(on(Agent::ClaudeCode, "crash", "native"), "wrote", "2.1.240-era rules for a non-version");
    assert_eq!(on(Agent::Copilot, "crash", "bare"), "blocked", "Copilot fails closed on exit 1");
    assert_eq!(on(Agent::Copilot, "hang", "bare"), "wrote", "but open past its timeout");
    assert_eq!(on(Agent::Copilot, "json-deny", "sealed"), "blocked", "seal refuses a deny Copilot would not read");
    assert_eq!(
        on(Agent::Copilot, "no-exec", "timed"),
        "invalid",
        "nothing shows the timed wrapper's exit 0 ran a hook"
    );
}

/// The first Qwen Code release measured to read a hook's exit code as
/// Claude Code does (only exit 2 refuses; 126, 127 and every other failure
/// are non-blocking): 0.24.4. 0.15.6 reads any exit from 2 up with text as a
/// refusal, as Gemini CLI (of which it is a fork) does (docs/qwen.md).
pub const QWEN_EXIT_2_ONLY_SINCE: &str = "0.24.4";

/// What Qwen Code makes of a guard's answer when nothing wraps it, measured
/// on 0.15.6 and 0.24.4 (docs/qwen.md), from its hook runner
/// (`convertPlainTextToHookOutput`, `executeCommandHook`).
fn answer_on_qwen(guard: &str, version: &str) -> Answer {
    match guard {
        "allow" | "garbage-json" | "json-ask" => Answer::Allows,
        // Exit 2 with the reason on stderr: a refusal, the reason sent back bare.
        "deny" | "slow" | "big-output" | "deny-notes" => Answer::Refuses,
        // Claude Code's JSON on exit 0 (`hookSpecificOutput.permissionDecision: "deny"`): read.
        "json-deny" => Answer::Refuses,
        // The shell's own exit 126 or 127 with its "not found" on stderr: before 0.24.4
        // any exit from 2 up with text is a deny (Gemini CLI's rule); from it, only 2 is.
        "missing" | "no-exec" | "bad-interpreter" | "shell-missing" if !at_least(version, QWEN_EXIT_2_ONLY_SINCE) => {
            Answer::Refuses
        }
        // crash and json-crash (exit 1: a non-blocking error), hang (past the 5 s
        // timeout), and on 0.24.4 missing (127) and its kin: no decision, the call runs.
        _ => Answer::FailsToDecide,
    }
}

/// The verdict `guard` under `wrapper` gives on Qwen Code `version`: as on the
/// other agents without `onFailure` (Qwen's settings drop the key)
/// ([`wrapped_without_on_failure`]); seal reads Qwen's payload as Claude
/// Code's (the same fields) and passes its JSON deny on.
pub fn expected_on_qwen(guard: &str, wrapper: &str, version: &str) -> &'static str {
    wrapped_without_on_failure(guard, wrapper, answer_on_qwen(guard, version))
}

/// The verdict `guard`, whose bare answer is `answer`, gives under `wrapper`
/// on an agent with Claude Code's exit codes and no `onFailure`: the
/// article's wrappers turn a failure into exit 2 with a line on stderr,
/// which it honours; a JSON decision sent to stderr by them is lost; the
/// plain wrapper waits for a hang past the hook's timeout; seal refuses
/// whatever fails to decide.
fn wrapped_without_on_failure(guard: &str, wrapper: &str, answer: Answer) -> &'static str {
    let bare = if answer == Answer::Refuses { "blocked" } else { "wrote" };
    match wrapper {
        "bare" | "native" => bare,
        "plain" | "timed" if matches!(guard, "allow" | "json-deny" | "json-ask" | "garbage-json") => "wrote",
        "plain" if guard == "hang" => "wrote",
        "timed" if matches!(guard, "missing" | "no-exec" | "bad-interpreter") => "wrote",
        "plain" | "timed" => "blocked",
        "sealed" => match answer {
            Answer::Allows if guard == "garbage-json" => "blocked",
            Answer::Allows => "wrote",
            _ => "blocked",
        },
        other => panic!("unknown wrapper {other}"),
    }
}

/// What Droid CLI makes of a guard's answer when nothing wraps it, measured
/// on 0.215.0 and 0.225.2 (docs/droid.md): Claude Code's rule. Exit 2 with a
/// reason and Claude Code's JSON deny refuse; exit 1, the shell's 127 and a
/// hang past the 5 s timeout run the call.
fn answer_on_droid(guard: &str) -> Answer {
    match guard {
        "allow" | "garbage-json" => Answer::Allows,
        "deny" | "json-deny" => Answer::Refuses,
        _ => Answer::FailsToDecide,
    }
}

/// The verdict `guard` under `wrapper` gives on Droid CLI (both measured
/// releases alike): as on the other agents without `onFailure` (Droid has
/// none); seal places Droid's payload by its `permission_mode` and refuses
/// with exit 2 and a reason, which Droid honours.
pub fn expected_on_droid(guard: &str, wrapper: &str) -> &'static str {
    wrapped_without_on_failure(guard, wrapper, answer_on_droid(guard))
}

#[test]
fn qwen_reads_exit_codes_as_gemini_then_as_claude_code() {
    assert_eq!(expected_on_qwen("missing", "bare", "0.15.6"), "blocked", "127 with text is a deny before 0.24.4");
    assert_eq!(expected_on_qwen("missing", "bare", "0.24.4"), "wrote", "only exit 2 refuses from 0.24.4");
    assert_eq!(expected_on_qwen("json-deny", "bare", "0.24.4"), "blocked", "Claude Code's JSON is read");
    assert_eq!(expected_on_qwen("crash", "native", "0.24.4"), "wrote", "no onFailure");
    assert_eq!(expected_on_qwen("crash", "sealed", "0.15.6"), "blocked");
}

#[test]
fn droid_reads_exit_codes_as_claude_code_without_on_failure() {
    assert_eq!(expected_on_droid("missing", "bare"), "wrote", "only exit 2 refuses");
    assert_eq!(expected_on_droid("json-deny", "bare"), "blocked", "Claude Code's JSON is read");
    assert_eq!(expected_on_droid("crash", "native"), "wrote", "no onFailure");
    assert_eq!(expected_on_droid("hang", "plain"), "wrote", "the plain wrapper waits past the timeout");
    assert_eq!(expected_on_droid("hang", "sealed"), "blocked");
}
