//! The one place that starts a process from audited code: a hook's command
//! screened directly, or an agent session that runs hooks. Contained by
//! Debian's `bubblewrap` (`bwrap`) in new user, mount, PID, network, IPC,
//! UTS and cgroup namespaces:
//!
//! - the environment is the caller's allowlist ([`allowed_env`]): nothing
//!   of the user's is inherited, and failopen's own `/proc/<pid>/environ`
//!   is out of sight (a new PID namespace with its own `/proc`);
//! - the file system is `/` read-only, with HOME, `/root`, `/home`, `/tmp`,
//!   `/var/tmp` and `/run` replaced by empty tmpfs; the paths the hook's
//!   configuration names ([`expose`]: its script, its plugin, its launcher,
//!   an npm-global install), failopen's cache and its own binary are bound
//!   back read-only, and the session's temp root read-write: nothing else
//!   is writable;
//! - the network is a namespace with only `lo`; the stand-in (and any
//!   loopback server a hook's configuration names by URL) is reached inside
//!   it through a relay ([`relay`]) that failopen runs in the sandbox;
//! - every process dies with the sandbox: `--die-with-parent`, and the PID
//!   namespace's init takes its namespace down when the command ends (a
//!   `setsid` daemon too).
//!
//! `run` and `history` sessions run in it too, unless `--no-sandbox`
//! ([`for_sessions`]). Where `bwrap` cannot run (macOS, a kernel without
//! unprivileged user namespaces, no bwrap), [`available`] says why: audit
//! then runs the dynamic checks only with `--no-sandbox`, and `run` and
//! `history` refuse to start without it.

pub mod control;
pub mod expose;
pub mod relay;
pub mod uv;

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Whether processes from audited code run contained.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// As they are (`--no-sandbox`; a process that chose no policy: the unit tests).
    #[default]
    Off,
    /// In a bubblewrap sandbox.
    On,
}

static POLICY: OnceLock<Policy> = OnceLock::new();

/// Choose the policy for this process, once (the command line does, before
/// any session starts). Later calls are ignored. With the sandbox on, npm's
/// global prefix (a node start, most of a second) is asked for at once, on a
/// thread of its own, while the run gets ready: the first sandbox waits for
/// it less or not at all.
pub fn choose(policy: Policy) {
    if POLICY.set(policy).is_ok() && policy == Policy::On {
        let asking = std::thread::spawn(|| {
            let _ = npm_global_prefix();
        });
        *WARM_UP.lock().unwrap_or_else(|e| e.into_inner()) = Some(asking);
    }
}

/// The thread [`choose`] started to ask npm for its prefix, until [`settle`] joins it.
static WARM_UP: std::sync::Mutex<Option<std::thread::JoinHandle<()>>> = std::sync::Mutex::new(None);

/// Wait for the question [`choose`] put to npm, if it is still out: the process
/// must not exit while npm runs with its throwaway cache in TMPDIR, or both
/// outlive it (a run with no session to start ends in a fraction of a second,
/// before npm has answered). The binary calls this once, before it exits.
pub fn settle() {
    let asking = WARM_UP.lock().unwrap_or_else(|e| e.into_inner()).take();
    if let Some(asking) = asking {
        let _ = asking.join();
    }
}

/// The policy chosen for this process ([`Policy::Off`] when none was).
pub fn policy() -> Policy {
    POLICY.get().copied().unwrap_or_default()
}

/// The opt-out of the sandbox for `run` and `history` sessions, as the user wrote it.
pub const OPT_OUT: &str = "--no-sandbox (or FAILOPEN_SANDBOX=off)";

/// The policy for `run` and `history` sessions: in the sandbox unless
/// `no_sandbox` (`--no-sandbox`) or `FAILOPEN_SANDBOX=off` opts out (`on`,
/// unset or empty: the sandbox). Where no sandbox can be had, an error that
/// says why and names the opt-out: the sessions never fall back to running
/// uncontained on their own (audit, in the same place, runs its static
/// checks only: `cli::audit`).
pub fn for_sessions(no_sandbox: bool) -> Result<Policy, String> {
    let asked = match std::env::var("FAILOPEN_SANDBOX").as_deref() {
        _ if no_sandbox => Policy::Off,
        Ok("off" | "0") => Policy::Off,
        Err(_) | Ok("" | "on" | "1") => Policy::On,
        Ok(other) => return Err(format!("FAILOPEN_SANDBOX={other}: expected on or off")),
    };
    match asked {
        Policy::Off => Ok(Policy::Off),
        Policy::On => available().map(|_| Policy::On).map_err(|why| {
            format!(
                "{why}\nthe sessions run in a sandbox by default, and none can be had here: \
                 {OPT_OUT} runs them uncontained (the agents and guards then reach your HOME, environment and network)"
            )
        }),
    }
}

