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
        assert!(stdout.contains("NOT PROTECTED") && stdout.contains("after seal"), "{stdout}");
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

// ------------------------------------------- what --install calls protected

/// How `--install` must report a hook command.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    /// Seal's exit code is the command's: left alone as already wrapped.
    AlreadyWrapped,
    /// Every part can fail the hook: wrapped, and the wrapped hook refuses a crash.
    Wrapped,
    /// Something in it can turn a refusal or a crash into another exit code.
    NotProtected,
}

/// `command` run as Claude Code runs a hook (`/bin/sh -c`, payload on
/// stdin), with failopen's directory first on `PATH`; its exit code.
fn run_hook(f: &Fixture, command: &str) -> Option<i32> {
    let path = format!("{}:/usr/bin:/bin", p(support::bin().parent().unwrap()));
    let out = Command::new("/bin/sh")
        .arg("-c")
        .arg(command)
        .current_dir(f.dir.path())
        .env("PATH", path)
        .env(TAG_VAR, &f.tag)
        .write_stdin(PAYLOAD)
        .timeout(Duration::from_secs(30))
        .output()
        .unwrap();
    out.status.code()
}

/// Every hook command of the issue (and more), with the verdict `--install`
/// must give it and the exit code it really has when its guard crashes (or
/// hangs), measured by running it. A NOT PROTECTED verdict is only right if
/// the command, as it is or wrapped, can exit other than 2; the others must
/// exit 2 once installed.
#[test]
fn install_verdicts_match_what_the_shell_does_with_a_crashing_guard() {
    use Verdict::*;
    let f = Fixture::new();
    let crash = f.script("crash.sh", "exit 1");
    let hang = f.script("hang.sh", "exec sleep 30");
    let fo = p(&support::bin()).to_string();
    #[rustfmt::skip]
    let cases: &[(&str, Verdict, Option<i32>)] = &[
        // Seal as the whole command, behind prefixes that pass exit 2 on.
        ("@FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("exec @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("A=1 @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("env @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("env A=1 B=2 @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("nice @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("nice -n 5 @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("command @FO@ seal -- @G@", AlreadyWrapped, Some(2)),
        ("(@FO@ seal -- @G@)", AlreadyWrapped, Some(2)),
        ("{ @FO@ seal -- @G@; }", AlreadyWrapped, Some(2)),
        ("sh -c '@FO@ seal -- @G@'", AlreadyWrapped, Some(2)),
        // The issue's holes: reported "wrapped" before, each exits 0 on a crash.
        ("env @FO@ seal -- @G@ || true", NotProtected, Some(0)),
        ("env A=1 @FO@ seal -- @G@ || true", NotProtected, Some(0)),
        ("nice -n 5 @FO@ seal -- @G@ || exit 0", NotProtected, Some(0)),
        ("timeout 5 @FO@ seal -- @G@ || true", NotProtected, Some(0)),
        ("command @FO@ seal -- @G@ || true", NotProtected, Some(0)),
        ("@G@ || true", NotProtected, Some(0)),
        // Every construct that can change seal's exit 2, wherever seal sits.
        ("@FO@ seal -- @G@ || true", NotProtected, Some(0)),
        ("@FO@ seal -- @G@; echo done", NotProtected, Some(0)),
        ("@FO@ seal -- @G@\necho done", NotProtected, Some(0)),
        ("@FO@ seal -- @G@ &", NotProtected, Some(0)),
        ("@FO@ seal -- @G@ | cat", NotProtected, Some(0)),
        ("! @FO@ seal -- @G@", NotProtected, Some(0)),
        ("(@FO@ seal -- @G@) || true", NotProtected, Some(0)),
        ("(@FO@ seal -- @G@ || true)", NotProtected, Some(0)),
        ("(@FO@ seal -- @G@; exit 0)", NotProtected, Some(0)),
        ("{ @FO@ seal -- @G@; exit 0; }", NotProtected, Some(0)),
        ("true || @FO@ seal -- @G@", NotProtected, Some(0)),
        ("false && @FO@ seal -- @G@", NotProtected, Some(1)),
        ("echo \"$(@FO@ seal -- @G@)\"", NotProtected, Some(0)),
        ("sh -c '@FO@ seal -- @G@ || true'", NotProtected, Some(0)),
        ("@FO@ seal -- /bin/sh -c '@G@ || true'", NotProtected, Some(0)),
        ("timeout 0.5 @FO@ seal --deadline 5 -- @H@", NotProtected, Some(124)),
        ("env -i failopen seal -- @G@", NotProtected, Some(127)),
        ("command -v failopen seal -- @G@", NotProtected, Some(0)),
        ("@FO@ sael -- @G@", NotProtected, Some(2)),
        // Plain guards: wrapped when every part can fail the hook.
        ("@G@", Wrapped, Some(1)),
        ("A=1 @G@ --flag", Wrapped, Some(1)),
        ("cd / && @G@", Wrapped, Some(1)),
        ("@G@ && echo ok", Wrapped, Some(1)),
        ("timeout 5 @G@", Wrapped, Some(1)),
        ("nice -n 5 @G@", Wrapped, Some(1)),
        ("(@G@)", Wrapped, Some(1)),
        ("nice -n 5 @G@ || exit 0", NotProtected, Some(0)),
        ("@G@; echo done", NotProtected, Some(0)),
        ("@G@ | cat", NotProtected, Some(0)),
        ("@G@ &", NotProtected, Some(0)),
        ("if [ -x /nonexistent ]; then /nonexistent; fi", NotProtected, Some(0)),
    ];
    let mut failures = Vec::new();
    for &(template, verdict, exit) in cases {
        let command = template.replace("@FO@", &fo).replace("@G@", p(&crash)).replace("@H@", p(&hang));
        let as_is = run_hook(&f, &command);
        if as_is != exit {
            failures.push(format!("{command:?} exits {as_is:?}, not {exit:?}"));
            continue;
        }
        let settings = f.path("settings.json");
        let json = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": command}]}]}});
        fs::write(&settings, json.to_string()).unwrap();
        let out = install(&f, &settings);
        let report = String::from_utf8_lossy(&out.stdout).to_string();
        let said = if report.contains("NOT PROTECTED") {
            NotProtected
        } else if report.contains("already wrapped") {
            AlreadyWrapped
        } else if report.contains("  wrapped: ") {
            Wrapped
        } else {
            failures.push(format!("{command:?}: no verdict in {report}"));
            continue;
        };
        if said != verdict {
            failures.push(format!("{command:?}: {said:?}, not {verdict:?}: {report}"));
            continue;
        }
        let expected_code = if verdict == NotProtected { 1 } else { 0 };
        if out.status.code() != Some(expected_code) {
            failures.push(format!("{command:?}: --install exited {:?}", out.status.code()));
        }
        match verdict {
            Wrapped => {
                let new = first_command(&settings);
                let code = run_hook(&f, &new);
                if code != Some(2) {
                    failures.push(format!("{command:?} wrapped as {new:?} exits {code:?}"));
                }
                let _ = fs::remove_file(f.path("settings.json.failopen-backup"));
            }
            AlreadyWrapped => assert_eq!(as_is, Some(2)),
            NotProtected => {
                // Wrapping it would not help: as it is or wrapped, a crash gets through.
                let by_hand = format!("{fo} seal -- /bin/sh -c '{}'", command.replace('\'', r"'\''"));
                let wrapped = run_hook(&f, &by_hand);
                // (A mistyped subcommand refuses every call instead: no guard runs.)
                if as_is == Some(2) && wrapped == Some(2) && !command.contains(" sael ") {
                    failures.push(format!("{command:?} refuses as it is and wrapped, yet is NOT PROTECTED"));
                }
                assert_eq!(fs::read_to_string(&settings).unwrap(), json.to_string(), "{command:?}: file changed");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    f.assert_no_survivors();
}

// --------------------------------------------- --install keeps every byte

/// Hook files of each agent whose hooks `--install` wraps (Claude Code's
/// `hooks.PreToolUse` shape: Claude Code, Codex's hooks.json, Qwen Code),
/// written by hand: every byte but the wrapped commands stays.
#[test]
fn install_keeps_numbers_keys_and_layout_of_each_agents_file() {
    let f = Fixture::new();
    let bin = bin_with_claude(&f, Some("2.1.328 (Claude Code)"));
    let files = [
        (
            "claude settings.json",
            "{\n  \"permissions\": {\"allow\": [\"Bash(ls:*)\"]},\n  \"cleanupPeriodDays\": 123456789012345678901234567890,\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"matcher\": \"Bash\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"/g/guard.sh --mode \\\"strict\\\"\",\n            \"timeout\": 5.0\n          }\n        ]\n      }\n    ]\n  },\n  \"env\": {\"RATIO\": \"1e2\", \"N\": 1e2},\n  \"model\": \"opus\"\n}\n",
            "\"/g/guard.sh --mode \\\"strict\\\"\",\n            \"timeout\": 5.0",
            "\"@FO@ seal --deadline 4 -- /bin/sh -c '/g/guard.sh --mode \\\"strict\\\"'\",\n            \"timeout\": 5.0,\n            \"onFailure\": \"block\"",
        ),
        (
            "codex hooks.json",
            "{\"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash|apply_patch\", \"hooks\": [{\"type\": \"command\", \"command\": \"python3 /g/policy.py\", \"timeout\": 30}]}]}}",
            "\"python3 /g/policy.py\", \"timeout\": 30",
            "\"@FO@ seal --deadline 29 -- /bin/sh -c 'python3 /g/policy.py'\", \"timeout\": 30, \"onFailure\": \"block\"",
        ),
        (
            "qwen settings.json",
            "{\r\n\t\"general\": {\"vimMode\": false},\r\n\t\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/g/q.sh\"}]}]},\r\n\t\"ui\": {\"theme\": \"x\", \"n\": -0.0}\r\n}",
            "\"/g/q.sh\"}",
            "\"@FO@ seal -- /bin/sh -c '/g/q.sh'\", \"onFailure\": \"block\"}",
        ),
    ];
    for (name, text, old, new) in files {
        let settings = f.path("settings.json");
        let _ = fs::remove_file(f.path("settings.json.failopen-backup"));
        fs::write(&settings, text).unwrap();
        let out = install_as(&bin.join("failopen"), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
        assert_eq!(out.status.code(), Some(0), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        let expected = text.replace(old, &new.replace("@FO@", p(&bin.join("failopen"))));
        assert_ne!(expected, text, "{name}: the test's span is wrong");
        assert_eq!(fs::read_to_string(&settings).unwrap(), expected, "{name}");
        assert_eq!(fs::read_to_string(f.path("settings.json.failopen-backup")).unwrap(), text, "{name}");
    }
}

/// Agents whose hook files have another shape (Gemini's `hooks.BeforeTool`,
/// Copilot's `hooks.preToolUse` with `bash`): `--install` does not wrap
/// them, says so, and leaves every byte.
#[test]
fn install_leaves_other_agents_hook_files_untouched() {
    let f = Fixture::new();
    for text in [
        "{\"hooks\": {\"BeforeTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"/g.sh\", \"timeout\": 5000}]}]}}",
        "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"/g.sh\", \"timeoutSec\": 3}]}}",
    ] {
        let settings = f.path("hooks.json");
        fs::write(&settings, text).unwrap();
        let out = install(&f, &settings);
        assert_eq!(out.status.code(), Some(0));
        let report = String::from_utf8_lossy(&out.stdout);
        assert!(report.contains("no PreToolUse hooks found; file not changed"), "{report}");
        assert!(report.contains("note: it has hooks in hooks.") && report.contains("which --install does not wrap"), "{report}");
        assert_eq!(fs::read_to_string(&settings).unwrap(), text);
        assert_eq!(fs::read_dir(f.dir.path()).unwrap().count(), 1, "no backup");
    }
}

#[test]
fn install_refuses_repeated_keys_naming_each_and_its_line() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    let text = "{\n  \"env\": {\"A\": \"1\"},\n  \"hooks\": {\n    \"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/first.sh\"}]}],\n    \"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/second.sh\"}]}]\n  },\n  \"env\": {\"B\": \"2\"}\n}\n";
    fs::write(&settings, text).unwrap();
    let out = install(&f, &settings);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    for says in [
        "repeated keys",
        "\"env\" appears on lines 2 and 7: the agent reads only the last one (line 7), so what is under line 2 never takes effect",
        "\"PreToolUse\" in hooks appears on lines 4 and 5",
        "a hook under an earlier one never runs",
    ] {
        assert!(err.contains(says), "{says:?} in {err}");
    }
    assert_eq!(fs::read_to_string(&settings).unwrap(), text);
    assert_eq!(fs::read_dir(f.dir.path()).unwrap().count(), 1, "no backup, no temp file");
}

#[test]
fn install_refuses_a_fifo_without_opening_it() {
    let f = Fixture::new();
    let fifo = f.path("settings.json");
    nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
    let start = Instant::now();
    let out =
        support::failopen().arg("seal").arg("--install").arg(&fifo).timeout(Duration::from_secs(10)).output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(5), "it blocked: {:?}", start.elapsed());
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is a FIFO (named pipe), not a settings file"), "{err}");
}

/// A settings file of about 40 KB, so a backup can fail part way.
fn big_settings() -> String {
    let pad = "x".repeat(40_000);
    format!("{{\"pad\": \"{pad}\", \"hooks\": {{\"PreToolUse\": [{{\"hooks\": [{{\"type\": \"command\", \"command\": \"/g.sh\"}}]}}]}}}}\n")
}

/// Names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// Under `ulimit -f` the backup cannot be written: the run fails, with the
/// original untouched and neither a backup nor a temporary file left; the
/// next run writes the canonical backup, complete.
#[test]
fn install_under_a_file_size_limit_leaves_no_partial_backup() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    let text = big_settings();
    fs::write(&settings, &text).unwrap();
    // 32 blocks of 512 bytes: 16 KiB.
    let mut cmd = std::process::Command::new("/bin/sh");
    cmd.arg("-c").arg(format!("ulimit -f 32 && exec '{}' seal --install '{}'", p(&support::bin()), p(&settings)));
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot back up") && err.contains("the original is unchanged"), "{err}");
    assert_eq!(fs::read_to_string(&settings).unwrap(), text);
    assert_eq!(names(f.dir.path()), ["settings.json"], "a partial backup or a temp file was left");

    assert_eq!(install(&f, &settings).status.code(), Some(0));
    assert_eq!(names(f.dir.path()), ["settings.json", "settings.json.failopen-backup"]);
    assert_eq!(fs::read_to_string(f.path("settings.json.failopen-backup")).unwrap(), text);
}

/// On a full disk (a 64 KiB tmpfs in a private mount namespace) the same:
/// no backup name, no temp file; once there is room, the canonical backup.
#[test]
fn install_on_a_full_disk_leaves_no_partial_backup() {
    let f = Fixture::new();
    let src = f.path("src.json");
    fs::write(&src, big_settings()).unwrap();
    let mnt = f.path("mnt");
    fs::create_dir(&mnt).unwrap();
    let script = format!(
        r#"set -u
mount -t tmpfs -o size=64k tmpfs '{m}' || exit 77
cp '{src}' '{m}/settings.json'
'{fo}' seal --install '{m}/settings.json' >/dev/null 2>'{m}/../err1'; echo "first=$?"
echo "after-first=$(ls -A '{m}' | tr '\n' ' ')"
cmp -s '{src}' '{m}/settings.json' && echo original-kept
mount -o remount,size=512k '{m}'
'{fo}' seal --install '{m}/settings.json' >/dev/null; echo "second=$?"
echo "after-second=$(ls -A '{m}' | tr '\n' ' ')"
cmp -s '{src}' '{m}/settings.json.failopen-backup' && echo backup-complete
"#,
        m = p(&mnt),
        src = p(&src),
        fo = p(&support::bin())
    );
    let out = std::process::Command::new("unshare").args(["-rm", "/bin/sh", "-c", &script]).output();
    let out = match out {
        Ok(o) if o.status.code() != Some(77) && o.status.success() => o,
        other => {
            eprintln!("skipped: cannot mount a tmpfs in a private namespace here: {other:?}");
            return;
        }
    };
    let said = String::from_utf8_lossy(&out.stdout);
    let err1 = fs::read_to_string(f.path("err1")).unwrap_or_default();
    assert!(said.contains("first=1\n"), "{said}");
    assert!(err1.contains("cannot back up") && err1.contains("No space left"), "{err1}");
    assert!(said.contains("after-first=settings.json \n"), "nothing but the original: {said}");
    assert!(said.contains("original-kept"), "{said}");
    assert!(said.contains("second=0\n"), "{said}");
    assert!(said.contains("after-second=settings.json settings.json.failopen-backup \n"), "{said}");
    assert!(said.contains("backup-complete"), "{said}");
}
