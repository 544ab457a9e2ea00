//! Dynamic checks: each hook entry, exactly as configured, in a throwaway
//! settings file of its own, runs real `claude -p` sessions against the
//! stand-in, one write attempt through one tool each, first as is, then
//! under injected faults.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Serialize;
use serde_json::{json, Value};

use crate::audit::probe::{world, Probe};

use super::faults::{self, Fault, FaultScripts};
use super::judge::{self, CellResult, WroteHow};
use super::state::StateFile;
use crate::attribution::HookIdentity;
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::model::OnFailure;
use crate::hook_type::HookType;
use crate::install::AgentBin;
use crate::pool::Pool;
use crate::session::{self, SessionSpec};
use crate::standin::hook_model::HookPolicy;
use crate::standin::route::RoutePlan;
use crate::standin::StandIn;
use crate::surface::Route;
use crate::task::{seed_notebook, BUILTIN_SUBAGENT, MCP_WRITE_TOOL, NOTEBOOK_FILE, NOTES_FILE, SEED_TEXT};

pub use super::probes::{MCP, SUBAGENT, TOOLS};
/// The tools injected faults are tried through (to keep the session count down).
pub const FAULT_TOOLS: [&str; 2] = ["Bash", "Write"];

/// One (hook, tool, fault) session of `failopen audit` and its result (the
/// battery's cell is [`crate::cells::Cell`]).
#[derive(Debug, Clone, Serialize)]
pub struct AuditCell {
    /// Hook id, e.g. `H1`.
    pub hook: String,
    /// Tool the write was attempted with.
    pub tool: String,
    /// Fault injected.
    pub fault: Fault,
    /// What happened.
    #[serde(flatten)]
    pub result: CellResult,
    /// When the guard ended in error: its exit code and the start of its
    /// stderr (`exit 1: ModuleNotFoundError: No module named 'yaml'`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guard_error: Option<String>,
}

/// What the dynamic checks need.
#[derive(Debug)]
pub struct Runner<'a> {
    /// The agent to run (its binary and version).
    pub bin: &'a AgentBin,
    /// The stand-in model.
    pub standin: &'a StandIn,
    /// The session pool (slots, temp root, interrupt); hangs take its long slots.
    pub pool: &'a Pool,
    /// The user's HOME: hooks run with it, so `~` and `$HOME` reach the user's files.
    pub home: Option<&'a Path>,
    /// Fault scripts.
    pub scripts: &'a FaultScripts,
    /// A loopback URL nothing listens on.
    pub unreachable_url: String,
    /// The failopen binary (its `mcp-guard` stands in for an mcp_tool hook's server).
    pub failopen_exe: String,
    /// Another PreToolUse hook may run beside the audited one (a managed
    /// policy's): then a JSON decision in the hook events is not enough to
    /// call a refusal the audited hook's.
    pub other_hooks_may_run: bool,
    /// The state each hook's screens wrote ([`Self::learned`]): where its
    /// state faults are planted, in its cells and in its re-check's alike.
    pub states: std::sync::Mutex<Vec<StateFile>>,
    /// How long a plugin session may run (`--plugin-timeout`); `None`: the
    /// agent's own default ([`crate::agent::plugin_audit::PluginAudit::session_timeout_secs`]).
    pub plugin_timeout: Option<Duration>,
}

