//! One agent session, whatever the agent: temp root, process group, wall
//! timeout, output capture, evidence, cleanup. What differs by agent (its
//! config files, command line, environment, stream and what it lacks) is
//! asked of its driver ([`crate::agent::AgentDriver`]), which never calls
//! back into this skeleton.
//!
//! Layout of a session's temp root:
//! - `work/`: the working directory, where `notes.txt` is judged (empty, or
//!   a copy of the project the session runs in: [`SessionSpec::project`]);
//! - `home/`: HOME, so the user's own `~/.claude` never leaks in;
//! - `tmp/`: TMPDIR, so a killed wrapper's temp file dies with the root;
//! - `evidence/`: settings, stdout (stream-json), stderr, guard trace, transcript.
//!
//! stdout and stderr go straight to files, not pipes: an orphaned guard
//! holding them open cannot make us wait.

mod args;
mod contained;
mod dirs;
pub mod interactive;
pub mod project;

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::agent::driver::{SessionAsk, SessionPlace};
use crate::agent::AgentDriver;
use crate::attribution::HookIdentity;
use crate::evidence::{self, Evidence, SessionExit};
use crate::install::AgentBin;
use crate::mode::{Mode, Trust};
use crate::pool::Pool;
use crate::reap;
use crate::standin::StandIn;
use crate::surface::Route;
use args::agent_env;
pub use args::STANDIN_URL_VAR;
pub(crate) use dirs::Dirs;

/// Which model the session talks to.
#[derive(Debug, Clone, Copy)]
pub enum Backend<'a> {
    /// The stand-in server (per-session base URL, dummy key).
    StandIn(&'a StandIn),
    /// A real model through the user's credentials (passed through from the environment).
    Live,
}

/// Everything one session needs.
#[derive(Debug, Clone)]
pub struct SessionSpec<'a> {
    /// Unique id (also the stand-in session key and the process tag), from
    /// [`Pool::next_id`] or [`crate::pool::session_id`]: it starts with our pid.
    pub id: String,
    /// The agent's binary.
    pub bin: &'a AgentBin,
    /// The settings JSON.
    pub settings: Value,
    /// The hook under test, to tell its refusals from anyone else's.
    pub hook: HookIdentity,
    /// More environment for Claude Code (and so for its hooks).
    pub env: Vec<(String, String)>,
    /// An MCP config (`--mcp-config`) for the session, e.g. the server behind an `mcp_tool` hook.
    pub mcp_config: Option<Value>,
    /// The model backend.
    pub backend: Backend<'a>,
    /// Wall timeout.
    pub wall_timeout: Duration,
    /// Extra arguments for `claude` (e.g. `--max-turns`).
    pub extra_args: Vec<String>,
    /// The pool the session runs in: its temp root goes under the pool's,
    /// its process group is registered with the pool's interrupt, and a stop
    /// of the pool ends it.
    pub pool: &'a Pool,
    /// Keep the temp root.
    pub keep: bool,
    /// The project the session runs in: `work/` starts as a copy of it
    /// ([`project::copy_into`]), so the agent's hooks get the copy as their
    /// working directory, payload `cwd` and project variable, as in the
    /// project itself. `None`: `work/` starts empty.
    pub project: Option<PathBuf>,
    /// Files to put in the temp root before Claude Code starts (project
    /// settings, a plugin, a seeded file to edit).
    pub files: Vec<SessionFile>,
    /// A POSIX sh script run in `work/` (HOME the session's) after the
    /// agent's config and the files are written, before the agent starts:
    /// an audit probe's throwaway world ([`crate::audit::probe::world`]),
    /// built the same way for every agent. A seed that fails is an error.
    pub seed: Option<String>,
    /// How the stand-in reaches the file, which says what "the write landed"
    /// means ([`crate::landed`]): an edit route's seeded file must have changed.
    pub route: Route,
    /// The setting sources a stand-in session loads, in place of
    /// [`STAND_IN_ARGS`]' `user` (e.g. `user,project,local` for a hook in the
    /// project's settings). `None`: `user`.
    pub setting_sources: Option<&'static str>,
    /// `--permission-mode`, when not `bypassPermissions` (e.g. `default`, in
    /// which `claude -p` raises a permission request for a write, so that a
    /// PermissionRequest hook runs).
    pub permission_mode: Option<&'static str>,
    /// Keep skills on in a stand-in session (no `--disable-slash-commands`),
    /// for a guard in a skill's frontmatter.
    pub skills: bool,
    /// `claude -p` or an interactive session in a pseudo-terminal.
    pub mode: Mode,
    /// The workspace trust dialog (interactive mode; in print mode, whether
    /// an agent that asks for trust finds the folder trusted).
    pub trust: Trust,
    /// Where the arm's hook lives ([`SessionAsk::source`]).
    pub source: crate::surface::HookSource,
    /// What the hooks find changed before the agent starts, outside the
    /// agent's own files (a guard's state made corrupt or read-only: audit's
    /// state faults). With it, the sandbox's hidden trees (HOME, `/tmp`) are
    /// backed by a directory of the temp root, so that a path in them can be
    /// prepared; a path outside the temp root needs the sandbox.
    pub planted: Option<Planted>,
}

