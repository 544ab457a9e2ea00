//! Turn what the guard did into seal's answer: pass a decision through, or refuse.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::Signal;

use super::answer;
use super::guard_process::{GuardEnd, GuardRun, OutputProblem, MAX_OUTPUT_BYTES};

/// Exit code Claude Code reads as "deny".
pub const DENY: i32 = 2;

/// At most this much of the guard's own stderr is appended to a refusal.
pub const STDERR_EXCERPT_BYTES: usize = 4096;

/// What seal hands back to Claude Code: an exit code and the bytes to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Seal's exit code (0 or 2).
    pub code: i32,
    /// Bytes for seal's stdout.
    pub stdout: Vec<u8>,
    /// Bytes for seal's stderr.
    pub stderr: Vec<u8>,
}

/// Why seal refused on the guard's behalf.
#[derive(Debug)]
pub enum Refusal {
    /// `failopen seal --` with nothing after it.
    NoGuard,
    /// Seal could not read the hook payload from its own stdin.
    PayloadUnreadable(io::Error),
    /// The payload's end of input did not come within the deadline.
    PayloadLate(Duration),
    /// The payload was larger than seal reads.
    PayloadTooBig,
    /// The guard exited with a code other than 0 or 2.
    Exit(i32),
    /// The guard was killed by a signal.
    Signal(i32),
    /// The guard could not be started.
    NotStarted(String),
    /// The guard was still running at the deadline.
    Deadline(Duration),
    /// `--expect-json`: exit 0 without a decision for the event on stdout.
    NoJson(String),
    /// The guard wrote more than [`MAX_OUTPUT_BYTES`] on one stream.
    TooMuchOutput(&'static str),
    /// Seal ran out of memory keeping the guard's output on one stream.
    NoMemory(&'static str),
    /// The guard exited 0 but something it left behind still held its
    /// stdout or stderr open at the deadline: its answer may not have
    /// arrived whole.
    PipesHeldOpen(Duration),
    /// Seal could not supervise the guard.
    SealFailed(io::Error),
    /// Seal itself got a terminating signal (`None`: it could not tell
    /// which); the guard, if it had started, was killed.
    SealSignalled {
        /// The number of the signal seal received.
        signal: Option<i32>,
        /// It came while seal was still reading the payload.
        reading_payload: bool,
    },
}

impl fmt::Display for Refusal {
    /// The cause, as it appears in the parentheses of the refusal line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoGuard => write!(f, "no guard command given"),
            Refusal::PayloadUnreadable(e) => write!(f, "seal could not read the hook payload: {e}"),
            Refusal::PayloadLate(d) => write!(f, "the hook payload did not arrive within {}s", d.as_secs_f64()),
            Refusal::PayloadTooBig => {
                write!(f, "the hook payload is larger than {} MiB", super::payload::MAX_PAYLOAD_BYTES >> 20)
            }
            Refusal::Exit(code) => write!(f, "exit {code}"),
            Refusal::Signal(sig) => match Signal::try_from(*sig) {
                Ok(s) => write!(f, "killed by {}", s.as_str()),
                Err(_) => write!(f, "killed by signal {sig}"),
            },
            Refusal::NotStarted(why) => write!(f, "did not start: {why}"),
            Refusal::Deadline(d) => write!(f, "no decision within {}s", d.as_secs_f64()),
            Refusal::NoJson(why) => write!(f, "{why}"),
            Refusal::TooMuchOutput(stream) => {
                write!(f, "wrote more than {} MiB on {stream}", MAX_OUTPUT_BYTES >> 20)
            }
            Refusal::NoMemory(what) => write!(f, "seal ran out of memory keeping its {what}"),
            Refusal::PipesHeldOpen(d) => write!(
                f,
                "exited 0, but a process it left behind still held its output open after {}s, so its answer may \
                 not have arrived whole",
                d.as_secs_f64()
            ),
            Refusal::SealFailed(e) => write!(f, "seal could not supervise it: {e}"),
            Refusal::SealSignalled { signal, reading_payload } => {
                match signal {
                    Some(s) => write!(f, "seal received {}", super::signals::name(*s))?,
                    None => write!(f, "seal was signalled")?,
                }
                if *reading_payload {
                    write!(f, " while reading the hook payload")?;
                }
                Ok(())
            }
        }
    }
}

