//! How Claude Code is driven: `claude -p` (print) or an interactive
//! session in a pseudo-terminal; and, for an interactive session, whether
//! the workspace trust dialog was accepted beforehand.

/// How a session runs Claude Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Mode {
    /// `claude -p PROMPT --output-format stream-json` (the default, and the
    /// only mode of files written before the `mode` column).
    #[default]
    Print,
    /// `claude PROMPT` in a pseudo-terminal, ended with `/exit` once the
    /// stand-in's script has ended (see `crate::interactive`).
    Interactive,
}

impl Mode {
    /// Every mode, by its CSV and command-line spelling.
    pub const ALL: [(&'static str, Mode); 2] = [("print", Mode::Print), ("interactive", Mode::Interactive)];

    /// The CSV and command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Print => "print",
            Mode::Interactive => "interactive",
        }
    }

    /// The mode a CSV cell names: empty (a file from before the column) is print.
    pub fn of_csv(s: &str) -> Option<Mode> {
        if s.is_empty() {
            return Some(Mode::Print);
        }
        Mode::ALL.iter().find(|(n, _)| *n == s).map(|(_, m)| *m)
    }
}

impl std::str::FromStr for Mode {
    type Err = String;

    fn from_str(s: &str) -> Result<Mode, String> {
        Mode::ALL.iter().find(|(n, _)| *n == s).map(|(_, m)| *m).ok_or_else(|| {
            let names: Vec<&str> = Mode::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown mode {s:?}: valid modes are {}", names.join(", "))
        })
    }
}

/// The workspace trust dialog of an interactive session (print mode never
/// asks). An arm dimension: `"trust"` in an arms file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Trust {
    /// The working directory is trusted before the session starts
    /// (`projects.<dir>.hasTrustDialogAccepted` in the isolated
    /// `~/.claude.json`), as a user who said yes once has it.
    #[default]
    Accepted,
    /// Not trusted beforehand: the dialog shows, and failopen answers
    /// "Yes, I trust this folder" with keystrokes when it sees it.
    AnswerYes,
    /// Not trusted beforehand, and the dialog is answered "No".
    AnswerNo,
}

impl Trust {
    /// Every value, by its arms-file spelling.
    pub const ALL: [(&'static str, Trust); 3] =
        [("accepted", Trust::Accepted), ("answer-yes", Trust::AnswerYes), ("answer-no", Trust::AnswerNo)];

    /// The arms-file spelling.
    pub fn as_str(self) -> &'static str {
        Trust::ALL.iter().find(|(_, t)| *t == self).map(|(n, _)| *n).unwrap_or("accepted")
    }
}

impl std::str::FromStr for Trust {
    type Err = String;

    fn from_str(s: &str) -> Result<Trust, String> {
        Trust::ALL.iter().find(|(n, _)| *n == s).map(|(_, t)| *t).ok_or_else(|| {
            let names: Vec<&str> = Trust::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown trust {s:?}: valid values are {}", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_parse_and_name_the_choices_when_wrong() {
        assert_eq!("interactive".parse::<Mode>(), Ok(Mode::Interactive));
        assert_eq!("print".parse::<Mode>(), Ok(Mode::Print));
        let e = "tty".parse::<Mode>().unwrap_err();
        assert!(e.contains("print, interactive"), "{e}");
        assert_eq!(Mode::of_csv(""), Some(Mode::Print), "a file from before the column");
        assert_eq!(Mode::of_csv("interactive"), Some(Mode::Interactive));
        assert_eq!(Mode::of_csv("x"), None);
    }

    #[test]
    fn trust_parses() {
        assert_eq!("answer-yes".parse::<Trust>(), Ok(Trust::AnswerYes));
        assert!("yes".parse::<Trust>().unwrap_err().contains("accepted, answer-yes, answer-no"));
        assert_eq!(Trust::AnswerNo.as_str(), "answer-no");
    }
}
