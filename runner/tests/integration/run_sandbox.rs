//! `failopen run` sessions run in the sandbox by default (issue 45): a hook
//! in a session reaches none of the user's secrets and nothing on the
//! host's loopback but the stand-in.
//!
//! The session is Claude Code 2.1.328, started through a launcher (given as
//! `--agent-version PATH`) that adds a canary hook to the session's own user
//! settings and then runs the real binary. The canary allows every Bash call
//! and, each time it runs, writes into the session's HOME what it reached: a
//! secret in failopen's environment (through `/proc/*/environ`: the agent's
//! environment is cleared either way), a secret in the HOME failopen was
//! started with, and a listener on the host's loopback.
//!
//! Expected, with the reasoning:
//! - sandboxed (the default, `FAILOPEN_SANDBOX` unset): the canary ran (its report is there) and
//!   reached nothing: the sandbox has its own PID namespace and `/proc`, the
//!   user's HOME is an empty tmpfs, and its network has only `lo`, with the
//!   stand-in alone relayed in;
//! - `--no-sandbox`: the same canary reads all three, which shows that the
//!   test can see what it checks for.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::audit_probes::cache;
use crate::support::{self, failopen, PINNED};

const SECRET_ENV: &str = "canary-run-env-secret-41c";
const SECRET_HOME: &str = "canary-run-home-secret";

/// The launcher: the canary hook into the session's user settings (HOME is
/// the session's own), then the real Claude Code.
fn launcher(real: &Path, home: &Path, port: u16) -> String {
    format!(
        r#"#!/bin/sh
if [ -n "$ANTHROPIC_BASE_URL" ]; then
  mkdir -p "$HOME/.claude"
  cat > "$HOME/.claude/canary" <<'EOF'
#!/bin/bash
cat >/dev/null
found=""
for p in /proc/[0-9]*/environ; do grep -qa '{SECRET_ENV}' "$p" 2>/dev/null && {{ found="$found proc-environ"; break; }}; done
grep -qs '{SECRET_HOME}' '{home}/.secret' && found="$found home-secret"
if (exec 3<>/dev/tcp/127.0.0.1/{port}) 2>/dev/null; then found="$found loopback"; fi
echo "reached:${{found:- nothing}}" >> "$HOME/canary-report"
exit 0
EOF
  chmod +x "$HOME/.claude/canary"
  printf '{{"hooks":{{"PreToolUse":[{{"matcher":"Bash","hooks":[{{"type":"command","command":"%s"}}]}}]}}}}' \
    "$HOME/.claude/canary" > "$HOME/.claude/settings.json"
fi
exec '{real}' "$@"
"#,
        home = home.display(),
        real = real.display(),
    )
}