/// Where a [`Planted`] path lies, as the session's hooks see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlantAt {
    /// Relative to `work/` (the project's copy).
    Work(PathBuf),
    /// Relative to the session's own HOME (`home/`).
    Home(PathBuf),
    /// An absolute path, in a hidden tree (the user's HOME, `/tmp`): only in the sandbox.
    Abs(PathBuf),
}

/// Changes to what a session's hooks find, made before the agent starts
/// ([`SessionSpec::planted`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Planted {
    /// Files written (parents made), in this order.
    pub files: Vec<(PlantAt, Vec<u8>)>,
    /// Paths bound read-only (after the files; a directory is made where none is).
    pub read_only: Vec<PlantAt>,
}

impl Planted {
    /// The backing directory of the hidden trees in a session's temp root.
    pub const BACKING: &'static str = "hidden";
}

/// Which directory of a session's temp root a [`SessionFile`] goes under.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionDir {
    /// `work/`, the working directory (the project).
    Work,
    /// `home/`, the isolated HOME.
    Home,
    /// `evidence/`, beside the settings file (e.g. a plugin directory).
    Evidence,
}

/// A file written into a session's temp root before it starts.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionFile {
    /// The directory it goes under.
    pub dir: SessionDir,
    /// Its path relative to that directory (parents are created); never absolute, never `..`.
    pub path: PathBuf,
    /// Its contents.
    pub contents: Vec<u8>,
}

/// What a session produced.
#[derive(Debug, Clone)]
pub struct SessionOutcome {
    /// The evidence.
    pub evidence: Evidence,
    /// Wall seconds.
    pub secs: f64,
    /// The temp root, when kept.
    pub kept_root: Option<PathBuf>,
    /// Processes still tagged after the group kill, that had to be killed one by one.
    pub stragglers_killed: usize,
    /// Marks for the row's `flags` from the session's driver (how an
    /// interactive session ended: `exit-by:...`, `trust-dialog:...`).
    pub flags: Vec<String>,
}

pub use crate::agent::claude_code::session::{stand_in_args, STAND_IN_ARGS, STAND_IN_ENV};
pub use crate::agent::driver::STAND_IN_API_KEY;

