//! A public guard no other test uses, run through the `uvx` launcher as its
//! README says, pinned by version and hash (issue 43: audit runs each guard
//! exactly as its agent does, launchers included). Real Claude Code 2.1.328.
//!
//! **claude-code-guardian** (PyPI `claude-code-guardian` 0.1.1, Python >= 3.12):
//! "Validation and permission system for Claude Code". Its README's install is
//! `uvx claude-code-guardian` (from PyPI), then, in `.claude/settings.json`,
//! the command `uvx claude-code-guardian hook` on SessionStart and on
//! PreToolUse (matcher `""`), with no timeout. Its PreToolUse answer is exit
//! 0 with a JSON `deny`; its built-in rules deny `git push --force` and writes
//! under `.git`.
//!
//! What the README leaves to uv is set up the way a user without PyPI or a
//! downloadable Python would: the ten wheels (the guard and its dependencies,
//! for CPython 3.12) downloaded by pip and checked against their sha256, named
//! to uv as an offline wheel folder in its user config
//! (`~/.config/uv/uv.toml`: `offline`, `no-index`, `find-links`), and the
//! machine's own Python 3.12 pinned with `uv python pin --global` (uv would
//! download one from GitHub, which CI does not reach; this machine's image has
//! pyenv's CPython 3.12.1, and Debian 12 packages none). `uv` itself comes
//! from PyPI too (its wheel, by hash).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::audit_probes::{audit_with_path, result};
use crate::audit_public_guards::{apply_the_proved_seal_and_audit_again, pypi_venv};

/// uv's Linux x86-64 wheel, by PyPI's sha256 (`.ci/run` downloads it).
const UV: &str = "uv==0.13.9 --hash=sha256:d7f459fe4fd247d830351c75686d3996ace3c6f3f728eb0e85a30b7ada0cef19";

/// claude-code-guardian and what it needs for CPython 3.12 on Linux x86-64,
/// by PyPI's sha256 (`.ci/run` downloads them).
const WHEELS: &[&str] = &[
    "claude-code-guardian==0.1.1 --hash=sha256:f574d8130db555b0f0d944e31dd0a02ef4d19d6109544a8ee4ecfb8d25a9ff6d",
    "cchooks==0.1.5 --hash=sha256:ed60ef7d5ec7b0697b81ac44f064c3433591066da2a3c16811abce68737ba712",
    "click==8.5.1 --hash=sha256:8bb5376d2006950386f8c6427613334a2acadc5f559cb80e638d00b4df957e37",
    "platformdirs==4.14.9 --hash=sha256:d0d3a23e7ff282cfa94b77f5a22b81030dcb68ba0430f90c74f4bd8d090782ea",
    "pydantic==2.14.4 --hash=sha256:653a2ad9f6d8858529c77c72717d0ea991d6c6837fe683246b2f4b2bbfc3fadc",
    "pydantic-core==2.50.5 --hash=sha256:470bbc2495367f60d3ca849a8039e4c164701d10637e7743f4427d92651bdb6d",
    "pyyaml==6.0.4 --hash=sha256:93bfb2459195406a518e2f487a9bbf01df240175f31e06f5a252ac6734c7bbf0",
    "annotated-types==0.8.0 --hash=sha256:f072f4d804ea359e4eaf198b1af7a8b0943881a87f31bb764f8bf219bb9419e0",
    "typing-extensions==4.16.0 --hash=sha256:481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8",
    "typing-inspection==0.4.5 --hash=sha256:bc210535442b39e1bf2805e0c7a17dfd6a4ace760c84c7f7d16245d23a6b1c39",
];

/// The README's hook command, as written.
const HOOK: &str = "uvx claude-code-guardian hook";

/// This machine's CPython 3.12 (the wheels are `cp312`): one on PATH that runs, else pyenv's.
fn python312() -> PathBuf {
    let runs = |p: &Path| Command::new(p).arg("--version").output().is_ok_and(|o| o.status.success());
    let path = std::env::var("PATH").unwrap_or_default();
    let on_path = std::env::split_paths(&path).map(|d| d.join("python3.12")).find(|p| runs(p));
    let pyenv = || {
        let root = Command::new("pyenv").arg("root").output().ok()?;
        let versions = PathBuf::from(String::from_utf8(root.stdout).ok()?.trim()).join("versions");
        let mut found: Vec<PathBuf> = std::fs::read_dir(versions)
            .ok()?
            .flatten()
            .map(|e| e.path().join("bin/python3.12"))
            .filter(|p| runs(p))
            .collect();
        found.sort();
        found.pop()
    };
    on_path.or_else(pyenv).expect(
        "claude-code-guardian needs CPython >= 3.12 (its wheels here are cp312): no python3.12 on PATH or in pyenv \
         (this machine's image has pyenv's 3.12.1)",
    )
}