/// The `bwrap` this machine can run a sandbox with, or why there is none.
pub fn available() -> Result<PathBuf, String> {
    static FOUND: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    FOUND.get_or_init(find).clone()
}

fn find() -> Result<PathBuf, String> {
    if !cfg!(target_os = "linux") {
        return Err("no sandbox on this system: bubblewrap needs Linux namespaces".into());
    }
    let path = std::env::var("PATH").unwrap_or_default();
    let bwrap = std::env::split_paths(&path)
        .map(|d| d.join("bwrap"))
        .find(|p| p.is_file())
        .ok_or("bubblewrap (bwrap) is not installed: `apt-get install bubblewrap`")?;
    let out = std::process::Command::new(&bwrap)
        .args(["--unshare-all", "--die-with-parent", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {}: {e}", bwrap.display()))?;
    if !out.status.success() {
        let why = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "bubblewrap cannot make a sandbox here (unprivileged user namespaces off?): {}",
            why.trim()
        ));
    }
    Ok(bwrap)
}

/// What one contained process may reach.
#[derive(Debug, Clone, Default)]
pub struct Contain {
    /// Its working directory.
    pub cwd: PathBuf,
    /// The one writable tree: the session's (or screen's) temp root.
    pub writable: PathBuf,
    /// Paths bound back read-only ([`expose::named`]).
    pub expose: Vec<PathBuf>,
    /// Paths bound back read-write: a run cell's own copy of failopen's
    /// guards, which its agent may change outside too (Copilot CLI makes a
    /// guard script executable; `no-exec/bare` is measured so).
    pub own: Vec<PathBuf>,
    /// Host loopback servers reachable at the same address inside (the stand-in's).
    pub loopback: Vec<SocketAddr>,
    /// Share the host's network (a live session talks to a real model).
    pub network: bool,
    /// Keep the controlling terminal (a session in a pseudo-terminal).
    pub terminal: bool,
    /// Report the program's own exit and the processes it left to failopen
    /// ([`control`]): a session's agent, recorded as it is outside.
    pub control: bool,
    /// Back the hidden trees ([`hidden_roots`]) with directories under this
    /// one (inside `writable`: [`backed`] names each path's) instead of a
    /// tmpfs: still empty at the start, but what is written there is left on
    /// disk to read (audit learns where a guard keeps its state) and can be
    /// prepared before (a state file made corrupt).
    pub backing: Option<PathBuf>,
    /// Paths made read-only inside, bound last: (the path on the host, the
    /// path inside). A write there fails with EROFS, root or not (a state
    /// made unwritable; a mode bit does not stop root).
    pub read_only: Vec<(PathBuf, PathBuf)>,
    /// Variables set inside, over the caller's ([`uv`]'s own directories).
    pub env: Vec<(String, String)>,
}

/// A command line to run in the sandbox, and the host side of its relays
/// (they serve until this is dropped).
#[derive(Debug)]
pub struct Wrapped {
    /// The program to start (`bwrap`).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
    /// The host ends of the loopback relays.
    pub relays: Vec<relay::HostEnd>,
    /// The host end of the control socket, when [`Contain::control`].
    pub control: Option<control::HostEnd>,
}

/// Directories hidden whole (an empty tmpfs in their place), HOME among them.
pub fn hidden_roots() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> =
        ["/root", "/home", "/tmp", "/var/tmp", "/run"].iter().map(PathBuf::from).filter(|p| p.is_dir()).collect();
    if let Some(home) = std::env::var_os("HOME").map(PathBuf::from).filter(|h| h.is_absolute() && h.is_dir()) {
        // Listed even under another hidden tree (a HOME in /tmp): it is never bound whole.
        if !out.contains(&home) {
            out.push(home);
        }
    }
    out
}