/// Run one session to completion (or timeout, or a stop of its pool), with
/// the agent its binary is. A session the agent cannot run
/// ([`AgentDriver::unsupported`]) is not started: its evidence says what is
/// missing.
pub async fn run(spec: &SessionSpec<'_>) -> std::io::Result<SessionOutcome> {
    let driver = spec.bin.agent.driver();
    let caps = driver.capabilities(spec.bin).await;
    let ask = spec.ask();
    if let Some(what) = driver.unsupported(&ask, caps.as_ref()) {
        return Ok(not_started(Some(what)));
    }
    let (root, dirs) = temp_root(spec)?;
    if let Some(project) = &spec.project {
        project::copy_into(project, &dirs.work, driver)?;
    }
    let standin_url = match spec.backend {
        Backend::StandIn(standin) => Some(standin.session_url(&spec.id, &dirs.work.to_string_lossy())),
        Backend::Live => None,
    };
    let place = SessionPlace {
        bin: spec.bin,
        home: &dirs.home,
        work: &dirs.work,
        evidence: &dirs.evidence,
        standin_url: standin_url.as_deref(),
        binary: &spec.bin.path,
    };
    let launch = driver.prepare(&ask, &place, caps.as_ref())?;
    for file in &spec.files {
        dirs.place(file)?;
    }
    let read_only = match &spec.planted {
        Some(p) => plant(p, root.path(), &dirs)?,
        None => Vec::new(),
    };
    if let Some(script) = &spec.seed {
        seed(script, &dirs, &spec.id).await?;
    }
    let mut env = agent_env(spec, &dirs, standin_url.as_deref());
    env.extend(launch.env);
    let program = launch.program.as_ref().unwrap_or(&spec.bin.path);
    let args = match spec.mode {
        Mode::Print => launch.args,
        Mode::Interactive => interactive::argv(launch.args),
    };
    // In the sandbox when the policy says so; its relays serve until the session ends.
    let (program, args, contained) = contained::command(spec, root.path(), &dirs.work, program, args, read_only)?;
    let control = contained.as_ref().and_then(|w| w.control.as_ref());
    let mut launched = match spec.mode {
        Mode::Print => {
            let mut cmd = tokio::process::Command::new(program);
            cmd.args(args);
            let parse = |stdout: &str| {
                let mut facts = driver.parse_stream(stdout, &spec.hook);
                let own = crate::agent::driver::OwnFiles { home: &dirs.home, tmp: &dirs.tmp };
                driver.read_own_log(&own, &spec.hook, &mut facts);
                facts
            };
            launch_headless(spec, &dirs, cmd, env, control, parse).await?
        }
        Mode::Interactive => interactive::launch(spec, &dirs, &program, &args, env, control).await?,
    };
    launched.flags.extend(launch.flags);
    finish(spec, driver, root, &dirs, launched).await
}

/// Make `planted`'s changes in the temp root `root`: its files written, and
/// the (host, inside) pairs to bind read-only returned. A path in a hidden
/// tree is its mirror under the backing directory ([`crate::sandbox::backed`]);
/// without the sandbox, such a path (the user's real HOME) is refused, as is
/// a read-only bind, which nothing but the sandbox can make for root.
fn plant(planted: &Planted, root: &std::path::Path, dirs: &Dirs) -> std::io::Result<Vec<(PathBuf, PathBuf)>> {
    use crate::sandbox::{self, Policy};
    let sandboxed = sandbox::policy() == Policy::On;
    let relative = |p: &std::path::Path| p.components().all(|c| matches!(c, std::path::Component::Normal(_)));
    let place = |at: &PlantAt| -> std::io::Result<(PathBuf, PathBuf)> {
        let refuse = |why: String| std::io::Error::new(std::io::ErrorKind::InvalidInput, why);
        match at {
            PlantAt::Work(rel) | PlantAt::Home(rel) if !relative(rel) => {
                Err(refuse(format!("planted path {}: must be relative and inside", rel.display())))
            }
            PlantAt::Work(rel) => Ok((dirs.work.join(rel), dirs.work.join(rel))),
            PlantAt::Home(rel) => Ok((dirs.home.join(rel), dirs.home.join(rel))),
            PlantAt::Abs(p) if p.starts_with(root) => Ok((p.clone(), p.clone())),
            PlantAt::Abs(p) if sandboxed => sandbox::backed(&root.join(Planted::BACKING), p)
                .map(|host| (host, p.clone()))
                .ok_or_else(|| refuse(format!("planted path {}: in no tree the sandbox hides", p.display()))),
            PlantAt::Abs(p) => {
                Err(refuse(format!("planted path {}: outside the session without the sandbox", p.display())))
            }
        }
    };
    for (at, bytes) in &planted.files {
        let (host, _) = place(at)?;
        if let Some(parent) = host.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&host, bytes)?;
    }
    let mut out = Vec::new();
    for at in &planted.read_only {
        if !sandboxed {
            return Err(std::io::Error::other("a read-only path needs the sandbox (root ignores a mode bit)"));
        }
        let (host, inside) = place(at)?;
        if !host.exists() {
            std::fs::create_dir_all(&host)?;
        }
        out.push((host, inside));
    }
    Ok(out)
}

/// Run `script` in the session's `work/` with its HOME, tagged as the
/// session's (a hard stop's reaper finds it); an exit other than 0 is an error.
async fn seed(script: &str, dirs: &Dirs, id: &str) -> std::io::Result<()> {
    let out = tokio::process::Command::new("/bin/sh")
        .arg("-c")
        .arg(script)
        .current_dir(&dirs.work)
        .env("HOME", &dirs.home)
        .env(reap::TAG_VAR, id)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        return Err(std::io::Error::other(format!("cannot seed the session's world: {}", why.trim())));
    }
    Ok(())
}

