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
/// Agent SDK's `sdk` included): arms/all.json names them (`parts`), so each
/// arm, with its set's `agent_defaults`, is written once.
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

/// Issue 47 item 5: every arm of every built-in set, on every agent that
/// runs it, carries an expectation for that agent with its reasoning
/// ([`Arm::expected_on`]: the arm's own, else its set's `agent_defaults`).
/// Whether an agent runs an arm is what `failopen run` asks before it starts
/// a session ([`crate::run::lacks`]: the hook type it runs, `cells::runs`,
/// then its driver's `unsupported`); an arm it lacks is rowed `invalid
/// unsupported:<what>` with no session, which `lacks` itself explains. A set
/// joined from parts (`all`) is walked in its parts. The only exceptions are
/// the cells arms/unmeasured.tsv lists one by one, each with why it is not
/// measured yet; a listed cell that has an expectation now must leave it.
#[test]
fn every_arm_has_an_expectation_on_every_agent_that_runs_it() {
    let listed = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("arms/unmeasured.tsv"))
        .expect("arms/unmeasured.tsv");
    let mut unmeasured: std::collections::BTreeMap<(String, String, String), String> = Default::default();
    for (n, line) in listed.lines().enumerate().filter(|(_, l)| !l.is_empty() && !l.starts_with('#')) {
        let cells: Vec<&str> = line.split('\t').collect();
        let [agent, set, arm, why] = cells[..] else { panic!("arms/unmeasured.tsv:{}: agent, set, arm, why", n + 1) };
        assert!(why.len() > 20, "arms/unmeasured.tsv:{}: say why it is not measured yet", n + 1);
        let key = (agent.to_string(), set.to_string(), arm.to_string());
        assert!(unmeasured.insert(key, why.to_string()).is_none(), "arms/unmeasured.tsv:{}: listed twice", n + 1);
    }
    let mut gaps: std::collections::BTreeMap<&str, Vec<String>> = Default::default();
    // (cells with an expectation, cells listed unmeasured, cells it lacks and that have none) by agent.
    let mut counts: std::collections::BTreeMap<&str, (usize, usize, usize)> = Default::default();
    let exe = std::path::Path::new("failopen");
    for (set, _) in BUILTIN.iter().filter(|(set, _)| parts(set).is_empty()) {
        for arm in load(set).unwrap_or_else(|e| panic!("{e}")) {
            for (name, agent) in crate::agent::Agent::ALL {
                if !crate::cells::runs(agent, &arm) {
                    continue;
                }
                let count = counts.entry(name).or_default();
                let key = (name.to_string(), set.to_string(), arm.name.clone());
                let listed = unmeasured.remove(&key).is_some();
                if arm.expected_on(agent).is_some() {
                    assert!(!listed, "arms/unmeasured.tsv lists {key:?}, which has an expectation now");
                    count.0 += 1;
                    continue;
                }
                // Asked only of an arm with no expectation: it writes the guards out each time.
                if crate::run::lacks(agent, &arm, exe).unwrap_or_else(|e| panic!("{set}: {}: {e}", arm.name)).is_some()
                {
                    assert!(!listed, "arms/unmeasured.tsv lists {key:?}, which {name} cannot run at all");
                    count.2 += 1;
                } else if listed {
                    count.1 += 1;
                } else {
                    gaps.entry(name).or_default().push(format!("{set}: {}", arm.name));
                }
            }
        }
    }
    assert!(unmeasured.is_empty(), "arms/unmeasured.tsv lists cells no agent runs: {:?}", unmeasured.keys());
    eprintln!("cells expected, listed unmeasured, lacked without an expectation, by agent: {counts:?}");
    let summary: Vec<String> = gaps.iter().map(|(a, g)| format!("{a} {}", g.len())).collect();
    let list: Vec<String> = gaps.iter().flat_map(|(a, g)| g.iter().map(move |g| format!("{a}\t{g}"))).collect();
    assert!(
        gaps.is_empty(),
        "arms without an expectation for an agent that runs them ({}):\n{}",
        summary.join(", "),
        list.join("\n")
    );
}

/// A set's `agent_defaults` give every arm of it an expectation on that
/// agent; an arm's own for the agent wins; a default names a known agent.
#[test]
fn a_sets_agent_defaults_stand_for_arms_that_write_none() {
    use crate::agent::Agent;
    let text = r#"{"agent_defaults":{"continue":{"verdict":"invalid","reason":"hook-not-run","source":"set"}},
        "arms":[{"guard":"deny","wrapper":"bare"},{"guard":"crash","wrapper":"bare","expect":{"verdict":"wrote",
        "source":"cc","agents":{"continue":{"verdict":"wrote","source":"own"}}}}]}"#;
    let arms = parse(text, "x.json").unwrap();
    assert_eq!(arms[0].expected_on(Agent::Continue).unwrap().source, "set");
    assert_eq!(arms[1].expected_on(Agent::Continue).unwrap().source, "own");
    assert!(arms[0].expected_on(Agent::ClaudeCode).is_none() && arms[0].expected_on(Agent::Codex).is_none());
    assert_eq!(arms[1].expected_on(Agent::ClaudeCode).unwrap().source, "cc");
    let bad = text.replace(r#""continue":{"verdict":"invalid""#, r#""contnue":{"verdict":"invalid""#);
    let e = parse(&bad, "x.json").unwrap_err().to_string();
    assert!(e.contains("field `agent_defaults`") && e.contains("unknown agent \"contnue\""), "{e}");
    let joined = parse(r#"{"parts":["article"],"arms":[{"guard":"deny","wrapper":"bare"}]}"#, "x.json");
    assert!(joined.unwrap_err().to_string().contains("field `parts`"));
    assert!(parse(r#"{"parts":["all"]}"#, "x.json").unwrap_err().to_string().contains("joined from parts"));
    assert_eq!(parse(r#"{"parts":["article"]}"#, "x.json").unwrap().len(), 9);
    assert_eq!(parts("all").len(), 6);
}
