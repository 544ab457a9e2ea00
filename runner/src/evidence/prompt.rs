//! Claude Code's report of a prompt blocked by a UserPromptSubmit hook, and
//! whose refusal it is.

use crate::agent::claude_code::wording::ClaudeCodeWording;
use crate::attribution::{self, HookIdentity, Refuser};

/// Claude Code's report that a UserPromptSubmit hook blocked the prompt
/// (stream-json `system`/`informational`, and the final result, read
/// `UserPromptSubmit operation blocked by hook:\n<refusal>\n\nOriginal
/// prompt: ...` on 2.1.240 and 2.1.328).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PromptBlock {
    /// Who blocked it: the hook under test only when the refusal names its
    /// command in brackets (exit 2) or carries one of its reasons (JSON).
    pub by: Refuser,
    /// The refusal: `[<command>]: <stderr>` or the JSON `reason`.
    pub text: String,
}

/// The header of Claude Code's report of a prompt blocked by a hook.
pub const PROMPT_BLOCKED: &str = "UserPromptSubmit operation blocked by hook:";

/// The refusal in a prompt-blocked report, if `text` is one: the part
/// between the header and `Original prompt:`.
pub fn prompt_block_text(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix(PROMPT_BLOCKED)?;
    let end = rest.find("\n\nOriginal prompt:").unwrap_or(rest.len());
    Some(rest[..end].trim())
}

/// Who a prompt-blocked report's refusal belongs to.
pub fn prompt_block(text: &str, hook: &HookIdentity) -> PromptBlock {
    // The refusal reads like a PermissionRequest's: `[<command>]: <stderr>`, or the bare reason.
    let by = match attribution::refuser(text, hook, &[], &ClaudeCodeWording) {
        Refuser::PermissionRule | Refuser::PermissionPrompt => Refuser::Unattributed,
        by => by,
    };
    PromptBlock { by, text: text.to_string() }
}
