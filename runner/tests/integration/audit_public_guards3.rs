//! A public guard no other test uses, installed with `uv` as its README
//! says, pinned by version and hash, that reads its policy from the
//! payload's `cwd` (issue 43: audit runs each guard exactly as its agent
//! does). Real Claude Code 2.1.328.
//!
//! **azet-guard** (PyPI `azet-guard` 0.2.0): runtime guardrails for coding
//! agents. Its README's setup is `uv tool install git+https://github.com/azet-llc/azet-guard`
//! (CI reaches PyPI, not GitHub: the same release from PyPI, its wheel
//! checked against PyPI's sha256) then `azet-guard install --project .`,
//! which writes `.claude/settings.json`: one command,
//! `<uv's tool venv>/bin/python -m azet_guard hook`, timeout 10, on
//! PreToolUse (matcher `Bash|PowerShell|Write|Edit|MultiEdit|NotebookEdit|Read`),
//! PostToolUse, PostToolUseFailure, UserPromptSubmit and Stop. Its PreToolUse
//! answer is exit 0 with a JSON `deny`. It loads its policy from
//! `<payload cwd>/.azet-guard.toml` (README: "Load order ... <project>/.azet-guard.toml"),
//! where this project adds a rule of its own: deny `git reset --hard`.
//! `uv` itself comes from PyPI too (the `uv` wheel, by hash).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::audit_probes::{audit_with_path, result};
use crate::audit_public_guards::{apply_the_proved_seal_and_audit_again, pypi_venv};

/// uv's Linux x86-64 wheel, by PyPI's sha256 (`.ci/run` downloads it).
const UV: &str = "uv==0.13.9 --hash=sha256:d7f459fe4fd247d830351c75686d3996ace3c6f3f728eb0e85a30b7ada0cef19";
/// azet-guard's wheel, by PyPI's sha256.
const AZET_GUARD: &str =
    "azet-guard==0.2.0 --hash=sha256:4005ce4094ca89e3d0a946de382034c19b7431dea72d3760b64b50e94ca7e75b";

/// The project's own policy: azet-guard reads it from the payload's `cwd`.
const PROJECT_POLICY: &str = "[[shell_rules]]\naction = \"deny\"\nrule = \"no_hard_reset\"\n\
pattern = 'git\\s+reset\\s+--hard'\nmessage = \"This project never throws away uncommitted work.\"\n";

/// `uv tool install` of `requirement`'s wheel (downloaded by pip, checked
/// against its hash), with uv's tool and bin directories, cache and Python
/// under `d` (no Python download: the system's `python3`): the tool's bin
/// directory.
fn uv_tool_install(requirement: &str, d: &Path, home: &Path) -> PathBuf {
    let uv = pypi_venv(UV, &d.join("uv")).join("uv");
    let wheels = d.join("wheels");
    let req = d.join("tool-requirements.txt");
    std::fs::write(&req, format!("{requirement}\n")).unwrap();
    let out = Command::new("python3")
        .args(["-m", "pip", "download", "--quiet", "--no-deps", "--require-hashes", "--disable-pip-version-check"])
        .arg("--dest")
        .arg(&wheels)
        .arg("-r")
        .arg(&req)
        .output()
        .unwrap();
    assert!(out.status.success(), "pip download {requirement}: {}", String::from_utf8_lossy(&out.stderr));
    let wheel = std::fs::read_dir(&wheels).unwrap().flatten().map(|e| e.path()).next().unwrap();
    let bin = d.join("uv-bin");
    let out = Command::new(&uv)
        .args(["tool", "install", "--offline", "--python", "python3"])
        .arg(&wheel)
        .env("UV_TOOL_DIR", d.join("uv-tools"))
        .env("UV_TOOL_BIN_DIR", &bin)
        .env("UV_CACHE_DIR", d.join("uv-cache"))
        .env("UV_PYTHON_DOWNLOADS", "never")
        .env("HOME", home)
        .output()
        .unwrap();
    assert!(out.status.success(), "uv tool install: {}", String::from_utf8_lossy(&out.stderr));
    bin
}

fn screen<'a>(v: &'a Value, hook: &str, probe: &str) -> &'a Value {
    v["agents"][0]["screens"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["hook"] == hook && s["probe"] == probe)
        .unwrap_or_else(|| panic!("no screen {hook} {probe}: {v:#}"))
}

