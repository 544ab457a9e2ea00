//! Unit tests of [`super`] (arms.rs).

use super::*;

#[test]
fn builtin_sets_parse() {
    for (name, text) in BUILTIN {
        let arms = parse(text, name).unwrap_or_else(|e| panic!("{e}"));
        assert!(!arms.is_empty(), "{name}");
    }
    assert_eq!(load("article").unwrap().len(), 9);
}

/// `all` is the concatenation of its parts, in order, arm for arm (the
/// Agent SDK's `sdk` included), so a part's arm changed without `all` fails
/// here: arms/regenerate-all.sh writes it from the parts.
#[test]
fn all_is_its_parts_joined() {
    let parts: Vec<Arm> = ["full", "extended", "http", "model", "surface", "sdk"]
        .iter()
        .flat_map(|name| load(name).unwrap_or_else(|e| panic!("{e}")))
        .collect();
    let all = load("all").unwrap();
    assert_eq!(all.len(), parts.len());
    for (a, p) in all.iter().zip(&parts) {
        assert_eq!(a, p, "{}", p.name);
    }
}

#[test]
fn malformed_json_names_file_line_and_column() {
    let err = parse("{\n  \"arms\": [\n    {\"guard\": \"deny\" \"wrapper\": \"bare\"}\n  ]\n}", "x.json").unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("x.json:3:"), "{msg}");
}

