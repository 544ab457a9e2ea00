//! The census page (`census.html`): every public guard of the census, what
//! fails open in it and the one change audit proved closes it, each verdict
//! linking to its evidence (the audit report, copied beside the page as
//! `census/<guard>-<version>.json`) and each row to its project, its
//! version and the command that measures it again. It states the method
//! and when each row was measured, and claims nothing beyond the rows.

use std::fmt::Write;

use serde_json::Value;

use super::page::{a, page, repo_link};
use super::paths;
use crate::census::row::{Row, FAULTS};
use crate::report::svg::esc;

/// One guard's row and its evidence JSON (as `failopen census` wrote them).
#[derive(Debug, Clone)]
pub struct CensusEntry {
    pub row: Row,
    pub evidence: Value,
}

impl CensusEntry {
    /// The evidence file's path in the site (and under `results/`).
    pub fn evidence_path(&self) -> String {
        format!("census/{}-{}.json", self.row.guard, self.row.version)
    }

    /// The command that measures this row again.
    pub fn rerun(&self) -> String {
        format!("failopen census --only {} --force", self.row.guard)
    }
}

/// The CSS class of a verdict: blocked and wrote in the legend's colours.
fn class(verdict: &str) -> &'static str {
    match verdict {
        "blocked" => "v blocked",
        "wrote" => "v wrote",
        "invalid" => "v invalid",
        _ => "v notrun",
    }
}

/// The page.
pub fn render(entries: &[CensusEntry]) -> String {
    let mut s = String::from("<h1>The census of public guards</h1>\n");
    let dates: Vec<&str> = entries.iter().map(|e| e.row.measured.get(..10).unwrap_or("")).collect();
    let (first, last) = (dates.iter().min().copied().unwrap_or(""), dates.iter().max().copied().unwrap_or(""));
    let agents: std::collections::BTreeSet<String> =
        entries.iter().map(|e| format!("Claude Code {}", e.row.agent_version)).collect();
    let _ = writeln!(
        s,
        "<p id=\"method\">Method: each guard was installed from its registry (npm or PyPI), pinned by version and \
         checked against the registry's integrity hash, and set up in a fresh project and HOME exactly as its README \
         says (the steps are in each row's evidence). Then <code>failopen audit</code> ran on {} in its sandbox: it \
         found a call the guard refuses (the probe), confirmed the refusal in an agent session, and injected each fault \
         into the guard (never into its launcher) under that call, judging each by whether the call ran. Measured \
         between <time id=\"measured\">{}</time> and {}.</p>",
        esc(&agents.into_iter().collect::<Vec<_>>().join(", ")),
        esc(first),
        esc(last)
    );
    s.push_str(
        "<p>What this is not: each row is one install, one agent version, one machine, and the probe named in it. \
         A row says nothing about another version of the guard or the agent, other calls, or faults not listed. \
         <em>wrote</em> means the refused call ran under that fault: the guard failed open; <em>blocked</em> means it \
         was refused; <em>skipped</em> means audit did not apply that fault (for instance no timeout is set, so a hang \
         is not waited for 600 s), and a dash that there was no refused call to inject it under.</p>\n",
    );
    s.push_str("<div class=\"scroll\"><table id=\"census\">\n<tr><th>guard</th><th>probe</th>");
    for f in FAULTS {
        let _ = write!(s, "<th>{}</th>", esc(f));
    }
    s.push_str("<th>status</th><th>what fails open</th><th>the change that closes it (re-checked)</th><th>measured</th><th>rerun</th></tr>\n");
    for e in entries {
        row(&mut s, e);
    }
    s.push_str("</table></div>\n");
    s.push_str(&rerun_and_close());
    page(paths::CENSUS, "The census of public guards", &s)
}

