//! `failopen seal`: run a guard so that every failure to decide becomes a refusal.
//!
//! A PreToolUse hook that crashes, is missing, or hangs lets the tool call
//! through ("fails open"). `failopen seal -- GUARD [ARGS...]` runs the guard
//! and passes its decision on untouched when it made one (exit 0 or 2, output
//! forwarded byte for byte); anything else (another exit code, a signal, a
//! failed exec, the deadline, `--expect-json` without a decision, a signal
//! to seal) becomes exit 2 with one explanatory line on stderr.
//!
//! - [`payload`]: read the hook payload from stdin, inside the deadline.
//! - [`guard_process`]: spawn the guard, feed it, collect output, enforce the deadline.
//!   ([`pipes`]: the non-blocking pipe helpers it uses).
//! - [`deadline`]: which `--deadline` values are valid.
//! - [`signals`]: SIGTERM, SIGINT and SIGHUP to seal become a refusal.
//! - [`decision`]: turn the run into a [`Verdict`] ([`answer`]: what each
//!   agent reads in a guard's answer, so that seal passes on only what the
//!   agent will honour, and what `--expect-json` accepts).
//! - [`fail_closed`]: a panic in seal mode becomes a refusal, not exit 101.
//!
//! Synchronous on purpose (one poll loop and one tiny watcher thread, no
//! async runtime): it runs before every tool call.

pub mod answer;
pub mod caller;
pub mod deadline;
pub mod decision;
pub mod fail_closed;
pub mod guard_process;
pub mod lenient;
pub mod orphans;
pub mod payload;
pub mod pipes;
#[cfg(test)]
mod property;
pub mod reading;
pub mod signals;
pub mod wait;
pub mod watchdog;

use std::io::Write;
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

pub use decision::{Refusal, Verdict};
use guard_process::GuardEnd;
use payload::PayloadRead;
use signals::SignalPipe;

/// Seal's default deadline in seconds: below the 5 s hook timeout the battery uses.
pub const DEFAULT_DEADLINE_SECS: f64 = 3.0;

/// Once the guard has exited (or been killed at the deadline), how long seal
/// keeps reading its stdout/stderr for data still in flight. Only matters
/// when something outside the guard's process group (a `setsid` orphan)
/// holds the pipes open; seal then forwards what it has and returns. Seal
/// therefore returns at most `deadline + KILL_GRACE` (plus scheduling noise)
/// after its own start.
pub const KILL_GRACE: Duration = Duration::from_millis(200);

/// What `failopen seal` was asked to do.
#[derive(Debug, Clone)]
pub struct SealOptions {
    /// How long seal may take, payload read included: measured from seal's
    /// start in [`run_from_stdio`], from the guard's spawn in [`seal`].
    pub deadline: Duration,
    /// An exit 0 must come with a JSON decision for the payload's event
    /// on stdout (see [`expect_json`]).
    pub expect_json: bool,
    /// The guard program and its arguments (run directly, no shell).
    pub argv: Vec<String>,
}

/// Run the guard on `payload` with the whole deadline, and decide. Never
/// panics on bad input; never returns a code other than 0 or 2.
pub fn seal(opts: &SealOptions, payload: &[u8]) -> Verdict {
    seal_until(opts, payload, deadline_from(Instant::now(), opts.deadline), None)
}

/// Run the guard on `payload` until `deadline_at` at the latest (or until a
/// signal arrives on `signals`), and decide.
fn seal_until(opts: &SealOptions, payload: &[u8], deadline_at: Instant, signals: Option<SignalPipe>) -> Verdict {
    if opts.argv.is_empty() {
        return decision::refuse(&opts.argv, &Refusal::NoGuard, b"");
    }
    let run = guard_process::run_guard(&opts.argv, payload, deadline_at, KILL_GRACE, signals.map(|s| s.fd()));
    if matches!(run.end, GuardEnd::Stopped) {
        let why = Refusal::SealSignalled { signal: signals.and_then(|s| s.caught_number()), reading_payload: false };
        return decision::in_callers_form(payload, decision::refuse(&opts.argv, &why, &run.stderr));
    }
    decision::in_callers_form(payload, decision::judge(&opts.argv, run, payload, opts.expect_json, opts.deadline))
}

