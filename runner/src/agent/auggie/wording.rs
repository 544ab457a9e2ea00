//! What Auggie CLI sends back about a hook's refusal, read off 0.36.0
//! (`formatHookBlockingMessages` in its bundle, and measured: docs/auggie.md).
//! A PreToolUse hook that exits 2, or prints Claude Code's JSON
//! `permissionDecision: "deny"`, stops the call, and the model gets an
//! error result `<reason>\n\nPreToolUse:<tool> hook returned blocking
//! error` (an exit 2's reason is its stderr after `[hook:PreToolUse]: `),
//! or `Tool execution blocked by hook: <tool>` when there is no reason.
//! The words name no hook, only the event: every hook's refusal reads alike.

use crate::agent::wording::RefusalWording;

/// The end of a refusal that gave a reason (before it, `\n\n`).
const BLOCKING_TAIL: &str = " hook returned blocking error";

/// The start of a refusal that gave no reason.
pub const NO_REASON: &str = "Tool execution blocked by hook: ";

/// How an exit 2's stderr is introduced.
const STDERR_PREFIX: &str = "[hook:PreToolUse]: ";

/// How `auggie --print` tells its user of a hook that ended in neither 0
/// nor 2 (`Failed with non-blocking status code ${exitCode}: ${stderr}`),
/// and the stderr Auggie gives a hook it could not run to its end: the
/// executor's `catch` (a spawn error such as `spawn <file> ENOENT` or
/// `EACCES`, or its own timeout) answers exit code -1 with the stderr
/// `Hook '${command}' failed: ${message}`. Read off the bundles of 0.16.1
/// to 0.36.0 (`augment.mjs`), worded alike in each; the same failure is the
/// `Hook execution failed for command '<command>'` line of its log.
const FAILED_TO_RUN: (&str, &str) = ("Failed with non-blocking status code -1: Hook '", "' failed: ");

/// How many times Auggie's stdout says it tried to run the hook whose
/// command is one of `commands` and the hook failed before answering (it
/// could not start, or it outlived its timeout): one
/// [`FAILED_TO_RUN`] line each, naming that command exactly. A hook that
/// never leaves a trace (no shell, so `GUARD=... wrapper` or a script it
/// cannot exec never starts) was still tried by Auggie when such a line
/// names it; another hook's line, or a line in a guard's own words, is not.
pub fn failed_to_run(stdout: &str, commands: &[&str]) -> usize {
    let (head, tail) = FAILED_TO_RUN;
    stdout
        .lines()
        .filter_map(|line| line.strip_prefix(head))
        .filter(|rest| {
            commands.iter().any(|c| !c.is_empty() && rest.strip_prefix(c).is_some_and(|r| r.starts_with(tail)))
        })
        .count()
}

/// Auggie's words for a refused call.
#[derive(Debug)]
pub struct AuggieWording;

impl RefusalWording for AuggieWording {
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        let text = text.trim();
        if text.starts_with(NO_REASON) {
            return Some(None);
        }
        let (reason, tail) = text.rsplit_once("\n\n")?;
        if !(tail.starts_with("PreToolUse:") && tail.ends_with(BLOCKING_TAIL)) {
            return None;
        }
        let reason = reason.strip_prefix(STDERR_PREFIX).unwrap_or(reason).trim();
        Some((!reason.is_empty()).then_some(reason))
    }

    fn names_hook_refusal(&self, text: &str) -> bool {
        self.uniform_refusal(text).is_some()
    }

    /// `Tool execution blocked by hook: <tool>`.
    fn is_reasonless_hook_refusal(&self, text: &str) -> bool {
        text.trim().starts_with(NO_REASON)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_gives_the_hooks_reason_and_other_errors_are_none() {
        let w = AuggieWording;
        let exit2 = "[hook:PreToolUse]: this session may not write files (failopen deny guard)\n\nPreToolUse:save-file hook returned blocking error";
        assert_eq!(w.uniform_refusal(exit2), Some(Some("this session may not write files (failopen deny guard)")));
        assert_eq!(w.uniform_refusal("Tool execution blocked by hook: launch-process"), Some(None));
        assert_eq!(w.uniform_refusal("Command failed\n\nexit code 1"), None);
        assert!(w.names_hook_refusal(exit2));
        assert!(!w.names_hook_refusal("File saved."));
    }

    /// Auggie 0.36.0's stdout for `missing/bare`, `deny/plain` (the
    /// article's `GUARD=... plain.sh`, which Auggie spawns as a program
    /// named `GUARD=...`) and an exit 1 (the guard ran and said so itself).
    const MISSING: &str = "Failed with non-blocking status code -1: Hook '/tmp/r/guards/cell-1/missing-guard.sh' failed: spawn /tmp/r/guards/cell-1/missing-guard.sh ENOENT\n\n\u{1b}[90m\u{1f527} Tool call: launch-process\u{1b}[0m\n   command: \"printf 'ready\\n' > notes.txt\"\n";
    const PLAIN: &str = "Failed with non-blocking status code -1: Hook 'GUARD=/tmp/r/guards/cell-0/deny.sh /tmp/r/guards/cell-0/plain.sh' failed: spawn GUARD=/tmp/r/guards/cell-0/deny.sh ENOENT\n\n";
    const TIMED_OUT: &str = "Failed with non-blocking status code -1: Hook '/tmp/r/guards/cell-0/deny.sh' failed: Hook execution timed out after 3ms\n";
    const EXIT_1: &str = "Failed with non-blocking status code 1: Hook '/tmp/r/guards/cell-0/crash.sh' failed: boom\n";

    #[test]
    fn a_hook_auggie_tried_and_could_not_run_is_named_by_its_exact_command() {
        assert_eq!(failed_to_run(MISSING, &["/tmp/r/guards/cell-1/missing-guard.sh"]), 1);
        let plain = "GUARD=/tmp/r/guards/cell-0/deny.sh /tmp/r/guards/cell-0/plain.sh";
        assert_eq!(failed_to_run(PLAIN, &[plain]), 1);
        assert_eq!(failed_to_run(TIMED_OUT, &["/tmp/r/guards/cell-0/deny.sh"]), 1);
        // Another hook's failure, a prefix of the command, or no command: not this hook.
        assert_eq!(failed_to_run(MISSING, &["/tmp/r/guards/cell-1/other.sh"]), 0);
        assert_eq!(failed_to_run(PLAIN, &["GUARD=/tmp/r/guards/cell-0/deny.sh"]), 0);
        assert_eq!(failed_to_run(PLAIN, &["/tmp/r/guards/cell-0/plain.sh"]), 0);
        assert_eq!(failed_to_run(MISSING, &[""]), 0);
        // A guard that ran and printed these words itself exits with its own code, not -1.
        assert_eq!(failed_to_run(EXIT_1, &["/tmp/r/guards/cell-0/crash.sh"]), 0);
        assert_eq!(failed_to_run("File saved.\n", &["/tmp/r/guards/cell-1/missing-guard.sh"]), 0);
        assert_eq!(
            failed_to_run(&format!("  {MISSING}"), &["/tmp/r/guards/cell-1/missing-guard.sh"]),
            0,
            "at a line's start"
        );
    }
}
