//! What Codex CLI says back to the model about a tool call, read off
//! 0.149.0 and 0.171.0 (docs/codex.md): the only evidence of a hook's
//! refusal, since `codex exec --json` reports no hook events.

/// How Codex words a PreToolUse hook's refusal to the model:
/// `Command blocked by PreToolUse hook: <reason>. Command: <command>`,
/// for an exit 2 with a reason on stderr and for a JSON deny or block alike.
pub const BLOCKED_PREFIX: &str = "Command blocked by PreToolUse hook: ";

/// What separates the reason from the command in a refusal.
const COMMAND_MARK: &str = ". Command: ";

/// Whether `output` is Codex's wording of a PreToolUse hook's refusal.
pub fn is_hook_refusal(output: &str) -> bool {
    output.starts_with(BLOCKED_PREFIX)
}

/// The hook's reason in a refusal, if `output` is one and gives a reason.
pub fn refusal_reason(output: &str) -> Option<&str> {
    let rest = output.strip_prefix(BLOCKED_PREFIX)?;
    let reason = match rest.rfind(COMMAND_MARK) {
        Some(i) => &rest[..i],
        None => rest,
    };
    Some(reason.trim()).filter(|r| !r.is_empty())
}

/// Whether a tool output tells of a call that did not succeed: a hook's
/// refusal, a shell command that exited non-zero (`Process exited with code
/// N`), a patch that did not apply (`Exit code: N`), or a call Codex
/// aborted or did not support. The Responses API has no `is_error` flag.
pub fn is_error(output: &str) -> bool {
    if is_hook_refusal(output) {
        return true;
    }
    let code_after =
        |mark: &str| output.lines().find_map(|l| l.strip_prefix(mark)).and_then(|c| c.trim().parse::<i64>().ok());
    if let Some(code) = code_after("Process exited with code ").or_else(|| code_after("Exit code: ")) {
        return code != 0;
    }
    output == "aborted" || output.starts_with("unsupported call")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_codex_refusals_and_failures() {
        let blocked =
            "Command blocked by PreToolUse hook: no writes (failopen). Command: printf 'ready\\n' > notes.txt";
        assert!(is_hook_refusal(blocked) && is_error(blocked));
        assert_eq!(refusal_reason(blocked), Some("no writes (failopen)"));
        assert_eq!(refusal_reason("Command blocked by PreToolUse hook: . Command: x"), None);
        let ran =
            "Chunk ID: 1\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 0\nOutput:\n";
        assert!(!is_error(ran));
        assert!(is_error(&ran.replace("code 0", "code 1")));
        assert!(!is_error(
            "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA notes.txt\n"
        ));
        assert!(is_error("aborted"));
        assert!(!is_hook_refusal("Process exited with code 2\nOutput:\nCommand blocked by PreToolUse hook: x"));
    }
}
