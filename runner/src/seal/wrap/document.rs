//! A settings file as text with spans: where each value sits, so that
//! `--install` can change a hook's `command` string in place and leave every
//! other byte (numbers as written, key order, whitespace) as it was.
//!
//! The text must be strict JSON (serde_json decides, and names the line and
//! column of an error) without a repeated key in any object: JSON.parse, and
//! so every agent that reads settings with it, keeps only the last of
//! repeated keys, so whatever sits under the earlier one never takes effect.
//! Such a file is refused with each repeated key and its lines rather than
//! rewritten (a rewrite would drop the earlier block without a word).

use std::fmt;

use jsonc_parser::ast::{Object, Value};
use jsonc_parser::{CollectOptions, ParseOptions};

/// Why a settings text cannot be edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocumentError {
    /// Not JSON.
    Syntax {
        /// serde_json's message without its position.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// Valid JSON whose top level is not an object.
    NotAnObject,
    /// Objects with a key given more than once.
    Duplicates(Vec<Duplicate>),
}

/// One key given more than once in one object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// Where the object is (`hooks.PreToolUse[0]`; empty for the top level).
    pub within: String,
    /// The key.
    pub key: String,
    /// The 1-based line of each occurrence, in order.
    pub lines: Vec<usize>,
}

impl fmt::Display for Duplicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.lines.iter().map(|l| l.to_string()).collect();
        let (last, earlier) = lines.split_last().expect("a duplicate has two lines or more");
        write!(f, "{:?}", self.key)?;
        if !self.within.is_empty() {
            write!(f, " in {}", self.within)?;
        }
        write!(
            f,
            " appears on lines {} and {last}: the agent reads only the last one (line {last}), so what is under line{} {} never takes effect",
            earlier.join(", "),
            if earlier.len() == 1 { "" } else { "s" },
            earlier.join(", ")
        )
    }
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocumentError::Syntax { message, line, column } => {
                write!(f, "cannot parse it as JSON: {message} at line {line}, column {column}")
            }
            DocumentError::NotAnObject => write!(f, "it is not a settings file: its top level is not a JSON object"),
            DocumentError::Duplicates(dups) => {
                write!(f, "it has {} repeated key{}:", dups.len(), if dups.len() == 1 { "" } else { "s" })?;
                for d in dups {
                    write!(f, "\n  {d}")?;
                }
                write!(
                    f,
                    "\na hook under an earlier one never runs; merge each repeated key into one by hand, then run --install again"
                )
            }
        }
    }
}

impl std::error::Error for DocumentError {}

/// Parse `text` into its spans, refusing what [`DocumentError`] lists.
pub fn parse(text: &str) -> Result<Value<'_>, DocumentError> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| DocumentError::Syntax {
        message: crate::json_error::message_without_position(&e),
        line: e.line(),
        column: e.column(),
    })?;
    if !value.is_object() {
        return Err(DocumentError::NotAnObject);
    }
    let strict = ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed = jsonc_parser::parse_to_ast(text, &CollectOptions::default(), &strict).map_err(|e| {
        let (line, column) = line_and_column(text, e.range().start);
        DocumentError::Syntax { message: e.kind().to_string(), line, column }
    })?;
    let root = parsed.value.ok_or(DocumentError::NotAnObject)?;
    let mut dups = Vec::new();
    duplicates(&root, "", text, &mut dups);
    if dups.is_empty() {
        Ok(root)
    } else {
        Err(DocumentError::Duplicates(dups))
    }
}

fn duplicates(value: &Value, within: &str, text: &str, out: &mut Vec<Duplicate>) {
    match value {
        Value::Object(obj) => {
            let mut seen: Vec<(&str, Vec<usize>)> = Vec::new();
            for prop in &obj.properties {
                let line = line_and_column(text, prop.range.start).0;
                match seen.iter_mut().find(|(k, _)| *k == prop.name.as_str()) {
                    Some((_, lines)) => lines.push(line),
                    None => seen.push((prop.name.as_str(), vec![line])),
                }
            }
            for (key, lines) in seen {
                if lines.len() > 1 {
                    out.push(Duplicate { within: within.to_string(), key: key.to_string(), lines });
                }
            }
            for prop in &obj.properties {
                let name = prop.name.as_str();
                let path = if within.is_empty() { name.to_string() } else { format!("{within}.{name}") };
                duplicates(&prop.value, &path, text, out);
            }
        }
        Value::Array(arr) => {
            for (i, v) in arr.elements.iter().enumerate() {
                duplicates(v, &format!("{within}[{i}]"), text, out);
            }
        }
        _ => {}
    }
}

/// The 1-based line and column (in characters) of byte `offset`.
pub fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, column)
}

/// The member `key` of `obj`, if any.
pub fn member<'a, 'b>(obj: &'b Object<'a>, key: &str) -> Option<&'b Value<'a>> {
    obj.properties.iter().find(|p| p.name.as_str() == key).map(|p| &p.value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_keys_are_named_with_their_lines() {
        let text = "{\n  \"env\": {\"A\": \"1\"},\n  \"hooks\": {\n    \"PreToolUse\": [],\n    \"PreToolUse\": [{\"hooks\": [], \"hooks\": []}]\n  },\n  \"env\": {}\n}\n";
        let Err(DocumentError::Duplicates(d)) = parse(text) else { panic!("{:?}", parse(text).map(|_| ())) };
        assert_eq!(
            d,
            [
                Duplicate { within: "".into(), key: "env".into(), lines: vec![2, 7] },
                Duplicate { within: "hooks".into(), key: "PreToolUse".into(), lines: vec![4, 5] },
                Duplicate { within: "hooks.PreToolUse[0]".into(), key: "hooks".into(), lines: vec![5, 5] },
            ]
        );
        let msg = DocumentError::Duplicates(d).to_string();
        assert!(msg.contains("\"env\" appears on lines 2 and 7: the agent reads only the last one (line 7), so what is under line 2 never takes effect"), "{msg}");
        assert!(msg.contains("\"PreToolUse\" in hooks appears on lines 4 and 5"), "{msg}");
        assert!(msg.contains("a hook under an earlier one never runs"), "{msg}");
    }

    #[test]
    fn escaped_keys_are_the_same_key() {
        let Err(DocumentError::Duplicates(d)) = parse(r#"{"a": 1, "\u0061": 2}"#) else { panic!() };
        assert_eq!(d[0].key, "a");
    }

    #[test]
    fn only_strict_json_is_read() {
        for text in ["{\"a\": 1,}", "{// c\n}", "{a: 1}", "{\"a\": 0x1}", "{\"a\": 'x'}", "", "{\"a\": NaN}"] {
            assert!(matches!(parse(text), Err(DocumentError::Syntax { .. })), "{text}");
        }
        assert_eq!(parse("[1]").map(|_| ()), Err(DocumentError::NotAnObject));
        let Err(DocumentError::Syntax { line, column, .. }) = parse("{\n  \"a\": 1,\n  oops\n}") else { panic!() };
        assert_eq!((line, column), (3, 3));
    }

    #[test]
    fn lines_and_columns() {
        assert_eq!(line_and_column("ab\ncé\nx", 7), (3, 1));
        assert_eq!(line_and_column("ab\ncé\nx", 4), (2, 2));
    }
}
