//! Small facts about POSIX shell commands, shared by seal and audit:
//! assignment words, ([`lex`]) a command split into words and operators, and
//! ([`tree`]) those tokens as lists, pipelines, groups and simple commands.

pub mod lex;
pub mod tree;

/// `NAME=value` as a shell assignment word.
pub fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        }
        None => false,
    }
}
