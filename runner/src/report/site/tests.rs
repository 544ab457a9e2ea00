//! Unit tests of the site (report/site/).

use super::*;
use crate::record::Row;
use crate::test_helpers::row;
use crate::verdict::VerdictKind::{Blocked as B, Invalid as I, Wrote as W};

fn agent_row(agent: &str, version: &str, arm: &str, verdict: crate::verdict::VerdictKind) -> Row {
    let mut r = row(version, arm, 1, verdict, "");
    r.agent = agent.into();
    r
}

/// Claude Code 2.1.240 and 2.1.328, Codex 0.171.0: crash and deny, bare and
/// sealed; a surface arm; an invalid row.
fn rows() -> Vec<Row> {
    let mut rows = Vec::new();
    for v in ["2.1.240", "2.1.328"] {
        for (arm, verdict) in [("deny/bare", B), ("deny/sealed", B), ("crash/bare", W), ("crash/sealed", B)] {
            for repeat in 1..=3 {
                let mut r = row(v, arm, repeat, verdict, "");
                r.harness_said = "PreToolUse:Bash hook error: [<guard>]".into();
                rows.push(r);
            }
        }
    }
    let verdict = |v: &str| if v == "2.1.240" { W } else { B };
    for v in ["2.1.240", "2.1.328"] {
        let mut r = row(v, "crash/native@bash", 1, verdict(v), "");
        (r.guard, r.wrapper) = ("crash".into(), "native".into());
        rows.push(r);
    }
    rows.push(row("2.1.328", "perm-deny/bare@PermissionRequest", 1, I, "hook-not-run"));
    rows.push(row("2.1.328", "crash/native", 1, B, ""));
    for (arm, verdict) in [("deny/bare", B), ("deny/sealed", B), ("crash/bare", W), ("crash/sealed", B)] {
        rows.push(agent_row("codex", "0.171.0", arm, verdict));
    }
    rows
}

fn site() -> Site {
    let answer = "first version whose crash/native@bash verdict differs from 2.1.240: 2.1.295 (last with the good verdict: 2.1.294)";
    Site {
        bisects: vec![Bisect::parse("bisect-crash-native-bash.txt", &format!("steps\n{answer}\n")).unwrap()],
        catalog: Catalog::builtin().unwrap(),
        history: vec![row("2.1.294", "crash/native", 1, W, ""), row("2.1.295", "crash/native", 1, B, "")],
        ..Site::default()
    }
}

fn pages() -> Vec<Page> {
    match site().export(&rows()).unwrap() {
        Output::Folder(p) => p,
        Output::Text(_) => panic!("the site is a folder"),
    }
}

fn text<'a>(pages: &'a [Page], path: &str) -> &'a str {
    &pages.iter().find(|p| p.path == path).unwrap_or_else(|| panic!("no page {path}")).text
}

#[test]
fn every_cell_has_its_page_at_a_path_from_its_names() {
    let pages = pages();
    let paths: Vec<&str> = pages.iter().map(|p| p.path.as_str()).collect();
    for p in [
        "index.html",
        "timeline.html",
        "versions.html",
        "claude-code/2.1.328.html",
        "claude-code/2.1.328/crash/bare.html",
        "claude-code/2.1.240/crash/native@bash.html",
        "codex/0.171.0/deny/sealed.html",
    ] {
        assert!(paths.contains(&p), "{p} missing from {paths:?}");
    }
    // 3 site pages, 3 grids, 5 + 7 + 4 cells: one page per cell, none twice.
    assert_eq!(pages.len(), 3 + 3 + 5 + 7 + 4, "{paths:?}");
}

#[test]
fn the_headline_holds_each_agents_newest_version_bare_and_sealed() {
    let pages = pages();
    let front = text(&pages, "index.html");
    let cell = |agent: &str, version: &str, arm: &str, verdict: &str| {
        format!("data-agent=\"{agent}\" data-version=\"{version}\" data-arm=\"{arm}\" data-verdict=\"{verdict}\"")
    };
    assert!(front.contains(&cell("claude-code", "2.1.328", "crash/bare", "wrote")), "{front}");
    assert!(front.contains(&cell("codex", "0.171.0", "crash/sealed", "blocked")));
    assert!(!front.contains("data-version=\"2.1.240\" data-arm"), "only the newest version is in the headline");
    assert!(!front.contains("data-arm=\"crash/native@bash\" data-verdict"), "not run bare and sealed everywhere");
    assert!(front.contains("href=\"claude-code/2.1.328/crash/bare.html\""));
    assert!(front.contains("2.1.295 (last with the good verdict: 2.1.294)"), "the bisect's answer");
}

