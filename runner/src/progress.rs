//! The progress bar: shown only on a terminal and outside CI.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::record::Row;

/// Whether to show progress, from facts passed in (so it can be tested).
pub fn should_show(stderr_is_terminal: bool, is_ci: bool) -> bool {
    stderr_is_terminal && !is_ci
}

/// Whether the environment says this is CI (`CI` set to anything but `false`/`0`/empty).
pub fn is_ci(ci_var: Option<&str>) -> bool {
    ci_var.is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// A progress bar over sessions.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar over `total` sessions; hidden unless `visible`.
    pub fn new(total: u64, visible: bool) -> Progress {
        let bar = ProgressBar::with_draw_target(
            Some(total),
            if visible { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() },
        );
        if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} sessions {msg}") {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar }
    }

    /// One session finished.
    pub fn finished(&self, row: &Row) {
        self.bar.set_message(format!("{} {} {}", row.claude_version, row.arm, row.verdict));
        self.bar.inc(1);
    }

    /// Clear the bar.
    pub fn done(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_off_terminal_and_in_ci() {
        assert!(should_show(true, false));
        assert!(!should_show(false, false));
        assert!(!should_show(true, true));
        assert!(is_ci(Some("true")));
        assert!(is_ci(Some("1")));
        assert!(!is_ci(Some("false")));
        assert!(!is_ci(None));
    }
}