/// The wheels, downloaded by pip and checked against their hashes, into `dir`.
fn wheels(dir: &Path) -> PathBuf {
    let wheels = dir.join("wheels");
    let req = dir.join("guardian-requirements.txt");
    std::fs::write(&req, WHEELS.join("\n") + "\n").unwrap();
    let out = Command::new("python3")
        .args(["-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes", "--disable-pip-version-check"])
        .args(["--only-binary=:all:", "--python-version", "3.12", "--implementation", "cp", "--abi", "cp312"])
        .args(["--platform", "manylinux2014_x86_64", "--platform", "manylinux_2_17_x86_64"])
        .arg("--dest")
        .arg(&wheels)
        .arg("-r")
        .arg(&req)
        .output()
        .unwrap();
    assert!(out.status.success(), "pip download: {}", String::from_utf8_lossy(&out.stderr));
    wheels
}

fn screen<'a>(v: &'a Value, hook: &str, probe: &str) -> &'a Value {
    v["agents"][0]["screens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["hook"] == hook && s["probe"] == probe)
        .unwrap_or_else(|| panic!("no screen {hook} {probe}: {v:#}"))
}

fn cell<'a>(v: &'a Value, hook: &str, tool: &str, fault: &str) -> &'a Value {
    v["agents"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hook"] == hook && c["tool"] == tool && c["fault"] == fault)
        .unwrap_or_else(|| panic!("no cell {hook} {tool} {fault}: {v:#}"))
}

