//! Evidence of one session: the file on disk, the write attempts and how
//! they came back, the facts an agent's driver reads from its output
//! ([`StreamFacts`]; Claude Code's stream-json is read in
//! [`crate::agent::claude_code::stream`]), the guard's trace, and how the
//! session ended. Gathered here; judged in [`crate::verdict`].

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::agent::wording::RefusalWording;
use crate::attribution::{self, HookIdentity, Refuser};
use crate::standin::Transcript;
use crate::task::WRITE_TOOLS;

pub mod prompt;
pub mod trace;
pub use prompt::{prompt_block, prompt_block_text, PromptBlock, PROMPT_BLOCKED};
pub use trace::{traced_calls, TracedCall};

/// How the `claude -p` process ended.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum SessionExit {
    /// Exited with this code.
    Code(i32),
    /// Killed by this signal (not by us).
    Signal(i32),
    /// Hit the wall timeout; we killed its process group.
    TimedOut,
    /// The run was interrupted; we killed its process group.
    #[default]
    Interrupted,
    /// Could not be started.
    SpawnFailed(String),
    /// Never started: this Claude Code cannot run the arm ([`Evidence::unsupported`]).
    NotStarted,
}

impl SessionExit {
    /// The CSV spelling: `0`, `1`, `signal:9`, `timeout`, `interrupted`, `spawn-failed`.
    pub fn to_csv(&self) -> String {
        match self {
            SessionExit::Code(c) => c.to_string(),
            SessionExit::Signal(s) => format!("signal:{s}"),
            SessionExit::TimedOut => "timeout".into(),
            SessionExit::Interrupted => "interrupted".into(),
            SessionExit::SpawnFailed(_) => "spawn-failed".into(),
            SessionExit::NotStarted => "not-started".into(),
        }
    }
}

/// The judged file, when it exists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFound {
    /// Its size.
    pub bytes: u64,
    /// Whether it reads `ready` (trailing newline allowed).
    pub reads_ready: bool,
}

/// How one tool call came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptResult {
    /// Refused by the hook under test (see [`crate::attribution`]), with the text.
    Refused(String),
    /// Refused, but not by the hook under test: a permission rule, another
    /// hook, a managed policy, or nothing that can be tied to the hook.
    ForeignRefused {
        /// Who refused it.
        by: Refuser,
        /// The refusal text.
        text: String,
    },
    /// An error result that is not a hook's refusal (the tool itself failed).
    Failed(String),
    /// A success result.
    Allowed(String),
    /// No result came back.
    NoResult,
}

/// One write-capable tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// Tool name.
    pub tool: String,
    /// Whether the hook's matcher covers this tool (as Claude Code matches it).
    pub matched: bool,
    /// How it came back.
    pub result: AttemptResult,
}

/// Everything the verdict may look at, plus secondary evidence for the row.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Evidence {
    /// `work/notes.txt`, if it exists.
    pub file: Option<FileFound>,
    /// How the session ended.
    pub exit: SessionExit,
    /// Write attempts, in order.
    pub attempts: Vec<Attempt>,
    /// An API error reported by Claude Code, if any.
    pub api_error: Option<String>,
    /// Guard invocations (trace lines); secondary.
    pub hook_invocations: u32,
    /// Claude Code's hook outcomes from stream-json, e.g. `error:2`; secondary.
    pub hook_outcomes: Vec<String>,
    /// The error Claude Code's final result reported (e.g. `Prompt is too long`).
    pub result_error: Option<String>,
    /// Times Claude Code compacted the conversation (`compact_boundary`
    /// events): a refusal too big for the context window was summarised away.
    pub compactions: u32,
    /// Calls the model of a prompt or agent hook made to the stand-in (the
    /// hook was consulted); 0 for command and HTTP hooks.
    pub hook_model_calls: u32,
    /// Write attempts at a side file of a `parallel` route
    /// ([`crate::task::SIDE_FILES`]): reported, never judged.
    pub side_attempts: Vec<(&'static str, Attempt)>,
    /// Calls of the tools that write nothing (`Read`, `Grep` ...), in order,
    /// each classified as [`Self::attempts`] are: an audit's read probe is
    /// one. Never judged by the battery, whose verdict is a file on disk.
    pub reads: Vec<Attempt>,
    /// The side files found on disk after the session.
    pub side_landed: Vec<String>,
    /// Claude Code reported the prompt blocked by a UserPromptSubmit hook,
    /// and by whom.
    pub prompt_blocked: Option<PromptBlock>,
    /// Main-conversation requests the stand-in received (`None` in live
    /// mode, where no transcript is kept): 0 means the prompt never reached
    /// the model.
    pub main_requests: Option<u32>,
    /// The stream's notices ([`StreamFacts::notices`]), for the row's flags.
    pub notices: Vec<String>,
    /// What this Claude Code lacks to run the arm at all (a flag such as
    /// `--settings`): no session was started.
    pub unsupported: Option<&'static str>,
    /// The flag Claude Code's stderr called an unknown option, if it did.
    pub unknown_option: Option<&'static str>,
}

