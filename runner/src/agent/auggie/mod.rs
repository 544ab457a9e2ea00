//! Augment's Auggie CLI (`@augmentcode/auggie`) as an agent under test: its
//! settings, environment and command line ([`config`]) and the words it
//! sends back about a refused call ([`wording`]). It takes no model base
//! URL: it speaks only Augment's own API, so its sessions run against the
//! stand-in's simulation of that API ([`crate::standin::augment`]), read
//! off the client's code. Its session is [`driver`]'s. Measured on 0.36.0
//! only, against that simulation: docs/auggie.md says what it cannot show.

pub mod config;
pub mod driver;
pub mod log;
pub mod wording;

/// The version failopen runs when no version is named: the newest release
/// in the registry when Auggie support was measured (0.36.0, 23 September 2026).
pub const PINNED_VERSION: &str = "0.36.0";

/// The older reference version: 0.25.2 (7 August 2026), the release before
/// [`PINNED_VERSION`] in the registry (it holds nothing between them); its
/// API may differ from the stand-in's, which is read off 0.36.0.
pub const OLDER_VERSION: &str = "0.25.2";

/// The arm whose guard Auggie kills 3 ms after it starts (Claude Code's
/// `"timeout": 3` read as milliseconds).
pub const THREE_MS_ARM: &str = "deny/bare+timeout-3ms";

/// Whether `row` is [`THREE_MS_ARM`]'s other outcome of the same race, as
/// rows measured before failopen read Auggie's own words about the hooks it
/// tried hold it: the guard killed before it appended its trace line, so the
/// write that landed showed no sign of it (`invalid hook-not-run`,
/// launch-process allowed, the file written). Auggie's stdout names the hook
/// it timed out (`Hook '<command>' failed: Hook execution timed out after
/// 3ms`), so a session now reads `wrote` either way; arms/auggie.json's
/// reasoning still accepts the old row for that arm alone.
pub fn killed_before_its_trace(row: &crate::record::Row) -> bool {
    row.arm == THREE_MS_ARM
        && row.verdict == crate::verdict::VerdictKind::Invalid
        && row.reason == "hook-not-run"
        && row.attempts == "launch-process:allowed"
        && row.file_bytes.is_some_and(|b| b > 0)
}
