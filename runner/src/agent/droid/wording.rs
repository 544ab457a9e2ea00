//! What Droid says back to the model about a refused tool call, read off
//! 0.215.0 and 0.225.2 (docs/droid.md): `Error: <reason>` for every hook
//! alike, the reason being an exit 2's stderr or a JSON deny's
//! `permissionDecisionReason`, or `Tool execution blocked by hook` when it
//! gives none. The same `Error: ` opens the result of a command that ran
//! and failed (`Error: Command failed (exit code: 3)`), so a refusal is
//! told from a failure by its reason: one the hook under test gives, or any
//! when it is the session's sole PreToolUse hook (failopen wrote the
//! session's HOME and its project holds no `.factory/`).

use crate::agent::wording::RefusalWording;

/// What opens every error result Droid sends back.
pub const ERROR_PREFIX: &str = "Error: ";

/// What Droid sends back for a hook's refusal that gave no reason.
pub const NO_REASON: &str = "Tool execution blocked by hook";

/// What opens the result of a command that ran and failed.
const COMMAND_FAILED: &str = "Command failed (exit code";

/// Droid's words for a refused call.
#[derive(Debug)]
pub struct DroidWording;

impl DroidWording {
    /// The text after `Error: `, trimmed, unless it is a command's own
    /// failure. The prefix is stripped before the text is trimmed: a blank
    /// reason (`Error: \u{b}\u{a0}\n`) leaves `Error:` with nothing after
    /// it, which is still a refusal (without a reason).
    fn refusal(text: &str) -> Option<&str> {
        let rest = text.trim_start().strip_prefix(ERROR_PREFIX)?.trim();
        (!rest.starts_with(COMMAND_FAILED)).then_some(rest)
    }
}

impl RefusalWording for DroidWording {
    /// `Error: <reason>`: the reason, none when it is [`NO_REASON`].
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        let reason = Self::refusal(text)?;
        Some((!reason.is_empty() && reason != NO_REASON).then_some(reason))
    }

    /// `Error: Tool execution blocked by hook`: an exit 2 with nothing on stderr.
    fn is_reasonless_hook_refusal(&self, text: &str) -> bool {
        Self::refusal(text) == Some(NO_REASON)
    }

    /// Any `Error: ` result but a command's own failure may be a hook's
    /// refusal; whose it is, [`crate::attribution::refuser`] says.
    fn names_hook_refusal(&self, text: &str) -> bool {
        Self::refusal(text).is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_error_and_its_reason_and_a_failed_command_is_none() {
        let w = DroidWording;
        assert_eq!(
            w.uniform_refusal("Error: this session may not write files (failopen deny guard)\n"),
            Some(Some("this session may not write files (failopen deny guard)"))
        );
        assert_eq!(w.uniform_refusal("Error: Tool execution blocked by hook"), Some(None));
        assert!(w.names_hook_refusal("Error: json says no"));
        let failed = "Error: Command failed (exit code: 3)\nbad\n\n\n[Process exited with code 3]";
        assert_eq!(w.uniform_refusal(failed), None);
        assert!(!w.names_hook_refusal(failed));
        assert!(!w.names_hook_refusal("Command completed successfully"));
    }

    #[test]
    fn a_blank_reason_is_a_refusal_without_a_reason() {
        let w = DroidWording;
        // The guard's exit 2 with a vertical tab and a no-break space on stderr (deny-blank-reason).
        let blank = "Error: \u{b}\u{a0}\n";
        assert_eq!(w.uniform_refusal(blank), Some(None));
        assert!(w.names_hook_refusal(blank));
        assert_eq!(w.uniform_refusal("Error: "), Some(None));
        assert_eq!(w.uniform_refusal("Error:"), None, "no `Error: ` at all");
    }
}