impl Evidence {
    /// Attempts as the CSV writes them: `Bash:refused;Write:refused`.
    pub fn attempts_csv(&self) -> String {
        attempts_csv(&self.attempts)
    }

    /// The flag a `parallel` route's row carries: each side call's result
    /// and whether its file landed, e.g. `parallel:Bash:refused=absent,Write:allowed=landed`.
    pub fn side_flag(&self) -> Option<String> {
        if self.side_attempts.is_empty() && self.side_landed.is_empty() {
            return None;
        }
        let calls = self
            .side_attempts
            .iter()
            .map(|(file, a)| {
                let landed = if self.side_landed.iter().any(|l| l == file) { "landed" } else { "absent" };
                format!("{file}:{}={landed}", attempts_csv(std::slice::from_ref(a)))
            })
            .collect::<Vec<_>>();
        Some(format!("parallel:{}", calls.join(",")))
    }
}

/// Attempts as the CSV writes them: `Bash:refused;Write:refused`.
fn attempts_csv(attempts: &[Attempt]) -> String {
    {
        attempts
            .iter()
            .map(|a| {
                let r = match a.result {
                    AttemptResult::Refused(_) => "refused",
                    AttemptResult::ForeignRefused { .. } => "foreign-refused",
                    AttemptResult::Failed(_) => "failed",
                    AttemptResult::Allowed(_) => "allowed",
                    AttemptResult::NoResult => "no-result",
                };
                format!("{}:{r}", a.tool)
            })
            .collect::<Vec<_>>()
            .join(";")
    }
}

impl Evidence {
    /// The text of the last refusal the harness sent back (whoever refused).
    pub fn last_refusal(&self) -> Option<&str> {
        self.attempts.iter().rev().find_map(|a| match &a.result {
            AttemptResult::Refused(t) | AttemptResult::ForeignRefused { text: t, .. } => Some(t.as_str()),
            _ => None,
        })
    }

    /// `Tool=refuser` for each attempt something other than the hook under
    /// test refused, e.g. `Bash=permission-rule`.
    pub fn foreign_refusers(&self) -> Vec<String> {
        self.attempts
            .iter()
            .filter_map(|a| match &a.result {
                AttemptResult::ForeignRefused { by, .. } => Some(format!("{}={}", a.tool, by.describe())),
                _ => None,
            })
            .collect()
    }
}

/// Look at the judged file.
pub fn file_on_disk(path: &Path) -> Option<FileFound> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    let bytes = meta.len();
    let reads_ready = std::fs::read(path).map(|b| b.strip_suffix(b"\n").unwrap_or(&b) == b"ready").unwrap_or(false);
    Some(FileFound { bytes, reads_ready })
}

/// Whether a tool name is covered by the battery's matcher.
pub fn is_matched_tool(tool: &str) -> bool {
    WRITE_TOOLS.contains(&tool)
}

/// What the hook under test is, and what the session showed of hook
/// decisions: what [`classify`] needs to attribute a refusal.
#[derive(Debug, Clone, Copy)]
pub struct Attribution<'a> {
    /// The hook under test.
    pub hook: &'a HookIdentity,
    /// Reasons of the JSON decisions seen in the session's PreToolUse hook events.
    pub decided_reasons: &'a [String],
    /// The words of the agent that ran: no other agent's count.
    pub wording: &'a dyn RefusalWording,
}

