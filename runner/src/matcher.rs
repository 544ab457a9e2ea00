//! Which tools a PreToolUse hook entry's `matcher` covers, as Claude Code
//! matches it (read from the 2.1.240 and 2.1.328 binaries, and the hooks
//! reference):
//!
//! - no matcher, an empty one, or `*`: every tool;
//! - a matcher made only of letters, digits, `_`, `|`, `,`, space and `-`:
//!   a list of exact tool names, split on `|` or `,` (so `mcp__fs` is
//!   compared as an exact string and matches no tool of the server `fs`;
//!   2.1.240 warns "matches no tool (it is compared as an exact string)");
//! - anything else: a regular expression, tested unanchored (`mcp__.*`,
//!   `Notebook.*`); one that does not compile matches nothing.
//!
//! Claude Code also knows a few legacy tool names (`Task` for `Agent`), which
//! are matched as the tool's own name. Pure; a leaf.

/// Legacy names Claude Code still matches as today's tool: (old, new).
const ALIASES: &[(&str, &str)] = &[("Task", "Agent")];

/// Whether a PreToolUse entry with `matcher` (None: no `matcher` key) runs for `tool`.
pub fn covers(matcher: Option<&str>, tool: &str) -> bool {
    let Some(m) = matcher.map(str::trim).filter(|m| !m.is_empty() && *m != "*") else { return true };
    let names = std::iter::once(tool).chain(ALIASES.iter().filter(|(_, new)| *new == tool).map(|(old, _)| *old));
    let names: Vec<&str> = names.collect();
    if is_name_list(m) {
        return m.split(['|', ',']).map(str::trim).filter(|n| !n.is_empty()).any(|n| names.contains(&n));
    }
    match regex::Regex::new(m) {
        Ok(re) => names.iter().any(|n| re.is_match(n)),
        Err(_) => false,
    }
}

/// A matcher Claude Code reads as a list of exact names, not as a regex.
pub fn is_name_list(matcher: &str) -> bool {
    !matcher.is_empty()
        && matcher.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '|' | ',' | ' ' | '-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const MCP: &str = "mcp__failopen-fs__write_file";

    #[test]
    fn lists_are_exact_names() {
        let battery = "Bash|Write|Edit|MultiEdit|NotebookEdit";
        for t in ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit"] {
            assert!(covers(Some(battery), t), "{t}");
        }
        assert!(!covers(Some(battery), MCP));
        assert!(!covers(Some("Write"), "NotebookEdit"), "no substring match for a plain name");
        assert!(!covers(Some("write"), "Write"), "case matters");
        assert!(covers(Some("Bash, Write"), "Write"));
    }

    #[test]
    fn the_server_prefix_alone_matches_no_tool_of_it() {
        assert!(!covers(Some("mcp__failopen-fs"), MCP));
        assert!(covers(Some(MCP), MCP));
        assert!(covers(Some("mcp__.*"), MCP));
        assert!(covers(Some("mcp__failopen-fs__.*"), MCP));
        assert!(!covers(Some("mcp__.*"), "Bash"));
    }

    #[test]
    fn empty_star_and_absent_cover_everything_and_bad_regex_nothing() {
        for m in [None, Some(""), Some("*"), Some("  ")] {
            assert!(covers(m, MCP), "{m:?}");
        }
        assert!(!covers(Some("mcp__(.*"), MCP));
        assert!(covers(Some("Notebook.*"), "NotebookEdit"));
    }

    #[test]
    fn legacy_task_matches_agent() {
        assert!(covers(Some("Task"), "Agent"));
        assert!(covers(Some("Agent"), "Agent"));
        assert!(!covers(Some("Task"), "Bash"));
    }
}