/// The `failopen seal` command: read the hook payload from stdin, run the
/// guard, write its (or seal's) answer, and return the exit code (0 or 2).
///
/// The deadline counts from `started` (the process start): reading the
/// payload comes out of it, and the guard gets only what is left. A payload
/// without end of input by the deadline is refused. SIGTERM, SIGINT and
/// SIGHUP kill the guard's group and refuse (see [`signals`]). A panic
/// inside seal is turned into a refusal too (exit 101 would fail open).
pub fn run_from_stdio(opts: &SealOptions, started: Instant) -> i32 {
    let deadline_at = deadline_from(started, opts.deadline);
    // Orphans the guard leaves (a `setsid` or `setpgid` escapee) become
    // seal's children, and are killed before seal answers.
    let subreaper = orphans::become_subreaper().unwrap_or(false);
    let outcome = fail_closed::catch(|| {
        let verdict = match signals::install() {
            Ok(signals) => read_and_seal(opts, deadline_at, signals),
            Err(e) => decision::in_callers_form(b"", decision::refuse(&opts.argv, &Refusal::SealFailed(e), b"")),
        };
        if subreaper {
            orphans::kill_all(KILL_GRACE);
        }
        emit(&verdict);
        if verdict.code == 0 {
            if let Some(signal) = signals::caught_number() {
                // Signalled after the guard allowed, while seal was writing:
                // the instruction was to stop, so the answer is still no.
                let why = Refusal::SealSignalled { signal: Some(signal), reading_payload: false };
                emit(&decision::refuse(&opts.argv, &why, b""));
                return decision::DENY;
            }
        }
        verdict.code
    });
    outcome.unwrap_or_else(|message| {
        if subreaper {
            orphans::kill_all(KILL_GRACE);
        }
        let line = format!(
            "guard {} could not decide (seal itself failed: {}); refusing by default\n",
            decision::guard_name(&opts.argv),
            message.replace('\n', " ")
        );
        let _ = std::io::stderr().write_all(line.as_bytes());
        decision::DENY
    })
}

/// Read the payload from stdin (inside the deadline, watching for signals),
/// then run the guard on it.
fn read_and_seal(opts: &SealOptions, deadline_at: Instant, signals: SignalPipe) -> Verdict {
    let refused = match payload::read_until(std::io::stdin().as_fd(), deadline_at, Some(signals.fd())) {
        PayloadRead::Complete(payload) => return seal_until(opts, &payload, deadline_at, Some(signals)),
        PayloadRead::Late { .. } => decision::refuse(&opts.argv, &Refusal::PayloadLate(opts.deadline), b""),
        PayloadRead::Stopped => {
            let why = Refusal::SealSignalled { signal: signals.caught_number(), reading_payload: true };
            decision::refuse(&opts.argv, &why, b"")
        }
        PayloadRead::Failed(e) => decision::refuse(&opts.argv, &Refusal::PayloadUnreadable(e), b""),
        PayloadRead::TooBig => decision::refuse(&opts.argv, &Refusal::PayloadTooBig, b""),
        PayloadRead::NoMemory => decision::refuse(&opts.argv, &Refusal::NoMemory("hook payload"), b""),
    };
    // No payload to place the caller by: a refusal every agent reads.
    decision::in_callers_form(b"", refused)
}

/// `start + deadline`, or a day from `start` if that cannot be represented
/// (deadlines are validated to at most a day, so only in theory).
fn deadline_from(start: Instant, deadline: Duration) -> Instant {
    start.checked_add(deadline).or_else(|| start.checked_add(Duration::from_secs(86_400))).unwrap_or(start)
}

/// Write a verdict's bytes to seal's stdout and stderr (errors ignored: the
/// exit code is what decides).
fn emit(verdict: &Verdict) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(&verdict.stdout);
    let _ = out.flush();
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(&verdict.stderr);
    let _ = err.flush();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(argv: &[&str]) -> SealOptions {
        SealOptions {
            deadline: Duration::from_secs(5),
            expect_json: false,
            argv: argv.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn empty_argv_is_a_refusal_not_a_panic() {
        let v = seal(&opts(&[]), b"{}");
        assert_eq!(v.code, 2);
        assert_eq!(String::from_utf8_lossy(&v.stderr), "failopen seal: no guard command given; refusing by default\n");
    }

    #[test]
    fn seals_answer_is_its_own() {
        let claude = br#"{"hook_event_name":"PreToolUse","transcript_path":"/t","tool_name":"Bash"}"#;
        // The guard's exit 2 with its payload echoed on stdout: the reason passes, the stdout does not.
        let v = seal(&opts(&["/bin/sh", "-c", "cat; printf why >&2; exit 2"]), claude);
        assert_eq!((v.code, v.stdout.as_slice(), v.stderr.as_slice()), (2, &b""[..], &b"why\n"[..]));
        let v = seal(&opts(&["/bin/sh", "-c", "echo checking; exit 0"]), claude);
        assert_eq!((v.code, v.stdout.len(), v.stderr.len()), (0, 0, 0));
        let v = seal(&opts(&["/bin/sh", "-c", "exit 4"]), claude);
        assert_eq!(v.code, 2);
        assert!(String::from_utf8_lossy(&v.stderr).starts_with("guard /bin/sh -c 'exit 4' could not decide (exit 4)"));
        // A payload seal cannot place: even an allow is a refusal.
        let v = seal(&opts(&["/bin/sh", "-c", "exit 0"]), b"");
        assert_eq!(v.code, 2);
    }
}
