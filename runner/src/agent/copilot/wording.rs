//! What Copilot CLI says back to the model about a refused tool call, read
//! off 1.0.73 and 1.0.102 (docs/copilot.md): `Denied by preToolUse hook:
//! <reason>` for every hook alike (an exit 2 reads `hook exited with code
//! 2`, its stderr not shown). Its `-p` output is plain text with no hook
//! events, so these words are the only evidence of a hook's refusal.

/// How Copilot opens a preToolUse hook's refusal, for every hook alike:
/// `Denied by preToolUse hook: <reason>` (an exit 2 reads `hook exited with
/// code 2`, a JSON deny its reason), or `Denied by preToolUse hook from
/// "<hook file>" (hook errored)` for a hook that failed (exit 1, 1.0.73 and
/// 1.0.102 alike: Copilot fails closed on it).
pub const BLOCKED_PREFIX: &str = "Denied by preToolUse hook";

/// The reason of Copilot's refusal after an exit 2: the code, never the hook's stderr.
pub const EXIT_2_REASON: &str = "hook exited with code 2";

/// The reason of Copilot's refusal after a hook that failed (another exit
/// code; it fails closed on those), after the hook file's name.
pub const ERRORED_REASON: &str = "hook errored";

/// Whether `text` is Copilot's wording of a hook's refusal.
pub fn is_hook_refusal(text: &str) -> bool {
    text.trim_start()
        .strip_prefix(BLOCKED_PREFIX)
        .is_some_and(|rest| rest.starts_with(": ") || rest.starts_with(" from \""))
}

/// The hook's reason in a refusal, if `text` is one and gives a reason:
/// after the colon, or the bracketed words after the hook file (`hook errored`).
pub fn refusal_reason(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix(BLOCKED_PREFIX)?;
    let reason = match rest.strip_prefix(": ") {
        Some(reason) => reason,
        None => {
            let from = rest.strip_prefix(" from \"")?;
            from[from.find("\" (")? + 3..].trim_end().strip_suffix(')')?
        }
    };
    Some(reason.trim()).filter(|r| !r.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_copilots_refusals() {
        let exit2 = "Denied by preToolUse hook: hook exited with code 2";
        assert!(is_hook_refusal(exit2));
        assert_eq!(refusal_reason(exit2), Some("hook exited with code 2"));
        assert_eq!(refusal_reason("Denied by preToolUse hook:  "), None);
        assert!(!is_hook_refusal("Tool 'Bash' does not exist."));
        let errored = r#"Denied by preToolUse hook from "/s/home/.copilot/hooks/failopen.json" (hook errored)"#;
        assert!(is_hook_refusal(errored));
        assert_eq!(refusal_reason(errored), Some("hook errored"));
        assert!(!is_hook_refusal("Denied by preToolUse hookery"));
    }
}
