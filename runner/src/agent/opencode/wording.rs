//! What OpenCode does with a plugin's refusal: a `tool.execute.before` hook
//! that throws (or rejects) fails the call, and the model gets the bare
//! thrown message as the tool's result, with no error flag and nothing that
//! names a plugin. So the words tie a refusal to no one: a refusal counts as
//! the guard's only when the plugin's own trace shows it threw for that very
//! call id and the `--format json` stream shows that call failed
//! ([`super::stream`], `crate::evidence::trace`).

use crate::agent::wording::RefusalWording;

/// OpenCode's words for a refused call: the thrown message, bare.
#[derive(Debug)]
pub struct OpenCodeWording;

impl RefusalWording for OpenCodeWording {
    /// Every plugin's refusal is the bare message it threw: the reason is
    /// the whole text (whose it is, only the trace and the stream say).
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        let text = text.trim();
        Some((!text.is_empty()).then_some(text))
    }

    /// No words of OpenCode's tell of a plugin's refusal.
    fn names_hook_refusal(&self, _text: &str) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bare_message_is_the_reason_and_names_no_hook() {
        let w = OpenCodeWording;
        assert_eq!(w.uniform_refusal(" failopen guard: refused bash\n"), Some(Some("failopen guard: refused bash")));
        assert_eq!(w.uniform_refusal(""), Some(None));
        assert!(!w.names_hook_refusal("failopen guard: refused bash"));
        assert!(!w.names_refusing_hook() && !w.is_unflagged_refusal("x"));
    }
}
