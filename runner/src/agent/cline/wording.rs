//! What Cline CLI does with a hook's refusal: a `PreToolUse` hook that
//! prints `{"cancel": true, ...}` aborts the whole run (its `--json` stream
//! ends with `run_aborted`, `aborted by another client`), and no result of
//! the call ever goes back to the model. The session's stream is read into a
//! refusal of the call pending then ([`super::stream`]), worded here, and
//! only when the guard's own trace shows it ran for that very call, or
//! Cline's own log says a hook's stop ended the run ([`super::log`],
//! `crate::evidence`).

/// How failopen words the refusal Cline's stream shows: the run aborted at
/// a PreToolUse hook, with Cline's own message after the colon.
pub const ABORTED_PREFIX: &str = "Cline aborted the run at its PreToolUse hook: ";

/// The refusal text for Cline's abort `message`.
pub fn aborted(message: &str) -> String {
    format!("{ABORTED_PREFIX}{message}")
}

/// Cline's message in a refusal text, if `text` is one.
pub fn aborted_message(text: &str) -> Option<&str> {
    text.strip_prefix(ABORTED_PREFIX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_abort_reads_back() {
        let text = aborted("aborted by another client");
        assert_eq!(aborted_message(&text), Some("aborted by another client"));
        assert_eq!(aborted_message("aborted by another client"), None);
    }
}