/// Judge a finished guard run on `payload`. Exit 0 and 2 pass through byte
/// for byte, unless the agent would not read them as the guard meant (see
/// [`answer`]): an exit 0 carrying a refusal in a shape some agent rejects,
/// or (`expect_json`) no decision at all, is refused; an exit 2 gets a
/// reason where it has none, and loses a stdout Gemini CLI would misread.
/// Everything else becomes a refusal. `deadline` is only used to word a
/// timeout.
pub fn judge(
    argv: &[String],
    run: GuardRun,
    payload: &[u8],
    expect_json: bool,
    deadline: Duration,
) -> Verdict {
    let refusal = match run.end {
        _ if run.output_problem.is_some() => match run.output_problem {
            Some(OutputProblem::NoMemory(stream)) => Refusal::NoMemory(stream),
            _ => Refusal::TooMuchOutput(stream_of(run.output_problem)),
        },
        GuardEnd::Exited(status) => {
            use std::os::unix::process::ExitStatusExt;
            match (status.code(), status.signal()) {
                // An exit 2 is a refusal whatever else is still running.
                (Some(0), _) if run.held_open => Refusal::PipesHeldOpen(deadline),
                (Some(0), _) => match answer::exit0(payload, &run.stdout, expect_json) {
                    None => return pass(0, run),
                    Some(problem) => Refusal::NoJson(problem.why),
                },
                (Some(2), _) => return pass_refusal(argv, run, payload),
                (Some(code), _) => Refusal::Exit(code),
                (None, Some(sig)) => Refusal::Signal(sig),
                (None, None) => Refusal::Exit(-1),
            }
        }
        GuardEnd::TimedOut => Refusal::Deadline(deadline),
        GuardEnd::NotStarted(ref e) => {
            Refusal::NotStarted(describe_spawn_error(argv.first().map(String::as_str), e))
        }
        GuardEnd::SealFailed(e) => Refusal::SealFailed(e),
        GuardEnd::Stopped => Refusal::SealSignalled {
            signal: None,
            reading_payload: false,
        },
    };
    refuse(argv, &refusal, &run.stderr)
}

fn stream_of(problem: Option<OutputProblem>) -> &'static str {
    match problem {
        Some(OutputProblem::TooMuch(s) | OutputProblem::NoMemory(s)) => s,
        None => "stdout",
    }
}

fn pass(code: i32, run: GuardRun) -> Verdict {
    Verdict {
        code,
        stdout: run.stdout,
        stderr: run.stderr,
    }
}

/// Pass the guard's exit 2 on, with a reason on stderr: Codex CLI and
/// Gemini CLI honour an exit 2 only when stderr holds a reason once trimmed
/// as Unicode whitespace (Codex 0.149.0 and 0.171.0 run the call after a
/// silent exit 2, or one whose "reason" is a vertical tab: docs/codex.md),
/// so a guard that refuses without a word (or with its reason on stdout)
/// gets seal's line naming it. Where Gemini CLI may be the agent, a stdout
/// that is not a Gemini deny is dropped: Gemini reads a hook's JSON whatever
/// the exit code, and finds no deny in a log line or Claude Code's shape.
/// Claude Code blocks on exit 2 either way; a guard's own reason passes
/// byte for byte.
fn pass_refusal(argv: &[String], mut run: GuardRun, payload: &[u8]) -> Verdict {
    let fix = answer::exit2(payload, &run.stdout, &run.stderr);
    if fix.drop_stdout {
        run.stdout.clear();
    }
    if fix.needs_reason {
        let mut line = format!(
            "guard {} refused (exit 2) without giving a reason on stderr\n",
            guard_name(argv)
        )
        .into_bytes();
        if !String::from_utf8_lossy(&run.stderr).trim().is_empty() {
            line.extend_from_slice(&run.stderr);
        }
        run.stderr = line;
    }
    pass(DENY, run)
}

