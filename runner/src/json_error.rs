//! serde_json errors as failopen reports them: the position as numbers,
//! the message without serde's own ` at line L column C` suffix.

/// The error's message without its position suffix.
pub fn message_without_position(e: &serde_json::Error) -> String {
    let msg = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    msg.strip_suffix(&suffix).unwrap_or(&msg).to_string()
}

#[cfg(test)]
mod tests {
    #[test]
    fn strips_only_the_position() {
        let e = serde_json::from_str::<serde_json::Value>("{\n  \"a\": ,\n}").unwrap_err();
        let m = super::message_without_position(&e);
        assert!(!m.contains(" at line "), "{m}");
        assert!(m.starts_with("expected value"), "{m}");
    }
}
