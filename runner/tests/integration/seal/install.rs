//! `seal --install`: the path it writes, the onFailure it adds, the backup, and what it refuses.

use super::*;

// ---------------------------------------------------------------- --install

fn install(f: &Fixture, settings: &Path) -> Output {
    let _ = f;
    support::failopen().arg("seal").arg("--install").arg(settings).output().unwrap()
}

/// `failopen seal --install SETTINGS` run as `program` (a path to the
/// binary, e.g. a symlink) with `PATH` set to `path`.
fn install_as(program: &Path, settings: &Path, path: &str) -> Output {
    std::process::Command::new(program).arg("seal").arg("--install").arg(settings).env("PATH", path).output().unwrap()
}

/// The first hook of the first PreToolUse group in `settings`.
fn first_command_hook(settings: &Path) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(settings).unwrap()).unwrap();
    v["hooks"]["PreToolUse"][0]["hooks"][0].clone()
}

/// The command of the first hook in `settings`.
fn first_command(settings: &Path) -> String {
    first_command_hook(settings)["command"].as_str().unwrap().to_string()
}

#[test]
fn install_writes_the_failopen_found_on_path_not_the_build_output() {
    let f = Fixture::new();
    let bin = f.path("bin");
    fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(support::bin(), bin.join("failopen")).unwrap();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();

    // Invoked by its build path, as `cargo run` or a test would.
    let out = install_as(&support::bin(), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let command = first_command(&settings);
    assert!(command.starts_with(&format!("{}/failopen seal ", p(&bin))), "{command}");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("failopen path written:") && report.contains("(the failopen on PATH)"), "{report}");
    assert!(!report.contains("warning"), "{report}");
}

#[test]
fn install_without_failopen_on_path_writes_the_invoked_path_unresolved() {
    let f = Fixture::new();
    let dev = f.path("dev");
    fs::create_dir(&dev).unwrap();
    let link = dev.join("failopen");
    std::os::unix::fs::symlink(support::bin(), &link).unwrap();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();

    let out = install_as(&link, &settings, "/usr/bin:/bin");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let command = first_command(&settings);
    assert!(command.starts_with(&format!("{} seal ", p(&link))), "the symlink, not its target: {command}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("the path failopen was invoked as"));
}

#[test]
fn install_warns_when_the_path_written_is_a_build_directory() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    // A build directory of its own (the real one may be anywhere under CARGO_TARGET_DIR).
    let exe = f.path("checkout/target/release/failopen");
    fs::create_dir_all(exe.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(support::bin(), &exe).unwrap();
    let out = install_as(&exe, &settings, "/usr/bin:/bin");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    let warning = report.lines().find(|l| l.contains("warning:")).unwrap_or_else(|| panic!("no warning: {report}"));
    assert!(warning.contains(p(&exe)) && warning.contains("a cargo build directory"), "{warning}");
}

/// A `bin` directory holding a fake `claude` that prints `version_line`
/// (none when `None`) and a `failopen` symlink to the binary under test.
fn bin_with_claude(f: &Fixture, version_line: Option<&str>) -> PathBuf {
    let bin = f.path("bin");
    fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(support::bin(), bin.join("failopen")).unwrap();
    if let Some(line) = version_line {
        support::scripts::write(&bin.join("claude"), &format!("#!/bin/sh\necho '{line}'\n"));
    }
    bin
}

#[test]
fn install_adds_on_failure_block_when_the_claude_on_path_honours_it() {
    let f = Fixture::new();
    let bin = bin_with_claude(&f, Some("2.1.328 (Claude Code)"));
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    let out = install_as(&bin.join("failopen"), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    let hooks = &v["hooks"]["PreToolUse"][0]["hooks"];
    assert_eq!(hooks[0]["onFailure"], "block");
    assert_eq!(hooks[1].get("onFailure"), None, "the skipped http hook is not touched");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains(&format!(
            "onFailure: Claude Code 2.1.328 ({}/claude) honours \"onFailure\": \"block\": added to 1 wrapped hook",
            p(&bin)
        )),
        "{report}"
    );
}

/// Expected: `"onFailure": "block"` is added whatever `claude` is on PATH (an
/// older one, none, one whose version cannot be read): Claude Code honours it
/// from 2.1.295 and earlier releases ignore the key (claude-code-notes), and
/// without it the sealed hook fails open with its seal binary gone, the
/// `no-seal` hole the next audit would report (issue 46).
#[test]
fn install_adds_on_failure_block_whatever_claude_is_on_path() {
    for (version_line, says) in [
        (Some("2.1.294 (Claude Code)"), "Claude Code 2.1.294"),
        (None, "onFailure: no claude on PATH: "),
        (Some("Claude Code, version unknown"), "has no line starting with a version"),
    ] {
        let f = Fixture::new();
        let bin = bin_with_claude(&f, version_line);
        let settings = f.path("settings.json");
        fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
        let out = install_as(&bin.join("failopen"), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(first_command_hook(&settings)["onFailure"], "block", "{version_line:?}");
        let report = String::from_utf8_lossy(&out.stdout);
        let line = report.lines().find(|l| l.contains("onFailure:")).unwrap_or_else(|| panic!("{report}"));
        assert!(line.contains(says) && line.contains("added to 1 wrapped hook all the same"), "{line}");
        if version_line == Some("2.1.294 (Claude Code)") {
            assert!(line.contains("older than 2.1.295"), "{line}");
        }
    }
}

const SETTINGS: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|Write",
        "hooks": [
          { "type": "command", "command": "GUARD_MODE=strict @GUARD@ --flag", "timeout": 5 },
          { "type": "http", "url": "http://127.0.0.1:9/hook" }
        ]
      }
    ]
  },
  "permissions": { "allow": [] }
}
"#;

