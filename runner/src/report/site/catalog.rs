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
}

impl Catalog {
    /// The shipped sets. They are failopen's own, checked by its tests, so a
    /// set that does not parse is an error here too.
    pub fn builtin() -> anyhow::Result<Catalog> {
        let mut arms: HashMap<String, Known> = HashMap::new();
        for (name, text) in arms::BUILTIN {
            let file = format!("arms/{name}.json");
            for arm in arms::parse(text, &file)? {
                let better = arm.expect.is_some() && arms.get(&arm.name).is_some_and(|k| k.arm.expect.is_none());
                if better || !arms.contains_key(&arm.name) {
                    arms.insert(arm.name.clone(), Known { arm, file: file.clone() });
                }
            }
        }
        Ok(Catalog { arms })
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

/// What the arm's file expects of it on `agent` in `mode`, on `version`: the
/// expectation with the changes that lead to it.
pub fn expected<'a>(
    known: &'a Known,
    agent: Agent,
    mode: Mode,
    version: &str,
) -> Option<(&'a Expectation, ExpectedOn<'a>)> {
    let e = known.arm.expect.as_ref()?.for_agent(agent)?.in_mode(mode);
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
        assert!(plain.arm.expect.is_none(), "full.json writes no expectation; the test oracle holds it");
        assert!(c.get("no-such/arm").is_none());
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
