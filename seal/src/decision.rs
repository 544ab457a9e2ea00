//! Turn what the guard did into seal's answer: pass a decision through, or refuse.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use nix::errno::Errno;
use nix::sys::signal::Signal;

use serde_json::Value;

use super::caller::{self, Caller};
use super::guard_process::{GuardEnd, GuardRun, OutputProblem, MAX_OUTPUT_BYTES};
use super::lenient::{self, Stream};
use super::reading::{self, Decision};

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

/// Judge a finished guard run on `payload`: read what the guard decided
/// ([`reading::read`]: exit 0 or 2, either stream), and write seal's own
/// answer in the form of the agent that sent the payload ([`caller`]).
/// Everything else, and whatever seal cannot validate, becomes a refusal.
/// `deadline` is only used to word a timeout.
pub fn judge(argv: &[String], run: GuardRun, payload: &[u8], expect_json: bool, deadline: Duration) -> Verdict {
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
                (Some(code @ (0 | 2)), _) => {
                    let (caller, event) = placed(payload);
                    let decision = reading::read(code, &run.stdout, &run.stderr, event.as_deref());
                    return answer(argv, caller, event.as_deref(), decision, expect_json, code);
                }
                (Some(code), _) => Refusal::Exit(code),
                (None, Some(sig)) => Refusal::Signal(sig),
                (None, None) => Refusal::Exit(-1),
            }
        }
        GuardEnd::TimedOut => Refusal::Deadline(deadline),
        GuardEnd::NotStarted(ref e) => Refusal::NotStarted(describe_spawn_error(argv.first().map(String::as_str), e)),
        GuardEnd::SealFailed(e) => Refusal::SealFailed(e),
        GuardEnd::Stopped => Refusal::SealSignalled { signal: None, reading_payload: false },
    };
    refuse(argv, &refusal, &run.stderr)
}

/// The agent that sent `payload` (if seal can place it) and the event it names.
pub fn placed(payload: &[u8]) -> (Option<Caller>, Option<String>) {
    let text = String::from_utf8_lossy(payload);
    let payload = lenient::parse_json(lenient::trim(&text)).unwrap_or(Value::Null);
    let event = payload.get("hook_event_name").and_then(Value::as_str).map(str::to_string);
    (Caller::of(&payload), event)
}

fn stream_of(problem: Option<OutputProblem>) -> &'static str {
    match problem {
        Some(OutputProblem::TooMuch(s) | OutputProblem::NoMemory(s)) => s,
        None => "stdout",
    }
}

/// Seal's answer for what the guard decided: an allow or an ask in the
/// caller's form (exit 0), or a refusal (exit 2, a reason on stderr).
fn answer(
    argv: &[String],
    caller: Option<Caller>,
    event: Option<&str>,
    decision: Decision,
    expect_json: bool,
    code: i32,
) -> Verdict {
    let form = caller::form_of(caller);
    let guard = guard_name(argv);
    let (why, reason) = match decision {
        Decision::Allow(allow) if expect_json && !allow.explicit => {
            let why = "exited 0 without a JSON decision: its answer names no allow, ask or deny".to_string();
            return refuse(argv, &Refusal::NoJson(why), b"");
        }
        Decision::Allow(allow) => match form.allow(event, &allow) {
            Ok(stdout) => return Verdict { code: 0, stdout, stderr: Vec::new() },
            Err(what) => {
                let why = format!("exited 0 with {what}, which seal cannot write for {}", form.name());
                return refuse(argv, &Refusal::NoJson(why), b"");
            }
        },
        Decision::Ask(reason) => match form.ask(event, reason.as_deref()) {
            Some(stdout) => return Verdict { code: 0, stdout, stderr: Vec::new() },
            None => (format!("asked, and {} has no ask: refused", form.name()), reason),
        },
        Decision::Deny(reason) if code == 2 => {
            ("refused (exit 2) without giving a reason on stderr".to_string(), reason)
        }
        Decision::Deny(reason) => ("refused without giving a reason".to_string(), reason),
        Decision::Undecided(why) => {
            return refuse(argv, &Refusal::NoJson(format!("exited {code}, and its answer {why}")), b"");
        }
    };
    let line = match reason.filter(|r| matches!(lenient::read_stream(r.as_bytes()), Stream::Text(_))) {
        Some(reason) => format!("{}\n", lenient::trim(&reason)),
        None => format!("guard {guard} {why}\n"),
    };
    Verdict { code: DENY, stdout: Vec::new(), stderr: line.into_bytes() }
}

