//! Version ranges: `2.1.240..latest`, `2.1.300..2.1.310`, resolved against
//! the versions the npm registry publishes.
//!
//! A range is inclusive at both ends. Each end is a version or `latest`
//! (the registry's `latest` tag); both ends must be published, so that a
//! typo is an error rather than a silently shorter history. Pre-releases
//! inside the range are left out unless asked for.

use crate::version::{self, Version};

/// One end of a [`VersionRange`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    /// A version number (valid [`Version`] syntax).
    Version(String),
    /// The registry's `latest` tag, looked up when the range is resolved.
    Latest,
}

/// `FROM..TO`, both ends included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VersionRange {
    /// The oldest version of the range.
    pub from: Endpoint,
    /// The newest version of the range.
    pub to: Endpoint,
}

/// Why a range is not one, or resolves to nothing. Each variant carries the
/// text it is about.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RangeError {
    /// Not `FROM..TO` with two ends.
    #[error("{0:?} is not a version range: expected FROM..TO, each a version or `latest`, e.g. 2.1.240..latest")]
    Syntax(String),
    /// An end is neither a version nor `latest`.
    #[error("{range:?}: {end:?} is neither a version (e.g. 2.1.328) nor `latest`")]
    BadEnd { range: String, end: String },
    /// An end the registry does not publish; `nearest` are the published
    /// versions just below and above it.
    #[error("{range:?}: {version} is not published on the npm registry (nearest published: {})", if nearest.is_empty() { "none".to_string() } else { nearest.join(", ") })]
    Unpublished { range: String, version: String, nearest: Vec<String> },
    /// The ends are in the wrong order.
    #[error("{range:?}: {from} is newer than {to}; a range goes from the older version to the newer")]
    Backwards { range: String, from: String, to: String },
}

impl VersionRange {
    /// Parse `FROM..TO`. `None` when the text has no `..` (it is not meant
    /// as a range); `Some(Err)` when it has one but is malformed.
    pub fn parse(text: &str) -> Option<Result<VersionRange, RangeError>> {
        let (from, to) = text.trim().split_once("..")?;
        Some(Self::from_ends(text.trim(), from.trim(), to.trim()))
    }

    fn from_ends(text: &str, from: &str, to: &str) -> Result<VersionRange, RangeError> {
        if from.is_empty() || to.is_empty() || to.contains("..") {
            return Err(RangeError::Syntax(text.to_string()));
        }
        let end = |e: &str| match e {
            "latest" => Ok(Endpoint::Latest),
            v if v.parse::<Version>().is_ok() => Ok(Endpoint::Version(v.to_string())),
            other => Err(RangeError::BadEnd { range: text.to_string(), end: other.to_string() }),
        };
        Ok(VersionRange { from: end(from)?, to: end(to)? })
    }

    /// The published versions in the range, oldest first.
    ///
    /// `published` is the registry's list (any order; entries that are not
    /// versions are ignored), `latest` its `latest` tag. Pre-releases are
    /// kept only with `include_pre` (an end that is itself a pre-release is
    /// always kept).
    pub fn resolve(&self, published: &[String], latest: &str, include_pre: bool) -> Result<Vec<String>, RangeError> {
        let text = self.to_string();
        let pick = |e: &Endpoint| -> Result<Version, RangeError> {
            let v = match e {
                Endpoint::Version(v) => v.as_str(),
                Endpoint::Latest => latest,
            };
            if !published.iter().any(|p| p == v) {
                return Err(RangeError::Unpublished {
                    range: text.clone(),
                    version: v.to_string(),
                    nearest: nearest(published, v),
                });
            }
            v.parse::<Version>().map_err(|_| RangeError::BadEnd { range: text.clone(), end: v.to_string() })
        };
        let (from, to) = (pick(&self.from)?, pick(&self.to)?);
        if from > to {
            return Err(RangeError::Backwards { range: text, from: from.to_string(), to: to.to_string() });
        }
        let mut inside: Vec<String> = published
            .iter()
            .filter(|p| {
                p.parse::<Version>()
                    .is_ok_and(|v| v >= from && v <= to && (include_pre || !v.is_prerelease() || v == from || v == to))
            })
            .cloned()
            .collect();
        inside.sort_by(|a, b| version::compare(a, b));
        inside.dedup();
        Ok(inside)
    }
}

impl std::fmt::Display for VersionRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let end = |e: &Endpoint| match e {
            Endpoint::Version(v) => v.clone(),
            Endpoint::Latest => "latest".to_string(),
        };
        write!(f, "{}..{}", end(&self.from), end(&self.to))
    }
}