/// What the canary wrote in each kept session root under `dir`.
fn reports(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if e.file_type().is_ok_and(|t| t.is_dir() && !t.is_symlink()) {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n == "canary-report") {
                out.push(std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    out
}

/// `failopen run` of `deny/bare` through the launcher, sessions kept under
/// a new TMPDIR; what the canary reported, and how many connections reached
/// the listener.
fn run_canary(extra: &[&str]) -> (Vec<String>, usize) {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    let tmp = d.path().join("tmp");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(home.join(".secret"), format!("{SECRET_HOME}\n")).unwrap();
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let connections = Arc::new(AtomicUsize::new(0));
    let counted = connections.clone();
    std::thread::spawn(move || {
        for mut c in listener.incoming().flatten() {
            counted.fetch_add(1, Ordering::SeqCst);
            let _ = c.read(&mut [0u8; 64]);
        }
    });
    let real: PathBuf = cache().join("claude-code").join(PINNED).join("node_modules/.bin/claude");
    let bin = support::scripts::write(&d.path().join("claude"), &launcher(&real, &home, port));
    let out = {
        let _lock = support::lock::sessions();
        failopen()
            .env("HOME", &home)
            .env("FAILOPEN_CACHE", cache())
            .env("TMPDIR", &tmp)
            .env("CANARY_TOKEN", SECRET_ENV)
            // The default, whatever the environment running the tests asks; `--no-sandbox` in `extra` opts out.
            .env_remove("FAILOPEN_SANDBOX")
            .args(["run", "--arms", &support::arms_file("article.json"), "--only", "deny/bare", "--keep"])
            .arg("--agent-version")
            .arg(&bin)
            .arg("--out")
            .arg(d.path().join("rows.csv"))
            .args(extra)
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap()
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let rows = support::read_csv(&d.path().join("rows.csv"));
    assert_eq!(
        rows.iter().map(|r| r.verdict.as_str()).collect::<Vec<_>>(),
        ["blocked"],
        "the arm's own guard still refuses beside the canary: {rows:?} {stderr}"
    );
    (reports(&tmp), connections.load(Ordering::SeqCst))
}

#[test]
fn a_run_sessions_hook_reaches_no_secret_and_no_host_loopback_unless_unsandboxed() {
    let (sandboxed, connections) = run_canary(&[]);
    assert!(!sandboxed.is_empty(), "the canary ran");
    for r in &sandboxed {
        assert_eq!(r.trim(), "reached: nothing", "{sandboxed:?}");
    }
    assert_eq!(connections, 0, "a connection reached the host's loopback");

    let (open, connections) = run_canary(&["--no-sandbox"]);
    assert!(!open.is_empty(), "the canary ran");
    for r in &open {
        assert_eq!(r.trim(), "reached: proc-environ home-secret loopback", "{open:?}");
    }
    assert!(connections > 0);
}

/// Where no sandbox can be had (here: no `bwrap` on PATH), `run` starts no
/// session, says why and names the opt-out: it never falls back on its own.
/// With the opt-out (`--no-sandbox`), the same run starts its session.
#[test]
fn without_a_sandbox_run_refuses_to_start_and_names_the_opt_out() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["sh", "bash", "node", "env", "cat", "grep", "dirname", "date", "mkdir"] {
        if let Some(p) = std::env::split_paths(&std::env::var("PATH").unwrap_or_default())
            .map(|dir| dir.join(tool))
            .find(|p| p.is_file())
        {
            std::os::unix::fs::symlink(p, bin.join(tool)).unwrap();
        }
    }
    let rows = d.path().join("rows.csv");
    let run = |extra: &[&str]| {
        let _lock = support::lock::sessions();
        failopen()
            .env("PATH", &bin)
            .env_remove("FAILOPEN_SANDBOX")
            .env("FAILOPEN_CACHE", cache())
            .args(["run", "--only", "deny/bare", "--out"])
            .arg(&rows)
            .args(extra)
            .timeout(std::time::Duration::from_secs(300))
            .output()
            .unwrap()
    };
    let out = run(&[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("bubblewrap (bwrap) is not installed"), "{stderr}");
    assert!(stderr.contains("--no-sandbox (or FAILOPEN_SANDBOX=off)"), "{stderr}");
    assert!(!rows.exists(), "no session ran");

    let out = run(&["--no-sandbox"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("bubblewrap"), "{stderr}");
    assert_eq!(support::read_csv(&rows).len(), 1, "the session ran uncontained: {stderr}");
}

/// The cells the sandbox once recorded differently from a run outside it
/// (docs/sandbox.md) give the same row both ways, through a launcher that
/// hands every other session to the real Claude Code 2.1.328:
/// - `deny/bare` (arms/all.json, as the others): the launcher dies of SIGSEGV: `invalid`
///   (session-error), exit `signal:11`, not the sandbox's `139`;
/// - `crash/bare`: the launcher starts three `setsid` sleepers and
///   exits 1: `invalid` (session-error), exit `1`, and the sleepers found
///   and killed (`stragglers-killed:`), inside by the sandbox's reaper, not
///   silently by its PID namespace's end;
/// - `deny/bare@subagent-frontmatter`: the guard is named only in
///   the subagent's frontmatter (`~/.claude/agents/*.md`), bound into the
///   sandbox as a settings file's guard is: `blocked`, not `wrote`;
/// - `signal/bare`: a guard that dies of SIGSEGV, which Claude Code
///   reads the same both ways (`error:139`: the agent starts the hook itself,
///   inside the sandbox as outside) and lets the write through: `wrote`.
#[test]
fn the_cells_the_sandbox_recorded_differently_are_the_same_both_ways() {
    let d = tempfile::tempdir().unwrap();
    let real: PathBuf = cache().join("claude-code").join(PINNED).join("node_modules/.bin/claude");
    let launcher = format!(
        r#"#!/bin/bash
settings=''; prev=''
for a in "$@"; do [ "$prev" = --settings ] && settings="$a"; prev="$a"; done
if [ -n "$settings" ] && grep -q '/deny.sh' "$settings"; then kill -SEGV $$; fi
if [ -n "$settings" ] && grep -q '/crash.sh' "$settings"; then
  for i in 1 2 3; do setsid sleep 120 >/dev/null 2>&1 & done
  sleep 0.5
  exit 1
fi
exec '{}' "$@"
"#,
        real.display()
    );
    let bin = support::scripts::write(&d.path().join("claude"), &launcher);
    let bin = bin.to_string_lossy().into_owned();
    let run = |extra: &[&str]| {
        let mut args = vec!["--agent-version", bin.as_str(), "-j", "2"];
        for arm in ["deny/bare", "crash/bare", "deny/bare@subagent-frontmatter", "signal/bare"] {
            args.extend(["--only", arm]);
        }
        let all = support::arms_file("all.json");
        args.extend(["--arms", all.as_str()]);
        args.extend(extra);
        let mut rows = support::run_battery(&args).0;
        rows.sort_by(|a, b| a.arm.cmp(&b.arm));
        rows.into_iter()
            .map(|r| {
                // The count of stragglers is how many kills it took (timing); that there were some is the
                // fact, for the cell whose leftovers are by design (crash/bare's three setsid sleeps). On a
                // real agent's cell, whether one of its own children is still exiting when the session ends
                // is timing, either way (seen once on signal/bare, sandboxed; docs/sandbox.md).
                let by_design = r.arm == "crash/bare";
                let flags = if by_design && r.flags.contains("stragglers-killed:") { "stragglers-killed" } else { "" };
                (r.arm, r.verdict.to_string(), r.reason, r.session_exit, r.hook_outcomes, flags.to_string())
            })
            .collect::<Vec<_>>()
    };
    let sandboxed = run(&[]);
    let open = run(&["--no-sandbox"]);
    assert_eq!(sandboxed, open, "sandboxed vs --no-sandbox");
    let by_arm = |arm: &str| sandboxed.iter().find(|r| r.0 == arm).unwrap_or_else(|| panic!("{arm}: {sandboxed:?}"));
    let r = by_arm("deny/bare");
    assert_eq!((r.1.as_str(), r.2.as_str(), r.3.as_str()), ("invalid", "session-error", "signal:11"), "{r:?}");
    let r = by_arm("crash/bare");
    assert_eq!(
        (r.1.as_str(), r.2.as_str(), r.3.as_str(), r.5.as_str()),
        ("invalid", "session-error", "1", "stragglers-killed"),
        "{r:?}"
    );
    assert_eq!(by_arm("deny/bare@subagent-frontmatter").1, "blocked");
    let r = by_arm("signal/bare");
    assert_eq!((r.1.as_str(), r.4.as_str()), ("wrote", "error:139"), "{r:?}");
}

/// A run with no session to start ends before npm has answered the question
/// the sandbox puts to it at once (`npm prefix -g`, with a throwaway cache in
/// TMPDIR), and still leaves neither the npm nor its directory behind: the
/// binary waits for the answer before it exits. Here npm is a script on the
/// PATH that takes two seconds (the real one took long enough, once, under
/// CI's load); the run's only row is `unsupported` on Codex, with no session.
#[test]
fn a_run_that_ends_at_once_waits_for_the_npm_it_asked() {
    let d = tempfile::tempdir().unwrap();
    let bin = d.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let npm = bin.join("npm");
    std::fs::write(&npm, "#!/bin/sh\nmkdir -p \"$npm_config_cache/_logs\"\nsleep 2\necho /nonexistent-prefix\n")
        .unwrap();
    std::fs::set_permissions(&npm, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let path = std::env::join_paths(
        std::iter::once(bin.clone()).chain(std::env::split_paths(&std::env::var("PATH").unwrap_or_default())),
    )
    .unwrap();
    let tmp = d.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let rows = d.path().join("rows.csv");
    let _lock = support::lock::sessions();
    let out = failopen()
        .env("PATH", &path)
        .env("TMPDIR", &tmp)
        .env_remove("FAILOPEN_SANDBOX")
        .args(["run", "--agent", "codex", "--arms", "surface", "--only", "*@PermissionRequest", "--out"])
        .arg(&rows)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let rows = support::read_csv(&rows);
    assert!(!rows.is_empty() && rows.iter().all(|r| r.session_secs == 0.0), "no session ran: {rows:?}");
    support::assert_no_leftovers(&tmp);
}
