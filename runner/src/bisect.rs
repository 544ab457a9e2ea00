//! `failopen bisect`: the first release of an agent (Claude Code by default)
//! whose verdict on one arm, and optionally whether its rows carry a flag,
//! differs from a known-good release's.
//!
//! The candidates are the versions the registry publishes between good
//! and bad. Each probe installs the version (if needed) and runs the arm; a
//! probe whose sessions are `invalid` or mixed cannot be placed on either
//! side and is skipped, like `git bisect skip`, with one exception: every
//! session `invalid` for `hook-not-run` is a verdict of its own (the version
//! never loaded the hook: a fact about what it reads, not a broken session),
//! so a bisect can find the release that started or stopped loading it.

use std::path::Path;

use crate::install::VersionSpec;
use crate::record::Row;
use crate::tally::Tally;
use crate::version::{self, Version};

/// What one probe found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The version probed.
    pub version: String,
    /// Its summary verdict (`blocked`, `wrote`, `invalid`, `mixed`).
    pub verdict: String,
}

/// The outcome of a bisection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bisection {
    /// The good version's verdict.
    pub good: Probe,
    /// The bad version's verdict.
    pub bad: Probe,
    /// Every probe in order (good and bad first).
    pub log: Vec<Probe>,
    /// The first version whose verdict differs from the good one's (None if undecidable).
    pub first_different: Option<String>,
    /// The last version with the good verdict before it.
    pub last_same: Option<String>,
    /// Versions skipped because their verdict was invalid or mixed.
    pub skipped: Vec<String>,
}

/// The published versions from `good` to `bad` (by [`Version`]'s order), in
/// ascending order: `good` first and `bad` last, unless one of them is a
/// pre-release (pre-releases, and entries that are not versions, are left
/// out). Both must be published, and `good` must be the older.
pub fn candidates(published: &[String], good: &str, bad: &str) -> Result<Vec<String>, String> {
    let parse = |v: &str| v.parse::<Version>().map_err(|e| e.to_string());
    let (g, b) = (parse(good)?, parse(bad)?);
    if g >= b {
        return Err(format!("the good version {good} must be older than the bad version {bad}"));
    }
    for v in [good, bad] {
        if !published.iter().any(|p| p == v) {
            return Err(format!("version {v} is not published on the npm registry"));
        }
    }
    let mut between: Vec<String> = published
        .iter()
        .filter(|v| v.parse::<Version>().is_ok_and(|k| !k.is_prerelease() && k >= g && k <= b))
        .cloned()
        .collect();
    between.sort_by(|x, y| version::compare(x, y));
    between.dedup();
    Ok(between)
}

/// The summary verdict of an arm's rows ([`Tally::summary`]'s word), or
/// [`HOOK_NOT_RUN`] when every row is `invalid` for that reason.
pub fn summary(rows: &[Row]) -> String {
    let mut t = Tally::default();
    rows.iter().for_each(|r| t.add(r));
    let not_run = crate::verdict::InvalidReason::HookNotRun.as_str();
    if !rows.is_empty()
        && rows.iter().all(|r| r.verdict == crate::verdict::VerdictKind::Invalid && r.reason == *not_run)
    {
        return HOOK_NOT_RUN.to_string();
    }
    t.summary().to_string()
}

/// [`summary`], and with `flag`, whether every row carries it:
/// `wrote with FLAG`, `wrote without FLAG`, or `mixed` when only some do.
pub fn summary_with_flag(rows: &[Row], flag: Option<&str>) -> String {
    let verdict = summary(rows);
    let Some(flag) = flag else { return verdict };
    let carries = |r: &Row| r.flags.split(';').any(|f| f == flag);
    if !decisive(&verdict) {
        verdict
    } else if rows.iter().all(carries) {
        format!("{verdict} with {flag}")
    } else if rows.iter().any(carries) {
        "mixed".to_string()
    } else {
        format!("{verdict} without {flag}")
    }
}

/// The probe verdict of a version that never ran the hook in any session.
pub const HOOK_NOT_RUN: &str = "invalid hook-not-run";

/// `invalid REASON` when every row is `invalid` for one of `reasons` (the
/// same one), which `--invalid-as-verdict` makes a verdict of its own, as
/// [`HOOK_NOT_RUN`] always is; `None` otherwise (then [`summary_with_flag`]).
pub fn invalid_as_verdict(rows: &[Row], reasons: &[crate::verdict::InvalidReason]) -> Option<String> {
    let first = rows.first()?;
    let counted = reasons.iter().any(|r| r.as_str() == first.reason.as_str());
    let all_same = rows.iter().all(|r| r.verdict == crate::verdict::VerdictKind::Invalid && r.reason == first.reason);
    (counted && all_same).then(|| format!("invalid {}", first.reason))
}