/// On the payload of an agent that reads a refusal on stdout, a refusal
/// (exit 2) carries that too ([`answer::Host::refusal_on_stdout`]): Cline
/// CLI reads no exit code, only `{"cancel": true}` ([`answer::cline`]);
/// Copilot CLI before 1.0.70 ran the call after an exit 2 but refused on a
/// top-level `permissionDecision: "deny"` printed with it ([`answer::copilot`]).
/// The guard's own worded refusal in that shape passes as it is; anything
/// else on stdout is replaced by one whose reason is the first line of stderr.
pub fn refusal_on_stdout(payload: &[u8], mut verdict: Verdict) -> Verdict {
    let payload: serde_json::Value = serde_json::from_slice(payload).unwrap_or_default();
    let hosts = answer::host::hosts(&payload);
    let [host] = hosts.as_slice() else {
        return verdict;
    };
    if verdict.code != DENY {
        return verdict;
    }
    let stderr = String::from_utf8_lossy(&verdict.stderr);
    let reason = stderr
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("failopen seal: refused");
    if let Some(stdout) =
        host.refusal_on_stdout(answer::parse(&verdict.stdout).ok().as_ref(), reason)
    {
        verdict.stdout = stdout;
    }
    verdict
}

/// Build the refusal: one line naming the guard and the cause, then an
/// excerpt of the guard's own stderr.
pub fn refuse(argv: &[String], why: &Refusal, guard_stderr: &[u8]) -> Verdict {
    let mut line = match why {
        Refusal::NoGuard => format!("failopen seal: {why}; refusing by default\n"),
        Refusal::NoJson(_) => format!("guard {} {why}; refusing by default\n", guard_name(argv)),
        _ => format!(
            "guard {} could not decide ({why}); refusing by default\n",
            guard_name(argv)
        ),
    }
    .into_bytes();
    let excerpt = &guard_stderr[..guard_stderr.len().min(STDERR_EXCERPT_BYTES)];
    line.extend_from_slice(excerpt);
    if guard_stderr.len() > excerpt.len() {
        let cut = guard_stderr.len() - excerpt.len();
        line.extend_from_slice(
            format!("\n[... {cut} more bytes of guard stderr cut]\n").as_bytes(),
        );
    } else if !excerpt.is_empty() && !excerpt.ends_with(b"\n") {
        line.push(b'\n');
    }
    Verdict {
        code: DENY,
        stdout: Vec::new(),
        stderr: line,
    }
}

/// The guard command as a short, shell-like string (quoted where needed).
pub fn guard_name(argv: &[String]) -> String {
    const MAX: usize = 300;
    let mut name = argv
        .iter()
        .map(|a| shell_quote(a))
        .collect::<Vec<_>>()
        .join(" ");
    if name.len() > MAX {
        let mut cut = MAX;
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        name.truncate(cut);
        name.push_str("...");
    }
    name
}

