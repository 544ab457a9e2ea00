//! A finished session as its CSV row.

use std::path::Path;

use super::Model;
use crate::cells::Cell;
use crate::judge;
use crate::mode::Mode;
use crate::record::Row;
use crate::session::SessionOutcome;

/// Machine paths that the text a session quotes carries, and the words that
/// stand for them in a row, so that results files can be compared and
/// committed: the run's temp root (`$RUN`), the failopen binary
/// (`failopen`), the user's home (`~`).
#[derive(Debug, Clone, Default)]
pub struct Redactions {
    replacements: Vec<(String, &'static str)>,
}

impl Redactions {
    /// Redact `run_root`, `failopen_exe` and `home` (the longest first).
    pub fn new(run_root: &Path, failopen_exe: &Path, home: Option<&Path>) -> Redactions {
        let mut replacements = vec![
            (run_root.to_string_lossy().into_owned(), "$RUN"),
            (failopen_exe.to_string_lossy().into_owned(), "failopen"),
        ];
        if let Some(h) = home.filter(|h| h.as_os_str().len() > 1) {
            replacements.push((h.to_string_lossy().into_owned(), "~"));
        }
        replacements.retain(|(path, _)| !path.is_empty());
        replacements.sort_by_key(|(path, _)| std::cmp::Reverse(path.len()));
        Redactions { replacements }
    }

    /// `text` with every redacted path replaced. A session's own HOME under
    /// the run's root (`$RUN/sessions/session-XXXXXX/home`, named by an agent
    /// that quotes its hook file's path, as Copilot CLI does) is the agent's
    /// `~`: the same in every run, and no machine path. A cell's own copy of
    /// the guards (`$RUN/guards/cell-12/deny.sh`) is `$RUN/guards/deny.sh`,
    /// as it was when every cell shared one.
    pub fn apply(&self, text: &str) -> String {
        static SESSION_HOME: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
            regex::Regex::new(r"\$RUN/sessions/session-[A-Za-z0-9]+/home\b").expect("a valid pattern")
        });
        static CELL_GUARDS: std::sync::LazyLock<regex::Regex> =
            std::sync::LazyLock::new(|| regex::Regex::new(r"\$RUN/guards/cell-[0-9]+/").expect("a valid pattern"));
        let text = self.replacements.iter().fold(text.to_string(), |t, (path, word)| t.replace(path.as_str(), word));
        let text = SESSION_HOME.replace_all(&text, "~");
        CELL_GUARDS.replace_all(&text, "$$RUN/guards/").into_owned()
    }
}

/// Build the CSV row for a finished session; the refusal text and the
/// refusers it quotes go through `redact`.
pub fn to_row(cell: &Cell, model: Model, mode: Mode, outcome: &SessionOutcome, redact: &Redactions) -> Row {
    let e = &outcome.evidence;
    let v = judge::judge_event(cell.arm.event, e);
    let mut flags = outcome.flags.clone();
    flags.extend(e.notices.iter().cloned());
    if outcome.stragglers_killed > 0 {
        flags.push(format!("stragglers-killed:{}", outcome.stragglers_killed));
    }
    if e.hook_model_calls > 0 {
        flags.push(format!("hook-model-calls:{}", e.hook_model_calls));
    }
    if e.compactions > 0 {
        flags.push(format!("compacted:{}", e.compactions));
    }
    if let Some(side) = e.side_flag() {
        flags.push(side);
    }
    let foreign = e.foreign_refusers();
    if !foreign.is_empty() {
        flags.push(format!("refused-by:{}", truncate(&redact.apply(&foreign.join(",")), 160).replace(';', ",")));
    }
    if let Some(err) = &e.result_error {
        flags.push(format!("claude-error:{}", truncate(err, 120).replace(';', ",")));
    }
    if model == Model::Live && crate::live::hook_blind(e) {
        flags.push(crate::live::FLAG_HOOK_NEVER_SAW_WRITE.to_string());
    }
    if let Some(root) = &outcome.kept_root {
        flags.push(format!("kept:{}", root.display()));
    }
    Row {
        agent_version: cell.bin.version.clone(),
        model: model.as_str().into(),
        arm: cell.arm.name.clone(),
        guard: cell.arm.guard.name.into(),
        wrapper: cell.arm.wrapper.name().into(),
        repeat: cell.repeat,
        verdict: v.kind(),
        reason: v.reason_str().into(),
        file_bytes: e.file.as_ref().map(|f| f.bytes),
        hook_invocations: e.hook_invocations,
        hook_outcomes: e.hook_outcomes.join(";"),
        attempts: e.attempts_csv(),
        session_exit: e.exit.to_csv(),
        session_secs: (outcome.secs * 100.0).round() / 100.0,
        harness_said: e.last_refusal().map(|t| truncate(&redact.apply(t), 300)).unwrap_or_default(),
        file_ready: e.file.as_ref().map(|f| f.reads_ready),
        hook_timeout: cell.arm.hook_timeout_secs,
        deadline: cell.arm.deadline_secs,
        flags: flags.join(";"),
        hook_type: cell.arm.guard.hook_type().as_str().into(),
        mode: mode.as_str().into(),
        agent: cell.bin.agent.as_str().into(),
    }
}

