//! One cell's evidence: what was measured (the tally, `<p id="verdict"
//! data-verdict>`), the command that reproduces it (`<pre id="reproduce">`),
//! the arm as its set file writes it with links to its guard's script, what that file
//! expects and why, the bisect that answers for it, its verdict on every
//! release of the history, every session's row (an invalid one with what its
//! reason means), and the same arm elsewhere.

use std::fmt::Write;

use super::catalog::{expected, guard_notes, guard_source, wrapper_source, Known};
use super::page::{a, page, repo_link};
use super::{paths, Model};
use crate::record::Row;
use crate::report::grid::{ArmTally, Grid};
use crate::report::svg::esc;
use crate::tally::Tally;
use crate::verdict::{InvalidReason, VerdictKind};

fn kv(s: &mut String, key: &str, value: &str) {
    let _ = writeln!(s, "<tr><th>{}</th><td>{value}</td></tr>", esc(key));
}

fn code(v: &str) -> String {
    format!("<code>{}</code>", esc(v))
}

/// A shell word: as it is when it is safe, else in single quotes.
fn shell_word(w: &str) -> String {
    if w.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./=:@+,".contains(&b)) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', "'\\''"))
    }
}

/// The one command that runs this cell again: `failopen run` on the
/// cell's agent, version and mode, from a built-in set that has the arm,
/// narrowed to it by `--only` (its name as a glob, escaped); `None` when no
/// shipped set has the arm.
pub fn reproduce(m: &Model, g: &Grid, arm: &str) -> Option<String> {
    let set = m.site.catalog.set_for(arm, g.agent)?;
    let mut cmd = format!(
        "failopen run --agent {} --agent-version {} --arms {set} --only {}",
        g.agent.as_str(),
        shell_word(&g.agent_version),
        shell_word(&globset::escape(arm))
    );
    if g.mode == crate::mode::Mode::Interactive {
        cmd.push_str(" --mode interactive");
    }
    Some(cmd)
}

fn reproduce_section(m: &Model, g: &Grid, arm: &ArmTally, s: &mut String) {
    s.push_str("<h2 id=\"again\">Run it again</h2>\n");
    match reproduce(m, g, &arm.arm) {
        Some(cmd) => {
            let _ = writeln!(
                s,
                "<pre class=\"cmd\" id=\"reproduce\">{}</pre>\n<p><small>One session, against the stand-in, in a \
                 throwaway directory; the row goes to a new CSV in <code>results/</code>. Add <code>--repeats 3</code> \
                 for more. {}</small></p>",
                esc(&cmd),
                a(&repo_link("docs/install.md"), "Installing failopen.")
            );
        }
        None => {
            let _ = writeln!(s, "<p>No arm set failopen ships has this arm, so no command runs it again.</p>");
        }
    }
}

fn arm_section(known: Option<&Known>, arm: &ArmTally, first: Option<&&Row>, s: &mut String) {
    s.push_str("<h2>The arm</h2>\n<table class=\"kv\">\n");
    let notes = guard_notes(&arm.guard);
    let mut guard = match &notes {
        Some(n) => format!("{}: {}<br><small>models {}</small>", code(&arm.guard), esc(&n.does), esc(&n.models)),
        None => code(&arm.guard),
    };
    match guard_source(&arm.guard) {
        Some(p) => {
            let _ = write!(guard, "<br><small>its code: {}</small>", a(&repo_link(&p), &p));
        }
        None if crate::guards::find(&arm.guard).is_some() => {
            guard.push_str("<br><small>its script never exists: the hook points at a missing file</small>")
        }
        None => {}
    }
    kv(s, "guard", &guard);
    let wrapper = match wrapper_source(&arm.wrapper) {
        Some(p) => format!("{} <small>({})</small>", code(&arm.wrapper), a(&repo_link(p), p)),
        None => code(&arm.wrapper),
    };
    kv(s, "wrapper", &wrapper);
    if let Some(r) = first {
        kv(s, "hook type", &code(r.hook_type()));
    }
    match known {
        Some(k) => {
            kv(s, "event", &code(k.arm.event.as_str()));
            kv(s, "source", &code(k.arm.source.as_str()));
            kv(s, "route", &code(k.arm.route.as_str()));
            if let Some(m) = &k.arm.matcher {
                kv(s, "matcher", &code(m));
            }
            kv(s, "hook timeout", &format!("{} s", k.arm.hook_timeout_secs));
            kv(s, "wrapper deadline", &format!("{} s", k.arm.deadline_secs));
            for (key, v) in [("extra settings", &k.arm.extra_settings), ("hook entry extra", &k.arm.hook_extra)] {
                if let Some(v) = v {
                    kv(s, key, &code(&v.to_string()));
                }
            }
            if let Some(v) = &k.arm.group_extra {
                kv(s, "matcher group extra", &code(&v.to_string()));
            }
            kv(s, "defined in", &code(&k.file));
        }
        None => kv(s, "defined in", "not in the arm sets failopen ships"),
    }
    s.push_str("</table>\n");
}