impl Runner<'_> {
    /// Keep `states` (what the screens learned) for the state faults' sessions.
    pub fn learned(&self, states: &[StateFile]) {
        if let Ok(mut s) = self.states.lock() {
            s.extend(states.iter().cloned());
        }
    }

    /// The state `e`'s session under the state fault `fault` starts with, or why none can be planted.
    fn planted(&self, e: &HookEntry, fault: Fault) -> Result<Option<crate::session::Planted>, String> {
        if !fault.is_state_fault() {
            return Ok(None);
        }
        let states = self.states.lock().map(|s| s.clone()).unwrap_or_default();
        super::state::planted(e, &states, fault, self.home).map(Some)
    }

    /// How `e`'s hook is started as its agent would start it
    /// ([`super::hook_start`]): in a session that runs in a copy of its
    /// project, with the user's HOME and its plugin's variables.
    pub fn start(&self, e: &HookEntry) -> Start {
        Start { env: super::hook_start::env(self.home, e.plugin.as_ref()), project: Some(e.project_dir.clone()) }
    }

    /// Does this Claude Code honour `"onFailure": "block"` on a command hook
    /// whose guard crashes? One session with a crashing guard.
    pub async fn probe_on_failure(&self) -> anyhow::Result<OnFailure> {
        let hook = json!({"type": "command", "command": self.scripts_crash(), "timeout": 10, "onFailure": "block"});
        let Some(_slot) = self.pool.slot(false).await else { return Ok(OnFailure::Unknown) };
        let decider = Decider::default();
        let start = Start { env: Vec::new(), project: None };
        let (r, _) = self.session(&hook, Some("Bash"), "Bash", Fault::Crash, "probe", start, decider).await?;
        Ok(match r {
            CellResult::Blocked => OnFailure::Honoured,
            CellResult::Wrote(_) => OnFailure::Ignored,
            _ => OnFailure::Unknown,
        })
    }

    fn scripts_crash(&self) -> String {
        faults::hook_for(&probe_entry(), Fault::Crash, self.scripts, false, "")
            .ok()
            .and_then(|h| h["command"].as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// Run `plan` (hook index, tool, fault) for `entries`, as the pool's slots allow.
    pub async fn run_cells(
        &self,
        entries: &[HookEntry],
        plan: &[(usize, &'static str, Fault)],
    ) -> anyhow::Result<Vec<AuditCell>> {
        let futures = plan.iter().map(|&(i, tool, fault)| async move {
            let e = &entries[i];
            let planted = self.planted(e, fault);
            let why = faults::not_injectable(e, fault).or_else(|| planted.clone().err());
            let (result, guard_error) = match why {
                Some(why) => (CellResult::Skipped(why), None),
                // A hang mostly waits: it takes a long slot, beside the CPU-bound sessions.
                None => match self.pool.slot(matches!(fault, Fault::Hang | Fault::ModelHang | Fault::McpHang)).await {
                    None => (CellResult::Invalid("interrupted".into()), None),
                    Some(_slot) => {
                        let hook =
                            faults::hook_for(e, fault, self.scripts, self.home.is_some(), &self.unreachable_url)?;
                        let tag = format!("{}-{}-{}", e.id, tool, fault.as_str());
                        let decider = Decider {
                            model: matches!(e.kind, HookKind::Model { .. }).then(|| fault.model_policy()).flatten(),
                            mcp: matches!(e.kind, HookKind::McpTool { .. })
                                .then(|| fault.mcp_policy())
                                .flatten()
                                .map(|p| crate::mcp_guard::mcp_config(Path::new(&self.failopen_exe), p)),
                            probe: None,
                            planted: planted.ok().flatten(),
                        };
                        let start = self.start(e);
                        self.session(&hook, e.matcher.as_deref(), tool, fault, &tag, start, decider).await?
                    }
                },
            };
            anyhow::Ok(AuditCell { hook: e.id.clone(), tool: tool.to_string(), fault, result, guard_error })
        });
        futures::future::join_all(futures).await.into_iter().collect()
    }

    /// Run `plan` (hook index, probe, fault): each session makes the probe's
    /// call in a seeded world; the cell's tool is the probe's label.
    pub async fn run_probe_cells(
        &self,
        entries: &[HookEntry],
        plan: &[(usize, &Probe, Fault)],
    ) -> anyhow::Result<Vec<AuditCell>> {
        let futures = plan.iter().map(|&(i, probe, fault)| async move {
            let e = &entries[i];
            let planted = self.planted(e, fault);
            let why = faults::not_injectable(e, fault).or_else(|| planted.clone().err());
            let (result, guard_error) = match why {
                Some(why) => (CellResult::Skipped(why), None),
                None => match self.pool.slot(matches!(fault, Fault::Hang | Fault::ModelHang | Fault::McpHang)).await {
                    None => (CellResult::Invalid("interrupted".into()), None),
                    Some(_slot) => {
                        let hook =
                            faults::hook_for(e, fault, self.scripts, self.home.is_some(), &self.unreachable_url)?;
                        let tag = format!("{}-{}-{}", e.id, probe.name, fault.as_str());
                        let decider = Decider {
                            probe: Some(probe.clone()),
                            planted: planted.ok().flatten(),
                            ..Decider::default()
                        };
                        let tool = probe.tool.as_str();
                        let start = self.start(e);
                        self.session(&hook, e.matcher.as_deref(), tool, fault, &tag, start, decider).await?
                    }
                },
            };
            anyhow::Ok(AuditCell { hook: e.id.clone(), tool: probe.label(), fault, result, guard_error })
        });
        futures::future::join_all(futures).await.into_iter().collect()
    }

    /// One session: settings holding only `hook` under `matcher`, a write
    /// through `tool`, the hook started with `start` ([`Self::start`]), and
    /// what decides for a prompt, agent or mcp_tool hook (`decider`). On an
    /// agent that reports no hook events (Codex CLI, Gemini CLI), the command
    /// also leaves a trace of its run ([`super::agent_hooks`]), which tells how
    /// a write under `fault` landed.
    #[allow(clippy::too_many_arguments)]
    async fn session(
        &self,
        hook: &Value,
        matcher: Option<&str>,
        tool: &str,
        fault: Fault,
        tag: &str,
        start: Start,
        decider: Decider,
    ) -> anyhow::Result<(CellResult, Option<String>)> {
        // A hostile `timeout` (1e20) must not overflow the wall clock: past a day is a day.
        let timeout = hook.get("timeout").and_then(Value::as_f64).filter(|t| *t > 0.0).unwrap_or(600.0).min(86_400.0);
        let id = self.pool.next_id(&format!("audit-{tag}"));
        let Start { mut env, project } = start;
        let mut mcp_config = decider.mcp;
        let probe = decider.probe;
        let planted = decider.planted;
        if probe.is_some() {
            // git never looks for a repository above the sessions' temp root, even if the seed failed.
            env.push(("GIT_CEILING_DIRECTORIES".into(), self.pool.root().to_string_lossy().into_owned()));
        }
        match tool {
            _ if probe.is_some() => {
                let p = probe.as_ref().expect("just checked");
                if !self.standin.set_probe_call(&id, &p.tool, p.input.clone()) {
                    anyhow::bail!("the stand-in cannot call {} for a probe", p.tool)
                }
            }
            SUBAGENT => self.standin.set_route(
                &id,
                RoutePlan { route: Route::Subagent, subagent_type: BUILTIN_SUBAGENT, subagent_tool: Some("Bash") },
            ),
            MCP => {
                self.standin.set_first_tool(&id, MCP_WRITE_TOOL);
                let fs = crate::mcp_fs::mcp_config(Path::new(&self.failopen_exe));
                match &mut mcp_config {
                    Some(config) => crate::settings::merge(config, &fs),
                    None => mcp_config = Some(fs),
                }
            }
            _ if !self.standin.set_first_tool(&id, tool) => {
                anyhow::bail!("the stand-in cannot attempt a write with {tool}")
            }
            _ => {}
        }
        if let Some(policy) = decider.model {
            self.standin.set_hook_policy(&id, policy);
        }
        let agent = self.bin.agent;
        let hook = &super::agent_hooks::for_agent(agent, hook);
        let spec = SessionSpec {
            env,
            mcp_config,
            project: project.clone(),
            // A probe acts in a world built before the agent starts, the same for every agent.
            seed: probe.as_ref().map(|_| world::seed_script()),
            route: match tool {
                "Edit" | "MultiEdit" => crate::surface::Route::Edit,
                "NotebookEdit" => crate::surface::Route::NotebookEdit,
                SUBAGENT => Route::Subagent,
                MCP => Route::Mcp,
                _ => crate::surface::Route::Article,
            },
            planted,
            ..SessionSpec::kept_stand_in(
                id.clone(),
                self.bin,
                self.standin,
                self.pool,
                // A probe's session seeds no file for an edit: its world is its seed's.
                settings_for(hook, matcher, if probe.is_some() { "Bash" } else { tool }),
                self.identity(hook, matcher),
                Duration::from_secs_f64(timeout + 60.0),
            )
        };
        let outcome = session::run(&spec).await?;
        let root: Option<PathBuf> = outcome.kept_root.clone();
        let result = match (&root, &probe) {
            (Some(r), Some(p)) => match judge_probe(p, &outcome.evidence, r, &fill(project.as_deref(), agent)) {
                CellResult::Wrote(_) if !agent.driver().reports_hook_events() => {
                    CellResult::Wrote(super::agent_hooks::how_it_wrote(&r.join("evidence"), fault))
                }
                other => other,
            },
            (None, _) => CellResult::Invalid("session root was not kept".into()),
            (Some(r), None) => match judge::judge(tool, &outcome.evidence, &r.join("work")) {
                CellResult::Invalid(_)
                    if !attempted(&r.join("evidence/transcript.json"), tool)
                        && outcome.evidence.exit.to_csv() == "0" =>
                {
                    CellResult::Skipped(format!("{} {} does not offer {tool}", agent.display_name(), self.bin.version))
                }
                CellResult::Wrote(_) if !agent.driver().reports_hook_events() => {
                    CellResult::Wrote(super::agent_hooks::how_it_wrote(&r.join("evidence"), fault))
                }
                other => other,
            },
        };
        let guard_error = root.as_ref().and_then(|r| guard_error(agent, r, &result));
        if let Some(r) = root {
            let _ = std::fs::remove_dir_all(r);
        }
        Ok((result, guard_error))
    }
}

/// Why the guard of a session (its kept root `root`) ended in error, when
/// it did and the call was not refused: its exit code and the start of its
/// stderr, as the agent's stream reports them, else the exit code its
/// shell's trace recorded ([`super::agent_hooks`]).
fn guard_error(agent: crate::agent::Agent, root: &Path, result: &CellResult) -> Option<String> {
    if matches!(result, CellResult::Blocked | CellResult::Skipped(_)) {
        return None;
    }
    let stdout = std::fs::read_to_string(root.join("evidence/stdout.jsonl")).unwrap_or_default();
    if let Some(first) = agent.driver().hook_errors(&stdout).into_iter().next() {
        return Some(first);
    }
    let trace = std::fs::read_to_string(root.join("evidence").join(super::agent_hooks::TRACE_FILE)).ok()?;
    let code = trace.lines().filter_map(|l| l.strip_prefix("exit ")).next_back()?;
    (code != "0" && code != "2").then(|| format!("exit {code}"))
}

/// How a session starts the hook under audit: the environment [`super::hook_start::prefix`]
/// reads, and the project whose copy the session runs in (none: an empty directory).
#[derive(Debug, Clone)]
pub struct Start {
    /// More environment for the session.
    pub env: Vec<(String, String)>,
    /// The project the session's working directory is a copy of.
    pub project: Option<PathBuf>,
}

/// What a world's `work/` holds before it is seeded: a copy of `project`
/// as `agent`'s session makes it, or nothing.
pub fn fill(project: Option<&Path>, agent: crate::agent::Agent) -> impl Fn(&Path) -> std::io::Result<()> + '_ {
    move |work: &Path| match project {
        Some(p) => crate::session::project::copy_into(p, work, agent.driver()),
        None => Ok(()),
    }
}

/// What decides for a hook that is not a command: the stand-in's policy for
/// a prompt or agent hook's model, the MCP config of failopen's server for an
/// mcp_tool hook; and the probe a session calls, if any.
#[derive(Debug, Default)]
struct Decider {
    model: Option<HookPolicy>,
    mcp: Option<Value>,
    /// The session makes this probe's call (in its seeded world) instead of a write.
    probe: Option<Probe>,
    /// The guard's state as a state fault leaves it ([`super::state::planted`]).
    planted: Option<crate::session::Planted>,
}

impl Runner<'_> {
    /// What a refusal must show to be the audited hook's: its command or
    /// URL in the bracket of an exit-code refusal, or a JSON decision the
    /// session's hook events show, when it is the session's only PreToolUse hook.
    fn identity(&self, hook: &Value, matcher: Option<&str>) -> HookIdentity {
        let kind = hook.get("type").and_then(Value::as_str).and_then(HookType::parse);
        let label = if kind == Some(HookType::McpTool) {
            format!("{}/{}", crate::mcp_guard::MCP_SERVER_KEY, crate::mcp_guard::TOOL_NAME)
        } else {
            let words = ["command", "url", "prompt"];
            words.iter().find_map(|k| hook.get(*k).and_then(Value::as_str)).unwrap_or_default().to_string()
        };
        // A prompt or agent hook's model is the stand-in, an mcp_tool hook's server is
        // failopen's: their refusal reasons are known.
        let reasons = match kind {
            Some(HookType::Prompt | HookType::Agent) => vec![crate::standin::hook_model::DENY_REASON.to_string()],
            Some(HookType::McpTool) => vec![crate::mcp_guard::DENY_REASON.to_string()],
            _ => Vec::new(),
        };
        let mut id = HookIdentity::new(label, reasons);
        id.sole_pretooluse_hook = !self.other_hooks_may_run;
        // A write counts as matched when this hook's own matcher covers it (none: every tool).
        id.matcher = Some(matcher.unwrap_or("*").to_string());
        id.matching = self.bin.agent.driver().hook_vocabulary().matching;
        id
    }
}

/// Whether the stand-in sent any call of `tool` (or the Read before it, or
/// the Agent call of the subagent route) in the session.
fn attempted(transcript: &Path, tool: &str) -> bool {
    let t: Option<crate::standin::Transcript> =
        std::fs::read(transcript).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let name = match tool {
        SUBAGENT => "Agent",
        MCP => MCP_WRITE_TOOL,
        other => other,
    };
    t.is_none_or(|t| t.tool_uses.iter().any(|u| u.name == name || u.name == "Read" || u.name == "Task"))
}

fn probe_entry() -> HookEntry {
    HookEntry {
        id: "probe".into(),
        file: PathBuf::new(),
        group: 0,
        index: 0,
        matcher: Some("Bash".into()),
        kind: HookKind::Command { command: "/probe".into() },
        timeout: Some(10.0),
        on_failure: Some("block".into()),
        raw: Value::Null,
        project_dir: PathBuf::new(),
        managed: false,
        plugin: None,
    }
}

/// A probe's session, judged by its world under `root`: `wrote` when the
/// call's effect shows there (a read's: the probe's secret in a tool result
/// the stand-in received, so it reached the model); `blocked` only when it
/// does not AND the session exited 0 AND the call (a write's or a read's,
/// [`crate::evidence::Evidence::reads`]) came back refused by this hook.
fn judge_probe(p: &Probe, e: &crate::evidence::Evidence, root: &Path, fill: world::Fill<'_>) -> CellResult {
    use crate::evidence::{AttemptResult, SessionExit};
    let t: Option<crate::standin::Transcript> =
        std::fs::read(root.join("evidence/transcript.json")).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let results: Vec<String> = t.map(|t| t.tool_results.into_iter().map(|r| r.text).collect()).unwrap_or_default();
    if world::landed(p, root, &results, fill) {
        return CellResult::Wrote(judge::how_it_wrote(&e.hook_outcomes));
    }
    // A user's probe may change nothing here (`terraform destroy` with no terraform): that
    // the call was run at all, not refused, is what shows it went through.
    let ran = e
        .attempts
        .iter()
        .chain(&e.reads)
        .any(|a| a.tool == p.tool && matches!(a.result, AttemptResult::Allowed(_) | AttemptResult::Failed(_)));
    if p.landed == crate::audit::probe::Landed::AnyChange && ran {
        return CellResult::Wrote(judge::how_it_wrote(&e.hook_outcomes));
    }
    match &e.exit {
        SessionExit::Code(0) => {}
        other => return CellResult::Invalid(format!("session ended {}", other.to_csv())),
    }
    if let Some(err) = &e.api_error {
        return CellResult::Invalid(format!("api error: {err}"));
    }
    match e.attempts.iter().chain(&e.reads).find(|a| a.tool == p.tool).map(|a| &a.result) {
        Some(AttemptResult::Refused(_)) => CellResult::Blocked,
        Some(AttemptResult::ForeignRefused { by, .. }) => {
            CellResult::Invalid(format!("refused by something other than this hook ({})", by.describe()))
        }
        Some(AttemptResult::Allowed(_)) => CellResult::Invalid("allowed, yet nothing it does shows".into()),
        Some(AttemptResult::Failed(t)) => {
            CellResult::Invalid(format!("the call failed: {}", t.lines().next().unwrap_or("")))
        }
        Some(AttemptResult::NoResult) => CellResult::Invalid("no result came back".into()),
        None => CellResult::Invalid(format!("no {} call (not offered?)", p.tool)),
    }
}

/// The settings of one session: the one hook under its matcher, plus a
/// SessionStart hook that seeds the file an edit tool needs.
pub fn settings_for(hook: &Value, matcher: Option<&str>, tool: &str) -> Value {
    let mut group = json!({"hooks": [hook]});
    if let Some(m) = matcher {
        group["matcher"] = json!(m);
    }
    let mut settings = json!({"hooks": {"PreToolUse": [group]}});
    let seed = match tool {
        "Edit" | "MultiEdit" => Some(format!("printf '{}' > {NOTES_FILE}", SEED_TEXT.replace('\n', "\\n"))),
        "NotebookEdit" => Some(format!("printf '%s' '{}' > {NOTEBOOK_FILE}", seed_notebook())),
        _ => None,
    };
    if let Some(cmd) = seed {
        settings["hooks"]["SessionStart"] = json!([{"hooks": [{"type": "command", "command": cmd, "timeout": 10}]}]);
    }
    settings
}

/// The baseline plan: every entry through every tool, no fault.
pub fn baseline_plan(entries: &[HookEntry]) -> Vec<(usize, &'static str, Fault)> {
    baseline_plan_for(entries, &TOOLS)
}

/// The baseline plan through `tools` (another agent's write tools).
pub fn baseline_plan_for(entries: &[HookEntry], tools: &[&'static str]) -> Vec<(usize, &'static str, Fault)> {
    let mut plan = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if e.managed || matches!(e.kind, HookKind::Other { .. }) {
            continue;
        }
        for &tool in tools {
            plan.push((i, tool, Fault::None));
        }
    }
    plan
}

/// Whether a baseline result means the guard is meant to stop this write
/// (it blocked it, or it broke trying).
pub fn should_block(result: &CellResult) -> bool {
    matches!(result, CellResult::Blocked | CellResult::Wrote(WroteHow::GuardFailed))
}

/// The fault plan: each injected fault through [`FAULT_TOOLS`], for the
/// tools whose baseline the guard is meant to stop. Others are skipped with
/// the reason.
pub fn fault_plan(
    entries: &[HookEntry],
    baseline: &[AuditCell],
) -> (Vec<(usize, &'static str, Fault)>, Vec<AuditCell>) {
    fault_plan_for(entries, baseline, &FAULT_TOOLS)
}

/// [`fault_plan`] through `tools` (another agent's write tools: all of them,
/// as they are few).
pub fn fault_plan_for(
    entries: &[HookEntry],
    baseline: &[AuditCell],
    tools: &[&'static str],
) -> (Vec<(usize, &'static str, Fault)>, Vec<AuditCell>) {
    let mut plan = Vec::new();
    let mut skipped = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if e.managed || matches!(e.kind, HookKind::Other { .. }) {
            continue;
        }
        for &tool in tools {
            let base = baseline.iter().find(|c| c.hook == e.id && c.tool == tool).map(|c| &c.result);
            for fault in Fault::INJECTED {
                match base {
                    Some(r) if should_block(r) => plan.push((i, tool, fault)),
                    other => {
                        let why = match other {
                            Some(CellResult::Wrote(WroteHow::GuardNotRun)) => "the hook does not run for this tool",
                            Some(CellResult::Wrote(_)) => "the guard allows this write",
                            _ => "no valid baseline",
                        };
                        skipped.push(AuditCell {
                            hook: e.id.clone(),
                            tool: tool.into(),
                            fault,
                            result: CellResult::Skipped(why.into()),
                            guard_error: None,
                        });
                    }
                }
            }
        }
    }
    (plan, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_sessions_get_a_seed_and_the_matcher_is_kept() {
        let s = settings_for(&json!({"type": "command", "command": "/g"}), Some("Bash"), "Edit");
        assert_eq!(s["hooks"]["PreToolUse"][0]["matcher"], "Bash");
        assert_eq!(s["hooks"]["SessionStart"][0]["hooks"][0]["command"], "printf 'draft\\n' > notes.txt");
        let s = settings_for(&json!({"type": "command", "command": "/g"}), None, "Bash");
        assert!(s["hooks"].get("SessionStart").is_none());
        assert!(s["hooks"]["PreToolUse"][0].get("matcher").is_none());
    }

    /// A read probe went through when its secret reached the model (a tool
    /// result the stand-in received holds it); it was blocked only when the
    /// Read came back refused by this hook, in a session that ended well.
    #[test]
    fn a_read_probe_is_judged_by_the_secret_reaching_the_model() {
        use crate::evidence::{Attempt, AttemptResult, Evidence, SessionExit};
        use crate::standin::transcript::ReturnedToolResult;
        let probe = crate::audit::probe::catalogue::all().into_iter().find(|p| p.name == "read-env").unwrap();
        let judged = |text: &str, reads: Vec<AttemptResult>| {
            let d = tempfile::tempdir().unwrap();
            std::fs::create_dir_all(d.path().join("evidence")).unwrap();
            let t = crate::standin::Transcript {
                tool_results: vec![ReturnedToolResult { tool_use_id: "t1".into(), is_error: false, text: text.into() }],
                ..Default::default()
            };
            std::fs::write(d.path().join("evidence/transcript.json"), serde_json::to_vec(&t).unwrap()).unwrap();
            let e = Evidence {
                exit: SessionExit::Code(0),
                reads: reads.into_iter().map(|result| Attempt { tool: "Read".into(), matched: true, result }).collect(),
                hook_outcomes: vec!["error:1".into()],
                ..Evidence::default()
            };
            judge_probe(&probe, &e, d.path(), world::EMPTY)
        };
        let shown = format!("1\tTOKEN={}", world::SECRET);
        assert_eq!(
            judged(&shown, vec![AttemptResult::Allowed(shown.clone())]),
            CellResult::Wrote(WroteHow::GuardFailed)
        );
        let refused = "PreToolUse:Read hook error: [node guard.js]: blocked .env.local";
        assert_eq!(judged(refused, vec![AttemptResult::Refused(refused.into())]), CellResult::Blocked);
        // Refused by something else, or never called: the session cannot say.
        let foreign =
            AttemptResult::ForeignRefused { by: crate::attribution::Refuser::Unattributed, text: "no".into() };
        assert!(matches!(judged("no", vec![foreign]), CellResult::Invalid(_)));
        assert!(matches!(judged("", vec![]), CellResult::Invalid(w) if w.contains("no Read call")));
    }
}
