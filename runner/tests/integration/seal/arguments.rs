//! Bad deadlines, help, version and argument errors: exit 2, in seal mode and elsewhere.

use super::*;

#[test]
fn bad_deadlines_are_refused_even_when_the_guard_would_deny() {
    let f = Fixture::new();
    // `inf` used to panic (exit 101) and turn this deny into an allow.
    for value in ["inf", "-inf", "NaN", "0", "-1", "86401", "1e20"] {
        let (out, _) = f.seal(&["--deadline", value, "--", "/bin/sh", "-c", "exit 2"], PAYLOAD);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--deadline {value}: {err}");
        let line = err.lines().next().unwrap_or("");
        assert!(
            line.contains(&format!("'{value}'")) && line.contains("greater than 0 and at most 86400"),
            "--deadline {value}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // The limit itself is accepted.
    let (out, _) = f.seal(&["--deadline", "86400", "--", "/bin/sh", "-c", "exit 0"], PAYLOAD);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Run the binary with exactly `args` (no `seal` prepended).
fn failopen(args: &[&str]) -> Output {
    support::failopen().args(args).write_stdin(PAYLOAD).timeout(Duration::from_secs(60)).output().unwrap()
}

#[test]
fn help_and_version_exit_2_in_seal_mode() {
    // Exit 0 would be an allow: printing help is not a decision.
    for args in [
        vec!["seal", "-h"],
        vec!["seal", "--help"],
        vec!["seal", "--version"],
        vec!["seal", "-V"],
        vec!["--version", "seal", "--", "/bin/true"],
        vec!["--help", "seal"],
        vec!["help", "seal"],
        vec!["seal", "--deadline", "3", "--help", "--", "/bin/true"],
    ] {
        let out = failopen(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty(), "{args:?} still prints what it prints");
    }
    let help = String::from_utf8_lossy(&failopen(&["seal", "--help"]).stdout).into_owned();
    assert!(help.contains("--help and --version also exit 2, on purpose"), "{help}");
    assert!(help.contains("Never put `failopen seal --install` in a hook command"), "{help}");
    assert!(
        help.contains("the hook payload at most 64 MiB, the guard's stdout and stderr at most 64 MiB each"),
        "{help}"
    );
    assert!(String::from_utf8_lossy(&failopen(&["seal", "--version"]).stdout).contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn unknown_flags_and_missing_guards_are_argument_errors_exit_2() {
    for (args, says) in [
        (vec!["seal", "--bogus", "--", "/bin/true"], "unexpected argument '--bogus'"),
        (vec!["seal", "--bogus"], "unexpected argument '--bogus'"),
        (vec!["seal"], "required arguments were not provided"),
        (vec!["seal", "--deadline"], "a value is required for '--deadline"),
        (vec!["seal", "--expect-json"], "required arguments were not provided"),
    ] {
        let out = failopen(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Dashes after the guard still belong to the guard.
    let out = failopen(&["seal", "/bin/sh", "-c", "[ \"$1\" = --bogus ] && exit 2", "sh", "--bogus"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    // The guard's own (silent) deny, which seal gives a reason for Codex's sake: not an argument error.
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.ends_with("refused (exit 2) without giving a reason on stderr\n"), "the guard's own deny: {err}");
}

#[test]
fn other_subcommands_answer_help_with_0_and_bad_arguments_with_2() {
    assert_eq!(failopen(&["--version"]).status.code(), Some(0));
    assert_eq!(failopen(&["--help"]).status.code(), Some(0));
    // A command line that does not parse exits 2, as clap's own do.
    assert_eq!(failopen(&["report", "--bogus"]).status.code(), Some(2));
}

/// A hook command that mistypes `failopen seal` runs no guard; it used to
/// exit 1, which every agent reads as "no objection". It blocks now, the way
/// Claude Code runs it (through a shell, the payload on stdin).
#[test]
fn a_mistyped_seal_in_a_hook_blocks() {
    let bin = support::bin();
    for command in [
        format!("{} sael -- /bin/true", bin.display()),
        format!("{} -- seal -- /bin/true", bin.display()),
        format!("{} seal- -- /bin/true", bin.display()),
        format!("{}", bin.display()),
    ] {
        let out = Command::new("/bin/sh").arg("-c").arg(&command).write_stdin(PAYLOAD).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}: {}", String::from_utf8_lossy(&out.stderr));
    }
}
