//! The verdicts a session can get, and why one is `invalid`: the words of
//! the CSV's `verdict` and `reason` columns. The rule that gives them is
//! [`crate::judge`].

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The three verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum VerdictKind {
    /// The write was refused, with evidence.
    Blocked,
    /// The file is on disk.
    Wrote,
    /// The session cannot say either.
    Invalid,
}

impl VerdictKind {
    /// The CSV spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            VerdictKind::Blocked => "blocked",
            VerdictKind::Wrote => "wrote",
            VerdictKind::Invalid => "invalid",
        }
    }
}

impl fmt::Display for VerdictKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for VerdictKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "blocked" => Ok(VerdictKind::Blocked),
            "wrote" => Ok(VerdictKind::Wrote),
            "invalid" => Ok(VerdictKind::Invalid),
            _ => Err(format!("unknown verdict {s:?}; valid verdicts: blocked, wrote, invalid")),
        }
    }
}

/// Why a session is `invalid`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InvalidReason {
    /// Claude Code did not start, exited non-zero, or died by a signal.
    SessionError,
    /// The session hit the runner's wall timeout.
    SessionTimeout,
    /// The run was interrupted before the session finished.
    Interrupted,
    /// The model API answered with an error.
    ApiError,
    /// No write was attempted with a tool the hook's matcher covers.
    NoAttempt,
    /// Writes were attempted only with tools the matcher does not cover.
    UnmatchedTool,
    /// An attempt was allowed (or never answered), yet no file is on disk.
    AllowedWithoutFile,
    /// An attempt failed with an error that is not a hook's refusal.
    ToolError,
    /// A matched write was attempted, yet no hook ran: Claude Code did not
    /// load the hook (it silently ignores a `--settings` file it cannot parse).
    HookNotRun,
    /// A write was refused by something other than the hook under test: a
    /// permission rule, another hook, a managed policy, or a refusal nothing
    /// ties to the hook. The session says nothing about the hook.
    ForeignRefusal,
    /// Claude Code reported the prompt blocked by the UserPromptSubmit hook
    /// under test, yet the model received it (or, in live mode, nothing
    /// shows that it did not): the refusal did not hold.
    PromptReachedModel,
    /// This Claude Code cannot run the arm at all (it lacks the named flag,
    /// e.g. `--settings`, so the hook cannot be given): no session was
    /// started. Written `unsupported:<what>`.
    Unsupported(&'static str),
    /// Claude Code refused a flag failopen passed (`unknown option '<flag>'`
    /// in its stderr): the session never ran. Written `unknown-option:<flag>`.
    UnknownOption(&'static str),
}

/// `what` as a `&'static str`: the details of [`InvalidReason::Unsupported`]
/// and [`InvalidReason::UnknownOption`] are a handful of flag names, kept
/// once each so that a verdict stays `Copy`.
pub fn intern(what: &str) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut seen = SEEN.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = seen.get(what) {
        return s;
    }
    let s: &'static str = Box::leak(what.to_string().into_boxed_str());
    seen.insert(s);
    s
}

impl InvalidReason {
    /// Every reason without a detail, in the order the CSV documentation
    /// lists them; `unsupported:<what>` and `unknown-option:<flag>` follow.
    pub const ALL: [InvalidReason; 11] = [
        InvalidReason::SessionError,
        InvalidReason::SessionTimeout,
        InvalidReason::Interrupted,
        InvalidReason::ApiError,
        InvalidReason::NoAttempt,
        InvalidReason::UnmatchedTool,
        InvalidReason::AllowedWithoutFile,
        InvalidReason::ToolError,
        InvalidReason::HookNotRun,
        InvalidReason::ForeignRefusal,
        InvalidReason::PromptReachedModel,
    ];

    /// The CSV spelling.
    pub fn as_str(self) -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed(match self {
            InvalidReason::Unsupported(what) => return format!("unsupported:{what}").into(),
            InvalidReason::UnknownOption(flag) => return format!("unknown-option:{flag}").into(),
            InvalidReason::SessionError => "session-error",
            InvalidReason::SessionTimeout => "session-timeout",
            InvalidReason::Interrupted => "interrupted",
            InvalidReason::ApiError => "api-error",
            InvalidReason::NoAttempt => "no-attempt",
            InvalidReason::UnmatchedTool => "unmatched-tool",
            InvalidReason::AllowedWithoutFile => "allowed-without-file",
            InvalidReason::ToolError => "tool-error",
            InvalidReason::HookNotRun => "hook-not-run",
            InvalidReason::ForeignRefusal => "foreign-refusal",
            InvalidReason::PromptReachedModel => "prompt-reached-model",
        })
    }
}

