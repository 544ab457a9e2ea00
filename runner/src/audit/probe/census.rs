//! The list of hooks checked against Claude Code itself. One session runs
//! with copies of the user's own configuration (their `~/.claude`
//! settings, plugin registry and hooks folder; the project's `.claude`
//! folder), every setting source on and plugins loaded as Claude Code
//! loads them, while the stand-in makes one harmless Bash call in the
//! throwaway project. Its hook events say how many PreToolUse hooks Claude
//! Code started for each call ([`hook_census`]); audit's list says how many
//! it expected. A hook that ran but that audit did not list is an error in
//! the report, not a silence; a listed hook that did not run is a warning.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::json;

use crate::agent::claude_code::hook_census::{self, ToolHookRuns};
use crate::attribution::HookIdentity;
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::model::{Finding, Severity};
use crate::install::AgentBin;
use crate::pool::Pool;
use crate::session::{self, SessionDir, SessionFile, SessionSpec};
use crate::standin::StandIn;

/// The tool the census session calls.
pub const CENSUS_TOOL: &str = "Bash";
/// A file bigger than this is not copied into the census session.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// Nor more than this in all.
const MAX_TOTAL_BYTES: u64 = 16 << 20;
/// Nor deeper than this below a copied folder.
const MAX_DEPTH: usize = 6;

/// What the census found for one tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ToolCensus {
    /// The tool called.
    pub tool: String,
    /// Its calls and the PreToolUse hooks Claude Code started for them.
    #[serde(flatten)]
    pub runs: ToolHookRuns,
    /// Hooks audit lists that must run on every call of the tool (distinct
    /// commands, URLs or prompts: Claude Code runs identical ones once).
    pub listed: usize,
    /// Of those, plus hooks whose `if` condition may skip a call.
    pub listed_at_most: usize,
}

/// The census: what Claude Code ran here against what audit listed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Census {
    /// Claude Code's version.
    pub agent_version: String,
    /// Per tool the model called.
    pub tools: Vec<ToolCensus>,
    /// Why the census says nothing, when it does not (no call was made...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inconclusive: Option<String>,
}

impl Census {
    /// The census read from a session's stream, against the hooks audit
    /// expects Claude Code to load (`hooks`: PreToolUse entries of every
    /// source it loads by itself; skills' frontmatter hooks excluded).
    pub fn compare(agent_version: &str, stdout: &str, hooks: &[&HookEntry]) -> Census {
        let runs = hook_census::pretooluse_runs(stdout);
        let tools: Vec<ToolCensus> = runs
            .into_iter()
            .filter(|(_, r)| r.calls > 0)
            .map(|(tool, runs)| {
                let covering: Vec<&&HookEntry> =
                    hooks.iter().filter(|h| crate::matcher::covers(h.matcher.as_deref(), &tool)).collect();
                let distinct = |only_unconditional: bool| {
                    covering
                        .iter()
                        .filter(|h| !only_unconditional || h.raw.get("if").is_none())
                        .map(|h| identity(h))
                        .collect::<BTreeSet<_>>()
                        .len()
                };
                ToolCensus { listed: distinct(true), listed_at_most: distinct(false), tool, runs }
            })
            .collect();
        let inconclusive = tools.is_empty().then(|| "the model's call was never made".to_string());
        Census { agent_version: agent_version.to_string(), tools, inconclusive }
    }

    /// The findings: an error per tool where Claude Code ran more hooks than
    /// audit lists, a warning where it ran fewer.
    pub fn findings(&self) -> Vec<Finding> {
        let mut out = Vec::new();
        for t in &self.tools {
            let calls = t.runs.calls.max(1) as usize;
            let started = t.runs.hooks_started as usize;
            let (at_least, at_most) = (t.listed * calls, t.listed_at_most * calls);
            let said = format!(
                "in a session with your settings and plugins, Claude Code {} started {started} PreToolUse hook(s) \
                 on {} call(s) of {}; audit lists {} hook(s) that match {}",
                self.agent_version,
                t.runs.calls,
                t.tool,
                if t.listed == t.listed_at_most {
                    t.listed.to_string()
                } else {
                    format!("{} to {}", t.listed, t.listed_at_most)
                },
                t.tool
            );
            if started > at_most {
                out.push(Finding {
                    hook: None,
                    severity: Severity::Error,
                    code: "hook-not-listed".into(),
                    message: format!(
                        "{said}: a hook ran that audit did not find, so it was not checked (a source audit does not \
                         read?)"
                    ),
                });
            } else if started < at_least {
                out.push(Finding {
                    hook: None,
                    severity: Severity::Warning,
                    code: "listed-hook-not-run".into(),
                    message: format!(
                        "{said}: a listed hook did not run, so it guards nothing here (a file Claude Code skips, or \
                         a plugin it does not load?)"
                    ),
                });
            }
        }
        if let Some(why) = &self.inconclusive {
            out.push(Finding {
                hook: None,
                severity: Severity::Info,
                code: "census-inconclusive".into(),
                message: format!("which hooks Claude Code loads here was not checked: {why}"),
            });
        }
        out
    }
}

