//! Claude Code version numbers: one parser and one order for the whole crate.
//!
//! A [`Version`] is `MAJOR.MINOR.PATCH`, an optional `-pre-release` and an
//! optional `+build` (semver 2.0.0 syntax, strictly: no leading zeros in
//! numbers, no empty identifiers). Versions order by semver precedence:
//! numbers numerically (`2.1.40 < 2.1.328`), a pre-release before its
//! release (`2.1.0-beta.1 < 2.1.0`), pre-release identifiers one by one
//! (numeric ones numerically and before alphanumeric ones, which compare as
//! ASCII text; a shorter list of equal identifiers first). Build metadata
//! carries no precedence; it only breaks ties, so that the order agrees
//! with equality.
//!
//! Where versions are data (the `agent_version` column of a results file),
//! they stay strings and are ordered with [`compare`].

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A semver version, e.g. `2.1.328` or `2.1.0-beta.1`.
///
/// Parsing and [`Display`](fmt::Display) round-trip: the text a version was
/// parsed from is the text it prints.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Version {
    major: u64,
    minor: u64,
    patch: u64,
    /// The pre-release after `-`, validated (dot-separated identifiers).
    pre: Option<String>,
    /// The build metadata after `+`, validated.
    build: Option<String>,
}

/// Why a string is not a [`Version`]; carries the string.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{input:?} is not a version ({problem}); expected MAJOR.MINOR.PATCH with an optional -pre-release, e.g. 2.1.328 or 2.1.0-beta.1")]
pub struct VersionError {
    /// The text that did not parse.
    pub input: String,
    /// What is wrong with it.
    pub problem: &'static str,
}

impl Version {
    /// A release (no pre-release, no build metadata).
    pub const fn new(major: u64, minor: u64, patch: u64) -> Version {
        Version { major, minor, patch, pre: None, build: None }
    }

    /// The major number.
    pub fn major(&self) -> u64 {
        self.major
    }

    /// The minor number.
    pub fn minor(&self) -> u64 {
        self.minor
    }

    /// The patch number.
    pub fn patch(&self) -> u64 {
        self.patch
    }

    /// The pre-release without its `-` (`beta.1`), if any.
    pub fn pre_release(&self) -> Option<&str> {
        self.pre.as_deref()
    }

    /// The build metadata without its `+`, if any.
    pub fn build(&self) -> Option<&str> {
        self.build.as_deref()
    }

    /// Whether this is a pre-release (`2.1.0-beta.1`), which sorts before its release.
    pub fn is_prerelease(&self) -> bool {
        self.pre.is_some()
    }
}

/// The version in what `--version` printed: the first word of the last line
/// that starts with a version (Claude Code's `2.1.328 (Claude Code)`, Gemini
/// CLI's `0.61.0`; Codex's own form is read by `Agent::reported_version`). Lines
/// before it are the binary's own warnings, e.g. 2.0.20's "Claude
/// configuration file not found" when `~/.claude.json` is missing.
pub fn reported_version(output: &str) -> Option<&str> {
    output.lines().rev().filter_map(|line| line.split_whitespace().next()).find(|word| word.parse::<Version>().is_ok())
}

impl FromStr for Version {
    type Err = VersionError;

    fn from_str(s: &str) -> Result<Version, VersionError> {
        let err = |problem| VersionError { input: s.to_string(), problem };
        let (rest, build) = match s.split_once('+') {
            Some((rest, build)) => (rest, Some(build)),
            None => (s, None),
        };
        let (core, pre) = match rest.split_once('-') {
            Some((core, pre)) => (core, Some(pre)),
            None => (rest, None),
        };
        let numbers: Vec<&str> = core.split('.').collect();
        let [major, minor, patch] = numbers[..] else {
            return Err(err("MAJOR.MINOR.PATCH needs exactly three dot-separated numbers"));
        };
        let number = |n: &str| -> Result<u64, VersionError> {
            if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
                return Err(err("MAJOR, MINOR and PATCH must be numbers"));
            }
            if n.len() > 1 && n.starts_with('0') {
                return Err(err("a number has a leading zero"));
            }
            n.parse().map_err(|_| err("a number is too large"))
        };
        let (major, minor, patch) = (number(major)?, number(minor)?, number(patch)?);
        if let Some(pre) = pre {
            for id in pre.split('.') {
                check_identifier(id).map_err(err)?;
                if is_numeric(id) && id.len() > 1 && id.starts_with('0') {
                    return Err(err("a numeric pre-release identifier has a leading zero"));
                }
            }
        }
        if let Some(build) = build {
            for id in build.split('.') {
                check_identifier(id).map_err(err)?;
            }
        }
        Ok(Version { major, minor, patch, pre: pre.map(str::to_string), build: build.map(str::to_string) })
    }
}

