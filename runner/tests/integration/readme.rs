//! The README fits on a few screens (issue 46): at most [`MAX_WORDS`] words
//! of prose outside code blocks, no table wider than [`MAX_COLUMNS`]
//! columns, no line longer than [`MAX_LINE`] characters; it keeps the test
//! command CI runs (`.ci/run` runs the README's), and it names no path
//! outside the repository. The checker is tried on a README that breaks
//! every limit, so it can fail.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};

use crate::support;

/// Words of prose outside code blocks.
const MAX_WORDS: usize = 1200;
/// Columns of any table.
const MAX_COLUMNS: usize = 6;
/// Characters of any line.
const MAX_LINE: usize = 300;

/// What a README breaks of the limits, one line each (empty: none), and its word count.
fn limits(text: &str) -> (Vec<String>, usize) {
    let mut broken = Vec::new();
    let mut words = 0;
    let mut in_code = false;
    let mut in_head = false;
    let mut head_cells = 0;
    for event in Parser::new_ext(text, Options::ENABLE_TABLES) {
        match event {
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Start(Tag::TableHead) => (in_head, head_cells) = (true, 0),
            Event::Start(Tag::TableCell) if in_head => head_cells += 1,
            Event::End(TagEnd::TableHead) => {
                in_head = false;
                if head_cells > MAX_COLUMNS {
                    broken.push(format!("a table of {head_cells} columns (at most {MAX_COLUMNS})"));
                }
            }
            Event::Text(t) | Event::Code(t) if !in_code => words += t.split_whitespace().count(),
            _ => {}
        }
    }
    if words > MAX_WORDS {
        broken.push(format!("{words} words of prose outside code blocks (at most {MAX_WORDS})"));
    }
    for (i, line) in text.lines().enumerate() {
        let n = line.chars().count();
        if n > MAX_LINE {
            broken.push(format!("line {}: {n} characters (at most {MAX_LINE})", i + 1));
        }
    }
    for outside in ["../", "/work/", "shared/seeds"] {
        if text.contains(outside) {
            broken.push(format!("names a path outside the repository: {outside}"));
        }
    }
    (broken, words)
}

#[test]
fn the_readme_fits_on_a_few_screens() {
    let text = std::fs::read_to_string(support::repo().join("README.md")).unwrap();
    let (broken, words) = limits(&text);
    assert!(broken.is_empty(), "README.md breaks its limits:\n{}", broken.join("\n"));
    assert!(words > 300, "{words} words: is the parser reading the README?");
    assert!(text.contains("```console\n$ cargo test --release"), "the test command CI runs stays in the README");
    let ci = std::fs::read_to_string(support::repo().join(".ci/run")).unwrap();
    assert!(ci.lines().any(|l| l.trim() == "cargo test --release"), ".ci/run runs the README's test command");
}

#[test]
fn a_readme_over_the_limits_is_refused() {
    let columns = format!("| {} |\n|{}\n| {} |\n", ["c"; 7].join(" | "), " --- |".repeat(7), ["x"; 7].join(" | "));
    // Short lines, so that only the one long line below is too long.
    let words = "word word word word word word word word word word\n".repeat(MAX_WORDS / 10 + 1);
    let code = format!("```\n{}```\n", "code code code code code code code code code code\n".repeat(MAX_WORDS / 5));
    let long = "y".repeat(MAX_LINE + 1);
    let text = format!("# t\n\n{columns}\n{words}\n\n{code}\n{long}\n\nsee ../shared/seeds/004\n");
    let (broken, n) = limits(&text);
    assert_eq!(broken.len(), 5, "{broken:#?}");
    assert!(broken[0].starts_with("a table of 7 columns"), "{broken:?}");
    assert!(n > MAX_WORDS && n < MAX_WORDS + 30, "code blocks are not prose: {n} words");
    let (fine, _) = limits(&format!("# t\n\n{}\n\n{code}\n", "word word word word word\n".repeat(20)));
    assert!(fine.is_empty(), "{fine:?}");
}