/// azet-guard installed as its README says, with the project's own rule in
/// `.azet-guard.toml`.
///
/// Expected, with the reasoning (measured with this setup on 2.1.328,
/// `failopen audit --format json -j 2`, three runs alike):
/// - its PreToolUse hook (H1) runs in a session whose working directory is
///   the project's copy, so Claude Code itself sends that copy as the
///   payload's `cwd` (and the screen does the same): it loads the project's
///   policy and refuses the probe `git-reset-hard` with the project's own
///   rule, on screen (`deny: azet-guard: [no_hard_reset] ...`) and in a
///   session: `blocked` as-is. Before, the payload's `cwd` was the session's
///   empty directory, which holds no `.azet-guard.toml`: the rule was never
///   read and the reset allowed (measured by hand with the same payload);
/// - its built-in rules only *ask* for `git push --force` and `curl | sh`
///   (and for reading `.env.local`): an ask is not a refusal. The probe's
///   `rm -rf` of a folder under HOME is not its `rm_root` (`rm -rf ~`):
///   allowed. A plain write goes through;
/// - its answer is exit 0 with JSON, so any other ending is no decision:
///   `missing` (python: "No module named ..."), `crash`, `hang` (past its
///   10 s timeout) and `signal` let the reset run: **wrote**, four holes,
///   each with the guard's own error; `no-launcher` does not apply (the
///   command names its interpreter by absolute path, uv's tool venv); exit 3;
/// - the printed fix, `failopen seal --install` on the settings file, is
///   re-checked on a copy first (each hole, the refusal as-is and the seal
///   binary gone refused). Applied exactly so, the next audit finds no hole
///   and the reset refused as-is and under every fault.
#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
#[test]
fn azet_guard_installed_with_uv_reads_the_projects_policy_from_the_payloads_cwd_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let (home, project) = (d.path().join("home"), d.path().join("project"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let bin = uv_tool_install(AZET_GUARD, d.path(), &home);
    let out = Command::new(bin.join("azet-guard"))
        .args(["install", "--project", "."])
        .current_dir(&project)
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(out.status.success(), "azet-guard install: {}", String::from_utf8_lossy(&out.stderr));
    std::fs::write(project.join(".azet-guard.toml"), PROJECT_POLICY).unwrap();
    let settings = project.join(".claude/settings.json");
    let written: Value = serde_json::from_slice(&std::fs::read(&settings).unwrap()).unwrap();
    let command = written.pointer("/hooks/PreToolUse/0/hooks/0/command").and_then(Value::as_str).unwrap();
    assert!(command.ends_with("/uv-tools/azet-guard/bin/python -m azet_guard hook"), "{command}");
    let path = std::env::var("PATH").unwrap_or_default();
    let (out, v) = audit_with_path(&project, &home, &[], &path);
    let probe = "Bash:git-reset-hard";
    assert_eq!(
        screen(&v, "H1", probe)["answer"],
        "deny: azet-guard: [no_hard_reset] This project never throws away uncommitted work.",
        "the project's rule, read from the payload's cwd: {v:#}"
    );
    for asked in ["Bash:git-push-force", "Bash:curl-pipe-sh", "Read:read-env"] {
        assert_eq!(screen(&v, "H1", asked)["answer"], "ask (not a refusal)", "{asked}: {v:#}");
    }
    assert_eq!(screen(&v, "H1", "Bash:rm-rf-home")["answer"], "allowed", "{v:#}");
    assert_eq!(result(&v, "H1", "Bash", "none"), "wrote", "a plain write is allowed: {v:#}");
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["missing", "crash", "hang", "signal"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    assert_eq!(result(&v, "H1", probe, "no-launcher"), "skipped", "its python by absolute path: {v:#}");
    let guard = v["agents"][0]["guards"].as_array().unwrap().iter().find(|g| g["hook"] == "H1").unwrap();
    assert_eq!(guard["status"], "open", "{v:#}");
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    // The fix, proved on a copy before it was printed, applied exactly so (no `claude` on PATH).
    assert_eq!(v["agents"][0]["rechecks"][0]["outcome"], "proved", "{v:#}");
    let faults = ["missing", "crash", "hang", "signal", "no-seal"];
    apply_the_proved_seal_and_audit_again(&v, &settings, &project, &home, &[], &path, probe, &faults);
}