/// Where, on the host, the path `inside` lies when the hidden trees are
/// backed by `backing` ([`Contain::backing`]): its mirror under `backing`
/// (`/tmp/x` is `backing/tmp/x`); `None` when `inside` is in no hidden tree.
pub fn backed(backing: &Path, inside: &Path) -> Option<PathBuf> {
    let up = inside.components().any(|c| c == std::path::Component::ParentDir);
    if up || !inside.is_absolute() || !hidden_roots().iter().any(|r| inside.starts_with(r)) {
        return None;
    }
    let rel: PathBuf = inside.components().filter(|c| matches!(c, std::path::Component::Normal(_))).collect();
    Some(backing.join(rel))
}

/// `program args` as a command line that runs them contained by `c`. Starts
/// the host side of each loopback relay (hence async: call it in a runtime).
pub fn wrap(program: &Path, args: &[OsString], c: &Contain) -> std::io::Result<Wrapped> {
    let bwrap = available().map_err(std::io::Error::other)?;
    let s = |p: &Path| p.as_os_str().to_os_string();
    let mut a: Vec<OsString> = Vec::new();
    let mut push = |items: &[&str]| a.extend(items.iter().map(OsString::from));
    push(&["--unshare-all", "--die-with-parent"]);
    if c.network {
        push(&["--share-net"]);
    }
    if !c.terminal {
        push(&["--new-session"]);
    }
    push(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
    for root in hidden_roots() {
        match c.backing.as_deref().and_then(|b| backed(b, &root)) {
            Some(host) => {
                std::fs::create_dir_all(&host)?;
                a.extend([OsString::from("--bind"), s(&host), s(&root)]);
            }
            None => a.extend([OsString::from("--tmpfs"), s(&root)]),
        }
    }
    // Inside the writable root, a named path stays writable (the session's own `work/`).
    let mut binds: Vec<(PathBuf, bool)> =
        c.expose.iter().filter(|p| !p.starts_with(&c.writable)).map(|p| (p.clone(), false)).collect();
    // The user's global npm prefix, read-only, and named to npm inside (`npm root -g` in a hook
    // command would otherwise read a hidden `~/.npmrc`, whose tokens stay hidden).
    // Never a hidden root itself or above one (a prefix of `~` would bare HOME).
    if let Some(prefix) = npm_global_prefix().filter(|p| !hidden_roots().iter().any(|r| r.starts_with(p))) {
        binds.push((prefix.clone(), false));
        a.extend([OsString::from("--setenv"), OsString::from("npm_config_prefix"), s(prefix)]);
    }
    binds.retain(|(p, _)| !c.own.iter().any(|o| p.starts_with(o)));
    binds.extend(c.own.iter().filter(|p| !p.starts_with(&c.writable)).map(|p| (p.clone(), true)));
    binds.push((cache_root(), false));
    let exe = std::env::current_exe()?;
    binds.push((exe.clone(), false));
    binds.push((c.writable.clone(), true));
    // Parents before children, so that a nested bind lands inside its parent's.
    binds.sort_by_key(|(p, _)| p.components().count());
    binds.dedup();
    for (p, rw) in binds.iter().filter(|(p, _)| p.exists()) {
        let flag = if *rw { "--bind" } else { "--ro-bind" };
        a.extend([OsString::from(flag), s(p), s(p)]);
    }
    for (k, v) in &c.env {
        a.extend([OsString::from("--setenv"), OsString::from(k), OsString::from(v)]);
    }
    // Last, so that nothing bound after them makes them writable again.
    for (host, inside) in &c.read_only {
        a.extend([OsString::from("--ro-bind"), s(host), s(inside)]);
    }
    a.extend([OsString::from("--chdir"), s(&c.cwd)]);
    let mut relays = Vec::new();
    let mut inner = Vec::new();
    let mut control = None;
    if c.control {
        let socket = c.writable.join(".control.sock");
        control = Some(control::HostEnd::start(&socket)?);
        inner.push(format!("--control={}", socket.display()));
    }
    if !c.network {
        for (i, addr) in c.loopback.iter().enumerate() {
            let socket = c.writable.join(format!(".relay-{i}.sock"));
            relays.push(relay::HostEnd::start(&socket, *addr)?);
            inner.push(format!("--relay={}={}", addr.port(), socket.display()));
        }
    }
    a.push("--".into());
    if !inner.is_empty() {
        a.push(exe.into_os_string());
        a.push(relay::SUBCOMMAND.into());
        a.extend(inner.into_iter().map(OsString::from));
        a.push("--".into());
    }
    a.push(program.as_os_str().to_os_string());
    a.extend(args.iter().cloned());
    Ok(Wrapped { program: bwrap, args: a, relays, control })
}

/// The host loopback servers `text` names by URL (`http://127.0.0.1:PORT`,
/// `http://localhost:PORT`): an HTTP hook's own server, reached in the sandbox
/// through a relay as the stand-in is.
pub fn loopback_urls(text: &str) -> Vec<SocketAddr> {
    let mut out = Vec::new();
    for host in ["http://127.0.0.1:", "http://localhost:", "http://[::1]:"] {
        for (i, _) in text.match_indices(host) {
            let digits: String = text[i + host.len()..].chars().take_while(char::is_ascii_digit).collect();
            if let Ok(port) = digits.parse::<u16>() {
                out.push(SocketAddr::from(([127, 0, 0, 1], port)));
            }
        }
    }
    out
}

/// The user's global npm prefix (`npm prefix -g`, asked once, outside any
/// sandbox), when it is a directory: a guard installed with `npm install -g`
/// runs from there.
fn npm_global_prefix() -> Option<&'static PathBuf> {
    static PREFIX: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    PREFIX
        .get_or_init(|| {
            // npm writes its cache and logs under HOME by default: both go to a throwaway
            // directory, so asking touches nothing of the user's.
            let scratch = tempfile::tempdir().ok()?;
            let out = std::process::Command::new("npm")
                .args(["prefix", "-g"])
                .env("npm_config_cache", scratch.path())
                .env("npm_config_logs_max", "0")
                .env("npm_config_update_notifier", "false")
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output()
                .ok()?;
            let prefix = PathBuf::from(String::from_utf8(out.stdout).ok()?.trim());
            (out.status.success() && prefix.is_absolute() && prefix.is_dir()).then_some(prefix)
        })
        .as_ref()
}

