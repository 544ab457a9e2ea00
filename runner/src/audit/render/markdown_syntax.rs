//! Markdown syntax the audit's Markdown reports share (Claude Code's and the
//! other agents'): GitHub tables, and table text and code spans that hold any
//! words as written.

use std::fmt::Write;

/// A GitHub table (or `empty` as a line when there is no row), then a blank line.
pub(in crate::audit) fn table(s: &mut String, header: &[&str], rows: &[Vec<String>], empty: &str) {
    if rows.is_empty() {
        if !empty.is_empty() {
            let _ = writeln!(s, "{empty}\n");
        }
        return;
    }
    let _ = writeln!(s, "| {} |", header.join(" | "));
    let _ = writeln!(s, "|{}", " --- |".repeat(header.len()));
    for row in rows {
        let _ = writeln!(s, "| {} |", row.join(" | "));
    }
    s.push('\n');
}

/// Words as table text: a `|` would end the cell, `<` could open HTML, `*`,
/// `_` and `` ` `` would format, and a newline would end the row.
pub(in crate::audit) fn text(words: &str) -> String {
    let mut out = String::with_capacity(words.len());
    for ch in words.chars() {
        match ch {
            '|' | '*' | '_' | '`' | '[' | ']' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\n' | '\r' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// A code span that holds `literal` as written, inside a table cell: fenced by
/// one backtick more than its longest backtick run, `|` escaped (GitHub reads
/// the table's pipes before the span), newlines as spaces.
pub(in crate::audit) fn code(literal: &str) -> String {
    let one_line = literal.replace(['\n', '\r'], " ").replace('|', "\\|");
    let mut longest = 0;
    let mut run = 0;
    for ch in one_line.chars() {
        run = if ch == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if one_line.starts_with('`') || one_line.ends_with('`') { " " } else { "" };
    format!("{fence}{pad}{one_line}{pad}{fence}")
}
