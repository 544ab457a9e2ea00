//! How an agent words a hook's refusal back to the model: the part of an
//! agent's driver that the verdict rule ([`crate::attribution`],
//! [`crate::evidence`]) reads. A leaf, so that those files take the wording
//! of the agent that ran without importing the driver.

/// One agent's words for a refused tool call.
pub trait RefusalWording: Sync + std::fmt::Debug {
    /// When `text` is this agent's uniform wording of a hook's refusal, one
    /// that names no hook (Codex CLI: `Command blocked by PreToolUse hook:
    /// <reason>. Command: ...`): `Some` of the reason, if it gives one.
    /// `None` when it is no such refusal (Claude Code names the hook in its
    /// refusals instead: [`crate::attribution::refuser`] reads those).
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>>;

    /// Whether `text` tells of a hook's refusal, in any of the agent's wordings.
    fn names_hook_refusal(&self, text: &str) -> bool;

    /// Whether its hook refusals name the refusing hook (Claude Code: the
    /// command in brackets, or the guard's own reason), which
    /// [`crate::attribution::refuser`] then reads. An agent whose refusals
    /// are all [`RefusalWording::uniform_refusal`]s names none.
    fn names_refusing_hook(&self) -> bool {
        false
    }

    /// Whether `text` is the agent's own refusal of a call, not a hook's
    /// (Claude Code: a permission rule's, or a permission nobody granted).
    fn is_own_refusal(&self, _text: &str) -> bool {
        false
    }
}