/// The published releases just below and just above `missing`.
fn nearest(published: &[String], missing: &str) -> Vec<String> {
    let Ok(m) = missing.parse::<Version>() else { return Vec::new() };
    let releases: Vec<Version> =
        published.iter().filter_map(|p| p.parse::<Version>().ok()).filter(|v| !v.is_prerelease()).collect();
    let below = releases.iter().filter(|v| **v < m).max();
    let above = releases.iter().filter(|v| **v > m).min();
    below.into_iter().chain(above).map(Version::to_string).collect()
}

/// Split `versions` (oldest first) into at most `parts` contiguous ranges of
/// near-equal length, each written `FIRST..LAST`: the shape a CI matrix
/// takes, one job per range.
pub fn split(versions: &[String], parts: usize) -> Vec<String> {
    if versions.is_empty() || parts == 0 {
        return Vec::new();
    }
    let parts = parts.min(versions.len());
    let (base, extra) = (versions.len() / parts, versions.len() % parts);
    let mut out = Vec::with_capacity(parts);
    let mut start = 0;
    for i in 0..parts {
        let len = base + usize::from(i < extra);
        out.push(format!("{}..{}", versions[start], versions[start + len - 1]));
        start += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vs(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    const PUBLISHED: [&str; 8] = ["2.1.9", "2.1.10", "2.1.100", "2.1.11", "2.2.0-beta.1", "2.1.12", "2.2.0", "junk"];

    fn resolve(text: &str, pre: bool) -> Result<Vec<String>, RangeError> {
        VersionRange::parse(text).expect("a range").and_then(|r| r.resolve(&vs(&PUBLISHED), "2.2.0", pre))
    }

    #[test]
    fn a_range_holds_both_ends_and_everything_published_between_in_version_order() {
        assert_eq!(resolve("2.1.10..2.1.12", false).unwrap(), vs(&["2.1.10", "2.1.11", "2.1.12"]));
        assert_eq!(resolve("2.1.9..2.1.100", false).unwrap(), vs(&["2.1.9", "2.1.10", "2.1.11", "2.1.12", "2.1.100"]));
        assert_eq!(resolve("2.1.12..2.1.12", false).unwrap(), vs(&["2.1.12"]));
    }

    #[test]
    fn latest_is_the_registry_tag_and_pre_releases_need_asking() {
        assert_eq!(resolve("2.1.100..latest", false).unwrap(), vs(&["2.1.100", "2.2.0"]));
        assert_eq!(resolve("2.1.100..latest", true).unwrap(), vs(&["2.1.100", "2.2.0-beta.1", "2.2.0"]));
        // An end that is a pre-release is meant, so it stays.
        assert_eq!(resolve("2.1.100..2.2.0-beta.1", false).unwrap(), vs(&["2.1.100", "2.2.0-beta.1"]));
    }

    #[test]
    fn bad_ranges_name_what_is_wrong() {
        assert_eq!(
            resolve("2.1.12..2.1.10", false),
            Err(RangeError::Backwards { range: "2.1.12..2.1.10".into(), from: "2.1.12".into(), to: "2.1.10".into() })
        );
        assert!(
            matches!(resolve("2.1.10..9.9.9", false), Err(RangeError::Unpublished { version, .. }) if version == "9.9.9")
        );
        let e = resolve("2.1.50..2.1.100", false).unwrap_err();
        assert_eq!(
            e,
            RangeError::Unpublished {
                range: "2.1.50..2.1.100".into(),
                version: "2.1.50".into(),
                nearest: vec!["2.1.12".into(), "2.1.100".into()]
            }
        );
        assert!(e.to_string().contains("nearest published: 2.1.12, 2.1.100"), "{e}");
        assert!(
            matches!(VersionRange::parse("2.1.10..newest"), Some(Err(RangeError::BadEnd { end, .. })) if end == "newest")
        );
        assert!(matches!(VersionRange::parse("..2.1.10"), Some(Err(RangeError::Syntax(_)))));
        assert!(matches!(VersionRange::parse("2.1.1..2.1.2..2.1.3"), Some(Err(RangeError::Syntax(_)))));
        assert!(VersionRange::parse("2.1.10").is_none(), "no `..`: not a range");
    }

    #[test]
    fn a_range_prints_as_it_was_written() {
        assert_eq!(VersionRange::parse(" 2.1.240..latest ").unwrap().unwrap().to_string(), "2.1.240..latest");
    }

    #[test]
    fn split_covers_every_version_once_in_contiguous_near_equal_parts() {
        let versions = vs(&["1.0.0", "1.0.1", "1.0.2", "1.0.3", "1.0.4"]);
        assert_eq!(split(&versions, 2), vs(&["1.0.0..1.0.2", "1.0.3..1.0.4"]));
        assert_eq!(split(&versions, 9).len(), 5, "never more parts than versions");
        assert_eq!(split(&versions, 1), vs(&["1.0.0..1.0.4"]));
        assert!(split(&versions, 0).is_empty());
        assert!(split(&[], 3).is_empty());
    }
}
