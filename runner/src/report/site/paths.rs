//! Where each page of the site lives. A cell's path comes from its agent,
//! version, mode and arm name alone (never from the order of rows or
//! arms), so a link to `crash/bare` on Claude Code 2.1.328 stays valid
//! whatever else is added:
//!
//! - `index.html`, `timeline.html`, `versions.html`: the front page, the
//!   history's timeline, its ledger;
//! - `census.html` and `census/<guard>-<version>.json`: the census of
//!   public guards and each row's evidence;
//! - `<agent>/<version>.html`: one agent version's grid
//!   (`claude-code/2.1.328.html`; interactive sessions:
//!   `claude-code/2.1.328-interactive.html`);
//! - `<agent>/<version>/<arm>.html`: one cell's evidence
//!   (`claude-code/2.1.328/crash/bare.html`,
//!   `claude-code/2.1.328/crash/native@bash.html`).
//!
//! Names are written as they are where they are safe in a URL and a file
//! name (letters, digits, `.`, `-`, `@`, `+`; an arm's `/` starts a folder);
//! every other byte, `_` included, becomes `_XX` (its hex), so two names
//! never share a path. (A name can still make a folder where another's page
//! is, `x.html/` beside `x.html`: [`check`] refuses such a site.)

use crate::agent::Agent;
use crate::mode::Mode;

/// The front page.
pub const INDEX: &str = "index.html";
/// The timeline of `history.csv`.
pub const TIMELINE: &str = "timeline.html";
/// The history's ledger: every release's binary.
pub const VERSIONS: &str = "versions.html";
/// The census of public guards (`census.csv`), its evidence in `census/`.
pub const CENSUS: &str = "census.html";

fn safe(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'@' | b'+')
}

/// One path segment: safe bytes kept, others `_XX`; a segment that would be
/// empty or only dots (`.`, `..`) is escaped whole.
fn segment(s: &str) -> String {
    let whole = s.is_empty() || s.bytes().all(|b| b == b'.');
    if s.is_empty() {
        return "_".to_string();
    }
    s.bytes().map(|b| if safe(b) && !whole { (b as char).to_string() } else { format!("_{b:02X}") }).collect()
}

/// An arm name as a path: each `/`-separated part a [`segment`].
fn arm_path(arm: &str) -> String {
    arm.split('/').map(segment).collect::<Vec<_>>().join("/")
}

/// The folder name of an agent version in a mode: `2.1.328`, `2.1.328-interactive`.
fn version_name(version: &str, mode: Mode) -> String {
    match mode {
        Mode::Print => segment(version),
        Mode::Interactive => format!("{}-interactive", segment(version)),
    }
}

/// The grid page of an agent version in a mode.
pub fn grid(agent: Agent, version: &str, mode: Mode) -> String {
    format!("{}/{}.html", agent.as_str(), version_name(version, mode))
}

/// The evidence page of one cell.
pub fn cell(agent: Agent, version: &str, mode: Mode, arm: &str) -> String {
    format!("{}/{}/{}.html", agent.as_str(), version_name(version, mode), arm_path(arm))
}

/// The link from the page at `from` to the page at `to` (both site paths).
pub fn link(from: &str, to: &str) -> String {
    let depth = from.matches('/').count();
    format!("{}{to}", "../".repeat(depth))
}

/// Refuse pages that share a path, or a page where another needs a folder.
pub fn check<'a>(paths: impl IntoIterator<Item = &'a str>) -> anyhow::Result<()> {
    let mut files = std::collections::BTreeSet::new();
    let mut folders = std::collections::BTreeSet::new();
    for p in paths {
        if !files.insert(p) {
            anyhow::bail!("two pages of the site would be {p}: rename an arm or a version");
        }
        let mut at = 0;
        while let Some(i) = p[at..].find('/') {
            folders.insert(&p[..at + i]);
            at += i + 1;
        }
    }
    if let Some(p) = files.intersection(&folders).next() {
        anyhow::bail!("the site would need {p} as a page and as a folder: rename an arm or a version");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_come_from_agent_version_mode_and_arm_only() {
        assert_eq!(
            cell(Agent::ClaudeCode, "2.1.328", Mode::Print, "crash/bare"),
            "claude-code/2.1.328/crash/bare.html"
        );
        assert_eq!(
            cell(Agent::ClaudeCode, "2.1.328", Mode::Interactive, "crash/native@bash"),
            "claude-code/2.1.328-interactive/crash/native@bash.html"
        );
        assert_eq!(
            cell(Agent::Codex, "0.171.0", Mode::Print, "deny/bare+other-event-matcher-not-string"),
            "codex/0.171.0/deny/bare+other-event-matcher-not-string.html"
        );
        assert_eq!(grid(Agent::Gemini, "0.61.0", Mode::Print), "gemini/0.61.0.html");
        assert_eq!(link("claude-code/2.1.328/crash/bare.html", INDEX), "../../../index.html");
        assert_eq!(link(INDEX, "codex/0.171.0.html"), "codex/0.171.0.html");
    }

    #[test]
    fn odd_names_are_escaped_and_never_collide() {
        assert_eq!(arm_path("a b/<x>"), "a_20b/_3Cx_3E");
        assert_eq!(arm_path("../x"), "_2E_2E/x", "no way out of the folder");
        assert_eq!(arm_path("a//b"), "a/_/b");
        let names = ["a_2Fb", "a/b", "a_b", "a b", "a//b", "a/_/b", "./a", "_2E/a", ".../a"];
        let paths: std::collections::HashSet<String> = names.iter().map(|n| arm_path(n)).collect();
        assert_eq!(paths.len(), names.len(), "{paths:?}");
        for p in &paths {
            assert!(p.split('/').all(|s| !s.is_empty() && s.bytes().any(|b| b != b'.')), "{p}");
        }
    }

    #[test]
    fn a_page_where_another_needs_a_folder_is_refused() {
        let x = cell(Agent::ClaudeCode, "1", Mode::Print, "x");
        let y = cell(Agent::ClaudeCode, "1", Mode::Print, "x.html/y");
        assert!(check([x.as_str(), "index.html"]).is_ok());
        assert!(check([x.as_str(), y.as_str()]).unwrap_err().to_string().contains("as a page and as a folder"));
        assert!(check(["a.html", "a.html"]).unwrap_err().to_string().contains("two pages"));
    }
}