/// Quote `s` for a POSIX shell if it needs it (single quotes, `'\''` for `'`).
pub fn shell_quote(s: &str) -> String {
    let plain = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Explain a failed exec, telling a missing file apart from a missing `#!` interpreter.
fn describe_spawn_error(program: Option<&str>, e: &io::Error) -> String {
    let desc = match e.raw_os_error() {
        Some(code) => Errno::from_raw(code).desc().to_string(),
        None => e.to_string(),
    };
    if e.raw_os_error() != Some(Errno::ENOENT as i32) {
        return desc;
    }
    let Some(file) = program.and_then(resolve_program) else {
        return desc;
    };
    match shebang_interpreter(&file) {
        Some(interp) if interp.ends_with('\r') => {
            format!("{desc}: its #! line ends in a carriage return (CRLF line endings?)")
        }
        Some(interp) => format!("{desc}: its #! interpreter {interp} is missing"),
        None => format!(
            "{desc}: {} exists, so its interpreter or loader is missing",
            file.display()
        ),
    }
}

/// The file exec would have run: `program` itself if it has a slash, else
/// the first match on `$PATH`. `None` if there is no such file.
fn resolve_program(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = Path::new(program);
        return p.is_file().then(|| p.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// The interpreter named on the `#!` line of `file`, if it has one (with a
/// trailing `\r` kept, so CRLF scripts can be told apart).
fn shebang_interpreter(file: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(file).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = String::from_utf8_lossy(line);
    let interp = line
        .trim_start_matches([' ', '\t'])
        .split([' ', '\t'])
        .next()
        .filter(|s| !s.is_empty())?;
    Some(interp.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    /// Cline CLI reads only a cancel: every refusal on its payload carries one.
    #[test]
    fn a_refusal_on_a_cline_payload_is_a_cancel_too() {
        let cline = br#"{"hookName":"tool_call","tool_call":{"id":"c"},"preToolUse":{"toolName":"run_commands"}}"#;
        let refused = refuse(&argv(&["/g/crash.sh"]), &Refusal::Exit(1), b"boom");
        let v = refusal_on_stdout(cline, refused.clone());
        assert_eq!(v.code, DENY);
        let answer: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(answer["cancel"], true);
        assert!(
            answer["errorMessage"]
                .as_str()
                .unwrap()
                .contains("could not decide (exit 1)"),
            "{answer}"
        );
        // Other agents' payloads, and an allow, are left alone.
        assert_eq!(
            refusal_on_stdout(br#"{"hook_event_name":"PreToolUse"}"#, refused.clone()),
            refused
        );
        let allow = Verdict {
            code: 0,
            stdout: b"{}".to_vec(),
            stderr: Vec::new(),
        };
        assert_eq!(refusal_on_stdout(cline, allow.clone()), allow);
        // The guard's own worded cancel passes as it is.
        let own = Verdict {
            code: DENY,
            stdout: br#"{"cancel":true,"errorMessage":"mine"}"#.to_vec(),
            stderr: Vec::new(),
        };
        assert_eq!(refusal_on_stdout(cline, own.clone()), own);
    }

    /// Copilot CLI 1.0.55 to 1.0.69 ran the call after an exit 2 and refused
    /// on a top-level deny printed with it: every refusal on its payload
    /// carries one (`sealed` arms wrote on 1.0.69 without it).
    #[test]
    fn a_refusal_on_a_copilot_payload_carries_its_json_deny() {
        // As 1.0.69 sends it: toolArgs a JSON string, not an object.
        let copilot =
            br#"{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#;
        let refused = refuse(
            &argv(&["/g/hang.sh"]),
            &Refusal::Deadline(Duration::from_secs(3)),
            b"",
        );
        let v = refusal_on_stdout(copilot, refused.clone());
        assert_eq!((v.code, &v.stderr), (DENY, &refused.stderr));
        let answer: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(answer["permissionDecision"], "deny");
        assert!(
            answer["permissionDecisionReason"]
                .as_str()
                .unwrap()
                .contains("no decision within 3s"),
            "{answer}"
        );
        // A guard's own exit 2 with a log line on stdout: replaced by the deny, worded with its stderr.
        let own = Verdict {
            code: DENY,
            stdout: b"checking...\n".to_vec(),
            stderr: b"no writes here\n".to_vec(),
        };
        let answer: serde_json::Value =
            serde_json::from_slice(&refusal_on_stdout(copilot, own).stdout).unwrap();
        assert_eq!(answer["permissionDecisionReason"], "no writes here");
        // Its own worded deny passes as it is; an allow is left alone.
        let worded = Verdict {
            code: DENY,
            stdout: br#"{"permissionDecision":"deny","permissionDecisionReason":"mine"}"#.to_vec(),
            stderr: Vec::new(),
        };
        assert_eq!(refusal_on_stdout(copilot, worded.clone()), worded);
        let allow = Verdict {
            code: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
        };
        assert_eq!(refusal_on_stdout(copilot, allow.clone()), allow);
    }

    #[test]
    fn causes_read_as_specified() {
        assert_eq!(Refusal::Exit(1).to_string(), "exit 1");
        assert_eq!(Refusal::Signal(11).to_string(), "killed by SIGSEGV");
        assert_eq!(
            Refusal::Deadline(Duration::from_secs(3)).to_string(),
            "no decision within 3s"
        );
        assert_eq!(
            Refusal::Deadline(Duration::from_millis(500)).to_string(),
            "no decision within 0.5s"
        );
        assert_eq!(
            Refusal::PayloadLate(Duration::from_millis(500)).to_string(),
            "the hook payload did not arrive within 0.5s"
        );
        let term = Refusal::SealSignalled {
            signal: Some(nix::libc::SIGTERM),
            reading_payload: false,
        };
        assert_eq!(term.to_string(), "seal received SIGTERM");
        let hup = Refusal::SealSignalled {
            signal: Some(nix::libc::SIGHUP),
            reading_payload: true,
        };
        assert_eq!(
            hup.to_string(),
            "seal received SIGHUP while reading the hook payload"
        );
    }

    #[test]
    fn a_silent_exit_2_gets_a_reason_and_a_given_one_passes_unchanged() {
        let run = |stderr: &[u8]| GuardRun {
            end: GuardEnd::Exited(std::os::unix::process::ExitStatusExt::from_raw(2 << 8)),
            stdout: b"reason on stdout".to_vec(),
            stderr: stderr.to_vec(),
            pipes_left_open: false,
            held_open: false,
            output_problem: None,
        };
        let v = judge(
            &argv(&["/g/stdout-deny.sh"]),
            run(b" \n"),
            b"{}",
            false,
            Duration::from_secs(3),
        );
        assert_eq!(v.code, 2);
        assert_eq!(
            v.stderr,
            b"guard /g/stdout-deny.sh refused (exit 2) without giving a reason on stderr\n"
        );
        assert_eq!(v.stdout, b"reason on stdout");
        let v = judge(
            &argv(&["/g/deny.sh"]),
            run(b"no writes\n"),
            b"{}",
            false,
            Duration::from_secs(3),
        );
        assert_eq!(
            (v.code, v.stderr.as_slice()),
            (2, b"no writes\n".as_slice())
        );
    }

    #[test]
    fn refusal_line_then_stderr_excerpt() {
        let v = refuse(&argv(&["/x/y.sh"]), &Refusal::Exit(1), b"boom");
        assert_eq!(v.code, 2);
        assert_eq!(
            v.stderr,
            b"guard /x/y.sh could not decide (exit 1); refusing by default\nboom\n"
        );
        let big = vec![b'e'; STDERR_EXCERPT_BYTES + 10];
        let v = refuse(&argv(&["/x"]), &Refusal::Exit(1), &big);
        assert!(String::from_utf8_lossy(&v.stderr)
            .ends_with("[... 10 more bytes of guard stderr cut]\n"));
    }

    #[test]
    fn names_are_quoted() {
        assert_eq!(
            guard_name(&argv(&["/bin/sh", "-c", "a 'b'"])),
            r"/bin/sh -c 'a '\''b'\'''"
        );
        assert_eq!(shell_quote(""), "''");
    }

    #[test]
    fn missing_interpreters_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let enoent = io::Error::from_raw_os_error(Errno::ENOENT as i32);
        let script = |name: &str, text: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            p.to_str().unwrap().to_string()
        };
        let bad = script("bad", "#! /nope/interp -x\nexit 0\n");
        assert_eq!(
            describe_spawn_error(Some(&bad), &enoent),
            "No such file or directory: its #! interpreter /nope/interp is missing"
        );
        let crlf = script("crlf", "#!/bin/sh\r\nexit 0\r\n");
        assert!(describe_spawn_error(Some(&crlf), &enoent).contains("carriage return"));
        let gone = dir.path().join("gone").to_str().unwrap().to_string();
        assert_eq!(
            describe_spawn_error(Some(&gone), &enoent),
            "No such file or directory"
        );
        let eacces = io::Error::from_raw_os_error(Errno::EACCES as i32);
        assert_eq!(
            describe_spawn_error(Some(&bad), &eacces),
            "Permission denied"
        );
    }
}