fn row(s: &mut String, e: &CensusEntry) {
    let r = &e.row;
    let ev = &e.evidence;
    let evidence = paths::link(paths::CENSUS, &e.evidence_path());
    let url = ev["url"].as_str().unwrap_or("");
    let registry = ev["package"]["registry"].as_str().unwrap_or("");
    let package = ev["package"]["name"].as_str().unwrap_or(&r.guard);
    let _ = write!(
        s,
        "<tr data-guard=\"{}\"><td>{} <small>{} {}@{}</small>",
        esc(&r.guard),
        a(url, &r.guard),
        esc(registry),
        esc(package),
        esc(&r.version)
    );
    if let Some(limit) = ev["documented_limit"].as_str() {
        let _ = write!(s, "<br><small class=\"documented\">the project documents: {}</small>", esc(limit));
    }
    let _ = write!(s, "</td><td><code>{}</code></td>", esc(&r.probe));
    for f in FAULTS {
        let v = r.verdict(f).unwrap_or("-");
        let _ = write!(
            s,
            "<td class=\"{}\" data-fault=\"{}\"><a href=\"{}\" title=\"evidence; reproduce: {}\">{}</a></td>",
            class(v),
            esc(f),
            esc(&evidence),
            esc(&e.rerun()),
            esc(v)
        );
    }
    let open: Vec<&str> = FAULTS.iter().copied().filter(|f| r.verdict(f) == Some("wrote")).collect();
    let open = if open.is_empty() { "nothing measured".to_string() } else { open.join(", ") };
    let _ = writeln!(
        s,
        "<td>{} <small>(exit {})</small></td><td>{}</td><td>{}</td><td>{}</td><td><code class=\"rerun\">{}</code></td></tr>",
        esc(&r.status),
        r.exit_code,
        esc(&open),
        esc(&r.fix),
        esc(&r.measured),
        esc(&e.rerun())
    );
}

fn rerun_and_close() -> String {
    format!(
        "<h2 id=\"rerun\">Rerun a row</h2>\n<p>A maintainer reruns their own row from a clone of failopen: \
         <code>failopen census --only NAME --force</code> installs the pinned version again from a clean cache, audits \
         it and rewrites its row and evidence (<code>guards/census.json</code> holds the version, the integrity, the \
         README's steps and the expected verdicts). To measure a new release, change its version and integrity there. \
         To audit your own setup instead, run <code>failopen audit</code> in the project ({}).</p>\n\
         <h2 id=\"close\">Closing each hole</h2>\n<p>Every hole above is a fault Claude Code reads as \"no decision\", \
         so the call goes through. Two changes close them. The row's fix column shows the change audit applied to a \
         copy and re-ran, with the re-check's outcome: <em>proved</em> when every hole closed and every refusal \
         survived, <em>unsettled</em> when some hole could not be run again on the copy (the evidence says which):</p>\n<ul>\n\
         <li><code>failopen seal --install SETTINGS.json</code> wraps each hook: seal answers in the guard's place, and \
         anything but a clean allow from the guard (a crash, a missing script or launcher, a signal, a hang past the \
         deadline) becomes a refusal ({}).</li>\n\
         <li>the agent's own option: <code>\"onFailure\": \"block\"</code> on the hook (Claude Code honours it), with a \
         short <code>\"timeout\"</code> so a hang ends in a refusal instead of a 600 s wait.</li>\n</ul>\n",
        a(&repo_link("docs/audit.md"), "docs/audit.md"),
        a(&repo_link("docs/seal.md"), "docs/seal.md")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_cell_links_its_evidence_and_each_row_its_project_and_rerun() {
        let mut row = Row::from_audit("g", "1.2.3", &json!({"agents": [{"version": "2.1.328"}]}), 3);
        row.crash = "wrote".into();
        row.measured = "2026-12-04T22:00:00Z".into();
        let e = CensusEntry {
            row,
            evidence: json!({"url": "https://example.org/g", "package": {"registry": "npm", "name": "g"},
                             "documented_limit": "it says so"}),
        };
        let html = render(&[e]);
        assert!(html.contains("href=\"census/g-1.2.3.json\""), "{html}");
        assert!(html.contains("href=\"https://example.org/g\""), "{html}");
        assert!(html.contains("failopen census --only g --force"), "{html}");
        assert!(html.contains("the project documents: it says so"), "{html}");
        assert!(html.contains("<td class=\"v wrote\" data-fault=\"crash\">"), "{html}");
        assert!(html.contains("<time id=\"measured\">2026-12-04</time>"), "{html}");
    }
}