/// claude-code-guardian run by `uvx`, installed and configured as its README
/// says.
///
/// Expected, with the reasoning (measured with this setup on 2.1.328,
/// `failopen audit --format json -j 2`):
/// - audit's sandbox hides HOME, where uv keeps its cache, its tool
///   directory and its config. uv locks its cache and tool directory on every
///   `uvx`: read-only, it exits 2 ("Could not acquire lock"), and so does a
///   `find-links` folder it cannot read; Claude Code reads exit 2 as a
///   refusal, so every call would have looked refused, the plain write too.
///   Audit asks uv where they are (`uv cache dir`, `uv tool dir`), reads its
///   config for the paths it names, and gives the hook writable links to the
///   cache and tools (`sandbox::uv`): the plain write goes through
///   (`wrote`), so the refusal below is the guard's own;
/// - as-is its PreToolUse hook (H1) refuses the probe `git-push-force` with
///   its built-in rule, on screen (`deny: Guardian: Use git push
///   --force-with-lease ...`) and in a session: `blocked`. Nothing else the
///   probes try is in its default rules: allowed;
/// - its answer is exit 0 with JSON, so any other ending is no decision:
///   `crash` (exit 1) and `signal` (139) let the push run: **wrote**, holes;
/// - `no-launcher` takes `uvx` off the hook's PATH, and nothing else: `/bin/sh:
///   uvx: not found`, exit 127, **wrote**, a hole;
/// - `missing` is skipped: the command runs a package through `uvx`, with no
///   script file of its own to remove, and taking the launcher away is
///   `no-launcher`'s job (before issue 43, `missing` replaced the launcher);
/// - `hang` is skipped: with no timeout, Claude Code waits 600 s, longer than
///   audit waits;
/// - it keeps state: its screens write a log under HOME,
///   `~/.local/state/claude-code-guardian/log/guardian.log`. With that log's
///   directory read-only (`state-unwritable`), it dies on its first log line
///   (`OSError: [Errno 30] Read-only file system`), exit 1, before it
///   answers: the push runs, **wrote**, a hole. With the log filled with
///   garbage (`state-corrupt`) it appends and refuses: `blocked` (a log is
///   written, never parsed);
/// - four holes: the guard is `open`, exit 3;
/// - the printed fix, `failopen seal --install` on the settings file, is
///   re-checked on a copy first (each hole, the refusal as-is and the seal
///   binary gone refused). Applied exactly so, the next audit finds no hole
///   and the push refused as-is and under every fault it runs.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn claude_code_guardian_run_by_uvx_as_its_readme_says_fails_open_and_its_printed_fix_closes_it() {
    let d = tempfile::tempdir().unwrap();
    let (home, project) = (d.path().join("home"), d.path().join("project"));
    std::fs::create_dir_all(home.join(".config/uv")).unwrap();
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    let uv_bin = pypi_venv(UV, &d.path().join("uv"));
    let wheels = wheels(d.path());
    std::fs::write(
        home.join(".config/uv/uv.toml"),
        format!(
            "offline = true\nno-index = true\nfind-links = [{}]\npython-downloads = \"never\"\n",
            json!(wheels.to_string_lossy())
        ),
    )
    .unwrap();
    let path = format!("{}:{}", uv_bin.display(), std::env::var("PATH").unwrap_or_default());
    let uv = |args: &[&str]| {
        Command::new(uv_bin.join(args[0]))
            .args(&args[1..])
            .current_dir(&project)
            .env("HOME", &home)
            .env("PATH", &path)
            .env_remove("XDG_CONFIG_HOME")
            .env_remove("XDG_CACHE_HOME")
            .output()
            .unwrap()
    };
    let out = uv(&["uv", "python", "pin", "--global", &python312().to_string_lossy()]);
    assert!(out.status.success(), "uv python pin: {}", String::from_utf8_lossy(&out.stderr));
    // The README's step 1: uv installs it into its cache; with no subcommand the guard prints its
    // help and a reminder, and exits 1.
    let out = uv(&["uvx", "claude-code-guardian"]);
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("Installed 10 packages") && said.contains("claude-code-guardian hook"), "{said}");
    // Its step 2, verbatim.
    let hooks = json!([{"matcher": "", "hooks": [{"type": "command", "command": HOOK}]}]);
    let settings = project.join(".claude/settings.json");
    std::fs::write(&settings, json!({"hooks": {"SessionStart": hooks, "PreToolUse": hooks}}).to_string()).unwrap();

    let (out, v) = audit_with_path(&project, &home, &[], &path);
    let probe = "Bash:git-push-force";
    let said = screen(&v, "H1", probe)["answer"].as_str().unwrap().to_string();
    assert!(said.starts_with("deny: Guardian: Use git push --force-with-lease"), "{said}: {v:#}");
    assert_eq!(screen(&v, "H1", "Bash:git-reset-hard")["answer"], "allowed", "{v:#}");
    assert_eq!(result(&v, "H1", "Bash", "none"), "wrote", "uv ran in the sandbox: {v:#}");
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["crash", "signal", "no-launcher"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    let lost = cell(&v, "H1", probe, "no-launcher")["guard_error"].as_str().unwrap_or_default().to_string();
    assert!(lost.starts_with("exit 127") && lost.contains("uvx: not found"), "only uvx is gone: {lost}");
    let missing = cell(&v, "H1", probe, "missing");
    assert_eq!(missing["result"], "skipped", "{v:#}");
    let why = missing["detail"].as_str().unwrap();
    assert!(why.contains("through uvx") && why.contains("no-launcher takes uvx away"), "{why}");
    assert_eq!(result(&v, "H1", probe, "hang"), "skipped", "no timeout: 600 s: {v:#}");
    let guard = v["agents"][0]["guards"].as_array().unwrap().iter().find(|g| g["hook"] == "H1").unwrap();
    assert_eq!(guard["status"], "open", "{v:#}");
    let state = &v["agents"][0]["state"];
    assert_eq!(state[0]["path"], ".local/state/claude-code-guardian/log/guardian.log", "{v:#}");
    assert_eq!(state[0]["place"], "home", "{v:#}");
    let unwritable = cell(&v, "H1", probe, "state-unwritable");
    let died = unwritable["guard_error"].as_str().unwrap_or_default();
    assert!(died.starts_with("exit 1") && died.contains("Read-only file system"), "{unwritable:#}");
    assert_eq!(unwritable["result"], "wrote", "{v:#}");
    assert_eq!(result(&v, "H1", probe, "state-corrupt"), "blocked", "a log is never parsed: {v:#}");
    assert_eq!(v["agents"][0]["holes"].as_array().unwrap().len(), 4, "{v:#}");
    assert_eq!(out.status.code(), Some(3), "{v:#}");

    // The fix, proved on a copy before it was printed, applied exactly so (no `claude` on PATH).
    let faults = ["crash", "signal", "no-launcher", "no-seal", "state-unwritable", "state-corrupt"];
    apply_the_proved_seal_and_audit_again(&v, &settings, &project, &home, &[], &path, probe, &faults);
}