impl<'a> SessionSpec<'a> {
    /// A print-mode session against the stand-in, its root kept for the
    /// caller to read: the agent's settings as `settings` alone (the
    /// settings flag), the trust granted, the article's route, no project,
    /// file, seed or plant. Audit's sessions start from this and set what
    /// differs (`SessionSpec { project, ..SessionSpec::kept_stand_in(...) }`).
    pub fn kept_stand_in(
        id: String,
        bin: &'a AgentBin,
        standin: &'a StandIn,
        pool: &'a Pool,
        settings: Value,
        hook: HookIdentity,
        wall_timeout: Duration,
    ) -> SessionSpec<'a> {
        SessionSpec {
            id,
            bin,
            settings,
            hook,
            env: Vec::new(),
            mcp_config: None,
            backend: Backend::StandIn(standin),
            wall_timeout,
            extra_args: Vec::new(),
            pool,
            keep: true,
            project: None,
            files: Vec::new(),
            seed: None,
            route: Route::Article,
            setting_sources: None,
            permission_mode: None,
            skills: false,
            mode: Mode::Print,
            trust: Trust::Accepted,
            source: crate::surface::HookSource::SettingsFlag,
            planted: None,
        }
    }

    /// What this session asks of its agent, as the driver sees it.
    pub fn ask(&self) -> SessionAsk<'_> {
        SessionAsk {
            settings: &self.settings,
            mcp_config: self.mcp_config.as_ref(),
            live: matches!(self.backend, Backend::Live),
            mode: self.mode,
            setting_sources: self.setting_sources,
            permission_mode: self.permission_mode,
            skills: self.skills,
            has_files: !self.files.is_empty(),
            route: self.route,
            extra_args: &self.extra_args,
            source: self.source,
            trust: self.trust,
        }
    }
}

/// The outcome of a session that was not started, for want of `what`.
pub(crate) fn not_started(what: Option<&'static str>) -> SessionOutcome {
    let evidence = Evidence { exit: SessionExit::NotStarted, unsupported: what, ..Evidence::default() };
    SessionOutcome { evidence, secs: 0.0, kept_root: None, stragglers_killed: 0, flags: Vec::new() }
}

/// A new session temp root in the pool's sessions directory (removed when
/// the handle drops, unless kept), with its directories made.
pub(crate) fn temp_root(spec: &SessionSpec<'_>) -> std::io::Result<(tempfile::TempDir, Dirs)> {
    let root = tempfile::Builder::new().prefix("session-").tempdir_in(spec.pool.sessions_dir())?;
    let dirs = Dirs::create(root.path())?;
    Ok((root, dirs))
}

/// After an agent's process has ended: reap its process group (and any
/// straggler still tagged with the session), read the evidence, and keep or
/// remove the temp root.
async fn finish(
    spec: &SessionSpec<'_>,
    driver: &dyn AgentDriver,
    root: tempfile::TempDir,
    dirs: &Dirs,
    launched: Launched,
) -> std::io::Result<SessionOutcome> {
    let interrupt = spec.pool.interrupt();
    let tag = spec.id.clone();
    let pgid = launched.pgid;
    let stragglers_killed =
        tokio::task::spawn_blocking(move || reap::reap_session(pgid, &tag)).await.unwrap_or(0) + launched.stragglers;
    if let Some(pgid) = pgid {
        interrupt.groups().remove(pgid);
    }
    let evidence = collect(spec, driver, dirs, launched.exit, launched.facts);
    let kept_root = if spec.keep { Some(root.keep()) } else { None };
    Ok(SessionOutcome { evidence, secs: launched.secs, kept_root, stragglers_killed, flags: launched.flags })
}

/// How a launched session ended, before its evidence is read.
#[derive(Debug)]
pub(crate) struct Launched {
    /// How Claude Code exited.
    pub(crate) exit: SessionExit,
    /// Its process group, still to be reaped.
    pub(crate) pgid: Option<u32>,
    /// Wall seconds.
    pub(crate) secs: f64,
    /// Facts from Claude Code's own output: the stream (print mode) or the
    /// session's transcript file (interactive mode).
    pub(crate) facts: evidence::StreamFacts,
    /// Marks for the row's `flags` (how an interactive session was ended).
    pub(crate) flags: Vec<String>,
    /// Tagged processes the sandbox's inside found and killed after the
    /// agent's group ([`Sandboxed`]); failopen's own reaper adds its count.
    pub(crate) stragglers: usize,
}

