//! The arms the site explains: every arm of the sets shipped in `arms/`
//! (embedded in the binary, [`crate::arms::BUILTIN`]), by name. An arm in
//! several sets is taken from the first that writes an expectation for it
//! (`article` before the rest, `all` last), else from the first that has it.

use std::collections::HashMap;

use crate::agent::Agent;
use crate::arms::{self, Arm, Expectation, ExpectedOn};
use crate::mode::Mode;

/// One arm and the set file it was read from.
#[derive(Debug, Clone)]
pub struct Known {
    /// The arm.
    pub arm: Arm,
    /// The set's file, `arms/surface.json`.
    pub file: String,
}

/// Every shipped arm, by name.
#[derive(Debug, Clone, Default)]
pub struct Catalog {
    arms: HashMap<String, Known>,
    /// Every set that has the arm, in [`arms::BUILTIN`]'s order, with its own
    /// copy of the arm (a set's expectations are its own).
    sets: HashMap<String, Vec<(&'static str, Arm)>>,
}

impl Catalog {
    /// The shipped sets. They are failopen's own, checked by its tests, so a
    /// set that does not parse is an error here too.
    pub fn builtin() -> anyhow::Result<Catalog> {
        let mut arms: HashMap<String, Known> = HashMap::new();
        let mut sets: HashMap<String, Vec<(&'static str, Arm)>> = HashMap::new();
        for (name, text) in arms::BUILTIN {
            let file = format!("arms/{name}.json");
            for arm in arms::parse(text, &file)? {
                sets.entry(arm.name.clone()).or_default().push((*name, arm.clone()));
                let writes = |a: &Arm| a.expect.is_some() || !a.agent_defaults.is_empty();
                let better = writes(&arm) && arms.get(&arm.name).is_some_and(|k| !writes(&k.arm));
                if better || !arms.contains_key(&arm.name) {
                    arms.insert(arm.name.clone(), Known { arm, file: file.clone() });
                }
            }
        }
        Ok(Catalog { arms, sets })
    }

    /// The built-in set to run `arm` from on `agent` (`failopen run --arms
    /// SET`): the first that expects something of it on that agent, else the
    /// first that has it.
    pub fn set_for(&self, arm: &str, agent: Agent) -> Option<&'static str> {
        let sets = self.sets.get(arm)?;
        let expects = |a: &Arm| a.expected_on(agent).is_some();
        sets.iter().find(|(_, a)| expects(a)).or(sets.first()).map(|(name, _)| *name)
    }

    /// An arm by name.
    pub fn get(&self, name: &str) -> Option<&Known> {
        self.arms.get(name)
    }
}

/// The guard catalogue's own words (`guards/README.md`, embedded): its
/// tables' rows, `| \`name\` | what it does ... | what it models |`.
const GUARDS_README: &str = include_str!("../../../guards/README.md");

/// A guard in the catalogue's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuardNotes {
    /// What it does (the table's middle columns, `; `-joined).
    pub does: String,
    /// The real-world failure it models (the table's last column).
    pub models: String,
}

/// A guard's row in `guards/README.md` (inline code marks dropped).
pub fn guard_notes(guard: &str) -> Option<GuardNotes> {
    GUARDS_README.lines().find_map(|line| {
        // Markdown writes a `|` inside a cell as `\|`.
        let cells: Vec<String> = line
            .strip_prefix("| `")?
            .strip_suffix('|')?
            .replace("\\|", "\u{0}")
            .split('|')
            .map(|c| c.trim().replace('`', "").replace('\u{0}', "|"))
            .collect();
        let (names, rest) = cells.split_first()?;
        let (models, middle) = rest.split_last()?;
        if !names.split(',').any(|n| n.trim() == guard) || middle.is_empty() {
            return None;
        }
        let does = middle.iter().filter(|c| !c.is_empty()).cloned().collect::<Vec<_>>().join("; ");
        Some(GuardNotes { does, models: models.clone() })
    })
}

/// Where a guard is written, as a path in failopen's repository: its script
/// (`guards/crash.sh`), its plugin (`guards/opencode/crash.js`), or the code
/// that plays it (an Agent SDK callback, an HTTP endpoint, a model's answer);
/// `None` for a guard that is the absence of a script (`missing`).
pub fn guard_source(guard: &str) -> Option<String> {
    use crate::guards::GuardKind;
    use crate::hook_type::HookType;
    let path = match crate::guards::find(guard)?.kind {
        GuardKind::Script { file, .. } => format!("guards/{file}"),
        GuardKind::ModelCommand { .. } => format!("guards/{}", crate::guards::MODEL_COMMAND_SCRIPT),
        GuardKind::MissingScript | GuardKind::MissingThroughInterpreter { .. } => return None,
        GuardKind::Http { .. } => "runner/src/guard_server.rs".into(),
        GuardKind::McpTool { .. } => "runner/src/mcp_guard/policy.rs".into(),
        GuardKind::ModelHook { .. } => "runner/src/standin/hook_model.rs".into(),
        GuardKind::Callback { entry: HookType::Plugin, behaviour } => {
            format!("guards/opencode/{}.js", behaviour.strip_prefix("opencode-").unwrap_or(behaviour))
        }
        GuardKind::Callback { .. } => "runner/src/agent/agent_sdk_ts/session.mjs".into(),
    };
    Some(path)
}

