//! What the terminal's screen text says, as facts (pure: the text comes
//! from `vt100`'s screen). Only the workspace trust dialog is read from
//! the screen; the verdict's evidence never is.

/// The workspace trust dialog, as shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TrustDialog {
    /// The line of the "Yes" choice.
    pub yes: usize,
    /// The line of the "No" choice.
    pub no: usize,
    /// The line of the choice the cursor (`❯`) is on, if any.
    pub selected: Option<usize>,
}

/// The labels of the two choices, on the releases measured: 2.1.328 shows
/// "❯ No, exit" first and selected, 2.1.240 "❯ 1. Yes, I trust this folder".
const YES_LABELS: &[&str] = &["Yes, I trust this folder", "Yes, proceed", "Yes, continue"];
const NO_LABELS: &[&str] = &["No, exit", "No, quit"];

/// The trust dialog, when the screen shows it: a question about trusting
/// the folder with a "Yes" and a "No" choice.
pub fn trust_dialog(screen: &str) -> Option<TrustDialog> {
    if !screen.to_lowercase().contains("trust") {
        return None;
    }
    let lines: Vec<&str> = screen.lines().collect();
    let find = |labels: &[&str]| lines.iter().position(|l| labels.iter().any(|label| l.contains(label)));
    let (yes, no) = (find(YES_LABELS)?, find(NO_LABELS)?);
    let selected = [yes, no].into_iter().find(|&i| lines[i].contains('❯') || lines[i].trim_start().starts_with('>'));
    Some(TrustDialog { yes, no, selected })
}

/// Whether the screen shows Claude Code's report that a UserPromptSubmit
/// hook blocked the prompt: the turn is over before it began (the stand-in
/// never hears of it), and the prompt is back in the input box.
pub fn prompt_blocked(screen: &str) -> bool {
    screen.contains(crate::evidence::PROMPT_BLOCKED)
}

/// The question the screen asks the user, if any: a permission prompt ("Do
/// you want to proceed?", "Do you want to create notes.txt?"), the
/// "Settings Error" dialog interactive sessions show for a settings file
/// they will skip (print mode skips it silently), or the "Settings Warning"
/// dialog 2.1.328 shows for a file it keeps without one broken entry ("the
/// rest of the file is in effect"; print mode drops the entry silently).
pub fn question(screen: &str) -> Option<&'static str> {
    if screen.contains("Settings Error") && screen.contains("Continue without these settings") {
        Some("settings-error")
    } else if screen.contains("Settings Warning") && screen.contains("Exit and fix manually") {
        Some("settings-warning")
    } else if screen.contains("Do you want to") {
        Some("permission")
    } else {
        None
    }
}

/// Whether the screen asks the user a question ([`question`]).
pub fn asks(screen: &str) -> bool {
    question(screen).is_some()
}

/// The keys that move the dialog's cursor one step toward `target`'s line,
/// or Enter when it is there; `None` when the cursor cannot be seen.
pub fn key_toward(dialog: &TrustDialog, target: usize) -> Option<&'static [u8]> {
    let at = dialog.selected?;
    Some(match at.cmp(&target) {
        std::cmp::Ordering::Equal => b"\r",
        std::cmp::Ordering::Less => b"\x1b[B",
        std::cmp::Ordering::Greater => b"\x1b[A",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The dialog as 2.1.328 draws it (from evidence/screen.txt of a session).
    const DIALOG_328: &str = "Accessing workspace:\n\n/tmp/x/work\n\nQuick safety check: Is this a project you \
        created or one you trust?\n\nTrusting this folder loads .claude/settings.json (runs commands).\n\n\
        ❯ No, exit\n  Yes, I trust this folder\n\nEnter to confirm · Esc to cancel\n";

    #[test]
    fn finds_the_dialog_and_the_way_to_each_answer() {
        let d = trust_dialog(DIALOG_328).unwrap();
        assert_eq!(d.selected, Some(d.no));
        assert_eq!(key_toward(&d, d.yes), Some(&b"\x1b[B"[..]), "down to Yes");
        assert_eq!(key_toward(&d, d.no), Some(&b"\r"[..]), "already on No: confirm");
        let moved = DIALOG_328.replace("❯ No, exit\n  Yes", "  No, exit\n❯ Yes");
        let d = trust_dialog(&moved).unwrap();
        assert_eq!(key_toward(&d, d.yes), Some(&b"\r"[..]));
        assert_eq!(key_toward(&d, d.no), Some(&b"\x1b[A"[..]));
    }

    /// 2.1.240 numbers the choices and puts Yes first, selected.
    const DIALOG_240: &str = " Quick safety check: Is this a project you created or one you trust?\n\n \
        ❯ 1. Yes, I trust this folder\n   2. No, exit\n\n Enter to confirm · Esc to cancel\n";

    #[test]
    fn the_older_dialog_is_read_too() {
        let d = trust_dialog(DIALOG_240).unwrap();
        assert_eq!((d.yes, d.no, d.selected), (2, 3, Some(2)));
        assert_eq!(key_toward(&d, d.yes), Some(&b"\r"[..]));
        assert_eq!(key_toward(&d, d.no), Some(&b"\x1b[B"[..]));
    }

    #[test]
    fn a_blocked_prompt_is_seen() {
        let screen = "● UserPromptSubmit operation blocked by hook:\n  [/r/deny.sh]: no\n❯ Create a file";
        assert!(prompt_blocked(screen));
        assert!(!prompt_blocked("❯ Create a file"));
        assert!(asks(" Do you want to create notes.txt?\n ❯ 1. Yes\n   2. No"));
        assert!(!asks("❯ "));
        let settings =
            "  Settings Error\n  /r/settings.json\n  ❯ 1. Fix with Claude\n    2. Exit and fix manually\n    \
            3. Continue without these settings";
        assert_eq!(question(settings), Some("settings-error"));
        // 2.1.328, a PostToolUse entry whose matcher is a number (evidence/screen.txt of a session).
        let warning = "  Settings Warning\n\n  /r/evidence/settings.json\n  └ hooks.PostToolUse.\"matcher\": Invalid \
            hook matcher (matcher: Invalid input: expected string, received number); matcher ignored.\n\n  The values \
            listed above were skipped; the rest of the file is in effect.\n\n  ❯ 1. Continue\n    2. Fix with Claude\n    \
            3. Exit and fix manually\n\n  Enter to confirm · Esc to cancel";
        assert_eq!(question(warning), Some("settings-warning"));
        assert_eq!(question(" Do you want to proceed?"), Some("permission"));
    }

    #[test]
    fn other_screens_are_not_the_dialog() {
        assert_eq!(trust_dialog("❯ Create notes.txt containing ready\n⏵⏵ bypass permissions on"), None);
        // A refusal that quotes the word is not the dialog either.
        assert_eq!(trust_dialog("Error: PreToolUse:Write hook error: trust no one\n❯ "), None);
        let no_cursor = DIALOG_328.replace('❯', " ");
        let d = trust_dialog(&no_cursor).unwrap();
        assert_eq!((d.selected, key_toward(&d, d.yes)), (None, None));
    }
}
