//! An interactive session: `claude PROMPT` in a pseudo-terminal, against
//! the stand-in, ended with `/exit` once the stand-in's script has ended.
//!
//! The session's temp root, arguments, environment, wall timeout, process
//! group and reaping are print mode's ([`crate::session`]); what differs:
//! - the isolated HOME gets a `~/.claude.json` ([`home`]) so that no first-run
//!   screen stands in the way, with the workspace trust as the arm says;
//! - there is no stream-json: the evidence is the stand-in's transcript
//!   (every tool_result it received, attributed to the hook under test as in
//!   print mode), the guard's trace, and the session's own transcript file
//!   ([`transcript`]), copied to `evidence/session.jsonl`;
//! - the screen ([`screen`], through `vt100`) is read only to answer the trust
//!   dialog, and kept in `evidence/screen.txt`;
//! - when to type what is [`driver`]'s, a pure state machine.

pub mod driver;
pub mod home;
pub mod pty;
pub mod screen;
pub mod transcript;

use std::ffi::OsString;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::evidence::{SessionExit, StreamFacts};
use crate::reap;
use crate::session::{Backend, Dirs, GroupKill, Launched, Sandboxed, SessionSpec, STAND_IN_API_KEY};
use crate::task::PROMPT;
use driver::{Action, Driver};
use pty::Pty;

/// How often the session's state is looked at.
const TICK: Duration = Duration::from_millis(100);

/// The agent's arguments in an interactive session: the prompt first
/// (`--mcp-config` takes every argument after it).
pub(crate) fn argv(args: Vec<OsString>) -> Vec<OsString> {
    std::iter::once(OsString::from(PROMPT)).chain(args).collect()
}

/// Run `program argv` (the agent, or the sandbox around it: [`argv`] for
/// its arguments) in a pseudo-terminal until it exits, its wall timeout, or
/// a stop of its pool. The process group is killed however this ends.
pub(crate) async fn launch(
    spec: &SessionSpec<'_>,
    dirs: &Dirs,
    program: &Path,
    argv: &[OsString],
    env: Vec<(String, String)>,
    control: Option<&crate::sandbox::control::HostEnd>,
) -> std::io::Result<Launched> {
    let sandboxed = Sandboxed(control);
    let Backend::StandIn(standin) = spec.backend else {
        return Err(std::io::Error::other("an interactive session needs the stand-in model (--model scripted)"));
    };
    home::seed(&dirs.home, &dirs.work, STAND_IN_API_KEY, spec.trust)?;
    let env: Vec<(String, String)> =
        env.into_iter().map(|(k, v)| if k == "TERM" { (k, "xterm-256color".to_string()) } else { (k, v) }).collect();
    let interrupt = spec.pool.interrupt();
    let started = Instant::now();
    let mut pty = match Pty::spawn(program, argv, &env, &dirs.work) {
        Ok(p) => p,
        Err(e) => {
            let exit = SessionExit::SpawnFailed(e.to_string());
            let facts = StreamFacts::default();
            return Ok(Launched { exit, pgid: None, secs: 0.0, facts, flags: Vec::new(), stragglers: 0 });
        }
    };
    let pgid = pty.pid;
    // Kills the group however this future ends: done, dropped, or unwound by a panic.
    let _group = GroupKill(Some(pgid));
    interrupt.groups().insert(pgid);

    let mut term = vt100::Parser::new(pty::ROWS, pty::COLS, 0);
    let mut driver = Driver::new(spec.trust);
    let mut kept: Vec<String> = Vec::new();
    let mut last_output = Instant::now();
    let mut open = true;
    let deadline = tokio::time::Instant::now() + spec.wall_timeout;
    let mut tick = tokio::time::interval(TICK);
    let exit = loop {
        tokio::select! {
            chunk = pty.output.recv(), if open => match chunk {
                Some(bytes) => {
                    term.process(&bytes);
                    last_output = Instant::now();
                }
                None => open = false,
            },
            _ = tick.tick() => {
                if let Some(exit) = pty.try_exit() {
                    break exit;
                }
                let text = term.screen().contents();
                // The script's end, or a prompt blocked before it began.
                let over = standin.turn_over(&spec.id) || screen::prompt_blocked(&text);
                for action in driver.step(started.elapsed(), &text, over, last_output.elapsed()) {
                    match action {
                        Action::Type(bytes) => pty.type_bytes(bytes),
                        Action::KeepScreen => kept.push(text.clone()),
                        Action::HangUp => pty.hang_up(),
                        Action::Kill => {
                            // In a sandbox, its inside kills the agent's group as this does outside.
                            if let Some(c) = control {
                                c.stop(Duration::from_secs(5)).await;
                            }
                            reap::kill_group(pgid)
                        }
                    }
                }
            }
            _ = tokio::time::sleep_until(deadline) => break SessionExit::TimedOut,
            _ = interrupt.stopped() => break SessionExit::Interrupted,
        }
    };
    sandboxed.before_kill(&exit).await;
    reap::kill_group(pgid);
    reap_child(pgid).await;
    let (exit, stragglers) = sandboxed.settle(exit).await;
    let secs = started.elapsed().as_secs_f64();
    // The screens kept on the way (the trust dialog as answered, the turn's
    // end), then the last one.
    let last = term.screen().contents();
    if kept.last() != Some(&last) {
        kept.push(last);
    }
    let screen = kept.join("\n\n--- later ---\n");
    let _ = std::fs::write(dirs.evidence.join("screen.txt"), screen);
    let jsonl: String = transcript::files(&dirs.home)
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect::<Vec<_>>()
        .join("");
    let _ = std::fs::write(dirs.evidence.join("session.jsonl"), &jsonl);
    let facts = transcript::facts(&jsonl);
    Ok(Launched { exit, pgid: Some(pgid), secs, facts, flags: driver.flags(), stragglers })
}

/// Wait (briefly, the group having been killed) for the child's exit, so
/// that no zombie is left.
async fn reap_child(pid: u32) {
    for _ in 0..200 {
        if pty::try_exit(pid).is_some() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
