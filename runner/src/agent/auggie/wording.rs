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
}
