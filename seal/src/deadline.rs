//! Seal's deadline: which values are valid, and turning one into a `Duration`.
//!
//! A deadline that is not a finite number of seconds in (0, 86400] is
//! refused up front: `Duration::from_secs_f64` panics on `inf` and NaN, and a
//! panic exits 101, which Claude Code reads as "no objection".

use std::fmt;
use std::time::Duration;

/// The longest deadline seal accepts, in seconds (one day).
pub const MAX_DEADLINE_SECS: f64 = 86_400.0;

/// A `--deadline` value seal cannot use.
#[derive(Debug, Clone, PartialEq)]
pub struct BadDeadline {
    /// The value as given.
    pub value: String,
}

impl fmt::Display for BadDeadline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Without the value: clap prints it before this ("invalid value 'inf'
        // for '--deadline <SECS>': ..."); other callers add it themselves.
        write!(f, "a deadline must be a finite number of seconds greater than 0 and at most {MAX_DEADLINE_SECS}")
    }
}

impl std::error::Error for BadDeadline {}

/// Check a deadline in seconds: finite, > 0, at most [`MAX_DEADLINE_SECS`].
pub fn from_secs(secs: f64) -> Result<Duration, BadDeadline> {
    if secs.is_finite() && secs > 0.0 && secs <= MAX_DEADLINE_SECS {
        // Cannot panic: finite and in range. A value so small it rounds to
        // zero nanoseconds is still "greater than 0" as asked; it just
        // refuses every guard, which is the fail-closed reading of it.
        Ok(Duration::from_secs_f64(secs))
    } else {
        Err(BadDeadline { value: format!("{secs}") })
    }
}

/// Parse a `--deadline` argument (clap value parser). Errors name the value
/// and the valid range.
pub fn parse(s: &str) -> Result<f64, BadDeadline> {
    let bad = || BadDeadline { value: s.to_string() };
    let secs: f64 = s.trim().parse().map_err(|_| bad())?;
    from_secs(secs).map(|_| secs).map_err(|_| bad())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_range() {
        assert_eq!(from_secs(3.0), Ok(Duration::from_secs(3)));
        assert_eq!(from_secs(0.5), Ok(Duration::from_millis(500)));
        assert_eq!(from_secs(MAX_DEADLINE_SECS), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse("4"), Ok(4.0));
        assert_eq!(parse("0.001"), Ok(0.001));
    }

    #[test]
    fn refuses_what_would_panic_or_mean_nothing() {
        for s in ["inf", "-inf", "NaN", "0", "-1", "86400.5", "1e20", "soon", ""] {
            let err = parse(s).expect_err(s);
            assert_eq!(err.value, s);
            assert_eq!(
                err.to_string(),
                "a deadline must be a finite number of seconds greater than 0 and at most 86400"
            );
        }
        for secs in [f64::INFINITY, f64::NAN, 0.0, -0.0, -3.0, 1e20] {
            assert!(from_secs(secs).is_err(), "{secs}");
        }
    }
}