/// Whether the tally is what the expectation says: every run that verdict
/// (and, for `invalid`, that reason).
fn holds(t: &Tally, verdict: VerdictKind, reason: Option<&str>) -> bool {
    let all = |n: u32| n > 0 && n == t.runs();
    match verdict {
        VerdictKind::Blocked => all(t.blocked),
        VerdictKind::Wrote => all(t.wrote),
        VerdictKind::Invalid => all(t.invalid) && reason.is_none_or(|r| t.invalid_reasons.keys().all(|k| k == r)),
    }
}

fn expectation_section(g: &Grid, arm: &ArmTally, known: Option<&Known>, s: &mut String) {
    s.push_str("<h2 id=\"expected\">Expected, and why</h2>\n");
    let Some((e, on)) = known.and_then(|k| expected(k, g.agent, g.mode, &g.agent_version)) else {
        let file = known.map(|k| k.file.as_str()).unwrap_or("no arm set");
        let _ = writeln!(
            s,
            "<p>{} writes no expectation for this arm on {}; failopen's test oracle \
             (<code>runner/tests/integration/oracle.rs</code>) holds its expected verdict, with the reasoning.</p>",
            code(file),
            esc(g.agent.display_name())
        );
        return;
    };
    let want = match on.reason {
        Some(r) => format!("{} ({})", on.verdict, r),
        None => on.verdict.to_string(),
    };
    let (class, word) = if holds(&arm.tally, on.verdict, on.reason) {
        ("ok", "measured as expected")
    } else {
        ("bad", "measured otherwise")
    };
    let _ = writeln!(
        s,
        "<p id=\"expectation\" data-expected=\"{}\">Expected on {}: <strong>{}</strong>; <span class=\"{class}\">{word}</span> ({}).</p>",
        on.verdict,
        esc(&g.agent_version),
        esc(&want),
        esc(&arm.tally.label())
    );
    let _ = writeln!(s, "<blockquote>{}</blockquote>", esc(on.source));
    if !e.changes.is_empty() {
        s.push_str("<p>How the expectation changes with the version:</p>\n<ul>\n");
        let _ = writeln!(s, "<li>at first: {}: {}</li>", e.verdict, esc(&e.source));
        for c in &e.changes {
            let _ = writeln!(s, "<li>from {}: {}: {}</li>", esc(&c.since), c.verdict, esc(&c.source));
        }
        s.push_str("</ul>\n");
    }
}

fn bisect_section(m: &Model, g: &Grid, arm: &ArmTally, s: &mut String) {
    let Some(b) = m.bisect(g, &arm.arm) else { return };
    let _ = writeln!(
        s,
        "<h2 id=\"bisect\">The bisect</h2>\n<p><strong>{}</strong></p>\n<p>{}:</p>\n<pre>{}</pre>",
        esc(&b.answer),
        code(&format!("results/{}", b.file)),
        esc(&b.text)
    );
}

fn history_section(m: &Model, g: &Grid, arm: &ArmTally, at: &str, s: &mut String) {
    // The timeline is `results/history.csv`: the unnamed agent's (Claude Code's), in print mode.
    if !g.agent.driver().implied_when_unnamed() || g.mode != crate::mode::Mode::Print {
        return;
    }
    let Some(i) = m.timeline.arm_index(&arm.arm) else { return };
    let t = &m.timeline;
    // Runs of one summary along the releases that have the arm.
    let mut spans: Vec<(String, String, String, usize)> = Vec::new();
    for (v, col) in t.versions.iter().enumerate() {
        let Some(e) = t.entry(i, v) else { continue };
        match spans.last_mut() {
            Some((word, _, last, n)) if word == e.summary.as_str() => {
                *last = col.version.clone();
                *n += 1;
            }
            _ => spans.push((e.summary.as_str().to_string(), col.version.clone(), col.version.clone(), 1)),
        }
    }
    let filter = format!("{}#guard={}&wrapper={}", paths::link(at, paths::TIMELINE), arm.guard, arm.wrapper);
    let _ = writeln!(
        s,
        "<h2 id=\"history\">On every release</h2>\n<p>From the history ({}):</p>\n<ul>",
        a(&filter, "the timeline")
    );
    for (word, first, last, n) in spans {
        let span = if first == last { first } else { format!("{first} to {last}") };
        let _ = writeln!(
            s,
            "<li><span class=\"v {word}\">{word}</span> on {}, {n} release{}</li>",
            esc(&span),
            if n == 1 { "" } else { "s" }
        );
    }
    s.push_str("</ul>\n");
}

