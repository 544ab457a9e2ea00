//! What Continue CLI sends back about a refused call. Its hook runner
//! (`src/hooks/hookRunner.ts`) reads exit 2, `decision: "block"` and Claude
//! Code's `permissionDecision: "deny"`, but on 1.5.45 and 1.5.47 no tool
//! call ever reaches it (docs/continue.md), so there are no words of a
//! hook's refusal to read: none is taken for one. Its own permission
//! system's refusals are known, and are never the hook's.

use crate::agent::wording::RefusalWording;

/// Continue's words when its own permission policy refused a call.
pub const POLICY_REFUSAL: &str = "Command blocked by security policy";

/// Continue's words when a call needing approval was not approved.
pub const USER_REFUSAL: &str = "Permission denied by user";

/// Continue's words for a refused call.
#[derive(Debug)]
pub struct ContinueWording;

impl RefusalWording for ContinueWording {
    /// No words of Continue's are a hook's refusal (none reaches the model).
    fn uniform_refusal<'a>(&self, _text: &'a str) -> Option<Option<&'a str>> {
        None
    }

    fn names_hook_refusal(&self, _text: &str) -> bool {
        false
    }

    /// Its permission system's refusals: another refuser than the hook.
    fn is_own_refusal(&self, text: &str) -> bool {
        let text = text.trim();
        text.starts_with(POLICY_REFUSAL) || text.starts_with(USER_REFUSAL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_continues_own_permission_refusals_are_read_and_never_as_a_hooks() {
        let w = ContinueWording;
        assert!(w.is_own_refusal("Permission denied by user"));
        assert!(w.is_own_refusal("Command blocked by security policy"));
        assert!(!w.is_own_refusal("this session may not write files (failopen deny guard)"));
        assert_eq!(w.uniform_refusal("this session may not write files (failopen deny guard)"), None);
        assert!(!w.names_hook_refusal("Blocked by hook"));
    }
}