/// A pre-release or build identifier: non-empty, `[0-9A-Za-z-]` only.
fn check_identifier(id: &str) -> Result<(), &'static str> {
    if id.is_empty() {
        return Err("an empty identifier after - or +, or between dots");
    }
    if !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err("an identifier holds a character other than 0-9, A-Z, a-z and -");
    }
    Ok(())
}

fn is_numeric(id: &str) -> bool {
    id.bytes().all(|b| b.is_ascii_digit())
}

/// Semver's order of two pre-release identifiers (validated, so numeric
/// ones have no leading zeros and compare by length, then digits).
fn cmp_identifier(a: &str, b: &str) -> Ordering {
    match (is_numeric(a), is_numeric(b)) {
        (true, true) => a.len().cmp(&b.len()).then_with(|| a.cmp(b)),
        (true, false) => Ordering::Less,
        (false, true) => Ordering::Greater,
        (false, false) => a.cmp(b),
    }
}

/// Semver's order of two pre-releases; `None` (a release) is greatest.
fn cmp_pre(a: Option<&str>, b: Option<&str>) -> Ordering {
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(a), Some(b)) => {
            let (mut xs, mut ys) = (a.split('.'), b.split('.'));
            loop {
                match (xs.next(), ys.next()) {
                    (None, None) => return Ordering::Equal,
                    (None, Some(_)) => return Ordering::Less,
                    (Some(_), None) => return Ordering::Greater,
                    (Some(x), Some(y)) => match cmp_identifier(x, y) {
                        Ordering::Equal => {}
                        other => return other,
                    },
                }
            }
        }
    }
}

impl Ord for Version {
    /// Semver precedence; build metadata only breaks ties (none first, then as text).
    fn cmp(&self, other: &Version) -> Ordering {
        (self.major, self.minor, self.patch)
            .cmp(&(other.major, other.minor, other.patch))
            .then_with(|| cmp_pre(self.pre_release(), other.pre_release()))
            .then_with(|| self.build.cmp(&other.build))
    }
}

impl PartialOrd for Version {
    fn partial_cmp(&self, other: &Version) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if let Some(pre) = &self.pre {
            write!(f, "-{pre}")?;
        }
        if let Some(build) = &self.build {
            write!(f, "+{build}")?;
        }
        Ok(())
    }
}

