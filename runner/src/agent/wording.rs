//! How an agent words a hook's refusal back to the model: the part of an
//! agent's driver that the verdict rule ([`crate::attribution`],
//! [`crate::evidence`]) reads. A leaf, so that those files take the wording
//! of the agent that ran without importing the driver.

/// How a hook ended, as an agent that words the ending itself tells it
/// ([`RefusalWording::ending_reason`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookEnding {
    /// It exited 2.
    Exit2,
    /// It failed: another non-zero exit, a signal, a timeout, or it could not start.
    Failed,
}

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

    /// Whether `text` is a refusal the agent sends back without marking the
    /// result as an error (Copilot CLI's tool_result for a hook's refusal
    /// carries no `is_error`): it is read as one.
    fn is_unflagged_refusal(&self, _text: &str) -> bool {
        false
    }

    /// Whether `text` is this agent's refusal for a hook that gave no
    /// reason, in words that say a hook refused (Droid's `Tool execution
    /// blocked by hook`, Auggie's `Tool execution blocked by hook: <tool>`);
    /// never a blank reason, which a tool's own failure can look like.
    /// [`crate::attribution::refuser`] counts it for the session's sole
    /// PreToolUse hook, and [`crate::evidence::classify`] only when the
    /// guard's trace shows it ran for that very call. False by default.
    fn is_reasonless_hook_refusal(&self, _text: &str) -> bool {
        false
    }

    /// The reason this agent's refusal gives for a hook that ended
    /// `ending`, when it words the ending itself instead of passing on the
    /// hook's words (Copilot CLI: `hook exited with code 2`, `hook
    /// errored`), as [`RefusalWording::uniform_refusal`] returns it. `None`
    /// (the default) when the reason is the hook's own text.
    fn ending_reason(&self, _ending: HookEnding) -> Option<&'static str> {
        None
    }

    /// Whether `text` is the agent's own refusal of a call, not a hook's
    /// (Claude Code: a permission rule's, or a permission nobody granted).
    fn is_own_refusal(&self, _text: &str) -> bool {
        false
    }
}