fn truncate(s: &str, max: usize) -> String {
    let one_line = s.replace(['\n', '\r'], " ");
    if one_line.len() <= max {
        return one_line;
    }
    let mut end = max;
    while !one_line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &one_line[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn machine_paths_become_words() {
        let r = Redactions::new(
            Path::new("/tmp/failopen-run-1-x"),
            Path::new("/home/u/src/failopen/target/release/failopen"),
            Some(Path::new("/home/u")),
        );
        let text = "PreToolUse:Bash hook error: [/home/u/src/failopen/target/release/failopen seal -- \
                    /tmp/failopen-run-1-x/guards/crash.sh]: /home/u/.pyenv/bin/python3: no";
        assert_eq!(
            r.apply(text),
            "PreToolUse:Bash hook error: [failopen seal -- \
                    $RUN/guards/crash.sh]: ~/.pyenv/bin/python3: no"
        );
        // A home of "/" would turn every path into a tilde: left alone.
        assert_eq!(Redactions::new(Path::new("/r"), Path::new("/f"), Some(Path::new("/"))).apply("/x/y"), "/x/y");
    }

    #[test]
    fn a_sessions_own_home_is_the_agents_tilde() {
        let r = Redactions::new(Path::new("/tmp/failopen-run-1-x"), Path::new("/opt/bin/failopen"), None);
        let text = "Denied by preToolUse hook from \"/tmp/failopen-run-1-x/sessions/session-me0FS9/home/.copilot/hooks/failopen.json\"";
        assert_eq!(r.apply(text), "Denied by preToolUse hook from \"~/.copilot/hooks/failopen.json\"");
        // Only a session's HOME: another directory of the session keeps its place under $RUN.
        let work = "/tmp/failopen-run-1-x/sessions/session-me0FS9/work/notes.txt";
        assert_eq!(r.apply(work), "$RUN/sessions/session-me0FS9/work/notes.txt");
    }

    #[test]
    fn a_cells_own_guards_read_as_the_runs_guards() {
        let r = Redactions::new(Path::new("/tmp/failopen-run-1-x"), Path::new("/opt/bin/failopen"), None);
        let text =
            "[GUARD=/tmp/failopen-run-1-x/guards/cell-12/no-exec.sh /tmp/failopen-run-1-x/guards/cell-12/timed.sh]";
        assert_eq!(r.apply(text), "[GUARD=$RUN/guards/no-exec.sh $RUN/guards/timed.sh]");
        // A plugin root keeps its cell's number, as before.
        let plugin = "/tmp/failopen-run-1-x/guards/plugins/12/hooks/hooks.json";
        assert_eq!(r.apply(plugin), "$RUN/guards/plugins/12/hooks/hooks.json");
    }
}