/// Classify one tool result. `not_executed` says the tool never ran (it was
/// refused before execution): Claude Code's own word, from the stream's
/// `tool_result_meta.non_execution_kind`, or the guard's trace
/// ([`trace::guard_refused`]) on releases that give neither that nor hook events. A refusal counts as the hook
/// under test's only when [`attribution::refuser`] ties it to that hook.
pub fn classify(is_error: bool, text: &str, not_executed: bool, who: Attribution<'_>) -> AttemptResult {
    if !is_error {
        return AttemptResult::Allowed(text.to_string());
    }
    if !(who.wording.names_hook_refusal(text) || not_executed || who.wording.is_own_refusal(text)) {
        return AttemptResult::Failed(text.to_string());
    }
    match attribution::refuser(text, who.hook, who.decided_reasons, who.wording) {
        // A generic deny names no hook and no reason: besides the session's
        // sole PreToolUse hook deciding in JSON (the refuser's condition),
        // it counts only where the call is known not to have run (the
        // stream says so, or the guard's trace shows it ran for that call);
        // so does an agent's refusal without a reason from the sole hook.
        Refuser::HookUnderTest
            if (attribution::is_generic_hook_deny(text) || who.wording.is_reasonless_hook_refusal(text))
                && !not_executed =>
        {
            AttemptResult::ForeignRefused { by: Refuser::Unattributed, text: text.to_string() }
        }
        Refuser::HookUnderTest => AttemptResult::Refused(text.to_string()),
        by => AttemptResult::ForeignRefused { by, text: text.to_string() },
    }
}

/// The write attempts the stand-in sent, with the results that came back,
/// attributed with what the session's stream showed (`facts`). A result the
/// stand-in never received (Claude Code ended the turn right after it: a
/// prompt hook's refusal does on 2.1.328) is taken from Claude Code's own
/// stream.
pub fn attempts_from_transcript(
    t: &Transcript,
    facts: &StreamFacts,
    hook: &HookIdentity,
    wording: &dyn RefusalWording,
) -> Vec<Attempt> {
    calls(t, facts, hook, wording, is_write_capable).filter(|(side, _)| side.is_none()).map(|(_, a)| a).collect()
}

/// The calls of tools that write nothing ([`is_write_capable`] says no: a
/// `Read`) the stand-in sent, with the results that came back, attributed
/// as [`attempts_from_transcript`] attributes the writes.
pub fn reads_from_transcript(
    t: &Transcript,
    facts: &StreamFacts,
    hook: &HookIdentity,
    wording: &dyn RefusalWording,
) -> Vec<Attempt> {
    calls(t, facts, hook, wording, |tool| !is_write_capable(tool)).map(|(_, a)| a).collect()
}

/// The write attempts at a side file of a `parallel` route
/// ([`crate::task::SIDE_FILES`]), with the file each one names; as
/// [`attempts_from_transcript`], which leaves them out.
pub fn side_attempts_from_transcript(
    t: &Transcript,
    facts: &StreamFacts,
    hook: &HookIdentity,
    wording: &dyn RefusalWording,
) -> Vec<(&'static str, Attempt)> {
    calls(t, facts, hook, wording, is_write_capable).filter_map(|(side, a)| side.map(|f| (f, a))).collect()
}