/// Order two version strings (results-file data) through [`Version`].
///
/// Strings that parse compare as versions. A string that does not parse
/// (`2.1`, `unknown`) sorts after every version, and such strings compare
/// among themselves as text, so the order is total and deterministic, and
/// `Equal` only for equal strings.
pub fn compare(a: &str, b: &str) -> Ordering {
    match (a.parse::<Version>(), b.parse::<Version>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => Ordering::Less,
        (Err(_), Ok(_)) => Ordering::Greater,
        (Err(_), Err(_)) => a.cmp(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Version {
        s.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn the_version_claude_reports_is_found_after_its_warnings() {
        assert_eq!(reported_version("2.1.328 (Claude Code)\n"), Some("2.1.328"));
        // 2.0.20 with a backup of ~/.claude.json but no file (CI's HOME).
        let warned = "Claude configuration file not found at: /root/.claude.json\n\
                      A backup file exists at: /root/.claude.json.backup\n\n2.0.20 (Claude Code)\n";
        assert_eq!(reported_version(warned), Some("2.0.20"));
        assert_eq!(reported_version("Claude Code 2.1.328"), None);
        assert_eq!(reported_version(""), None);
    }

    #[test]
    fn numbers_compare_numerically() {
        assert!(v("2.1.40") < v("2.1.328"));
        assert!(v("10.0.0") > v("9.9.9"));
        assert!(v("2.10.0") > v("2.9.99"));
        assert_eq!(v("2.1.328").cmp(&v("2.1.328")), Ordering::Equal);
        assert_eq!(v("2.1.328"), Version::new(2, 1, 328));
    }

    #[test]
    fn a_pre_release_sorts_before_its_release() {
        assert!(v("2.1.0-beta.1") < v("2.1.0"));
        assert!(v("2.1.0") < v("2.1.1-alpha"), "but after the releases before it");
        assert!(v("2.1.0-beta.1").is_prerelease() && !v("2.1.0").is_prerelease());
    }

    #[test]
    fn pre_release_identifiers_compare_as_semver_says() {
        // The example list of semver 2.0.0, section 11.
        let chain = [
            "1.0.0-alpha",
            "1.0.0-alpha.1",
            "1.0.0-alpha.beta",
            "1.0.0-beta",
            "1.0.0-beta.2",
            "1.0.0-beta.11",
            "1.0.0-rc.1",
            "1.0.0",
        ];
        for pair in chain.windows(2) {
            assert!(v(pair[0]) < v(pair[1]), "{} < {}", pair[0], pair[1]);
        }
        assert!(v("1.0.0-alpha") < v("1.0.0-alpha.1") && v("1.0.0-alpha.1") < v("1.0.0-beta"));
        assert!(v("1.0.0-2") < v("1.0.0-10"), "numeric identifiers numerically");
        assert!(v("1.0.0-99999999999999999999") < v("1.0.0-100000000000000000000"), "past u64 too");
    }

    #[test]
    fn build_metadata_only_breaks_ties() {
        assert!(v("1.0.0+b") > v("1.0.0") && v("1.0.0+b") < v("1.0.1"));
        assert!(v("1.0.0-rc.1+z") < v("1.0.0"));
        assert_ne!(v("1.0.0+a"), v("1.0.0+b"));
    }

    #[test]
    fn display_round_trips() {
        for s in ["2.1.328", "0.0.0", "2.1.0-beta.1", "1.0.0-x-y.7+build.5", "1.0.0--"] {
            assert_eq!(v(s).to_string(), s);
        }
    }

    #[test]
    fn bad_input_is_an_error_that_names_it() {
        for bad in [
            "",
            "2.1",
            "2.1.x",
            "2.1.3.4",
            "v2.1.3",
            " 2.1.3",
            "2.1.3 ",
            "01.2.3",
            "1.02.3",
            "1.2.3-",
            "1.2.3-a..b",
            "1.2.3-01",
            "1.2.3-a_b",
            "1.2.3+",
            "1.2.3+a..b",
            "1.2.3+a+b",
            "99999999999999999999.0.0",
            "latest",
        ] {
            let e = bad.parse::<Version>().expect_err(bad);
            assert_eq!(e.input, bad);
            assert!(e.to_string().contains(&format!("{bad:?}")), "{e}");
        }
        assert!(v("1.2.3-0a") < v("1.2.3-0b") && v("1.2.3-0") < v("1.2.3-0a"), "0 and 0a are fine identifiers");
    }

    #[test]
    fn strings_that_do_not_parse_sort_after_every_version_by_text() {
        let mut data = vec!["unknown", "2.1.328", "2.1", "2.1.0-beta.1", "10.0.0", "2.1.40", "2.1.0"];
        data.sort_by(|a, b| compare(a, b));
        assert_eq!(data, ["2.1.0-beta.1", "2.1.0", "2.1.40", "2.1.328", "10.0.0", "2.1", "unknown"]);
        assert_eq!(compare("2.1", "2.1.0"), Ordering::Greater);
        assert_eq!(compare("x", "x"), Ordering::Equal);
    }
}