/// What makes two hooks one for Claude Code, which runs identical hooks once.
fn identity(h: &HookEntry) -> String {
    match &h.kind {
        HookKind::Command { command } => format!("command:{command}"),
        HookKind::Http { url } => format!("http:{url}"),
        _ => h.raw.to_string(),
    }
}

/// Run the census session in a copy of `project`: copies of `home`'s
/// `.claude/settings.json`, plugin registry and `hooks/`, and of
/// `project`'s `.claude/` (placed again over the copy), with
/// `plugin_dirs` passed as `--plugin-dir`; then compare with `hooks`.
pub async fn run(
    claude: &AgentBin,
    standin: &StandIn,
    pool: &Pool,
    home: Option<&Path>,
    project: &Path,
    plugin_dirs: &[PathBuf],
    hooks: &[&HookEntry],
) -> anyhow::Result<Census> {
    let mut files = Vec::new();
    let mut budget = MAX_TOTAL_BYTES;
    if let Some(home) = home {
        let user = home.join(".claude");
        for rel in ["settings.json", "plugins/installed_plugins.json", "plugins/known_marketplaces.json"] {
            copy_file(&user.join(rel), SessionDir::Home, &Path::new(".claude").join(rel), &mut budget, &mut files);
        }
        copy_tree(&user.join("hooks"), SessionDir::Home, Path::new(".claude/hooks"), 0, &mut budget, &mut files);
    }
    copy_tree(&project.join(".claude"), SessionDir::Work, Path::new(".claude"), 0, &mut budget, &mut files);
    let id = pool.next_id("audit-census");
    if !standin.set_first_tool(&id, CENSUS_TOOL) {
        anyhow::bail!("the stand-in cannot call {CENSUS_TOOL}")
    }
    let longest = hooks.iter().filter_map(|h| h.timeout).fold(60.0_f64, f64::max).min(600.0);
    let mut extra_args = Vec::new();
    for dir in plugin_dirs {
        extra_args.extend(["--plugin-dir".to_string(), dir.to_string_lossy().into_owned()]);
    }
    let spec = SessionSpec {
        extra_args,
        // In a copy of the project, as its hooks run there (their rule files beside them).
        project: Some(project.to_path_buf()),
        files,
        setting_sources: Some("user,project,local"),
        ..SessionSpec::kept_stand_in(
            id,
            claude,
            standin,
            pool,
            json!({}),
            HookIdentity::new("failopen-census: no hook of its own", vec![]),
            Duration::from_secs_f64(longest * 2.0 + 60.0),
        )
    };
    let outcome = session::run(&spec).await?;
    let Some(root) = outcome.kept_root else {
        return Ok(Census {
            agent_version: claude.version.clone(),
            inconclusive: Some("the session's root was not kept".into()),
            ..Census::default()
        });
    };
    let stdout = std::fs::read_to_string(root.join("evidence/stdout.jsonl")).unwrap_or_default();
    let _ = std::fs::remove_dir_all(&root);
    let mut census = Census::compare(&claude.version, &stdout, hooks);
    if census.inconclusive.is_some() {
        if let Some(e) = &outcome.evidence.api_error {
            census.inconclusive = Some(format!("the session hit an API error: {e}"));
        } else if outcome.evidence.exit.to_csv() != "0" {
            census.inconclusive = Some(format!("the session ended with {}", outcome.evidence.exit.to_csv()));
        }
    }
    Ok(census)
}