/// failopen's cache of agent installs (as [`crate::install::cache::Cache::from_env`] finds it).
fn cache_root() -> PathBuf {
    std::env::var_os("FAILOPEN_CACHE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/failopen")))
        .unwrap_or_else(|| PathBuf::from(".failopen-cache"))
}

/// `/bin/sh -c command` as a hook's command is run directly (no agent):
/// from `cwd`, with the allowlisted variables and `env` only, and contained
/// when the policy says so (with no network at all, `writable` its one
/// writable tree, what `command` and the project in `env` name bound back).
/// The wrapper's value must live as long as the process. `backing`: the
/// hidden trees backed by directories there ([`Contain::backing`]).
pub fn shell_command(
    command: &str,
    env: &[(String, String)],
    cwd: &Path,
    writable: &Path,
    backing: Option<&Path>,
) -> std::io::Result<(tokio::process::Command, Option<Wrapped>)> {
    let sh = Path::new("/bin/sh");
    let args: Vec<OsString> = vec!["-c".into(), command.into()];
    let (program, args, wrapped) = match policy() {
        Policy::Off => (sh.to_path_buf(), args, None),
        Policy::On => {
            let project: Vec<(&str, PathBuf)> = env
                .iter()
                .filter(|(k, _)| k.ends_with("PROJECT_DIR"))
                .map(|(k, v)| (k.as_str(), PathBuf::from(v)))
                .collect();
            let vars: Vec<(&str, &Path)> = project.iter().map(|(k, p)| (*k, p.as_path())).collect();
            let mut texts = vec![command.to_string()];
            texts.extend(project.iter().map(|(_, p)| p.to_string_lossy().into_owned()));
            // The working directory is a project copy: what it links to is read where it lies.
            texts.extend(expose::link_targets(cwd));
            let namer = expose::Namer::here(&vars);
            let uv = uv::prepare(&texts, &namer.path_var, writable, false).unwrap_or_default();
            texts.extend(uv.texts);
            let contain = Contain {
                cwd: cwd.to_path_buf(),
                writable: writable.to_path_buf(),
                expose: namer.named(texts.iter().map(String::as_str)),
                env: uv.env,
                backing: backing.map(Path::to_path_buf),
                ..Contain::default()
            };
            let w = wrap(sh, &args, &contain)?;
            (w.program.clone(), w.args.clone(), Some(w))
        }
    };
    let mut cmd = tokio::process::Command::new(program);
    cmd.args(args).current_dir(cwd).env_clear().envs(allowed_env()).envs(env.iter().cloned());
    Ok((cmd, wrapped))
}