/// A sandboxed session's agent, as the sandbox's inside reports it
/// ([`crate::sandbox::control`]): failopen records what it would have seen
/// outside, not what `bwrap` and the PID namespace's end make of it.
pub(crate) struct Sandboxed<'a>(pub(crate) Option<&'a crate::sandbox::control::HostEnd>);

impl Sandboxed<'_> {
    /// Before the sandbox is killed: a session failopen ends early (its
    /// timeout) is ended inside first, as failopen ends it outside (the
    /// agent's group killed, what is left found by its tag and counted).
    pub(crate) async fn before_kill(&self, exit: &SessionExit) {
        if let (Some(c), SessionExit::TimedOut) = (self.0, exit) {
            c.stop(Duration::from_secs(5)).await;
        }
    }

    /// Once the sandbox has exited: the agent's own exit in place of the
    /// sandbox's (which reads a death by signal `n` as `128+n`), and the
    /// count of processes it left.
    pub(crate) async fn settle(&self, exit: SessionExit) -> (SessionExit, usize) {
        let Some(c) = self.0 else { return (exit, 0) };
        let Some(report) = c.report(Duration::from_secs(2)).await else { return (exit, 0) };
        let exit = match (&exit, report.status) {
            (SessionExit::Code(_) | SessionExit::Signal(_), Some(status)) => exit_of(status),
            _ => exit,
        };
        (exit, report.stragglers)
    }
}

/// Run `cmd` (an agent's headless command line, its arguments given) to its
/// end: in the work directory, with `env` and nothing else of ours, stdin
/// closed, stdout and stderr straight to the evidence files (`stdout.jsonl`,
/// `stderr.txt`), in its own process group ([`run_in_own_group`]). The facts
/// are `parse` of what it wrote on stdout.
async fn launch_headless(
    spec: &SessionSpec<'_>,
    dirs: &Dirs,
    mut cmd: tokio::process::Command,
    env: Vec<(String, String)>,
    control: Option<&crate::sandbox::control::HostEnd>,
    parse: impl FnOnce(&str) -> evidence::StreamFacts,
) -> std::io::Result<Launched> {
    cmd.current_dir(&dirs.work)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dirs.evidence.join("stdout.jsonl"))?)
        .stderr(std::fs::File::create(dirs.evidence.join("stderr.txt"))?)
        .env_clear()
        .envs(env);
    let started = Instant::now();
    let (exit, pgid, stragglers) = run_in_own_group(cmd, spec, Sandboxed(control)).await;
    let secs = started.elapsed().as_secs_f64();
    let stdout = std::fs::read_to_string(dirs.evidence.join("stdout.jsonl")).unwrap_or_default();
    Ok(Launched { exit, pgid, secs, facts: parse(&stdout), flags: Vec::new(), stragglers })
}

/// Run an agent's command to its end in its own process group, registered
/// with the pool's interrupt: until it exits, the session's wall timeout, or
/// a stop of the pool; the group is killed on every way out (a panic's
/// unwinding too). Returns how it ended, the group, still to be reaped, and
/// the processes a sandbox's inside reaped ([`Sandboxed`]).
pub(crate) async fn run_in_own_group(
    mut cmd: tokio::process::Command,
    spec: &SessionSpec<'_>,
    sandboxed: Sandboxed<'_>,
) -> (SessionExit, Option<u32>, usize) {
    let interrupt = spec.pool.interrupt();
    cmd.process_group(0).kill_on_drop(true);
    match cmd.spawn() {
        Err(e) => (SessionExit::SpawnFailed(e.to_string()), None, 0),
        Ok(mut child) => {
            let pgid = child.id();
            // Kills the group however this future ends: done, dropped, or unwound by a panic.
            let _group = GroupKill(pgid);
            if let Some(pgid) = pgid {
                interrupt.groups().insert(pgid);
            }
            let exit = tokio::select! {
                status = child.wait() => match status {
                    Ok(s) => exit_of(s),
                    Err(e) => SessionExit::SpawnFailed(e.to_string()),
                },
                _ = tokio::time::sleep(spec.wall_timeout) => SessionExit::TimedOut,
                _ = interrupt.stopped() => SessionExit::Interrupted,
            };
            sandboxed.before_kill(&exit).await;
            if let Some(pgid) = pgid {
                reap::kill_group(pgid);
            }
            let _ = child.wait().await;
            let (exit, stragglers) = sandboxed.settle(exit).await;
            (exit, pgid, stragglers)
        }
    }
}