fn copy_file(from: &Path, dir: SessionDir, to: &Path, budget: &mut u64, files: &mut Vec<SessionFile>) {
    let Ok(meta) = std::fs::metadata(from) else { return };
    if !meta.is_file() || meta.len() > MAX_FILE_BYTES || meta.len() > *budget {
        return;
    }
    if let Ok(contents) = std::fs::read(from) {
        *budget -= contents.len() as u64;
        files.push(SessionFile { dir, path: to.to_path_buf(), contents });
    }
}

fn copy_tree(from: &Path, dir: SessionDir, to: &Path, depth: usize, budget: &mut u64, files: &mut Vec<SessionFile>) {
    if depth > MAX_DEPTH {
        return;
    }
    let Ok(entries) = std::fs::read_dir(from) else { return };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        if name == "node_modules" || name == ".git" {
            continue;
        }
        let path = e.path();
        if path.is_dir() {
            copy_tree(&path, dir, &to.join(&name), depth + 1, budget, files);
        } else {
            copy_file(&path, dir, &to.join(&name), budget, files);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::intake::config::{entries, SettingsFile};

    /// The stream of a real session (Claude Code 2.1.328, stand-in): a
    /// plugin whose `plugin.json` lists its hooks file in an array ran one
    /// PreToolUse hook on the model's one Bash call.
    const ONE_HOOK_RAN: &str = r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"x"}}]}}
{"type":"system","subtype":"hook_started","hook_id":"b1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse"}
{"type":"system","subtype":"hook_response","hook_id":"b1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","exit_code":0,"outcome":"success"}
{"type":"result","subtype":"success","result":"done"}"#;

    fn listed(hooks: serde_json::Value) -> Vec<HookEntry> {
        let file = SettingsFile {
            path: "/p/.claude/settings.json".into(),
            project_dir: "/p".into(),
            value: json!({"hooks": {"PreToolUse": hooks}}),
            managed: false,
            plugin: None,
        };
        entries(&[file])
    }

    fn codes(c: &Census) -> Vec<String> {
        c.findings().into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn a_hook_that_ran_but_is_not_listed_is_an_error() {
        let c = Census::compare("2.1.328", ONE_HOOK_RAN, &[]);
        assert_eq!(c.tools[0].runs, ToolHookRuns { calls: 1, hooks_started: 1 });
        assert_eq!(codes(&c), ["hook-not-listed"]);
        assert_eq!(c.findings()[0].severity, Severity::Error);
        let only_write = listed(json!([{"matcher": "Write", "hooks": [{"type": "command", "command": "g"}]}]));
        let refs: Vec<&HookEntry> = only_write.iter().collect();
        assert_eq!(codes(&Census::compare("2.1.328", ONE_HOOK_RAN, &refs)), ["hook-not-listed"]);
    }

    #[test]
    fn the_listed_hook_that_ran_gives_no_finding_and_identical_commands_count_once() {
        let hooks = listed(json!([
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "g"}]},
            {"hooks": [{"type": "command", "command": "g", "timeout": 5}]}
        ]));
        let refs: Vec<&HookEntry> = hooks.iter().collect();
        let c = Census::compare("2.1.328", ONE_HOOK_RAN, &refs);
        assert_eq!((c.tools[0].listed, c.tools[0].listed_at_most), (1, 1));
        assert!(codes(&c).is_empty(), "{:?}", c.findings());
    }

    #[test]
    fn a_listed_hook_that_did_not_run_is_a_warning_unless_its_if_may_skip_it() {
        let hooks =
            listed(json!([{"hooks": [{"type": "command", "command": "g"}, {"type": "command", "command": "h"}]}]));
        let refs: Vec<&HookEntry> = hooks.iter().collect();
        assert_eq!(codes(&Census::compare("2.1.328", ONE_HOOK_RAN, &refs)), ["listed-hook-not-run"]);
        let hooks = listed(json!([{"hooks": [{"type": "command", "command": "g"},
            {"type": "command", "command": "h", "if": "Bash(git *)"}]}]));
        let refs: Vec<&HookEntry> = hooks.iter().collect();
        assert!(codes(&Census::compare("2.1.328", ONE_HOOK_RAN, &refs)).is_empty());
    }

    #[test]
    fn no_call_is_inconclusive_not_a_pass() {
        let c = Census::compare("2.1.328", "{\"type\":\"result\"}", &[]);
        assert_eq!(codes(&c), ["census-inconclusive"]);
    }
}
