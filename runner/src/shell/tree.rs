//! A hook command's shape: lists, and-or lists, pipelines, groups and
//! simple commands, built from [`lex`](super::lex)'s tokens.
//!
//! Which exit code a hook command ends with depends on this shape (POSIX
//! "Shell Commands"): a list (`a; b`, `a & b`, a newline) exits with its
//! last item's code, an and-or list (`a && b || c`) with the last pipeline
//! that ran, a pipeline (`a | b`) with its last command's (negated by `!`),
//! and `( list )` and `{ list; }` with their list's. This module builds that
//! tree and nothing else: no expansion, and compound commands it does not
//! model (`if`, `while`, `case`, a function definition, ...) are kept as
//! [`Command::Unmodelled`] so a reader can refuse to vouch for them.

use super::lex::{self, is_redirection, Token};

/// `a; b & c`: and-or lists, each with the separator after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct List {
    /// The items, in order, with the operator that ends each (`;`, `&`, a
    /// newline; `None` for the last item when nothing follows it).
    pub items: Vec<(AndOr, Option<String>)>,
}

/// `a && b || c`: pipelines joined by `&&` and `||`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AndOr {
    /// The first pipeline.
    pub first: Pipeline,
    /// Each following pipeline with the operator before it.
    pub rest: Vec<(String, Pipeline)>,
}

/// `! a | b |& c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pipeline {
    /// Whether it starts with `!` (its exit code is negated).
    pub bang: bool,
    /// The commands; more than one means a pipe.
    pub commands: Vec<Command>,
}

/// One command of a pipeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Words (quotes kept) and redirection operators.
    Simple(Simple),
    /// `( list )` (a subshell) or `{ list; }` (a group), with redirections after it.
    Group {
        /// The list inside.
        body: List,
        /// `(`…`)` rather than `{`…`}`.
        subshell: bool,
        /// Redirection operators after the closing `)` or `}`.
        redirections: Vec<String>,
    },
    /// A compound command this module does not model, named by its first
    /// word (`if`, `while`, `until`, `for`, `case`, `select`, `function`,
    /// `coproc`, `NAME()` for a function definition, `<<` for a here-document).
    Unmodelled(String),
}

/// A simple command: its words (quotes kept) and its redirection operators.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Simple {
    /// The words, in order, redirection targets left out.
    pub words: Vec<String>,
    /// The redirection operators (`>`, `2>` shows as `>`, `<`, ...).
    pub redirections: Vec<String>,
}

/// Why a command could not be read as a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError(pub String);

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

/// Reserved words that open a compound command this module does not model.
const UNMODELLED: [&str; 8] = ["if", "while", "until", "for", "case", "select", "function", "coproc"];

/// Parse a command into its tree.
pub fn parse(command: &str) -> Result<List, ParseError> {
    let tokens = lex::tokens(command).map_err(|e| ParseError(e.to_string()))?;
    let mut p = Parser { tokens: &tokens, at: 0 };
    let list = p.list(None)?;
    match p.peek() {
        None => Ok(list),
        Some(t) => Err(ParseError(format!("unexpected {}", shown(t)))),
    }
}

struct Parser<'a> {
    tokens: &'a [Token],
    at: usize,
}

