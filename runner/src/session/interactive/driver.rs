//! When to type what into an interactive session (pure: time, the screen's
//! text, whether the stand-in's script has ended, and how long the terminal
//! has been quiet go in; actions come out).
//!
//! The turn is over when the stand-in's script has ended (its last answer
//! was a final text) and the terminal has been quiet for [`QUIET`]: then the
//! screen is kept as evidence and the session is asked to end, gently first:
//! Ctrl-U (the input box emptied), `/exit` and Enter, then (after [`EXIT_GRACE`]) Ctrl-D twice, which ends
//! an idle prompt, then a hangup (our side of the terminal closed), then the
//! process group is killed. A session whose script never ends (a refused
//! prompt never reaches the model; a permission question nobody answers) is
//! hung up on once the terminal has been quiet for [`IDLE`], and says so in
//! its flags: nothing is typed into it, since Enter on a question on screen
//! would answer it (a permission prompt's first choice allows the call).

use std::time::Duration;

use super::screen::{self, TrustDialog};
use crate::mode::Trust;

/// Quiet after the script's end before the turn counts as over (the last
/// text is still being drawn, the transcript still written).
pub const QUIET: Duration = Duration::from_millis(1200);
/// Quiet without the script's end before the session is ended anyway.
pub const IDLE: Duration = Duration::from_secs(20);
/// Time between typing `/exit` and Enter (the command menu must open first).
pub const MENU_DELAY: Duration = Duration::from_millis(400);
/// Time given to each way of ending before the next, harder one.
pub const EXIT_GRACE: Duration = Duration::from_secs(5);
/// Time between two keys answering the trust dialog.
const KEY_GAP: Duration = Duration::from_millis(300);

/// What to do now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Type these bytes.
    Type(&'static [u8]),
    /// Keep the screen as it is now as evidence.
    KeepScreen,
    /// Close our side of the terminal.
    HangUp,
    /// Kill the process group.
    Kill,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    Running,
    ExitTyped(Duration),
    ExitSent(Duration),
    EofSent(Duration),
    HungUp(Duration),
    Killed,
}

/// The state of one session's ending.
#[derive(Debug)]
pub struct Driver {
    trust: Trust,
    stage: Stage,
    last_key: Option<Duration>,
    trust_answered: Option<&'static str>,
    trust_seen: bool,
    idle_exit: bool,
    idle_on_question: Option<&'static str>,
    asking_since: Option<Duration>,
}

impl Driver {
    /// A driver for a session whose trust dialog is to be answered per `trust`.
    pub fn new(trust: Trust) -> Driver {
        Driver {
            trust,
            stage: Stage::Running,
            last_key: None,
            trust_answered: None,
            trust_seen: false,
            idle_exit: false,
            idle_on_question: None,
            asking_since: None,
        }
    }

    /// The actions due at `now` (since the start), given the screen's text,
    /// whether the stand-in's script has ended, and how long the terminal
    /// has been quiet.
    pub fn step(&mut self, now: Duration, screen_text: &str, turn_over: bool, quiet: Duration) -> Vec<Action> {
        match self.stage {
            Stage::Running => {
                if let Some(dialog) = screen::trust_dialog(screen_text) {
                    self.trust_seen = true;
                    return self.answer_trust(now, &dialog);
                }
                if turn_over && quiet >= QUIET {
                    self.stage = Stage::ExitTyped(now);
                    // Ctrl-U first: a blocked prompt is put back in the input box.
                    return vec![Action::KeepScreen, Action::Type(b"\x15"), Action::Type(b"/exit")];
                }
                // A question on screen (its cursor may blink: the terminal is
                // never quiet) counts as idle once it has been there for IDLE.
                let asking = screen::asks(screen_text);
                let since = *self.asking_since.get_or_insert(now);
                if !asking {
                    self.asking_since = None;
                }
                if quiet >= IDLE || (asking && now >= since + IDLE) {
                    self.idle_exit = true;
                    self.idle_on_question = screen::question(screen_text);
                    self.stage = Stage::HungUp(now);
                    return vec![Action::KeepScreen, Action::HangUp];
                }
                Vec::new()
            }
            Stage::ExitTyped(t) if now >= t + MENU_DELAY => {
                self.stage = Stage::ExitSent(now);
                vec![Action::Type(b"\r")]
            }
            Stage::ExitSent(t) if now >= t + EXIT_GRACE => {
                self.stage = Stage::EofSent(now);
                vec![Action::Type(b"\x04\x04")]
            }
            Stage::EofSent(t) if now >= t + EXIT_GRACE => {
                self.stage = Stage::HungUp(now);
                vec![Action::HangUp]
            }
            Stage::HungUp(t) if now >= t + EXIT_GRACE => {
                self.stage = Stage::Killed;
                vec![Action::Kill]
            }
            _ => Vec::new(),
        }
    }

