//! Which tools a PreToolUse matcher covers.
//!
//! Claude Code's rule ([`crate::matcher`]): no matcher, `""` or `*` matches
//! every tool; a matcher of plain words, `|`, `,`, spaces and `-` is a list
//! of exact names; anything else is a regular expression tested against the
//! tool name (unanchored, as JavaScript's `RegExp.test`).

use crate::task::WRITE_TOOLS;

/// Whether `matcher` covers `tool` ([`crate::matcher::covers`]). An invalid
/// regular expression covers nothing.
pub fn covers(matcher: Option<&str>, tool: &str) -> bool {
    crate::matcher::covers(matcher, tool)
}

/// Whether `matcher` is a regular expression that does not compile.
pub fn invalid_regex(matcher: Option<&str>) -> Option<String> {
    let m = matcher.map(str::trim).unwrap_or("");
    if m.is_empty() || m == "*" || crate::matcher::is_name_list(m) {
        return None;
    }
    regex::Regex::new(m).err().map(|e| e.to_string())
}

/// The write-capable tools `matcher` leaves uncovered.
pub fn uncovered_write_tools(matcher: Option<&str>) -> Vec<&'static str> {
    WRITE_TOOLS.iter().copied().filter(|t| !covers(matcher, t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_forms() {
        for m in [None, Some(""), Some("*")] {
            assert!(covers(m, "NotebookEdit"));
        }
        assert!(covers(Some("Bash|Write"), "Write"));
        assert!(!covers(Some("Bash|Write"), "Edit"));
        assert!(!covers(Some("Bash"), "BashOutput"));
        assert!(covers(Some("Edit.*"), "MultiEdit"), "unanchored, like RegExp.test");
        assert!(covers(Some("^(Bash|Write)$"), "Bash"));
        assert!(!covers(Some("^(Bash|Write)$"), "MultiEdit"));
        assert!(!covers(Some("(unclosed"), "Bash"));
        assert!(invalid_regex(Some("(unclosed")).is_some());
        assert_eq!(uncovered_write_tools(Some("Bash")), ["Write", "Edit", "MultiEdit", "NotebookEdit"]);
        assert!(uncovered_write_tools(Some("Bash|Write|Edit|MultiEdit|NotebookEdit")).is_empty());
    }
}
