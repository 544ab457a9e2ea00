//! What Qwen Code does with a hook's refusal, read off 0.15.6 and 0.24.4
//! (docs/qwen.md): a PreToolUse hook that exits 2, or prints Claude Code's
//! JSON `permissionDecision: "deny"`, stops the call before it runs, and the
//! model gets the hook's reason bare (its stderr, or its
//! `permissionDecisionReason`; `Tool execution blocked by hook` when it gave
//! none) as the call's error, with nothing that names a hook. Its
//! `stream-json` result lists the call under `permission_denials` (an
//! `execution_denied` error): that, not the words, says the call never ran
//! ([`super::stream`]).

use crate::agent::wording::RefusalWording;

/// What Qwen sends back for a hook's refusal that gave no reason.
pub const NO_REASON: &str = "Tool execution blocked by hook";

/// Qwen's words for a refused call: the hook's reason, bare.
#[derive(Debug)]
pub struct QwenWording;

impl RefusalWording for QwenWording {
    /// Every hook's refusal is its bare reason: the reason is the whole text
    /// (whose it is, only the stream's `permission_denials` and the session's
    /// sole PreToolUse hook say: `crate::attribution::refuser`).
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        let text = text.trim();
        Some((!text.is_empty() && text != NO_REASON).then_some(text))
    }

    /// No words of Qwen's tell of a hook's refusal on their own (a bare
    /// reason reads like any error).
    fn names_hook_refusal(&self, _text: &str) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_its_bare_reason() {
        let w = QwenWording;
        assert_eq!(
            w.uniform_refusal("this session may not write files (failopen deny guard)\n"),
            Some(Some("this session may not write files (failopen deny guard)"))
        );
        assert_eq!(w.uniform_refusal(NO_REASON), Some(None));
        assert_eq!(w.uniform_refusal("  "), Some(None));
        assert!(!w.names_hook_refusal("File path must be absolute: ./notes.txt"));
    }
}