    fn answer_trust(&mut self, now: Duration, dialog: &TrustDialog) -> Vec<Action> {
        let target = match self.trust {
            // Pre-accepted, yet asked: leave it unanswered (the session then
            // idles out and is invalid); the flag says the dialog showed.
            Trust::Accepted => return Vec::new(),
            Trust::AnswerYes => dialog.yes,
            Trust::AnswerNo => dialog.no,
        };
        if self.last_key.is_some_and(|t| now < t + KEY_GAP) {
            return Vec::new();
        }
        let Some(key) = screen::key_toward(dialog, target) else { return Vec::new() };
        self.last_key = Some(now);
        if key == b"\r" {
            self.trust_answered = Some(if target == dialog.yes { "yes" } else { "no" });
            return vec![Action::KeepScreen, Action::Type(key)];
        }
        vec![Action::Type(key)]
    }

    /// The row's flags: how the session was ended once it exited (or was
    /// stopped), and what became of the trust dialog.
    pub fn flags(&self) -> Vec<String> {
        let by = match self.stage {
            Stage::Running => "itself",
            Stage::ExitTyped(_) | Stage::ExitSent(_) => "slash-exit",
            Stage::EofSent(_) => "ctrl-d",
            Stage::HungUp(_) => "hangup",
            Stage::Killed => "kill",
        };
        let mut flags = vec![format!("exit-by:{by}")];
        if self.idle_exit {
            flags.push("idle-exit".to_string());
        }
        if let Some(kind) = self.idle_on_question {
            // The session waited on a question nobody answered (a permission
            // prompt, the settings error dialog).
            flags.push(format!("unanswered:{kind}"));
        }
        match (self.trust_seen, self.trust_answered) {
            (_, Some(answer)) => flags.push(format!("trust-dialog:answered-{answer}")),
            (true, None) => flags.push("trust-dialog:unanswered".to_string()),
            (false, None) if self.trust != Trust::Accepted => flags.push("trust-dialog:not-shown".to_string()),
            _ => {}
        }
        flags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);
    const DIALOG: &str =
        "Quick safety check: Is this a project you created or one you trust?\n❯ No, exit\n  Yes, I trust this folder\n";

    #[test]
    fn the_turn_ends_only_when_the_script_ended_and_the_terminal_is_quiet() {
        let mut d = Driver::new(Trust::Accepted);
        assert_eq!(d.step(S, "❯ ", false, 5 * S), vec![], "script not ended");
        assert_eq!(d.step(S, "❯ ", true, Duration::from_millis(100)), vec![], "still drawing");
        assert_eq!(
            d.step(2 * S, "❯ ", true, 2 * S),
            vec![Action::KeepScreen, Action::Type(b"\x15"), Action::Type(b"/exit")]
        );
        assert_eq!(d.step(2 * S + Duration::from_millis(100), "", true, S), vec![], "menu not open yet");
        assert_eq!(d.step(3 * S, "", true, S), vec![Action::Type(b"\r")]);
        assert_eq!(d.flags(), ["exit-by:slash-exit"]);
    }

