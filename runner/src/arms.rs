//! Arm sets: loading, validation (errors that name the file and field) and filtering.
//!
//! An arm is one guard under one wrapper, with the hook's timeout and the
//! wrapper's deadline. Arm sets are JSON files in `arms/`; the ones shipped
//! with failopen are also embedded, so `--arms full` works anywhere.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

use crate::guards::{self, Guard};
use crate::surface::{HookEvent, HookSource, Route};
use crate::verdict::{InvalidReason, VerdictKind};
use crate::version::Version;
use crate::wrappers::Wrapper;

/// The hook `timeout` when an arm does not say (the article's 5 s).
pub const DEFAULT_HOOK_TIMEOUT_SECS: f64 = 5.0;
/// The wrapper deadline when an arm does not say (the article's 3 s alarm).
pub const DEFAULT_DEADLINE_SECS: f64 = 3.0;

/// The arm sets shipped in `arms/`, embedded: (name, JSON text).
pub const BUILTIN: &[(&str, &str)] = &[
    ("article", include_str!("../arms/article.json")),
    ("full", include_str!("../arms/full.json")),
    ("extended", include_str!("../arms/extended.json")),
    ("http", include_str!("../arms/http.json")),
    ("model", include_str!("../arms/model.json")),
    ("trust", include_str!("../arms/trust.json")),
    ("surface", include_str!("../arms/surface.json")),
    ("workspace-trust", include_str!("../arms/workspace-trust.json")),
    ("shapes", include_str!("../arms/shapes.json")),
    ("seal-shapes", include_str!("../arms/seal-shapes.json")),
    ("sdk", include_str!("../arms/sdk.json")),
    ("cline", include_str!("../arms/cline.json")),
    ("opencode", include_str!("../arms/opencode.json")),
    ("copilot", include_str!("../arms/copilot.json")),
    ("continue", include_str!("../arms/continue.json")),
    ("state", include_str!("../arms/state.json")),
    ("auggie", include_str!("../arms/auggie.json")),
    ("all", include_str!("../arms/all.json")),
];

/// One experiment arm.
#[derive(Debug, Clone, PartialEq)]
pub struct Arm {
    /// Unique name, `<guard>/<wrapper>` unless the file gives another.
    pub name: String,
    /// The guard.
    pub guard: &'static Guard,
    /// The wrapper.
    pub wrapper: Wrapper,
    /// The hook's `timeout` in seconds.
    pub hook_timeout_secs: f64,
    /// The wrapper's own deadline in seconds (timed, sealed).
    pub deadline_secs: f64,
    /// A published or reasoned expectation, if the file carries one.
    pub expect: Option<Expectation>,
    /// Settings merged into the session's settings beside the hook under
    /// test (objects merged, arrays appended after failopen's own entries):
    /// a permission rule, another hook, a broken sibling entry.
    pub extra_settings: Option<serde_json::Value>,
    /// The event the hook is registered under (`PreToolUse` by default).
    pub event: HookEvent,
    /// Where the hook entry is loaded from (`--settings` by default).
    pub source: HookSource,
    /// How the stand-in tries to write the file (Bash, then Write, by default).
    pub route: Route,
    /// The hook entry's matcher, when not the battery's [`crate::task::matcher`].
    pub matcher: Option<String>,
    /// Keys merged into the hook under test's own entry (e.g. an unknown key).
    pub hook_extra: Option<serde_json::Value>,
    /// Keys merged into the hook under test's matcher group: `hooks` appends
    /// sibling entries after it in the same group (e.g. a crashing sibling),
    /// `matcher` replaces its matcher with any JSON value (e.g. a number).
    pub group_extra: Option<serde_json::Value>,
    /// The workspace trust dialog, in interactive mode (print mode never
    /// asks): accepted beforehand by default.
    pub trust: crate::mode::Trust,
    /// What a stateful guard's state holds when the session starts
    /// (`arms/state.json`); only for a guard that keeps state.
    pub state: Option<crate::guard_state::GuardState>,
    /// The expectations its set writes once for all its arms, by agent
    /// (`"agent_defaults"` in the set file): where one rule of an agent
    /// decides every arm alike. The arm's own expectation for an agent wins
    /// ([`Arm::expected_on`]).
    pub agent_defaults: std::sync::Arc<AgentDefaults>,
}

/// A set's expectations for all its arms, by agent name (`continue`, `codex`).
pub type AgentDefaults = std::collections::BTreeMap<String, Expectation>;