/// A column of the sessions' table: its header, and its value in a row.
type Column = (&'static str, fn(&Row) -> String);

/// The sessions' table.
const COLUMNS: [Column; 12] = [
    ("repeat", |r| r.repeat.to_string()),
    ("verdict", |r| r.verdict.to_string()),
    ("reason", |r| r.reason.clone()),
    ("attempts", |r| r.attempts.clone()),
    ("hook outcomes", |r| r.hook_outcomes.clone()),
    ("guard ran", |r| r.hook_invocations.to_string()),
    ("exit", |r| r.session_exit.clone()),
    ("seconds", |r| r.session_secs.to_string()),
    ("file bytes", |r| r.file_bytes.map(|b| b.to_string()).unwrap_or_default()),
    ("file reads ready", |r| r.file_ready.map(|b| b.to_string()).unwrap_or_default()),
    ("the agent said", |r| r.harness_said.clone()),
    ("flags", |r| r.flags.replace(';', "; ")),
];

fn sessions_section(rows: &[&Row], s: &mut String) {
    let _ = writeln!(
        s,
        "<h2 id=\"sessions\">The sessions ({})</h2>\n<div class=\"scroll\"><table class=\"rows\"><thead><tr>",
        rows.len()
    );
    for (h, _) in COLUMNS {
        let _ = write!(s, "<th>{h}</th>");
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for r in rows {
        let _ = write!(s, "<tr data-verdict=\"{}\">", r.verdict);
        for (_, value) in COLUMNS {
            let _ = write!(s, "<td>{}</td>", esc(&value(r)));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
    let mut reasons: Vec<&str> =
        rows.iter().filter(|r| r.verdict == VerdictKind::Invalid).map(|r| r.reason.as_str()).collect();
    reasons.sort();
    reasons.dedup();
    for reason in reasons {
        let meaning =
            reason.parse::<InvalidReason>().map(|r| r.meaning()).unwrap_or("a reason this failopen does not know");
        let _ = writeln!(s, "<p class=\"reason\">Invalid, {}: {}.</p>", code(reason), esc(meaning));
    }
    if let Some(r) = rows.first() {
        let _ = writeln!(
            s,
            "<p><small>model {}, hook timeout {} s, wrapper deadline {} s.</small></p>",
            esc(&r.model),
            r.hook_timeout,
            r.deadline
        );
    }
}

fn elsewhere_section(m: &Model, g: &Grid, arm: &ArmTally, at: &str, s: &mut String) {
    let others: Vec<String> = m
        .report
        .versions
        .iter()
        .filter(|o| !std::ptr::eq(*o, g))
        .filter_map(|o| {
            let same = o.arm(&arm.arm)?;
            let link = a(&paths::link(at, &Model::cell_path(o, same)), &Model::title(o));
            Some(format!(
                "<li>{link}: <span class=\"v {}\">{}</span></li>",
                same.tally.summary().as_str(),
                esc(&same.tally.label())
            ))
        })
        .collect();
    if !others.is_empty() {
        let _ = writeln!(s, "<h2 id=\"elsewhere\">The same arm elsewhere</h2>\n<ul>\n{}\n</ul>", others.join("\n"));
    }
}

/// The evidence page of `arm` in grid `g`.
pub fn render(m: &Model, g: &Grid, arm: &ArmTally) -> String {
    let at = Model::cell_path(g, arm);
    let grid = paths::link(&at, &paths::grid(g.agent, &g.agent_version, g.mode));
    let title = format!("{} on {}", arm.arm, Model::title(g));
    let verdict = arm.tally.summary().as_str();
    let mut s = format!(
        "<h1><code>{}</code> on {} {} <small>({})</small></h1>\n<p>In {}. Measured: \
         <span id=\"verdict\" class=\"verdict {verdict}\" data-verdict=\"{verdict}\">{}</span></p>\n",
        esc(&arm.arm),
        esc(g.agent.display_name()),
        esc(&g.agent_version),
        g.mode.as_str(),
        a(&grid, &format!("the {} grid", Model::title(g))),
        esc(&arm.tally.label())
    );
    let known = m.site.catalog.get(&arm.arm);
    let rows = m.sessions(g, &arm.arm);
    reproduce_section(m, g, arm, &mut s);
    arm_section(known, arm, rows.first(), &mut s);
    expectation_section(g, arm, known, &mut s);
    bisect_section(m, g, arm, &mut s);
    history_section(m, g, arm, &at, &mut s);
    sessions_section(rows, &mut s);
    elsewhere_section(m, g, arm, &at, &mut s);
    page(&at, &title, &s)
}