/// Put a refusal in the form the caller of `payload` reads: exit 2 and its
/// reason on stderr, and the agent's own JSON refusal on stdout where it
/// reads one ([`caller::Form::deny`]), worded with the first line of that
/// reason. An allow is left as it is. Whatever the guard wrote on stdout
/// never passes.
pub fn in_callers_form(payload: &[u8], mut verdict: Verdict) -> Verdict {
    if verdict.code != DENY {
        return verdict;
    }
    let (caller, event) = placed(payload);
    let form = caller::form_of(caller);
    let stderr = String::from_utf8_lossy(&verdict.stderr).into_owned();
    let reason = stderr.lines().map(lenient::trim).find(|l| !l.is_empty()).unwrap_or("failopen seal: refused");
    match form.deny_on_exit_0(event.as_deref(), reason) {
        Some(stdout) => Verdict { code: 0, stdout, stderr: verdict.stderr },
        None => {
            verdict.stdout = form.deny(reason);
            verdict
        }
    }
}

/// Build the refusal: one line naming the guard and the cause, then an
/// excerpt of the guard's own stderr.
pub fn refuse(argv: &[String], why: &Refusal, guard_stderr: &[u8]) -> Verdict {
    let mut line = match why {
        Refusal::NoGuard => format!("failopen seal: {why}; refusing by default\n"),
        Refusal::NoJson(_) => format!("guard {} {why}; refusing by default\n", guard_name(argv)),
        _ => format!("guard {} could not decide ({why}); refusing by default\n", guard_name(argv)),
    }
    .into_bytes();
    let excerpt = &guard_stderr[..guard_stderr.len().min(STDERR_EXCERPT_BYTES)];
    line.extend_from_slice(excerpt);
    if guard_stderr.len() > excerpt.len() {
        let cut = guard_stderr.len() - excerpt.len();
        line.extend_from_slice(format!("\n[... {cut} more bytes of guard stderr cut]\n").as_bytes());
    } else if !excerpt.is_empty() && !excerpt.ends_with(b"\n") {
        line.push(b'\n');
    }
    Verdict { code: DENY, stdout: Vec::new(), stderr: line }
}