/// Where a wrapper is written, as a path in failopen's repository: the
/// article's two scripts, and seal's page; `None` for `bare` (no wrapper)
/// and the agents' own switches.
pub fn wrapper_source(wrapper: &str) -> Option<&'static str> {
    match wrapper {
        "plain" => Some("guards/wrappers/plain.sh"),
        "timed" => Some("guards/wrappers/timed.sh"),
        "sealed" => Some("docs/seal.md"),
        _ => None,
    }
}

/// What the arm's file expects of it on `agent` in `mode`, on `version`: the
/// expectation with the changes that lead to it.
pub fn expected<'a>(
    known: &'a Known,
    agent: Agent,
    mode: Mode,
    version: &str,
) -> Option<(&'a Expectation, ExpectedOn<'a>)> {
    let e = known.arm.expected_on(agent)?.in_mode(mode);
    Some((e, e.on(version)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::VerdictKind;

    #[test]
    fn an_arm_comes_from_the_set_that_expects_something_of_it() {
        let c = Catalog::builtin().unwrap();
        let crash = c.get("crash/bare").unwrap();
        assert_eq!(crash.file, "arms/article.json");
        let (_, on) = expected(crash, Agent::ClaudeCode, Mode::Print, "2.1.240").unwrap();
        assert_eq!(on.verdict, VerdictKind::Wrote);
        assert!(on.source.contains("article"), "{}", on.source);
        assert!(expected(crash, Agent::Codex, Mode::Print, "0.171.0").is_some(), "article.json expects on Codex too");
        let surface = c.get("crash/native@bash").unwrap();
        assert_eq!(surface.file, "arms/surface.json", "not all.json, which has it too");
        let (_, old) = expected(surface, Agent::ClaudeCode, Mode::Print, "2.1.240").unwrap();
        let (_, new) = expected(surface, Agent::ClaudeCode, Mode::Print, "2.1.328").unwrap();
        assert_eq!((old.verdict, new.verdict), (VerdictKind::Wrote, VerdictKind::Blocked), "the bisect's change");
        let plain = c.get("hang/native").unwrap();
        assert_eq!(plain.file, "arms/full.json");
        let (_, on) = expected(plain, Agent::Codex, Mode::Print, "0.171.0").unwrap();
        assert_eq!(on.verdict, VerdictKind::Wrote, "full.json writes each agent's measured expectation: {}", on.source);
        assert!(c.get("no-such/arm").is_none());
    }

    #[test]
    fn every_guard_and_wrapper_source_is_a_file_of_the_repository() {
        let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut linked = 0;
        for g in crate::guards::catalog() {
            if let Some(p) = guard_source(g.name) {
                assert!(repo.join(&p).is_file(), "{}: {p} is not a file", g.name);
                linked += 1;
            }
        }
        assert!(linked > 60, "only {linked} guards have a source");
        assert_eq!(guard_source("crash").as_deref(), Some("guards/crash.sh"));
        assert_eq!(guard_source("opencode-hang").as_deref(), Some("guards/opencode/hang.js"));
        assert_eq!(guard_source("missing"), None);
        for w in ["plain", "timed", "sealed"] {
            assert!(repo.join(wrapper_source(w).unwrap()).is_file(), "{w}");
        }
        assert_eq!(wrapper_source("bare"), None);
    }

    #[test]
    fn an_arm_runs_from_a_set_that_expects_something_of_it_on_the_agent() {
        let c = Catalog::builtin().unwrap();
        assert_eq!(c.set_for("crash/bare", Agent::ClaudeCode), Some("article"));
        assert_eq!(c.set_for("opencode-crash/bare", Agent::Kilo), Some("opencode"));
        assert_eq!(c.set_for("callback-throw/bare", Agent::AgentSdkPy), Some("sdk"));
        assert_eq!(c.set_for("no-such/arm", Agent::ClaudeCode), None);
    }

    #[test]
    fn guards_are_described_in_the_catalogues_words() {
        let crash = guard_notes("crash").unwrap();
        assert_eq!(crash.does, "guard failed before deciding on stderr, exit 1");
        assert!(crash.models.starts_with("a guard that breaks before deciding"), "{crash:?}");
        let model = guard_notes("agent-500").unwrap();
        assert_eq!((model.does.as_str(), model.models.as_str()), ("HTTP 500 api_error", "the model API failing"));
        assert_eq!(guard_notes("no-such-guard"), None);
        assert_eq!(guard_notes("bare"), None, "a wrapper's row has no middle to tell");
    }
}