/// The session's evidence: the file on disk, the stand-in's transcript
/// (the write attempts and what came back), the guard's trace, and the
/// facts Claude Code's own output gave.
fn collect(
    spec: &SessionSpec<'_>,
    driver: &dyn AgentDriver,
    dirs: &Dirs,
    exit: SessionExit,
    mut facts: evidence::StreamFacts,
) -> Evidence {
    facts.traced =
        evidence::traced_calls(&std::fs::read_to_string(dirs.evidence.join("trace.jsonl")).unwrap_or_default());
    let stderr = std::fs::read_to_string(dirs.evidence.join("stderr.txt")).unwrap_or_default();
    let mut hook_model_calls = 0;
    let mut side_attempts = Vec::new();
    let mut reads = Vec::new();
    let mut main_requests = None;
    let attempts = match spec.backend {
        Backend::StandIn(standin) => {
            let transcript = standin.take_transcript(&spec.id);
            hook_model_calls = transcript.hook_calls.len() as u32;
            main_requests = Some(transcript.main_requests);
            let _ = std::fs::write(
                dirs.evidence.join("transcript.json"),
                serde_json::to_vec_pretty(&transcript).unwrap_or_default(),
            );
            let wording = driver.wording();
            side_attempts = evidence::side_attempts_from_transcript(&transcript, &facts, &spec.hook, wording);
            reads = evidence::reads_from_transcript(&transcript, &facts, &spec.hook, wording);
            evidence::attempts_from_transcript(&transcript, &facts, &spec.hook, wording)
        }
        Backend::Live => facts.attempts.clone(),
    };
    Evidence {
        file: crate::landed::landed(&dirs.work, spec.route),
        exit,
        attempts,
        api_error: facts.api_error,
        hook_invocations: evidence::count_trace(&dirs.evidence.join("trace.jsonl")),
        hook_outcomes: facts.hook_outcomes,
        notices: facts.notices,
        result_error: facts.result_error,
        compactions: facts.compactions,
        hook_model_calls,
        side_attempts,
        reads,
        side_landed: if spec.route == Route::Parallel { crate::landed::side_landed(&dirs.work) } else { Vec::new() },
        prompt_blocked: facts.prompt_blocked.as_deref().map(|t| evidence::prompt_block(t, &spec.hook)),
        main_requests,
        unsupported: None,
        unknown_option: driver.unknown_option(&stderr).map(crate::verdict::intern),
    }
}

/// SIGKILLs a session's process group when dropped.
pub(crate) struct GroupKill(pub(crate) Option<u32>);

impl Drop for GroupKill {
    fn drop(&mut self) {
        if let Some(pgid) = self.0 {
            reap::kill_group(pgid);
        }
    }
}

pub(crate) fn exit_of(status: std::process::ExitStatus) -> SessionExit {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => SessionExit::Code(c),
        (None, Some(s)) => SessionExit::Signal(s),
        (None, None) => SessionExit::Code(-1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;

    /// A panic while a session runs unwinds through its [`GroupKill`]: the
    /// whole process group (here a shell and its background child) dies.
    #[test]
    fn a_panic_kills_the_session_group() {
        let tag = format!("groupkill-test-{}", std::process::id());
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30"])
            .env(reap::TAG_VAR, &tag)
            .process_group(0)
            .spawn()
            .unwrap();
        let pgid = child.id();
        let until = Instant::now() + Duration::from_secs(5);
        while reap::tagged_pids(&tag).len() < 2 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(reap::tagged_pids(&tag).len() >= 2, "the shell (or its exec'd sleep) and the background sleep");
        let unwound = std::panic::catch_unwind(|| {
            let _group = GroupKill(Some(pgid));
            panic!("a bug while the session runs");
        });
        assert!(unwound.is_err());
        let _ = child.wait();
        let until = Instant::now() + Duration::from_secs(5);
        while !reap::tagged_pids(&tag).is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(reap::tagged_pids(&tag).is_empty(), "left: {:?}", reap::tagged_pids(&tag));
    }
}