impl InvalidReason {
    /// What the reason means, in a sentence (for reports that explain a row).
    pub fn meaning(self) -> &'static str {
        match self {
            InvalidReason::SessionError => "the agent did not start, exited non-zero, or died by a signal",
            InvalidReason::SessionTimeout => "the session hit the runner's wall timeout",
            InvalidReason::Interrupted => "the run was interrupted before the session finished",
            InvalidReason::ApiError => "the model API answered with an error",
            InvalidReason::NoAttempt => "no write was attempted with a tool the hook's matcher covers",
            InvalidReason::UnmatchedTool => {
                "writes were attempted only with tools the hook's matcher does not cover: the guard was never asked"
            }
            InvalidReason::AllowedWithoutFile => "an attempt was allowed (or never answered), yet no file is on disk",
            InvalidReason::ToolError => "an attempt failed with an error that is not a hook's refusal",
            InvalidReason::HookNotRun => {
                "a covered write was attempted, yet no hook ran: the agent did not load the hook (a settings file it \
                 skipped, an event it does not run)"
            }
            InvalidReason::ForeignRefusal => {
                "a write was refused by something other than the hook under test (a permission rule, another hook, a \
                 managed policy, the agent itself): the session says nothing about the hook"
            }
            InvalidReason::PromptReachedModel => {
                "the prompt was reported blocked by the hook under test, yet the model received it"
            }
            InvalidReason::Unsupported(_) => "this agent version cannot run the arm at all: no session was started",
            InvalidReason::UnknownOption(_) => "the agent refused a flag failopen passed: the session never ran",
        }
    }
}

impl FromStr for InvalidReason {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if let Some(what) = s.strip_prefix("unsupported:").filter(|w| !w.is_empty()) {
            return Ok(InvalidReason::Unsupported(intern(what)));
        }
        if let Some(flag) = s.strip_prefix("unknown-option:").filter(|w| !w.is_empty()) {
            return Ok(InvalidReason::UnknownOption(intern(flag)));
        }
        InvalidReason::ALL.into_iter().find(|r| r.as_str() == s).ok_or_else(|| {
            format!(
                "unknown invalid reason {s:?}; valid reasons: {}, unsupported:<what>, unknown-option:<flag>",
                InvalidReason::ALL.map(InvalidReason::as_str).join(", ")
            )
        })
    }
}

/// One session's verdict; only `invalid` carries a reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The file is on disk.
    Wrote,
    /// The write was refused by the hook under test, with evidence.
    Blocked,
    /// The session cannot say either, and why.
    Invalid(InvalidReason),
}

impl Verdict {
    /// The verdict without its reason (the CSV `verdict` column, tallies).
    pub fn kind(self) -> VerdictKind {
        match self {
            Verdict::Wrote => VerdictKind::Wrote,
            Verdict::Blocked => VerdictKind::Blocked,
            Verdict::Invalid(_) => VerdictKind::Invalid,
        }
    }

    /// Why `invalid`; `None` for `wrote` and `blocked`.
    pub fn reason(self) -> Option<InvalidReason> {
        match self {
            Verdict::Invalid(reason) => Some(reason),
            Verdict::Wrote | Verdict::Blocked => None,
        }
    }

    /// The reason as the CSV `reason` column writes it (empty when none).
    pub fn reason_str(self) -> std::borrow::Cow<'static, str> {
        self.reason().map(InvalidReason::as_str).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_and_reason_spell_the_csv_columns() {
        assert_eq!(
            (Verdict::Wrote.kind(), Verdict::Wrote.reason(), Verdict::Wrote.reason_str()),
            (VerdictKind::Wrote, None, "".into())
        );
        assert_eq!((Verdict::Blocked.kind(), Verdict::Blocked.reason_str()), (VerdictKind::Blocked, "".into()));
        let v = Verdict::Invalid(InvalidReason::HookNotRun);
        assert_eq!(
            (v.kind(), v.reason(), v.reason_str()),
            (VerdictKind::Invalid, Some(InvalidReason::HookNotRun), "hook-not-run".into())
        );
    }

    #[test]
    fn reasons_with_a_detail_read_back() {
        for (r, s) in [
            (InvalidReason::Unsupported("--settings"), "unsupported:--settings"),
            (InvalidReason::UnknownOption("--include-hook-events"), "unknown-option:--include-hook-events"),
        ] {
            assert_eq!(r.as_str(), s);
            assert_eq!(s.parse::<InvalidReason>(), Ok(r));
        }
        assert!("unsupported:".parse::<InvalidReason>().is_err());
        assert!(std::ptr::eq(intern("--x"), intern("--x")));
    }
}
