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

/// For each tool asked about, how many hook entries cover it: built once
/// for a config, so that "does another hook cover this tool?" is a lookup
/// and the checks stay linear in the number of hooks (asking each entry
/// about every other one took 7 s for 8k hooks).
#[derive(Debug, Default)]
pub struct Coverage {
    counts: std::collections::HashMap<String, usize>,
}

impl Coverage {
    /// The coverage of `tools` by `matchers` (one per guarding entry).
    pub fn of<'a>(matchers: impl IntoIterator<Item = Option<&'a str>>, tools: &[&str]) -> Self {
        let mut counts: std::collections::HashMap<String, usize> = tools.iter().map(|t| (t.to_string(), 0)).collect();
        for m in matchers {
            for t in tools {
                if covers(m, t) {
                    *counts.get_mut(*t).expect("every tool was counted") += 1;
                }
            }
        }
        Coverage { counts }
    }

    /// How many entries cover `tool`, beyond `own` (1 when the entry asking
    /// covers it itself, else 0). A tool not asked about counts as covered by none.
    pub fn others(&self, tool: &str, own: bool) -> usize {
        self.counts.get(tool).copied().unwrap_or(0).saturating_sub(usize::from(own))
    }
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
    }

    #[test]
    fn coverage_counts_the_other_entries() {
        let c = Coverage::of([Some("Bash"), Some("Bash|Write"), None], &["Bash", "Write", "Edit"]);
        assert_eq!(c.others("Bash", true), 2);
        assert_eq!(c.others("Write", false), 2);
        assert_eq!(c.others("Edit", false), 1);
        assert_eq!(c.others("MultiEdit", false), 0);
        assert!(invalid_regex(Some("(unclosed")).is_some());
        assert_eq!(uncovered_write_tools(Some("Bash")), ["Write", "Edit", "MultiEdit", "NotebookEdit"]);
        assert!(uncovered_write_tools(Some("Bash|Write|Edit|MultiEdit|NotebookEdit")).is_empty());
    }
}
