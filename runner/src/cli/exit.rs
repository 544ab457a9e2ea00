//! Every exit code failopen gives, in one place (the README's command table
//! lists them).

/// How the process ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitCode {
    /// 0: done. `diff`: no verdict changed; `audit`: every guard held;
    /// `bisect`: the first differing release was found; `seal`: the guard
    /// ran and exited 0.
    Success,
    /// 1: bad input (a file, field or value failopen cannot use) or a failure
    /// (no Claude Code, a disk that filled up...). The message says which.
    Failure,
    /// 2: `seal` refused: the guard denied, or failed to decide, or seal's
    /// own arguments were wrong (a hook must never exit anything but 0 or 2).
    /// Also any command line that does not parse, for every subcommand (as
    /// clap's usage errors do): a hook command that mistypes `failopen seal`
    /// then blocks rather than allows.
    Refused,
    /// 3: a guard fails open. `diff`: a cell moved from blocked to wrote;
    /// `audit`: a hole was proven.
    GuardOpen,
    /// 4: `diff`: some other verdict changed.
    Changed,
    /// 5: `bisect` could not decide: no release between good and bad gave a
    /// clean verdict on either side of the change.
    Undecided,
    /// 6: `audit`: no hole was proven, but some guard is untested: it refused
    /// none of the probes tried (so no fault could be injected under a
    /// refused call), a fault could not be judged, only the static checks
    /// ran, or there was no guard at all.
    Untested,
    /// 7: `diff`: the two files are different agents' results, so nothing
    /// was compared (`--across-agents` compares them anyway).
    AcrossAgents,
    /// 130: interrupted (SIGINT or SIGTERM); the rows already written stay.
    Interrupted,
}

impl ExitCode {
    /// Every exit code, in order (docs/commands.md's table lists each; a test compares them).
    #[cfg(test)]
    pub const ALL: [ExitCode; 9] = [
        ExitCode::Success,
        ExitCode::Failure,
        ExitCode::Refused,
        ExitCode::GuardOpen,
        ExitCode::Changed,
        ExitCode::Undecided,
        ExitCode::Untested,
        ExitCode::AcrossAgents,
        ExitCode::Interrupted,
    ];

    /// The number the process exits with.
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Success => 0,
            ExitCode::Failure => 1,
            ExitCode::Refused => 2,
            ExitCode::GuardOpen => 3,
            ExitCode::Changed => 4,
            ExitCode::Undecided => 5,
            ExitCode::Untested => 6,
            ExitCode::AcrossAgents => 7,
            ExitCode::Interrupted => 130,
        }
    }

    /// Seal's own answer (0 or 2; anything else is a refusal too).
    pub fn from_seal(code: i32) -> ExitCode {
        if code == 0 {
            ExitCode::Success
        } else {
            ExitCode::Refused
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_seal_only_allows_on_zero() {
        let mut codes: Vec<i32> = ExitCode::ALL.iter().map(|c| c.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), ExitCode::ALL.len());
        assert_eq!(ExitCode::from_seal(0), ExitCode::Success);
        for other in [1, 2, 101, 143] {
            assert_eq!(ExitCode::from_seal(other), ExitCode::Refused);
        }
    }

    /// docs/commands.md's exit-code table lists exactly the codes the binary
    /// gives, each once: a new code, or one dropped, fails here until the
    /// table says so.
    #[test]
    fn the_docs_table_lists_every_exit_code_and_no_other() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/commands.md");
        let doc = std::fs::read_to_string(path).expect("docs/commands.md");
        let table = doc.split_once("Exit codes").map(|(_, t)| t).expect("an `Exit codes` table in docs/commands.md");
        let mut documented: Vec<i32> = table
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .filter_map(|l| l.trim_start_matches('|').split('|').next()?.trim().parse().ok())
            .collect();
        let mut defined: Vec<i32> = ExitCode::ALL.iter().map(|c| c.code()).collect();
        defined.sort_unstable();
        let listed = documented.len();
        documented.sort_unstable();
        documented.dedup();
        assert_eq!(listed, documented.len(), "a code is listed twice in docs/commands.md");
        assert_eq!(documented, defined, "docs/commands.md's exit codes against runner/src/cli/exit.rs");
    }
}
