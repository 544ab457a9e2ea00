//! Reading a guard's stream the way the most lenient agent reads it.
//!
//! The agents do not agree on what surrounds an answer: Claude Code, Gemini
//! CLI and Qwen Code trim with JavaScript's `String.prototype.trim()`, which
//! strips U+00A0, U+2028, U+FEFF (a BOM) and the other Unicode spaces;
//! Codex trims with Rust's `str::trim`, which keeps U+FEFF but strips
//! U+0085. Seal strips the union of both ([`trim`]), so whatever any agent
//! would find inside, seal finds too, and it parses JSON strictly
//! ([`parse_json`]): a duplicate key, which one agent may read first and
//! another last, is no answer seal can read.

use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

/// Whether JavaScript's `trim()` or Rust's `str::trim` strips `c`.
pub fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// `text` without what any agent's trim strips at either end.
pub fn trim(text: &str) -> &str {
    text.trim_matches(is_space)
}

/// What a stream holds, once trimmed.
#[derive(Debug, Clone, PartialEq)]
pub enum Stream {
    /// Nothing (or only spaces).
    Empty,
    /// Text that is not JSON and that no agent reads as JSON: a message.
    Text(String),
    /// One JSON value, read strictly.
    Json(Value),
    /// Something an agent may read as JSON, but seal cannot: broken JSON,
    /// a duplicate key, a JSON line among text. Why, in words.
    Unreadable(String),
}

/// Read `bytes` (a guard's stdout or stderr).
pub fn read_stream(bytes: &[u8]) -> Stream {
    let text = String::from_utf8_lossy(bytes);
    let text = trim(&text);
    if text.is_empty() {
        return Stream::Empty;
    }
    match parse_json(text) {
        Ok(value) => Stream::Json(value),
        Err(why) if text.starts_with(['{', '[', '"']) => Stream::Unreadable(why),
        Err(_) if text.lines().any(|l| trim(l).starts_with('{')) => {
            Stream::Unreadable("it mixes a JSON object with other text".into())
        }
        Err(_) => Stream::Text(text.to_string()),
    }
}

/// Parse `text` as exactly one JSON value, refusing duplicate keys.
pub fn parse_json(text: &str) -> Result<Value, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Strict::deserialize(&mut de).map_err(|e| format!("it is not JSON seal can read ({e})"))?;
    de.end().map_err(|e| format!("it is not one JSON value ({e})"))?;
    Ok(value.0)
}

/// A JSON value whose objects have no key twice.
struct Strict(Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Strict, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(v)) = seq.next_element()? {
            items.push(v);
        }
        Ok(Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut object = Map::new();
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "the key {key:?} appears twice, and agents differ on which counts"
                )));
            }
            let Strict(v) = map.next_value()?;
            object.insert(key, v);
        }
        Ok(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trims_what_javascript_and_rust_trim() {
        for space in ["\u{a0}", "\u{2028}", "\u{2029}", "\u{feff}", "\u{85}", "\u{3000}", " \t\r\n\u{b}\u{c}"] {
            assert_eq!(trim(&format!("{space}x{space}")), "x", "{space:?}");
        }
    }

    #[test]
    fn streams_are_told_apart() {
        assert_eq!(read_stream(b" \n"), Stream::Empty);
        assert_eq!(read_stream("\u{feff}".as_bytes()), Stream::Empty, "a lone BOM");
        assert_eq!(read_stream(b"no writes here\n"), Stream::Text("no writes here".into()));
        assert_eq!(read_stream(b"3 files checked"), Stream::Text("3 files checked".into()));
        assert_eq!(read_stream("\u{a0}{\"a\":1}".as_bytes()), Stream::Json(serde_json::json!({"a": 1})));
        assert_eq!(read_stream("\u{2028}null".as_bytes()), Stream::Json(Value::Null));
        assert_eq!(read_stream(b"\"{}\""), Stream::Json(Value::String("{}".into())));
        for bad in [&b"{\"a\":"[..], b"{\"a\":1,\"a\":2}", b"[1,", b"log line\n{\"decision\":\"deny\"}", b"{} {}"] {
            assert!(matches!(read_stream(bad), Stream::Unreadable(_)), "{}", String::from_utf8_lossy(bad));
        }
        let dup = parse_json(r#"{"h":{"p":"allow","p":"deny"}}"#).unwrap_err();
        assert!(dup.contains("\"p\" appears twice"), "{dup}");
    }
}
