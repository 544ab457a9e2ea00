//! How a run shows its sessions as they finish: a bar with an ETA on a
//! terminal, one line per session on stderr off a terminal (or in CI), and,
//! with `--format json`, one JSON object per session on stdout.

use std::io::Write;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::record::Row;

/// Whether to draw a bar, from facts passed in (so it can be tested).
pub fn should_show(stderr_is_terminal: bool, is_ci: bool) -> bool {
    stderr_is_terminal && !is_ci
}

/// Whether the environment says this is CI (`CI` set to anything but `false`/`0`/empty).
pub fn is_ci(ci_var: Option<&str>) -> bool {
    ci_var.is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
}

/// How finished sessions are shown on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum View {
    /// Nothing (library use, tests).
    #[default]
    Hidden,
    /// A bar with the elapsed time and an ETA (a terminal outside CI).
    Bar,
    /// One line per finished session (stderr is not a terminal, or CI).
    Lines,
}

impl View {
    /// The view for a stderr that is or is not a terminal, in or out of CI.
    pub fn for_stderr(stderr_is_terminal: bool, is_ci: bool) -> View {
        if should_show(stderr_is_terminal, is_ci) {
            View::Bar
        } else {
            View::Lines
        }
    }
}

/// The sessions of a run as they finish.
#[derive(Debug)]
pub struct Progress {
    bar: ProgressBar,
    view: View,
    total: u64,
    json_lines: bool,
}

impl Progress {
    /// Progress over `total` sessions, shown as `view`; with `json_lines`,
    /// each finished session is also one JSON object on stdout ([`session_json`]).
    pub fn new(total: u64, view: View, json_lines: bool) -> Progress {
        let target = if view == View::Bar { ProgressDrawTarget::stderr() } else { ProgressDrawTarget::hidden() };
        let bar = ProgressBar::with_draw_target(Some(total), target);
        if let Ok(style) =
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} sessions, ETA {eta} {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress { bar, view, total, json_lines }
    }

    /// One session finished.
    pub fn finished(&self, row: &Row) {
        if self.json_lines {
            // A closed stdout loses the lines, never the rows: they are on disk already.
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{}", session_json(row)).and_then(|()| out.flush());
        }
        self.bar.inc(1);
        match self.view {
            View::Bar => self.bar.set_message(format!("{} {} {}", row.agent_version, row.arm, row.verdict)),
            View::Lines => eprintln!("{}", line(self.bar.position(), self.total, row)),
            View::Hidden => {}
        }
    }

    /// Clear the bar.
    pub fn done(&self) {
        self.bar.finish_and_clear();
    }
}

/// The line a finished session gets off a terminal:
/// `[3/9] Claude Code 2.1.328 crash/bare: wrote (1.2 s)`.
pub fn line(position: u64, total: u64, row: &Row) -> String {
    let reason = if row.reason.is_empty() { String::new() } else { format!(" {}", row.reason) };
    let mode = match row.mode() {
        crate::mode::Mode::Print => String::new(),
        mode => format!(" {}", mode.as_str()),
    };
    format!(
        "[{position}/{total}] {} {}{mode} {}: {}{reason} ({:.1} s)",
        row.agent().display_name(),
        row.agent_version,
        row.arm,
        row.verdict,
        row.session_secs
    )
}

/// One session as a JSON object (one line): `"type": "session"`, the row's
/// CSV columns under their CSV names, the agent and its version named
/// (`agent`, `agent_version`), and whether the guard meant to refuse
/// and the write got past it (`let_through`).
pub fn session_json(row: &Row) -> serde_json::Value {
    let mut v = serde_json::json!({ "type": "session" });
    if let (Some(obj), Ok(serde_json::Value::Object(fields))) = (v.as_object_mut(), serde_json::to_value(row)) {
        obj.extend(fields);
        obj.insert("agent".into(), row.agent().as_str().into());
        obj.insert("agent_version".into(), row.agent_version.clone().into());
        // Its older name, the same value, kept for readers of the first shape.
        obj.insert(crate::record::LEGACY_VERSION_COLUMN.into(), row.agent_version.clone().into());
        let should_refuse = crate::guards::means_to_refuse(&row.guard);
        obj.insert("should_refuse".into(), should_refuse.into());
        obj.insert("let_through".into(), (should_refuse && row.verdict == crate::verdict::VerdictKind::Wrote).into());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind;

    #[test]
    fn a_bar_on_a_terminal_and_lines_elsewhere() {
        assert!(should_show(true, false));
        assert!(!should_show(false, false));
        assert!(!should_show(true, true));
        assert_eq!(View::for_stderr(true, false), View::Bar);
        assert_eq!(View::for_stderr(false, false), View::Lines);
        assert_eq!(View::for_stderr(true, true), View::Lines);
        assert!(is_ci(Some("true")));
        assert!(is_ci(Some("1")));
        assert!(!is_ci(Some("false")));
        assert!(!is_ci(None));
    }

    #[test]
    fn a_line_and_a_json_object_per_session() {
        let r = row("2.1.328", "crash/bare", 1, VerdictKind::Wrote, "");
        assert_eq!(line(3, 9, &r), "[3/9] Claude Code 2.1.328 crash/bare: wrote (1.0 s)");
        let v = session_json(&r);
        assert_eq!(v["type"], "session");
        assert_eq!((v["agent"].as_str(), v["agent_version"].as_str()), (Some("claude-code"), Some("2.1.328")));
        assert_eq!((v["verdict"].as_str(), v["let_through"].as_bool()), (Some("wrote"), Some(true)));
        let allow = session_json(&row("2.1.328", "allow/bare", 1, VerdictKind::Wrote, ""));
        assert_eq!((allow["should_refuse"].as_bool(), allow["let_through"].as_bool()), (Some(false), Some(false)));
    }
}