/// The variables a contained process gets besides its caller's own: the
/// allowlist, read from this process (PATH, the locale, the time zone, the
/// user's name and shell). Nothing else of the user's environment.
pub fn allowed_env() -> Vec<(String, String)> {
    const ALLOWED: &[&str] = &["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "USER", "LOGNAME", "SHELL", "TERM"];
    ALLOWED.iter().filter_map(|k| std::env::var(k).ok().map(|v| (k.to_string(), v))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A contained shell sees only its allowlisted variables, an empty HOME,
    /// no host process, no network but `lo`, and writes only its root.
    #[test]
    fn a_contained_shell_reaches_only_its_root() {
        if available().is_err() {
            eprintln!("no sandbox here: {:?}", available());
            return;
        }
        let d = tempfile::tempdir().unwrap();
        let c = Contain { cwd: d.path().into(), writable: d.path().into(), ..Contain::default() };
        let script =
            "ls -A \"$HOME\" | wc -l; ls /proc | grep -c '^[0-9]'; touch /var/lib/x 2>/dev/null && echo wrote; \
                      touch ./in-root && echo in-root; cat /sys/class/net/*/operstate 2>/dev/null | wc -l";
        let w = wrap(Path::new("/bin/sh"), &["-c".into(), script.into()], &c).unwrap();
        let out =
            std::process::Command::new(&w.program).args(&w.args).env_clear().envs(allowed_env()).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(lines[0], "0", "HOME is empty: {text}");
        assert!(lines[1].parse::<u32>().unwrap() <= 6, "only the sandbox's processes: {text}");
        assert_eq!(lines[2], "in-root", "nothing written outside the root: {text}");
        assert!(d.path().join("in-root").exists());
    }

    /// Backed hidden trees keep what is written there on the host, under the
    /// backing directory; a read-only bind makes a write fail even for root
    /// (EROFS), while the rest of the tree stays writable.
    #[test]
    fn backed_trees_keep_their_writes_and_read_only_binds_refuse_them() {
        if available().is_err() {
            eprintln!("no sandbox here: {:?}", available());
            return;
        }
        let d = tempfile::tempdir().unwrap();
        let backing = d.path().join("hidden");
        let tmp_state = PathBuf::from("/tmp/failopen-sandbox-test/state");
        let host_state = backed(&backing, &tmp_state).unwrap();
        assert_eq!(host_state, backing.join("tmp/failopen-sandbox-test/state"));
        std::fs::create_dir_all(&host_state).unwrap();
        let c = Contain {
            cwd: d.path().into(),
            writable: d.path().into(),
            backing: Some(backing.clone()),
            read_only: vec![(host_state.clone(), tmp_state.clone())],
            ..Contain::default()
        };
        let script = "echo kept > /tmp/failopen-sandbox-test/log; \
                      { echo x > /tmp/failopen-sandbox-test/state/s.json; } 2>&1 || echo refused";
        let w = wrap(Path::new("/bin/sh"), &["-c".into(), script.into()], &c).unwrap();
        let out =
            std::process::Command::new(&w.program).args(&w.args).env_clear().envs(allowed_env()).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Read-only file system") && text.contains("refused"), "{text}");
        assert_eq!(std::fs::read_to_string(backing.join("tmp/failopen-sandbox-test/log")).unwrap(), "kept\n");
        assert!(!host_state.join("s.json").exists());
        assert!(!Path::new("/tmp/failopen-sandbox-test").exists(), "nothing written to the real /tmp");
        assert_eq!(backed(&backing, Path::new("/usr/lib")), None);
        assert_eq!(backed(&backing, Path::new("/tmp/../etc")), None);
    }
}