impl Arm {
    /// What the arm is expected to give on `agent`, with its reasoning: its
    /// own expectation for that agent ([`Expectation::for_agent`]), else its
    /// set's default for that agent ([`Arm::agent_defaults`]); `None` when
    /// neither is written.
    pub fn expected_on(&self, agent: crate::agent::Agent) -> Option<&Expectation> {
        self.expect.as_ref().and_then(|e| e.for_agent(agent)).or_else(|| self.agent_defaults.get(agent.as_str()))
    }
}

/// What an arm is expected to give, and where that expectation comes from.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// `blocked`, `wrote`, or `invalid` (then with a `reason`).
    pub verdict: VerdictKind,
    /// The invalid reason expected (only with `invalid`), e.g. `foreign-refusal`.
    #[serde(default)]
    pub reason: Option<String>,
    /// Where it comes from (e.g. the article's table row).
    pub source: String,
    /// Versions from which the expectation differs, oldest first (a bisect's answer).
    #[serde(default)]
    pub changes: Vec<ExpectationChange>,
    /// The expectation in an interactive session (`--mode interactive`),
    /// with its own reasoning; without it, print mode's holds there too.
    #[serde(default)]
    pub interactive: Option<Box<Expectation>>,
    /// The expectation on Codex CLI (`--agent codex`), with its own
    /// reasoning; without it, the arm carries no expectation there.
    #[serde(default)]
    pub codex: Option<Box<Expectation>>,
    /// The expectation on Gemini CLI (`--agent gemini`), as `codex`.
    #[serde(default)]
    pub gemini: Option<Box<Expectation>>,
    /// The expectation on each other agent, by its command-line name
    /// (`"agents": {"copilot": {...}}`), each with its own reasoning: a new
    /// agent needs no new field. `codex` and `gemini` above are the older
    /// spelling, still read.
    #[serde(default)]
    pub agents: std::collections::BTreeMap<String, Expectation>,
}

/// From `since` on, an arm is expected to give another verdict.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectationChange {
    /// The first version with this expectation, e.g. `2.1.295`.
    pub since: String,
    /// As [`Expectation::verdict`].
    pub verdict: VerdictKind,
    /// As [`Expectation::reason`].
    #[serde(default)]
    pub reason: Option<String>,
    /// Where it comes from (a bisect in `results/`, a release note).
    pub source: String,
}

/// What an arm is expected to give on one version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpectedOn<'a> {
    /// The verdict.
    pub verdict: VerdictKind,
    /// The invalid reason, with `invalid`.
    pub reason: Option<&'a str>,
    /// Where the expectation comes from.
    pub source: &'a str,
}

impl Expectation {
    /// The expectation on `agent`: this one on Claude Code, else the
    /// agent's own in [`Expectation::agents`] (or the older
    /// [`Expectation::codex`], [`Expectation::gemini`]), if given.
    pub fn for_agent(&self, agent: crate::agent::Agent) -> Option<&Expectation> {
        if agent.driver().implied_when_unnamed() {
            return Some(self);
        }
        let older = match agent.as_str() {
            "codex" => self.codex.as_deref(),
            "gemini" => self.gemini.as_deref(),
            _ => None,
        };
        self.agents.get(agent.as_str()).or(older)
    }

    /// The expectation in `mode`: [`Expectation::interactive`] when the
    /// session is interactive and it is given, else this one.
    pub fn in_mode(&self, mode: crate::mode::Mode) -> &Expectation {
        match (mode, &self.interactive) {
            (crate::mode::Mode::Interactive, Some(i)) => i,
            _ => self,
        }
    }

    /// The expectation on `version`: the latest change at or before it, else the base.
    pub fn on(&self, version: &str) -> ExpectedOn<'_> {
        let base = ExpectedOn { verdict: self.verdict, reason: self.reason.as_deref(), source: &self.source };
        let Ok(version) = version.parse::<Version>() else { return base };
        self.changes
            .iter()
            .filter(|c| c.since.parse::<Version>().is_ok_and(|since| since <= version))
            .max_by_key(|c| c.since.parse::<Version>().ok())
            .map(|c| ExpectedOn { verdict: c.verdict, reason: c.reason.as_deref(), source: &c.source })
            .unwrap_or(base)
    }
}