fn shown(t: &Token) -> String {
    match t {
        Token::Word(w) => format!("`{w}`"),
        Token::Operator(o) if o == "\n" => "newline".into(),
        Token::Operator(o) => format!("`{o}`"),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn peek_op(&self) -> Option<&str> {
        match self.peek() {
            Some(Token::Operator(o)) => Some(o),
            _ => None,
        }
    }

    fn peek_word(&self) -> Option<&str> {
        match self.peek() {
            Some(Token::Word(w)) => Some(w),
            _ => None,
        }
    }

    fn skip_newlines(&mut self) {
        while self.peek_op() == Some("\n") {
            self.at += 1;
        }
    }

    /// A list, up to the end, or up to `close` (`)` or the word `}`).
    fn list(&mut self, close: Option<&str>) -> Result<List, ParseError> {
        let mut items = Vec::new();
        self.skip_newlines();
        loop {
            let at_close = |p: &Self| match close {
                Some(")") => p.peek_op() == Some(")"),
                Some(w) => p.peek_word() == Some(w),
                None => false,
            };
            if self.peek().is_none() || at_close(self) {
                break;
            }
            let and_or = self.and_or()?;
            let sep = match self.peek_op() {
                Some(op @ (";" | "&" | "\n")) => {
                    let op = op.to_string();
                    self.at += 1;
                    Some(op)
                }
                _ => None,
            };
            let ended = sep.is_none();
            items.push((and_or, sep));
            if ended {
                break;
            }
            self.skip_newlines();
        }
        if items.is_empty() && close.is_some() {
            return Err(ParseError("an empty `(` `)` or `{` `}`".into()));
        }
        Ok(List { items })
    }

    fn and_or(&mut self) -> Result<AndOr, ParseError> {
        let first = self.pipeline()?;
        let mut rest = Vec::new();
        while let Some(op @ ("&&" | "||")) = self.peek_op() {
            let op = op.to_string();
            self.at += 1;
            self.skip_newlines();
            rest.push((op, self.pipeline()?));
        }
        Ok(AndOr { first, rest })
    }

    fn pipeline(&mut self) -> Result<Pipeline, ParseError> {
        let bang = self.peek_word() == Some("!");
        if bang {
            self.at += 1;
        }
        let mut commands = vec![self.command()?];
        while let Some("|" | "|&") = self.peek_op() {
            self.at += 1;
            self.skip_newlines();
            commands.push(self.command()?);
        }
        Ok(Pipeline { bang, commands })
    }

    fn command(&mut self) -> Result<Command, ParseError> {
        match self.peek() {
            None => Err(ParseError("a command is missing at the end".into())),
            Some(Token::Operator(o)) if o == "(" => {
                self.at += 1;
                let body = self.list(Some(")"))?;
                self.expect_op(")")?;
                Ok(Command::Group { body, subshell: true, redirections: self.redirections()? })
            }
            Some(Token::Word(w)) if w == "{" => {
                self.at += 1;
                let body = self.list(Some("}"))?;
                if self.peek_word() != Some("}") {
                    return Err(ParseError("`{` without its `}`".into()));
                }
                self.at += 1;
                Ok(Command::Group { body, subshell: false, redirections: self.redirections()? })
            }
            Some(Token::Word(w)) if UNMODELLED.contains(&w.as_str()) => {
                let w = w.clone();
                self.at = self.tokens.len();
                Ok(Command::Unmodelled(w))
            }
            Some(Token::Operator(o)) if !is_redirection(o) => Err(ParseError(format!("unexpected `{}`", shown_op(o)))),
            Some(_) => self.simple(),
        }
    }

    fn expect_op(&mut self, op: &str) -> Result<(), ParseError> {
        if self.peek_op() == Some(op) {
            self.at += 1;
            Ok(())
        } else {
            Err(ParseError(format!("`{op}` is missing")))
        }
    }

    fn redirections(&mut self) -> Result<Vec<String>, ParseError> {
        let mut out = Vec::new();
        while let Some(op) = self.peek_op().filter(|o| is_redirection(o)) {
            out.push(op.to_string());
            self.at += 1;
            match self.peek() {
                Some(Token::Word(_)) => self.at += 1,
                _ => return Err(ParseError(format!("`{}` without a target", out.last().unwrap()))),
            }
        }
        Ok(out)
    }

    fn simple(&mut self) -> Result<Command, ParseError> {
        let mut s = Simple::default();
        loop {
            match self.peek() {
                Some(Token::Word(w)) => {
                    s.words.push(w.clone());
                    self.at += 1;
                }
                Some(Token::Operator(o)) if o == "<<" || o == "<<-" => {
                    self.at = self.tokens.len();
                    return Ok(Command::Unmodelled("<<".into()));
                }
                Some(Token::Operator(o)) if is_redirection(o) => s.redirections.extend(self.redirections()?),
                Some(Token::Operator(o)) if o == "(" && s.words.len() == 1 => {
                    // `name()`: a function definition.
                    self.at = self.tokens.len();
                    return Ok(Command::Unmodelled(format!("{}()", s.words[0])));
                }
                _ => break,
            }
        }
        Ok(Command::Simple(s))
    }
}

fn shown_op(o: &str) -> &str {
    if o == "\n" {
        "newline"
    } else {
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn simple(words: &[&str]) -> Command {
        Command::Simple(Simple { words: words.iter().map(|w| w.to_string()).collect(), redirections: vec![] })
    }

    fn one(commands: Vec<Command>) -> Pipeline {
        Pipeline { bang: false, commands }
    }

    #[test]
    fn and_or_lists_and_pipelines() {
        let t = parse("a x || b && ! c | d; e &").unwrap();
        assert_eq!(t.items.len(), 2);
        let (first, sep) = &t.items[0];
        assert_eq!(sep.as_deref(), Some(";"));
        assert_eq!(first.first, one(vec![simple(&["a", "x"])]));
        assert_eq!(first.rest[0], ("||".into(), one(vec![simple(&["b"])])));
        assert_eq!(
            first.rest[1],
            ("&&".into(), Pipeline { bang: true, commands: vec![simple(&["c"]), simple(&["d"])] })
        );
        assert_eq!(t.items[1], (AndOr { first: one(vec![simple(&["e"])]), rest: vec![] }, Some("&".into())));
    }

    #[test]
    fn groups_subshells_and_redirections() {
        let t = parse("( a; b ) >log && { c 2>&1; }").unwrap();
        let AndOr { first, rest } = &t.items[0].0;
        let Command::Group { body, subshell: true, redirections } = &first.commands[0] else { panic!("{t:?}") };
        assert_eq!((body.items.len(), redirections.as_slice()), (2, [">".to_string()].as_slice()));
        let Command::Group { body, subshell: false, .. } = &rest[0].1.commands[0] else { panic!("{t:?}") };
        let Command::Simple(s) = &body.items[0].0.first.commands[0] else { panic!() };
        assert_eq!(
            (s.words.as_slice(), s.redirections.as_slice()),
            (["c".to_string(), "2".into()].as_slice(), [">&".to_string()].as_slice())
        );
    }

    #[test]
    fn unmodelled_compounds_are_named() {
        for (c, name) in [
            ("if a; then b; fi", "if"),
            ("while a; do b; done", "while"),
            ("f() { a; }", "f()"),
            ("g <<EOF\nx\nEOF", "<<"),
        ] {
            let t = parse(c).unwrap();
            assert_eq!(t.items[0].0.first.commands[0], Command::Unmodelled(name.into()), "{c}");
        }
    }

    #[test]
    fn broken_commands_are_errors() {
        for c in ["a &&", "( a", "{ a; ", "| a", "a )", "a >", "'x"] {
            assert!(parse(c).is_err(), "{c}: {:?}", parse(c));
        }
        assert_eq!(parse("a\n\n").unwrap().items.len(), 1);
        assert!(parse("").unwrap().items.is_empty());
    }
}