#[test]
fn a_grid_cell_carries_its_facets_and_links_to_its_evidence() {
    let pages = pages();
    let grid = text(&pages, "claude-code/2.1.240.html");
    assert!(
        grid.contains(
            "data-arm=\"crash/native@bash\" data-guard=\"crash\" data-wrapper=\"native\" data-hook-type=\"command\" \
         data-event=\"PreToolUse\" data-source=\"settings-flag\" data-route=\"bash\" data-verdict=\"wrote\""
        ),
        "{grid}"
    );
    assert!(grid.contains("href=\"../claude-code/2.1.240/crash/native@bash.html\""));
    for key in ["guard", "wrapper", "hook_type", "event", "source", "route", "verdict"] {
        assert!(grid.contains(&format!("<select id=\"f-{key}\">")), "{key}");
    }
    assert!(grid.contains("href=\"../claude-code/2.1.328.html\""), "the other version");
}

#[test]
fn a_cell_page_shows_its_expectation_bisect_history_and_rows() {
    let pages = pages();
    let bash = text(&pages, "claude-code/2.1.328/crash/native@bash.html");
    assert!(bash.contains("data-verdict=\"blocked\">blocked 1/1"), "{bash}");
    assert!(bash.contains("arms/surface.json"), "where the arm is defined");
    assert!(bash.contains("data-expected=\"blocked\"") && bash.contains("measured as expected"));
    assert!(bash.contains("from 2.1.295: blocked"), "the expectation's change");
    assert!(bash.contains("id=\"bisect\"") && bash.contains("steps\n"), "the bisect file, whole");
    assert!(bash.contains("href=\"../../../claude-code/2.1.240/crash/native@bash.html\""), "the same arm elsewhere");
    let crash = text(&pages, "claude-code/2.1.328/crash/bare.html");
    assert_eq!(crash.matches("<tr data-verdict=\"wrote\">").count(), 3, "a row per session");
    assert!(crash.contains("PreToolUse:Bash hook error: [&lt;guard&gt;]"), "rows are escaped");
    assert!(!crash.contains("id=\"bisect\""), "no bisect answers for crash/bare");
    let native = text(&pages, "claude-code/2.1.328/crash/native.html");
    assert!(native.contains("<span class=\"v wrote\">wrote</span> on 2.1.294, 1 release</li>"), "{native}");
    assert!(native.contains("<span class=\"v blocked\">blocked</span> on 2.1.295, 1 release</li>"));
    assert!(native.contains("timeline.html#guard=crash&amp;wrapper=native"));
    let invalid = text(&pages, "claude-code/2.1.328/perm-deny/bare@PermissionRequest.html");
    assert!(invalid.contains("Invalid, <code>hook-not-run</code>: a covered write was attempted, yet no hook ran"));
    let codex = text(&pages, "codex/0.171.0/crash/bare.html");
    assert!(codex.contains("Expected on 0.171.0: <strong>wrote</strong>"), "article.json's expect.codex");
    assert!(!codex.contains("id=\"history\""), "the history is Claude Code's");
}

#[test]
fn pages_fetch_nothing_and_link_out_only_to_the_repository() {
    let repo = format!("href=\"{}/blob/main/", env!("CARGO_PKG_REPOSITORY"));
    for p in pages() {
        for needle in ["src=", "http://", "<link", "@import", "url("] {
            assert!(!p.text.contains(needle), "{} holds {needle}", p.path);
        }
        let out = p.text.matches("https://").count();
        assert_eq!(out, p.text.matches(&repo).count(), "{}: a link out of the site not to the repository", p.path);
        for doc in ["docs/install.md", "docs/audit.md", "docs/seal.md"] {
            assert!(p.path == "timeline.html" || p.text.contains(&format!("{repo}{doc}\"")), "{}: {doc}", p.path);
        }
    }
}

#[test]
fn a_cell_page_says_how_to_run_it_again_and_links_its_guards_code() {
    let pages = pages();
    let codex = text(&pages, "codex/0.171.0/crash/bare.html");
    assert!(
        codex.contains(
            "<pre class=\"cmd\" id=\"reproduce\">failopen run --agent codex --agent-version 0.171.0 --arms article --only crash/bare</pre>"
        ),
        "{codex}"
    );
    assert!(codex.contains("/blob/main/guards/crash.sh\">guards/crash.sh</a>"), "the guard's script");
    let bash = text(&pages, "claude-code/2.1.328/crash/native@bash.html");
    assert!(bash.contains("--arms surface --only crash/native@bash</pre>"), "{bash}");
    let odd = reproduce_of("deny/bare+matcher-Bash|Write");
    assert_eq!(odd.as_deref(), Some("failopen run --agent claude-code --agent-version 2.1.328 --arms continue --only 'deny/bare+matcher-Bash|Write'"));
}

/// The command a Claude Code 2.1.328 cell of `arm` would print.
fn reproduce_of(arm: &str) -> Option<String> {
    let site = site();
    let rows = [row("2.1.328", arm, 1, B, "")];
    let m = Model::new(&site, &rows);
    cell_page::reproduce(&m, &m.report.versions[0], arm)
}

#[test]
fn no_rows_is_an_error_and_render_is_the_front_page() {
    assert!(site().export(&[]).unwrap_err().to_string().contains("reference rows"));
    let front = site().render(&rows()).unwrap();
    assert_eq!(front, text(&pages(), "index.html"));
}