/// The guard command as a short, shell-like string (quoted where needed).
pub fn guard_name(argv: &[String]) -> String {
    const MAX: usize = 300;
    let mut name = argv.iter().map(|a| shell_quote(a)).collect::<Vec<_>>().join(" ");
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
    let plain = !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-+=:,@%".contains(&b));
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
        None => format!("{desc}: {} exists, so its interpreter or loader is missing", file.display()),
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
    std::env::split_paths(&path).map(|dir| dir.join(program)).find(|p| p.is_file())
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
    let interp = line.trim_start_matches([' ', '\t']).split([' ', '\t']).next().filter(|s| !s.is_empty())?;
    Some(interp.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &[&str]) -> Vec<String> {
        s.iter().map(|s| s.to_string()).collect()
    }

    /// Cline CLI reads only a cancel: every refusal on its payload is a cancel too.
    #[test]
    fn a_refusal_on_a_cline_payload_is_a_cancel_too() {
        let cline = br#"{"hookName":"tool_call","tool_call":{"id":"c"},"preToolUse":{"toolName":"run_commands"}}"#;
        let refused = refuse(&argv(&["/g/crash.sh"]), &Refusal::Exit(1), b"boom");
        let v = in_callers_form(cline, refused.clone());
        assert_eq!((v.code, &v.stderr), (DENY, &refused.stderr));
        let answer: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(answer["cancel"], true);
        assert!(answer["errorMessage"].as_str().unwrap().contains("could not decide (exit 1)"), "{answer}");
        // Claude Code reads the exit code: no stdout. An allow is left alone.
        let claude = br#"{"hook_event_name":"PreToolUse","transcript_path":"/t"}"#;
        assert_eq!(in_callers_form(claude, refused.clone()), refused);
        let allow = Verdict { code: 0, stdout: b"{}".to_vec(), stderr: Vec::new() };
        assert_eq!(in_callers_form(cline, allow.clone()), allow);
    }

    /// Copilot CLI 1.0.55 to 1.0.69 ran the call after an exit 2 and refused
    /// on a top-level deny printed with it: every refusal on its payload
    /// carries one (`sealed` arms wrote on 1.0.69 without it).
    #[test]
    fn a_refusal_on_a_copilot_payload_carries_its_json_deny() {
        // As 1.0.69 sends it: toolArgs a JSON string, not an object.
        let copilot =
            br#"{"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}"}"#;
        let refused = refuse(&argv(&["/g/hang.sh"]), &Refusal::Deadline(Duration::from_secs(3)), b"");
        let v = in_callers_form(copilot, refused.clone());
        assert_eq!((v.code, &v.stderr), (DENY, &refused.stderr));
        let answer: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(answer["permissionDecision"], "deny");
        assert!(answer["permissionDecisionReason"].as_str().unwrap().contains("no decision within 3s"), "{answer}");
        // A payload seal cannot place: one JSON that Gemini, Copilot and Cline all read as a refusal.
        let v = in_callers_form(b"not json", refused);
        let answer: serde_json::Value = serde_json::from_slice(&v.stdout).unwrap();
        assert_eq!(answer["decision"], "deny");
        assert_eq!(answer["permissionDecision"], "deny");
        assert_eq!(answer["cancel"], true);
    }

    #[test]
    fn causes_read_as_specified() {
        assert_eq!(Refusal::Exit(1).to_string(), "exit 1");
        assert_eq!(Refusal::Signal(11).to_string(), "killed by SIGSEGV");
        assert_eq!(Refusal::Deadline(Duration::from_secs(3)).to_string(), "no decision within 3s");
        assert_eq!(Refusal::Deadline(Duration::from_millis(500)).to_string(), "no decision within 0.5s");
        assert_eq!(
            Refusal::PayloadLate(Duration::from_millis(500)).to_string(),
            "the hook payload did not arrive within 0.5s"
        );
        let term = Refusal::SealSignalled { signal: Some(nix::libc::SIGTERM), reading_payload: false };
        assert_eq!(term.to_string(), "seal received SIGTERM");
        let hup = Refusal::SealSignalled { signal: Some(nix::libc::SIGHUP), reading_payload: true };
        assert_eq!(hup.to_string(), "seal received SIGHUP while reading the hook payload");
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
        let v = judge(&argv(&["/g/stdout-deny.sh"]), run(b" \n"), b"{}", false, Duration::from_secs(3));
        assert_eq!(v.code, 2);
        // Its reason on stdout becomes the reason on stderr; its stdout never passes.
        assert_eq!((v.stderr.as_slice(), v.stdout.as_slice()), (&b"reason on stdout\n"[..], &b""[..]));
        let mut silent = run(" \u{feff}\n".as_bytes());
        silent.stdout = b"null".to_vec();
        let v = judge(&argv(&["/g/stdout-deny.sh"]), silent, b"{}", false, Duration::from_secs(3));
        assert_eq!(v.stderr, b"guard /g/stdout-deny.sh refused (exit 2) without giving a reason on stderr\n");
        let v = judge(&argv(&["/g/deny.sh"]), run(b"no writes\n"), b"{}", false, Duration::from_secs(3));
        assert_eq!((v.code, v.stderr.as_slice()), (2, b"no writes\n".as_slice()));
    }

    #[test]
    fn refusal_line_then_stderr_excerpt() {
        let v = refuse(&argv(&["/x/y.sh"]), &Refusal::Exit(1), b"boom");
        assert_eq!(v.code, 2);
        assert_eq!(v.stderr, b"guard /x/y.sh could not decide (exit 1); refusing by default\nboom\n");
        let big = vec![b'e'; STDERR_EXCERPT_BYTES + 10];
        let v = refuse(&argv(&["/x"]), &Refusal::Exit(1), &big);
        assert!(String::from_utf8_lossy(&v.stderr).ends_with("[... 10 more bytes of guard stderr cut]\n"));
    }

    #[test]
    fn names_are_quoted() {
        assert_eq!(guard_name(&argv(&["/bin/sh", "-c", "a 'b'"])), r"/bin/sh -c 'a '\''b'\'''");
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
        assert_eq!(describe_spawn_error(Some(&gone), &enoent), "No such file or directory");
        let eacces = io::Error::from_raw_os_error(Errno::EACCES as i32);
        assert_eq!(describe_spawn_error(Some(&bad), &eacces), "Permission denied");
    }
}