/// Why an arm set could not be loaded.
#[derive(Debug, Error)]
pub enum ArmsError {
    /// The file could not be read.
    #[error("{file}: cannot read")]
    Read { file: String, source: std::io::Error },
    /// The JSON is malformed or has the wrong shape.
    #[error("{file}:{line}:{column}: {message}")]
    Parse { file: String, line: usize, column: usize, message: String },
    /// A field has a value failopen does not accept.
    #[error("{file}: arm {index} ({name}): field `{field}`: {message}")]
    Field { file: String, index: usize, name: String, field: &'static str, message: String },
    /// Two arms share a name.
    #[error("{file}: duplicate arm name {name:?} (arms {first} and {second}); give one a \"name\"")]
    Duplicate { file: String, name: String, first: usize, second: usize },
    /// Neither a file nor a built-in set.
    #[error("arm set {0:?} is neither a file nor a built-in set; built-in sets: {1}")]
    Unknown(String, String),
    /// A set's `parts` or `agent_defaults` are not what failopen accepts.
    #[error("{file}: field `{field}`: {message}")]
    Set { file: String, field: &'static str, message: String },
    /// A `--only` pattern is not a valid glob.
    #[error("arm name pattern {pattern:?}: {message}")]
    Glob { pattern: String, message: String },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmSetFile {
    #[allow(dead_code)]
    #[serde(default)]
    description: Option<String>,
    /// Built-in sets whose arms, in order, are this set's (`all`); then it
    /// writes no arms of its own.
    #[serde(default)]
    parts: Vec<String>,
    /// Expectations for every arm of the set, by agent ([`Arm::agent_defaults`]).
    #[serde(default)]
    agent_defaults: AgentDefaults,
    #[serde(default)]
    arms: Vec<ArmEntry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmEntry {
    #[serde(default)]
    name: Option<String>,
    guard: String,
    wrapper: String,
    #[serde(default)]
    hook_timeout: Option<f64>,
    #[serde(default)]
    deadline: Option<f64>,
    #[serde(default)]
    expect: Option<Expectation>,
    #[serde(default)]
    extra_settings: Option<serde_json::Value>,
    #[serde(default)]
    event: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    route: Option<String>,
    #[serde(default)]
    matcher: Option<String>,
    #[serde(default)]
    hook_extra: Option<serde_json::Value>,
    #[serde(default)]
    group_extra: Option<serde_json::Value>,
    #[serde(default)]
    trust: Option<String>,
    #[serde(default)]
    state: Option<String>,
}

/// Load an arm set from a path, or from a built-in set by name.
pub fn load(spec: &str) -> Result<Vec<Arm>, ArmsError> {
    let path = PathBuf::from(spec);
    if path.exists() {
        let text = std::fs::read_to_string(&path)
            .map_err(|source| ArmsError::Read { file: path.display().to_string(), source })?;
        return parse(&text, &path.display().to_string());
    }
    let name = spec.trim_end_matches(".json");
    let name = Path::new(name).file_name().and_then(|n| n.to_str()).unwrap_or(name);
    // Only a bare name (or arms/NAME.json from another directory) falls back to the embedded copy.
    if spec == name || spec == format!("arms/{name}.json") {
        if let Some((_, text)) = BUILTIN.iter().find(|(n, _)| *n == name) {
            return parse(text, &format!("arms/{name}.json (built-in)"));
        }
    }
    let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
    Err(ArmsError::Unknown(spec.to_string(), names.join(", ")))
}

/// Parse and validate an arm set; `file` names it in errors.
pub fn parse(text: &str, file: &str) -> Result<Vec<Arm>, ArmsError> {
    let set: ArmSetFile = serde_json::from_str(text).map_err(|e| ArmsError::Parse {
        file: file.to_string(),
        line: e.line(),
        column: e.column(),
        message: crate::json_error::message_without_position(&e),
    })?;
    let set_error = |field: &'static str, message: String| ArmsError::Set { file: file.to_string(), field, message };
    if !set.parts.is_empty() {
        if !set.arms.is_empty() || !set.agent_defaults.is_empty() {
            return Err(set_error(
                "parts",
                "a set joined from parts writes no `arms` or `agent_defaults` of its own".into(),
            ));
        }
        return join_parts(&set.parts, file);
    }
    for (agent, exp) in &set.agent_defaults {
        agent.parse::<crate::agent::Agent>().map_err(|m| set_error("agent_defaults", m))?;
        check_expectation(exp)
            .and_then(|()| match exp.codex.is_some() || exp.gemini.is_some() || !exp.agents.is_empty() {
                true => Err("must not hold another agent's expectation".into()),
                false => Ok(()),
            })
            .map_err(|m| set_error("agent_defaults", format!("{agent}: {m}")))?;
    }
    let agent_defaults = std::sync::Arc::new(set.agent_defaults);
    let mut arms: Vec<Arm> = Vec::with_capacity(set.arms.len());
    for (i, entry) in set.arms.into_iter().enumerate() {
        let index = i + 1;
        let name = entry.name.clone().unwrap_or_else(|| format!("{}/{}", entry.guard, entry.wrapper));
        let field = |field: &'static str, message: String| ArmsError::Field {
            file: file.to_string(),
            index,
            name: name.clone(),
            field,
            message,
        };
        let guard = guards::find(&entry.guard).ok_or_else(|| {
            field("guard", format!("unknown guard {:?}; valid guards: {}", entry.guard, guards::names().join(", ")))
        })?;
        let wrapper: Wrapper = entry.wrapper.parse().map_err(|m| field("wrapper", m))?;
        wrapper.applies_to(guard).map_err(|m| field("wrapper", m))?;
        let hook_timeout_secs =
            positive(entry.hook_timeout, DEFAULT_HOOK_TIMEOUT_SECS).map_err(|m| field("hook_timeout", m))?;
        let deadline_secs = positive(entry.deadline, DEFAULT_DEADLINE_SECS).map_err(|m| field("deadline", m))?;
        if let Some(exp) = &entry.expect {
            check_expectation(exp).map_err(|m| field("expect", m))?;
        }
        if let Some(extra) = &entry.extra_settings {
            if !extra.is_object() {
                return Err(field(
                    "extra_settings",
                    "must be a JSON object (merged into the session's settings)".into(),
                ));
            }
        }
        let event = parse_or_default::<HookEvent>(entry.event.as_deref()).map_err(|m| field("event", m))?;
        let source = parse_or_default::<HookSource>(entry.source.as_deref()).map_err(|m| field("source", m))?;
        let route = parse_or_default::<Route>(entry.route.as_deref()).map_err(|m| field("route", m))?;
        let trust = parse_or_default(entry.trust.as_deref()).map_err(|m| field("trust", m))?;
        if entry.matcher.as_deref().is_some_and(str::is_empty) {
            return Err(field("matcher", "must not be empty (leave it out for the battery's matcher)".into()));
        }
        if entry.hook_extra.as_ref().is_some_and(|v| !v.is_object()) {
            return Err(field("hook_extra", "must be a JSON object (merged into the hook entry)".into()));
        }
        if entry.group_extra.as_ref().is_some_and(|v| !v.is_object()) {
            return Err(field("group_extra", "must be a JSON object (merged into the hook's matcher group)".into()));
        }
        let state = entry.state.as_deref().map(str::parse).transpose().map_err(|m| field("state", m))?;
        if state.is_some() && !crate::guard_state::keeps_state(guard.name) {
            return Err(field(
                "state",
                format!(
                    "guard {:?} keeps no state; the guards that do: {}",
                    guard.name,
                    crate::guard_state::STATEFUL_GUARDS.join(", ")
                ),
            ));
        }
        if let Some(first) = arms.iter().position(|a| a.name == name) {
            return Err(ArmsError::Duplicate { file: file.to_string(), name, first: first + 1, second: index });
        }
        arms.push(Arm {
            name,
            guard,
            wrapper,
            hook_timeout_secs,
            deadline_secs,
            expect: entry.expect,
            extra_settings: entry.extra_settings,
            event,
            source,
            route,
            matcher: entry.matcher,
            hook_extra: entry.hook_extra,
            group_extra: entry.group_extra,
            trust,
            state,
            agent_defaults: agent_defaults.clone(),
        });
    }
    Ok(arms)
}

/// The arms of the built-in sets `parts`, in order (a set joined from
/// parts, `all`): each part a built-in set that writes its own arms, and no
/// arm name in two parts.
fn join_parts(parts: &[String], file: &str) -> Result<Vec<Arm>, ArmsError> {
    let mut arms: Vec<Arm> = Vec::new();
    for part in parts {
        let text = BUILTIN.iter().find(|(n, _)| n == part).map(|(_, t)| *t).ok_or_else(|| ArmsError::Set {
            file: file.to_string(),
            field: "parts",
            message: format!("{part:?} is no built-in set that writes its own arms"),
        })?;
        if !self::parts(part).is_empty() {
            return Err(ArmsError::Set {
                file: file.to_string(),
                field: "parts",
                message: format!("{part:?} is itself joined from parts"),
            });
        }
        for arm in parse(text, &format!("arms/{part}.json (built-in)"))? {
            if let Some(first) = arms.iter().position(|a| a.name == arm.name) {
                return Err(ArmsError::Duplicate {
                    file: file.to_string(),
                    name: arm.name,
                    first: first + 1,
                    second: arms.len() + 1,
                });
            }
            arms.push(arm);
        }
    }
    Ok(arms)
}

/// The parts a built-in set is joined from (`all`), or none when it writes
/// its own arms (or is no built-in set).
pub fn parts(name: &str) -> Vec<String> {
    #[derive(Deserialize)]
    struct Parts {
        #[serde(default)]
        parts: Vec<String>,
    }
    let text = BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t).unwrap_or("{}");
    serde_json::from_str::<Parts>(text).map(|p| p.parts).unwrap_or_default()
}

fn parse_or_default<T: std::str::FromStr<Err = String> + Default>(value: Option<&str>) -> Result<T, String> {
    value.map(str::parse).unwrap_or_else(|| Ok(T::default()))
}

/// An expected `invalid` must say why (a reason failopen writes); `blocked`
/// and `wrote` take no reason. Changes name a version each, oldest first.
fn check_expectation(exp: &Expectation) -> Result<(), String> {
    check_verdict(exp.verdict, exp.reason.as_deref())?;
    if let Some(i) = &exp.interactive {
        if i.interactive.is_some() {
            return Err("interactive: must not hold another `interactive`".into());
        }
        check_expectation(i).map_err(|m| format!("interactive: {m}"))?;
    }
    let older = [("codex", exp.codex.as_deref()), ("gemini", exp.gemini.as_deref())];
    let nested = older.into_iter().filter_map(|(n, e)| e.map(|e| (n, e)));
    for (name, e) in nested.chain(exp.agents.iter().map(|(n, e)| (n.as_str(), e))) {
        if e.codex.is_some() || e.gemini.is_some() || !e.agents.is_empty() || e.interactive.is_some() {
            return Err(format!("{name}: must not hold another agent's or an interactive expectation"));
        }
        check_expectation(e).map_err(|m| format!("{name}: {m}"))?;
    }
    let mut last: Option<Version> = None;
    for change in &exp.changes {
        let since: Version = change.since.parse().map_err(|e| format!("changes: since {:?}: {e}", change.since))?;
        if last.as_ref().is_some_and(|l| *l >= since) {
            return Err(format!("changes: since {:?} must come after the change before it", change.since));
        }
        check_verdict(change.verdict, change.reason.as_deref()).map_err(|m| format!("changes: {m}"))?;
        last = Some(since);
    }
    Ok(())
}

fn check_verdict(verdict: VerdictKind, reason: Option<&str>) -> Result<(), String> {
    match (verdict, reason) {
        (VerdictKind::Invalid, Some(r)) => r.parse::<InvalidReason>().map(|_| ()),
        (VerdictKind::Invalid, None) => Err(format!(
            "an expected `invalid` needs a `reason`; valid reasons: {}",
            InvalidReason::ALL.map(InvalidReason::as_str).join(", ")
        )),
        (_, Some(_)) => Err("`reason` goes with an expected `invalid` only".into()),
        (_, None) => Ok(()),
    }
}

fn positive(value: Option<f64>, default: f64) -> Result<f64, String> {
    match value {
        None => Ok(default),
        Some(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        Some(v) => Err(format!("must be a number of seconds above 0 (at most 86400), got {v}")),
    }
}

/// Load several sets; an arm name appearing in two sets is an error.
pub fn load_all(specs: &[String]) -> Result<Vec<Arm>, ArmsError> {
    let mut all: Vec<Arm> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    for spec in specs {
        for arm in load(spec)? {
            if !seen.insert(arm.name.clone()) {
                let first = all.iter().position(|a| a.name == arm.name).unwrap_or(0) + 1;
                return Err(ArmsError::Duplicate { file: spec.clone(), name: arm.name, first, second: all.len() + 1 });
            }
            all.push(arm);
        }
    }
    Ok(all)
}

/// Keep the arms whose name matches any of `patterns` (all when empty).
pub fn filter(arms: Vec<Arm>, patterns: &[String]) -> Result<Vec<Arm>, ArmsError> {
    if patterns.is_empty() {
        return Ok(arms);
    }
    let mut builder = globset::GlobSetBuilder::new();
    for p in patterns {
        let glob = globset::Glob::new(p).map_err(|e| ArmsError::Glob { pattern: p.clone(), message: e.to_string() })?;
        builder.add(glob);
    }
    let set = builder.build().map_err(|e| ArmsError::Glob { pattern: patterns.join(" "), message: e.to_string() })?;
    Ok(arms.into_iter().filter(|a| set.is_match(&a.name)).collect())
}

#[cfg(test)]
mod tests;
