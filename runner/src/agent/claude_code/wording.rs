//! Claude Code's words for a refused call. It names the hook in every
//! refusal (`PreToolUse:<Tool> hook error: [<command>]: ...`, or 1.0's
//! `<Tool> operation blocked by hook:` items), so it has no uniform
//! refusal: [`crate::attribution::refuser`] ties each to its hook.

use crate::agent::wording::RefusalWording;

/// Claude Code's wording.
#[derive(Debug)]
pub struct ClaudeCodeWording;

impl RefusalWording for ClaudeCodeWording {
    fn uniform_refusal<'a>(&self, _text: &'a str) -> Option<Option<&'a str>> {
        None
    }

    /// `PreToolUse:<Tool> hook error: ...` (exit 2 on every version seen
    /// since 2.0.50; JSON deny on 2.1.328), and 1.0's `<Tool> operation
    /// blocked by hook:` with one item per refusing hook. On 2.1.240 a JSON
    /// deny comes back as the bare reason, so the text alone is not enough:
    /// see [`crate::evidence::classify`]'s `not_executed`.
    fn names_hook_refusal(&self, text: &str) -> bool {
        text.contains("PreToolUse") || crate::attribution::blocked_by_hook_items(text).is_some()
    }

    fn names_refusing_hook(&self) -> bool {
        true
    }

    fn is_own_refusal(&self, text: &str) -> bool {
        crate::attribution::is_permission_rule_text(text) || crate::attribution::is_permission_prompt_text(text)
    }
}