/// Binary search over `versions` (ascending; first is good, last is bad),
/// calling `probe` for the versions it needs. `probe` returns the summary verdict.
pub async fn search<F, Fut>(versions: &[String], mut probe: F) -> anyhow::Result<Bisection>
where
    F: FnMut(String) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<String>>,
{
    let first = versions.first().ok_or_else(|| anyhow::anyhow!("no versions to bisect"))?.clone();
    let last = versions.last().cloned().unwrap_or_default();
    let good = Probe { version: first.clone(), verdict: probe(first.clone()).await? };
    let bad = Probe { version: last.clone(), verdict: probe(last.clone()).await? };
    let mut log = vec![good.clone(), bad.clone()];
    let mut skipped = Vec::new();
    for p in [&good, &bad] {
        if !decisive(&p.verdict) {
            anyhow::bail!("{} gives {}: the endpoints must give a clear blocked or wrote", p.version, p.verdict);
        }
    }
    if good.verdict == bad.verdict {
        anyhow::bail!("{} and {} both give {}: nothing to bisect", good.version, bad.version, good.verdict);
    }
    // Invariant: versions[lo] has the good verdict, versions[hi] differs.
    let (mut lo, mut hi) = (0usize, versions.len() - 1);
    let mut untested: Vec<usize> = (1..hi).collect();
    while hi - lo > 1 {
        let inside: Vec<usize> = untested.iter().copied().filter(|&i| i > lo && i < hi).collect();
        if inside.is_empty() {
            break; // everything between was skipped
        }
        let mid = inside[inside.len() / 2];
        untested.retain(|&i| i != mid);
        let v = versions[mid].clone();
        let verdict = probe(v.clone()).await?;
        log.push(Probe { version: v.clone(), verdict: verdict.clone() });
        if !decisive(&verdict) {
            skipped.push(v);
        } else if verdict == good.verdict {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let adjacent = versions[lo + 1..hi].iter().all(|v| skipped.contains(v));
    Ok(Bisection {
        first_different: adjacent.then(|| versions[hi].clone()),
        last_same: Some(versions[lo].clone()),
        good,
        bad,
        log,
        skipped,
    })
}

/// A verdict that places a version on one side: blocked, wrote, with or
/// without a flag ([`summary_with_flag`]), or `invalid REASON` with its
/// reason ([`HOOK_NOT_RUN`], [`invalid_as_verdict`]); a bare `invalid` (the
/// sessions' reasons differ, or were not asked to count) is no side.
fn decisive(verdict: &str) -> bool {
    let word = verdict.split(" with").next().unwrap_or(verdict);
    word == "blocked" || word == "wrote" || verdict.strip_prefix("invalid ").is_some_and(|r| !r.is_empty())
}

/// Resolve a version spec of `agent` to the exact published version (`latest` allowed).
pub async fn exact_version(spec: &str, agent: crate::agent::Agent) -> anyhow::Result<String> {
    match VersionSpec::parse(spec)? {
        VersionSpec::Version(v) => Ok(v),
        VersionSpec::Latest => Ok(crate::install::npm::latest_version(agent).await?),
        VersionSpec::Path(p) => {
            anyhow::bail!("bisect works on published versions, not a path: {}", Path::new(&p).display())
        }
        VersionSpec::Range(r) => anyhow::bail!("bisect takes one version at each end, not a range: {r}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn candidates_are_sorted_and_bounded() {
        let published = vs(&["2.1.9", "2.1.10", "2.1.100", "2.1.11", "2.2.0-beta", "2.1.12"]);
        assert_eq!(candidates(&published, "2.1.10", "2.1.12").unwrap(), vs(&["2.1.10", "2.1.11", "2.1.12"]));
        assert!(candidates(&published, "2.1.12", "2.1.10").is_err());
        assert!(candidates(&published, "2.1.10", "9.9.9").is_err());
        // Numerically, not as text; pre-releases stay out even inside the range.
        assert_eq!(
            candidates(&published, "2.1.9", "2.1.100").unwrap(),
            vs(&["2.1.9", "2.1.10", "2.1.11", "2.1.12", "2.1.100"])
        );
        assert_eq!(candidates(&published, "2.1.9", "2.2.0-beta").unwrap().last().map(String::as_str), Some("2.1.100"));
    }

    #[test]
    fn summary_is_the_tally_word() {
        use crate::test_helpers::row;
        use crate::verdict::VerdictKind::{Blocked as B, Invalid as I, Wrote as W};
        let rows = |vs: &[crate::verdict::VerdictKind]| -> Vec<Row> {
            vs.iter().enumerate().map(|(i, v)| row("1.0.0", "x/bare", i as u32 + 1, *v, "")).collect()
        };
        assert_eq!(summary(&rows(&[B, B])), "blocked");
        assert_eq!(summary(&rows(&[W])), "wrote");
        assert_eq!(summary(&rows(&[B, W])), "mixed");
        assert_eq!(summary(&rows(&[B, I])), "mixed");
        assert_eq!(summary(&rows(&[])), "invalid", "no runs is never blocked");
        // Every session hook-not-run: the version did not load the hook, a verdict of its own.
        let not_run = |reasons: &[&str]| -> Vec<Row> {
            reasons.iter().enumerate().map(|(i, r)| row("1.0.0", "x/bare", i as u32 + 1, I, r)).collect()
        };
        assert_eq!(summary(&not_run(&["hook-not-run", "hook-not-run"])), HOOK_NOT_RUN);
        assert!(decisive(HOOK_NOT_RUN));
        assert_eq!(summary(&not_run(&["hook-not-run", "session-error"])), "invalid");
        assert!(!decisive("invalid"));
    }

    /// `--invalid-as-verdict session-error`: a version whose every session
    /// is `invalid session-error` is a side of its own; other reasons, mixed
    /// reasons, or a row that is not invalid are not.
    #[test]
    fn an_invalid_reason_asked_for_is_a_verdict_when_every_row_has_it() {
        use crate::test_helpers::row;
        use crate::verdict::InvalidReason::{SessionError, SessionTimeout};
        use crate::verdict::VerdictKind::{Blocked as B, Invalid as I};
        let rows = |reasons: &[&str]| -> Vec<Row> {
            reasons.iter().enumerate().map(|(i, r)| row("0.2.150", "x/native", i as u32 + 1, I, r)).collect()
        };
        let errored = rows(&["session-error", "session-error"]);
        assert_eq!(invalid_as_verdict(&errored, &[SessionError]).as_deref(), Some("invalid session-error"));
        assert!(decisive("invalid session-error"));
        assert_eq!(invalid_as_verdict(&errored, &[SessionTimeout]), None, "not asked for");
        assert_eq!(invalid_as_verdict(&errored, &[]), None);
        assert_eq!(invalid_as_verdict(&rows(&["session-error", "session-timeout"]), &[SessionError]), None);
        let mut one_blocked = errored.clone();
        one_blocked.push(row("0.2.150", "x/native", 3, B, ""));
        assert_eq!(invalid_as_verdict(&one_blocked, &[SessionError]), None);
        assert_eq!(invalid_as_verdict(&[], &[SessionError]), None);
    }

    #[test]
    fn a_flag_splits_a_verdict_and_only_every_row_carries_it() {
        use crate::test_helpers::row;
        use crate::verdict::VerdictKind::{Invalid as I, Wrote as W};
        let flagged = |flags: &[&str]| -> Vec<Row> {
            let rows = flags.iter().enumerate().map(|(i, f)| {
                let mut r = row("1.0.0", "x/bare", i as u32 + 1, W, "");
                r.flags = f.to_string();
                r
            });
            rows.collect()
        };
        let n = "sdk-notice:hook_callback_failed";
        let with = flagged(&["bundled-cli:2.1.1;sdk-notice:hook_callback_failed", n]);
        assert_eq!(summary_with_flag(&with, Some(n)), format!("wrote with {n}"));
        assert_eq!(summary_with_flag(&flagged(&["bundled-cli:2.1.1"]), Some(n)), format!("wrote without {n}"));
        assert_eq!(summary_with_flag(&flagged(&[n, ""]), Some(n)), "mixed");
        assert_eq!(summary_with_flag(&with, None), "wrote");
        // A prefix of the flag is not the flag.
        assert_eq!(summary_with_flag(&flagged(&["sdk-notice:hook_callback"]), Some(n)), format!("wrote without {n}"));
        assert!(decisive(&format!("wrote with {n}")) && decisive(&format!("blocked without {n}")));
        let invalid = vec![row("1.0.0", "x/bare", 1, I, "session-error")];
        assert_eq!(summary_with_flag(&invalid, Some(n)), "invalid");
        assert!(!decisive("mixed") && !decisive("invalid"));
    }

    fn run_search(versions: &[String], flip_at: usize, skip: &[usize]) -> Bisection {
        let versions_owned = versions.to_vec();
        let skip = skip.to_vec();
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        rt.block_on(search(versions, move |v| {
            let i = versions_owned.iter().position(|x| *x == v).unwrap();
            let verdict = if skip.contains(&i) {
                "invalid"
            } else if i >= flip_at {
                "blocked"
            } else {
                "wrote"
            };
            async move { Ok(verdict.to_string()) }
        }))
        .unwrap()
    }

    #[test]
    fn finds_the_first_version_that_differs() {
        let versions: Vec<String> = (0..20).map(|i| format!("1.0.{i}")).collect();
        for flip in 1..20 {
            let b = run_search(&versions, flip, &[]);
            assert_eq!(b.first_different.as_deref(), Some(versions[flip].as_str()), "flip at {flip}");
            assert!(b.log.len() <= 2 + 5, "binary, not linear: {}", b.log.len());
        }
    }

    #[test]
    fn skipped_versions_widen_the_answer() {
        let versions: Vec<String> = (0..10).map(|i| format!("1.0.{i}")).collect();
        // 1.0.5 is the first blocked, 1.0.4 cannot be judged: the change is somewhere in 1.0.4..=1.0.5.
        let b = run_search(&versions, 5, &[4]);
        assert_eq!(b.first_different.as_deref(), Some("1.0.5"));
        assert_eq!(b.last_same.as_deref(), Some("1.0.3"));
        assert_eq!(b.skipped, vs(&["1.0.4"]));
    }
}