#[test]
fn install_wraps_keeps_a_backup_and_the_wrapped_hook_fails_closed() {
    let f = Fixture::new();
    let guard = f.script("crash.sh", "exit 1");
    let settings = f.path("settings.json");
    let original = SETTINGS.replace("@GUARD@", p(&guard));
    fs::write(&settings, &original).unwrap();

    let out = install(&f, &settings);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("wrapped 1 PreToolUse command hook"), "{report}");
    assert!(report.contains("skipped") && report.contains("http"), "{report}");
    let backup = f.path("settings.json.failopen-backup");
    assert!(report.contains(p(&backup)), "{report}");
    assert_eq!(fs::read_to_string(&backup).unwrap(), original);

    let new: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    let keys: Vec<_> = new.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["model", "hooks", "permissions"]);
    let hook = &new["hooks"]["PreToolUse"][0]["hooks"];
    assert_eq!(hook[1]["type"], "http");
    let command = hook[0]["command"].as_str().unwrap();
    assert!(command.contains(" seal --deadline 4 -- /bin/sh -c "), "{command}");

    // The wrapped command, run the way Claude Code runs it, refuses the crash.
    let run = Command::new("/bin/sh").arg("-c").arg(command).write_stdin(PAYLOAD).output().unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("(exit 1)"), "{}", String::from_utf8_lossy(&run.stderr));
}

#[test]
fn install_twice_changes_nothing_the_second_time() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    assert_eq!(install(&f, &settings).status.code(), Some(0));
    let after_first = fs::read(&settings).unwrap();
    let backups = || fs::read_dir(f.dir.path()).unwrap().count();
    let files = backups();

    let out = install(&f, &settings);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("already wrapped"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(fs::read(&settings).unwrap(), after_first, "second run rewrote the file");
    assert_eq!(backups(), files, "second run wrote a backup");
}

/// A seal the command around it undoes (`|| true`, `; echo`, `| tee`) is
/// not "already wrapped": install names it NOT PROTECTED, leaves it as it
/// is (wrapping it again would not help), and exits 1; each of those
/// commands, run as Claude Code runs it, turns seal's refusal into exit 0.
#[test]
fn install_names_a_seal_its_command_undoes_and_exits_1() {
    let f = Fixture::new();
    let seal = format!("{} seal --", p(&support::bin()));
    for tail in ["|| true", "; echo done", "| tee -a log"] {
        let command = format!("{seal} /bin/sh -c 'exit 1' {tail}");
        let run = Command::new("/bin/sh")
            .arg("-c")
            .arg(&command)
            .current_dir(f.dir.path())
            .write_stdin(PAYLOAD)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{command}: the shell really undoes seal's refusal");

        let settings = f.path("settings.json");
        let json = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": command}]}]}});
        fs::write(&settings, json.to_string()).unwrap();
        let before = fs::read(&settings).unwrap();
        let out = install(&f, &settings);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{tail}: {stdout}");
        assert!(
            stdout.contains("NOT PROTECTED") && stdout.contains("the command around `failopen seal` undoes it"),
            "{stdout}"
        );
        assert!(!stdout.contains("already wrapped"), "{stdout}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("fix it by hand"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(fs::read(&settings).unwrap(), before, "{tail}: the file was changed");
    }
}

#[test]
fn install_backup_keeps_the_mode_of_a_private_settings_file() {
    // A 0600 settings file may hold secrets in `env`; its backup was 0644.
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    fs::set_permissions(&settings, fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(install(&f, &settings).status.code(), Some(0));
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&f.path("settings.json.failopen-backup")), 0o600);
    assert_eq!(mode(&settings), 0o600);
}

#[test]
fn install_never_overwrites_an_existing_backup() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    fs::write(f.path("settings.json.failopen-backup"), "precious").unwrap();
    assert_eq!(install(&f, &settings).status.code(), Some(0));
    assert_eq!(fs::read_to_string(f.path("settings.json.failopen-backup")).unwrap(), "precious");
    assert!(fs::read_to_string(f.path("settings.json.failopen-backup.1")).unwrap().contains("/g/guard.sh --flag"));
}

#[test]
fn install_refuses_unparsable_settings_and_leaves_them_alone() {
    let f = Fixture::new();
    let settings = f.path("broken.json");
    let text = "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n";
    fs::write(&settings, text).unwrap();
    let out = install(&f, &settings);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(p(&settings)) && err.contains("line 3, column 20"), "{err}");
    assert_eq!(fs::read_to_string(&settings).unwrap(), text);
    assert_eq!(fs::read_dir(f.dir.path()).unwrap().count(), 1, "no backup or temp file left behind");
}

#[test]
fn install_on_a_missing_file_is_a_clear_error() {
    let f = Fixture::new();
    let settings = f.path("nope.json");
    let out = install(&f, &settings);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(p(&settings)) && err.contains("does not exist"), "{err}");
    assert!(!settings.exists());
}