#[test]
fn unknown_guard_lists_valid_ones() {
    let err = parse(r#"{"arms":[{"guard":"dney","wrapper":"bare"}]}"#, "x.json").unwrap_err().to_string();
    assert!(err.contains("field `guard`"), "{err}");
    assert!(err.contains("valid guards: allow, deny"), "{err}");
}

#[test]
fn unknown_field_is_rejected() {
    let err = parse(r#"{"arms":[{"guard":"deny","wrapper":"bare","timeout":5}]}"#, "x.json").unwrap_err();
    assert!(err.to_string().contains("unknown field `timeout`"), "{err}");
}

#[test]
fn duplicates_and_bad_timeouts_are_rejected() {
    let dup = parse(r#"{"arms":[{"guard":"deny","wrapper":"bare"},{"guard":"deny","wrapper":"bare"}]}"#, "d.json");
    assert!(matches!(dup, Err(ArmsError::Duplicate { first: 1, second: 2, .. })));
    for bad in ["0", "-1", "1e9"] {
        let text = format!(r#"{{"arms":[{{"guard":"deny","wrapper":"bare","hook_timeout":{bad}}}]}}"#);
        let err = parse(&text, "t.json").unwrap_err().to_string();
        assert!(err.contains("field `hook_timeout`"), "{err}");
    }
}

#[test]
fn expectations_of_invalid_name_a_reason_and_extra_settings_is_an_object() {
    let ok = r#"{"arms":[{"guard":"crash","wrapper":"bare","name":"c","extra_settings":{"permissions":{"deny":["Write"]}},
        "expect":{"verdict":"invalid","reason":"foreign-refusal","source":"s"}}]}"#;
    let arms = parse(ok, "x.json").unwrap();
    assert_eq!(arms[0].expect.as_ref().unwrap().reason.as_deref(), Some("foreign-refusal"));
    assert!(arms[0].extra_settings.is_some());
    for (bad, field) in [
        (r#"{"verdict":"invalid","source":"s"}"#, "valid reasons: session-error"),
        (r#"{"verdict":"invalid","reason":"nope","source":"s"}"#, "unknown invalid reason"),
        (r#"{"verdict":"wrote","reason":"no-attempt","source":"s"}"#, "with an expected `invalid` only"),
    ] {
        let text = format!(r#"{{"arms":[{{"guard":"crash","wrapper":"bare","expect":{bad}}}]}}"#);
        let err = parse(&text, "x.json").unwrap_err().to_string();
        assert!(err.contains("field `expect`") && err.contains(field), "{err}");
    }
    let err = parse(r#"{"arms":[{"guard":"crash","wrapper":"bare","extra_settings":[1]}]}"#, "x.json").unwrap_err();
    assert!(err.to_string().contains("field `extra_settings`"), "{err}");
}

#[test]
fn surface_axes_default_to_the_article_and_name_their_choices() {
    let arms = parse(r#"{"arms":[{"guard":"deny","wrapper":"bare"}]}"#, "x.json").unwrap();
    assert_eq!((arms[0].event, arms[0].source, arms[0].route), Default::default());
    let err = parse(r#"{"arms":[{"guard":"deny","wrapper":"bare","route":"task"}]}"#, "x.json").unwrap_err();
    assert!(err.to_string().contains("field `route`: unknown route \"task\"; valid routes: article"), "{err}");
    let err = parse(r#"{"arms":[{"guard":"deny","wrapper":"bare","matcher":""}]}"#, "x.json").unwrap_err();
    assert!(err.to_string().contains("field `matcher`"), "{err}");
    let err = parse(r#"{"arms":[{"guard":"deny","wrapper":"bare","group_extra":[]}]}"#, "x.json").unwrap_err();
    assert!(err.to_string().contains("field `group_extra`: must be a JSON object"), "{err}");
}

#[test]
fn expectations_change_by_version() {
    let text = r#"{"arms":[{"guard":"crash","wrapper":"native","expect":{"verdict":"wrote","source":"old",
        "changes":[{"since":"2.1.295","verdict":"blocked","source":"bisect"}]}}]}"#;
    let arms = parse(text, "x.json").unwrap();
    let exp = arms[0].expect.as_ref().unwrap();
    assert_eq!(exp.on("2.1.240").verdict, VerdictKind::Wrote);
    assert_eq!(exp.on("2.1.294").source, "old");
    assert_eq!(exp.on("2.1.295").verdict, VerdictKind::Blocked);
    assert_eq!(exp.on("2.1.328").source, "bisect");
    let bad = text.replace("2.1.295", "2.1.x");
    assert!(parse(&bad, "x.json").unwrap_err().to_string().contains("changes: since \"2.1.x\""));
}

#[test]
fn expectations_and_trust_in_interactive_mode() {
    use crate::mode::{Mode, Trust};
    let text = r#"{"arms":[{"guard":"deny","wrapper":"bare","trust":"answer-no","expect":{"verdict":"blocked",
        "source":"print","interactive":{"verdict":"invalid","reason":"session-error","source":"dialog"}}}]}"#;
    let arms = parse(text, "x.json").unwrap();
    assert_eq!(arms[0].trust, Trust::AnswerNo);
    let exp = arms[0].expect.as_ref().unwrap();
    assert_eq!(exp.in_mode(Mode::Print).on("2.1.328").verdict, VerdictKind::Blocked);
    let i = exp.in_mode(Mode::Interactive).on("2.1.328");
    assert_eq!((i.verdict, i.reason, i.source), (VerdictKind::Invalid, Some("session-error"), "dialog"));
    let no_reason = text.replace(r#","reason":"session-error""#, "");
    assert!(parse(&no_reason, "x.json").unwrap_err().to_string().contains("interactive:"));
    let bad = text.replace("answer-no", "maybe");
    let e = parse(&bad, "x.json").unwrap_err().to_string();
    assert!(e.contains("field `trust`") && e.contains("accepted, answer-yes, answer-no"), "{e}");
    assert_eq!(load("article").unwrap()[0].trust, Trust::Accepted, "the default");
}

#[test]
fn only_filters_by_glob() {
    let arms = load("article").unwrap();
    let timed = filter(arms.clone(), &["*/timed".into()]).unwrap();
    assert_eq!(timed.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(), ["hang/timed"]);
    assert!(filter(arms, &["[".into()]).is_err());
}
