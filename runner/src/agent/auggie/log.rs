//! Auggie's own log, `augment-log.txt` in the session's TMPDIR: what it
//! says of the hooks it starts. Read off the bundles of 0.16.1 to 0.36.0
//! (`augment.mjs`, its hook executor), worded alike in each:
//!
//! ```text
//! 2026-12-05 07:58:35.994 [info] 'HookExecutor': Executing 1 hooks in parallel
//! 2026-12-05 07:58:35.994 [info] 'HookExecutor': Executing hook: <command>
//! 2026-12-05 07:58:36.034 [info] 'HookExecutor': Hook execution completed: exitCode=127, shouldContinue=true, time=40ms
//! 2026-12-05 07:46:25.107 [error] 'HookExecutor': Hook execution failed for command '<command>': spawn <file> ENOENT
//! ```
//!
//! `Executing hook:` comes before the spawn, so it is Auggie trying that
//! command. `Hook execution failed for command` is its `catch` (the spawn
//! failed, or its timeout killed the hook): exit code -1 to Auggie. A
//! `completed` line names no command; it is the hook's only when its batch
//! ran that one hook.

/// The logger's name before each message of the hook executor.
const EXECUTOR: &str = "'HookExecutor': ";
/// A batch of hooks starts: `Executing N hooks in parallel`.
const BATCH: (&str, &str) = ("Executing ", " hooks in parallel");
/// One hook is started, its command as the settings give it.
const STARTS: &str = "Executing hook: ";
/// The executor's `catch`: the hook could not run to its end.
const FAILED: (&str, &str) = ("Hook execution failed for command '", "':");
/// A hook's process closed: `exitCode=N, ...` (a signal reads as 0).
const COMPLETED: &str = "Hook execution completed: exitCode=";

/// The failures of the hook whose command is one of `commands`, in Auggie's
/// log `log`, as outcomes (`error:N`, N the exit code Auggie read, -1 when it
/// could not run the hook): `None` when the log never says it started that
/// hook. A hook that answered (exit 0 or 2) adds no outcome: its guard's
/// trace already says it ran. Only lines that name the command, or the one
/// hook of a batch, are this hook's.
pub fn failures(log: &str, commands: &[&str]) -> Option<Vec<String>> {
    let ours = |c: &str| commands.iter().any(|k| !k.is_empty() && *k == c);
    let mut started = false;
    let mut outcomes = Vec::new();
    let mut batch = 0usize;
    // The hook started last in a batch of one, when it is the hook under test.
    let mut sole_is_ours = false;
    for line in log.lines() {
        let Some((_, message)) = line.split_once(EXECUTOR) else { continue };
        if let Some(n) = message.strip_prefix(BATCH.0).and_then(|m| m.strip_suffix(BATCH.1)) {
            batch = n.parse().unwrap_or(0);
            sole_is_ours = false;
        } else if let Some(command) = message.strip_prefix(STARTS) {
            let is_ours = ours(command);
            started |= is_ours;
            sole_is_ours = batch == 1 && is_ours;
        } else if let Some(command) =
            message.strip_prefix(FAILED.0).and_then(|m| m.split_once(FAILED.1)).map(|(c, _)| c)
        {
            if ours(command) {
                outcomes.push("error:-1".to_string());
                sole_is_ours = false;
            }
        } else if let Some(code) = message.strip_prefix(COMPLETED) {
            let code = code.split(',').next().and_then(|c| c.parse::<i64>().ok());
            if let (true, Some(code)) = (sole_is_ours, code) {
                if code != 0 && code != 2 {
                    outcomes.push(format!("error:{code}"));
                }
            }
            sole_is_ours = false;
        }
    }
    started.then_some(outcomes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Auggie 0.36.0's log of `env-interpreter/bare`: env exits 127 before the guard runs.
    const ENV_127: &str = "\
2026-12-05 07:58:35.956 [info] 'hook-integration': Hook execution completed for PromptSubmit
2026-12-05 07:58:35.994 [info] 'HookExecutor': Executing 1 hooks in parallel
2026-12-05 07:58:35.994 [info] 'HookExecutor': Executing hook: /tmp/r/guards/cell-0/env-interpreter.sh
2026-12-05 07:58:36.034 [info] 'HookExecutor': Hook execution completed: exitCode=127, shouldContinue=true, time=40ms
2026-12-05 07:58:36.035 [info] 'hook-integration': Hook execution completed for PreToolUse
";

    /// Its log of `deny/plain`: `GUARD=...` is spawned as a program.
    const PLAIN: &str = "\
2026-12-05 07:46:25.327 [info] 'HookExecutor': Executing 1 hooks in parallel
2026-12-05 07:46:25.333 [info] 'HookExecutor': Executing hook: GUARD=/tmp/r/guards/cell-0/deny.sh /tmp/r/guards/cell-0/plain.sh
2026-12-05 07:46:25.380 [error] 'HookExecutor': Process spawn error: Error: spawn GUARD=/tmp/r/guards/cell-0/deny.sh ENOENT
2026-12-05 07:46:25.390 [error] 'HookExecutor': Hook execution failed for command 'GUARD=/tmp/r/guards/cell-0/deny.sh /tmp/r/guards/cell-0/plain.sh': spawn GUARD=/tmp/r/guards/cell-0/deny.sh ENOENT
2026-12-05 07:46:25.390 [info] 'hook-integration': Hook execution completed for PreToolUse
";

    #[test]
    fn a_hook_auggie_started_and_that_failed_is_its_failure() {
        assert_eq!(
            failures(ENV_127, &["/tmp/r/guards/cell-0/env-interpreter.sh"]),
            Some(vec!["error:127".to_string()])
        );
        let plain = "GUARD=/tmp/r/guards/cell-0/deny.sh /tmp/r/guards/cell-0/plain.sh";
        assert_eq!(failures(PLAIN, &[plain]), Some(vec!["error:-1".to_string()]));
    }

    #[test]
    fn another_hooks_lines_or_a_shared_batch_say_nothing_of_this_hook() {
        assert_eq!(failures(ENV_127, &["/tmp/r/guards/cell-0/deny.sh"]), None, "never started");
        assert_eq!(failures(PLAIN, &["/tmp/r/guards/cell-0/plain.sh"]), None, "a part of the command is not it");
        assert_eq!(failures(ENV_127, &[""]), None);
        assert_eq!(failures("", &["/tmp/r/guards/cell-0/deny.sh"]), None);
        // Two hooks at once: the completed lines name neither, so neither exit is this hook's.
        let two = ENV_127.replace("Executing 1 hooks", "Executing 2 hooks").replace(
            "[info] 'HookExecutor': Hook execution completed",
            "[info] 'HookExecutor': Executing hook: /g/other.sh\nx [info] 'HookExecutor': Hook execution completed",
        );
        assert_eq!(failures(&two, &["/tmp/r/guards/cell-0/env-interpreter.sh"]), Some(vec![]));
    }

    #[test]
    fn a_hook_that_answered_adds_no_outcome() {
        for code in ["0", "2"] {
            let log = ENV_127.replace("exitCode=127", &format!("exitCode={code}"));
            assert_eq!(failures(&log, &["/tmp/r/guards/cell-0/env-interpreter.sh"]), Some(vec![]), "{code}");
        }
    }
}