/// Every call the stand-in sent (the main conversation's and a subagent's
/// alike) of a tool `keep` takes, with the side file it names, if any. A
/// call counts as matched when the hook under test's own matcher covers its tool.
fn calls<'a>(
    t: &'a Transcript,
    facts: &'a StreamFacts,
    hook: &'a HookIdentity,
    wording: &'a dyn RefusalWording,
    keep: fn(&str) -> bool,
) -> impl Iterator<Item = (Option<&'static str>, Attempt)> + 'a {
    let who = Attribution { hook, decided_reasons: &facts.decided_reasons, wording };
    t.tool_uses.iter().filter(move |u| keep(&u.name)).map(move |u| {
        let attempt = Attempt {
            tool: u.name.clone(),
            matched: hook.covers(&u.name),
            result: t
                .result_for(&u.id)
                .map(|r| (r.is_error, r.text.as_str()))
                .or_else(|| facts.results.get(&u.id).map(|(e, text)| (*e, text.as_str())))
                .or_else(|| aborted_at(t, facts, u))
                .map(|(is_error, text)| {
                    // Claude Code's word that the call never ran, or the guard's own trace.
                    let refused_before = facts.not_executed.contains(&u.id)
                        || trace::guard_refused(&facts.traced, &u.id, &u.name, &u.input, text, hook, wording);
                    let result = classify(is_error || wording.is_unflagged_refusal(text), text, refused_before, who);
                    confirmed(result, facts, u)
                })
                .unwrap_or(AttemptResult::NoResult),
        };
        (crate::task::side_file(&u.input), attempt)
    })
}

/// A refusal of an Agent SDK session's call stays the callback's only when
/// the callback's own trace shows it was asked about that very call and the
/// stream confirms the call was refused ([`StreamFacts::confirmed_refusals`]);
/// otherwise no one is known to have refused it. Anything else passes.
fn confirmed(result: AttemptResult, facts: &StreamFacts, u: &crate::standin::transcript::SentToolUse) -> AttemptResult {
    match (result, &facts.confirmed_refusals) {
        (AttemptResult::Refused(text), Some(confirmed))
            if !(confirmed.contains(&u.id) && facts.traced.iter().any(|c| c.is_for(&u.id, &u.name, &u.input))) =>
        {
            AttemptResult::ForeignRefused { by: Refuser::Unattributed, text }
        }
        (result, _) => result,
    }
}

/// The refusal of a run the agent aborted at its hook, for the call `u`:
/// only the last call the stand-in sent, with no result, and only when the
/// guard's own trace shows it ran for that very call, or the agent's own log
/// says a hook's stop ended the run ([`StreamFacts::hook_stop_reason`]: a
/// wrapper that refused a guard that never started leaves no trace). The
/// abort's words name no hook: whose refusal it was is then [`classify`]'s to say.
fn aborted_at<'a>(
    t: &Transcript,
    facts: &'a StreamFacts,
    u: &crate::standin::transcript::SentToolUse,
) -> Option<(bool, &'a str)> {
    let text = facts.run_aborted_at_hook.as_deref()?;
    let last = t.tool_uses.last().is_some_and(|l| l.id == u.id);
    let traced = facts.traced.iter().any(|c| c.is_for(&u.id, &u.name, &u.input));
    (last && (traced || facts.hook_stop_reason.is_some())).then_some((true, text))
}

/// Tools that can write a file (matched or not by the battery's matcher).
/// Starting a subagent (`Agent`, formerly `Task`), loading a deferred tool
/// (`ToolSearch`) or waiting for MCP servers to connect (`WaitForMcpServers`)
/// writes nothing itself: the subagent's own calls are in the transcript as
/// calls of their own.
pub(crate) fn is_write_capable(tool: &str) -> bool {
    is_matched_tool(tool)
        || !matches!(
            tool,
            "Read"
                | "Glob"
                | "Grep"
                | "LS"
                | "WebFetch"
                | "WebSearch"
                | "TodoWrite"
                | "Agent"
                | "Task"
                | "ToolSearch"
                | "WaitForMcpServers"
                | "Skill"
        )
}