    #[test]
    fn a_session_that_will_not_exit_is_ended_harder_and_harder() {
        let mut d = Driver::new(Trust::Accepted);
        d.step(S, "", true, 2 * S);
        d.step(2 * S, "", true, 2 * S);
        assert_eq!(d.step(8 * S, "", true, 2 * S), vec![Action::Type(b"\x04\x04")]);
        assert_eq!(d.step(14 * S, "", true, 2 * S), vec![Action::HangUp]);
        assert_eq!(d.step(20 * S, "", true, 2 * S), vec![Action::Kill]);
        assert_eq!(d.flags(), ["exit-by:kill"]);
    }

    #[test]
    fn an_idle_session_without_the_scripts_end_is_hung_up_on_without_a_key() {
        let mut d = Driver::new(Trust::Accepted);
        let question = "Do you want to proceed?\n❯ 1. Yes\n  2. No";
        assert_eq!(d.step(30 * S, question, false, IDLE), vec![Action::KeepScreen, Action::HangUp]);
        assert_eq!(d.step(32 * S, question, false, IDLE), vec![], "nothing typed, ever");
        assert_eq!(d.step(36 * S, question, false, IDLE), vec![Action::Kill]);
        assert_eq!(d.flags(), ["exit-by:kill", "idle-exit", "unanswered:permission"]);
    }

    #[test]
    fn a_question_left_on_screen_is_idle_even_if_the_terminal_never_quiets() {
        let mut d = Driver::new(Trust::Accepted);
        let question = "Do you want to proceed?\n❯ 1. Yes\n  2. No";
        assert_eq!(d.step(5 * S, question, false, Duration::ZERO), vec![]);
        assert_eq!(d.step(20 * S, question, false, Duration::ZERO), vec![], "asked 15 s ago");
        assert_eq!(d.step(25 * S, question, false, Duration::ZERO), vec![Action::KeepScreen, Action::HangUp]);
        assert_eq!(d.flags(), ["exit-by:hangup", "idle-exit", "unanswered:permission"]);
        // A question that went away starts the count again.
        let mut d = Driver::new(Trust::Accepted);
        d.step(5 * S, question, false, Duration::ZERO);
        d.step(10 * S, "❯ ", false, Duration::ZERO);
        assert_eq!(d.step(26 * S, question, false, Duration::ZERO), vec![]);
    }

    #[test]
    fn the_trust_dialog_is_answered_as_the_arm_says() {
        let mut d = Driver::new(Trust::AnswerYes);
        assert_eq!(d.step(S, DIALOG, false, S), vec![Action::Type(b"\x1b[B")]);
        assert_eq!(d.step(S + Duration::from_millis(100), DIALOG, false, S), vec![], "one key at a time");
        let on_yes = DIALOG.replace("❯ No, exit\n  Yes", "  No, exit\n❯ Yes");
        assert_eq!(d.step(2 * S, &on_yes, false, S), vec![Action::KeepScreen, Action::Type(b"\r")]);
        assert_eq!(d.flags(), ["exit-by:itself", "trust-dialog:answered-yes"]);

        let mut d = Driver::new(Trust::AnswerNo);
        assert_eq!(d.step(S, DIALOG, false, S), vec![Action::KeepScreen, Action::Type(b"\r")]);
        assert_eq!(d.flags(), ["exit-by:itself", "trust-dialog:answered-no"]);

        let mut d = Driver::new(Trust::Accepted);
        assert_eq!(d.step(S, DIALOG, false, S), vec![], "pre-accepted: never answered");
        assert_eq!(d.flags(), ["exit-by:itself", "trust-dialog:unanswered"]);
        assert_eq!(Driver::new(Trust::AnswerYes).flags(), ["exit-by:itself", "trust-dialog:not-shown"]);
    }
}
