//! What the Claude Agent SDK's two drivers share ([`super::agent_sdk_ts`]
//! for TypeScript, [`super::agent_sdk_py`] for Python): the callback an arm
//! asks for ([`callback`]), the words of the Claude Code CLI both SDKs
//! bundle and spawn ([`wording`]), and what a cell's program is told
//! ([`session_config`]). Each SDK's program (`session.mjs`, `session.py`)
//! runs the same behaviours and prints the same `failopen_callback` lines.

pub mod callback;
pub mod session_config;
pub mod wording;

/// The reason the callback's correct deny gives (and the message of a
/// `canUseTool` deny): a refusal carrying it is the callback's own.
pub const DENY_REASON: &str = "failopen-callback-deny: notes.txt is not to be written";

/// The reason failopen's sealed callback refuses with when the callback
/// inside it fails (guards/sdk/sealed_callback.*, given it as `reason`).
pub const SEALED_REASON: &str = "failopen-sealed-callback: the callback failed, so the call is refused";

/// failopen's sealed callback, for TypeScript: the file users copy.
pub const SEALED_CALLBACK_MJS: &str = include_str!("../../../guards/sdk/sealed_callback.mjs");

/// failopen's sealed callback, for Python: the file users copy.
pub const SEALED_CALLBACK_PY: &str = include_str!("../../../guards/sdk/sealed_callback.py");

/// How many turns an SDK session may take (the stand-in's script needs three).
pub const MAX_TURNS: u32 = 8;

use std::path::{Path, PathBuf};

use crate::agent::driver::{SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::not_yet_run::NotYetRun;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;

/// What SDK sessions do not run yet.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "agent-sdk-live-model",
    interactive: "agent-sdk-interactive",
    hook_source: "agent-sdk-hook-source",
    route: "agent-sdk-route",
};

/// What an SDK lacks to run `ask`: only a PreToolUse or canUseTool
/// callback, alone, in print mode against the stand-in, doing one of the
/// `behaviours` its program knows (a command hook is Claude Code's to
/// measure; a behaviour only the other language has is `sdk-other-language`).
pub fn unsupported(ask: &SessionAsk<'_>, behaviours: &[&str]) -> Option<&'static str> {
    NOT_YET_RUN.asked_by(ask).or_else(|| match callback::read(ask.settings) {
        Err(reason) => Some(reason),
        Ok(cb) if !behaviours.contains(&cb.behaviour.as_str()) => Some("sdk-other-language"),
        Ok(_) => None,
    })
}

/// Prepare one SDK session: the arm's settings copied for the record, the
/// program `write_program` writes (given the evidence directory, the SDK,
/// the work directory, the prompt and the callback), run by `program`, with
/// the bundled CLI's version in the row's flags.
pub fn prepare(
    ask: &SessionAsk<'_>,
    at: &SessionPlace<'_>,
    write_program: fn(&Path, &Path, &Path, &str, &callback::CallbackAsk) -> std::io::Result<PathBuf>,
    program: PathBuf,
    bundled_cli: Option<String>,
) -> std::io::Result<SessionLaunch> {
    let unsupported = |what: &str| std::io::Error::new(std::io::ErrorKind::Unsupported, what.to_string());
    let callback = callback::read(ask.settings).map_err(unsupported)?;
    let base_url = at.standin_url.ok_or_else(|| unsupported("the Agent SDK runs against the stand-in only"))?;
    std::fs::write(at.evidence.join("settings.json"), serde_json::to_vec_pretty(ask.settings)?)?;
    let script = write_program(at.evidence, at.binary, at.work, crate::task::PROMPT, &callback)?;
    Ok(SessionLaunch {
        args: vec![script.into_os_string()],
        env: crate::agent::claude_code::session::env(Some(base_url)),
        program: Some(program),
        flags: bundled_cli.map(|v| format!("bundled-cli:{v}")).into_iter().collect(),
    })
}

/// Both SDKs relay the bundled CLI's stream-json messages: Claude Code's
/// reader, plus the callback's own lines ([`wording::callback_answers`]).
/// A refusal must also be confirmed (issue 31): the callback's trace shows
/// it was asked about the call (the session checks), and the stream shows
/// the call refused, listed in the result's `permission_denials`, or, for a
/// callback that did not answer in time (which the result does not list),
/// refused with the SDK's timeout words. The SDK's warning that a callback
/// failed goes to the row's flags ([`wording::notices`]).
pub fn parse_stream(stdout: &str, hook: &HookIdentity) -> StreamFacts {
    let mut facts = crate::agent::claude_code::stream::parse_stream(stdout, hook);
    facts.hook_outcomes.extend(wording::callback_answers(stdout));
    facts.notices = wording::notices(stdout);
    let mut confirmed = wording::permission_denials(stdout);
    confirmed.extend(facts.results.iter().filter(|(_, (_, text))| wording::is_timeout(text)).map(|(id, _)| id.clone()));
    facts.confirmed_refusals = Some(confirmed);
    facts
}