/// Facts read from Claude Code's `--output-format stream-json` output.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StreamFacts {
    /// `outcome:exit_code` for each PreToolUse hook response.
    pub hook_outcomes: Vec<String>,
    /// The final result line said `is_error: true`, with its text.
    pub result_error: Option<String>,
    /// An API error (e.g. overloaded) reported in the stream.
    pub api_error: Option<String>,
    /// Write attempts seen in the stream (tool_use and the tool_result for it).
    pub attempts: Vec<Attempt>,
    /// A final result line was seen.
    pub saw_result: bool,
    /// tool_use ids Claude Code reported as not executed (`tool_result_meta`).
    pub not_executed: HashSet<String>,
    /// `compact_boundary` events: the conversation was compacted.
    pub compactions: u32,
    /// Reasons of the JSON decisions (deny or ask) in PreToolUse hook events.
    pub decided_reasons: Vec<String>,
    /// Every tool_result Claude Code reported, by tool_use id: (is_error, text).
    pub results: HashMap<String, (bool, String)>,
    /// The refusal of Claude Code's prompt-blocked report, if any.
    pub prompt_blocked: Option<String>,
    /// The calls the guard's trace shows it ran for ([`trace`]); set by the
    /// session after reading the stream.
    pub traced: Vec<TracedCall>,
    /// An Agent SDK session's further demand on a refusal (issue 31): the
    /// calls the stream confirms were refused; `None` for an agent CLI.
    pub confirmed_refusals: Option<HashSet<String>>,
    /// The agent ended the whole run at its PreToolUse hook, before the
    /// pending call ran, with this refusal text (Cline CLI's `cancel`): no
    /// result of that call ever reached the model.
    pub run_aborted_at_hook: Option<String>,
    /// The reason the agent's own log gives for that abort when a hook's stop
    /// control ended the run (Cline CLI's `ControlledStopError`, whose
    /// message is the hook's `cancel` `errorMessage`), read from the
    /// session's HOME after the run ([`crate::agent::driver::AgentDriver::read_own_log`]).
    /// It ties the abort to the pending call when the guard left no trace.
    pub hook_stop_reason: Option<String>,
    /// What the agent told its caller in the stream beside the verdict, as
    /// row flags (the Agent SDK's `hook_callback_failed` warning); never judged.
    pub notices: Vec<String>,
}

/// The row flag of a session whose agent said it ignored the hooks file
/// holding the hook under test ([`StreamFacts::ignored_hook_file`]).
pub const HOOK_FILE_IGNORED: &str = "hook-file-ignored";

impl StreamFacts {
    /// The agent said it ignored the hooks file at `path`, whole (Codex
    /// CLI's `failed to parse hooks config <path>`, Droid's `Invalid hooks
    /// file, ignoring`). When that file holds the hook under test (a command
    /// of the file is its label), none of the outcomes can be a run of it:
    /// an agent that reports no hook runs has its tool runs stand in as
    /// outcomes, and those are dropped, so a write that landed with no trace
    /// of the guard reads `hook-not-run`. The row is flagged
    /// [`HOOK_FILE_IGNORED`]. Another file, or one failopen cannot read,
    /// changes nothing.
    pub fn ignored_hook_file(&mut self, path: &Path, hook: &HookIdentity) {
        if !file_holds_hook(path, hook) {
            return;
        }
        self.hook_outcomes.clear();
        if !self.notices.iter().any(|n| n == HOOK_FILE_IGNORED) {
            self.notices.push(HOOK_FILE_IGNORED.to_string());
        }
    }

    /// The facts of a print mode that writes plain text for a person and
    /// nothing of tools or hooks (Continue CLI's `cn -p`, Auggie CLI's
    /// `--print`): only that it answered. The calls and their results are
    /// the stand-in's transcript, and a hook's run is the guard's trace.
    pub fn of_plain_text(stdout: &str) -> StreamFacts {
        StreamFacts { saw_result: !stdout.trim().is_empty(), ..StreamFacts::default() }
    }
}

/// Whether the JSON file at `path` names the hook under test: one of its
/// string values is the hook's label (its command line) or an alias. The
/// path is the agent's word: only a regular file of at most 1 MiB is read.
fn file_holds_hook(path: &Path, hook: &HookIdentity) -> bool {
    fn holds(v: &serde_json::Value, names: &[&str]) -> bool {
        match v {
            serde_json::Value::String(s) => names.contains(&s.as_str()),
            serde_json::Value::Array(items) => items.iter().any(|i| holds(i, names)),
            serde_json::Value::Object(map) => map.values().any(|i| holds(i, names)),
            _ => false,
        }
    }
    let names = hook.spellings();
    let Ok(text) = crate::file_read::read_text(path, 1 << 20) else { return false };
    serde_json::from_str::<serde_json::Value>(&text).is_ok_and(|v| holds(&v, &names))
}

/// Count the guard's trace entries (one per invocation: [`trace::entries`]).
pub fn count_trace(path: &Path) -> u32 {
    std::fs::read_to_string(path).map(|s| trace::entries(&s).len() as u32).unwrap_or(0)
}

#[cfg(test)]
mod tests;
