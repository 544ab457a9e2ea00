//! Kilo CLI (npm `@kilocode/cli`) as an agent under test: an OpenCode fork
//! whose sessions, plugins and `--format json` stream are OpenCode's, so its
//! driver ([`driver`]) passes its own names ([`flavour::FLAVOUR`]: `.kilo/`,
//! `~/.config/kilo/`, `kilo.json`, the `KILO_*` variables,
//! `@kilocode/plugin`, `@kilocode/cli-linux-x64/bin/kilo`) to OpenCode's
//! session code (`agent/opencode/session.rs`). Its guards are JS plugins
//! whose `tool.execute.before` hook refuses a call by throwing. Measured on
//! 7.0.33 and 7.7.7: docs/kilo.md.

pub mod driver;
pub mod flavour;

/// The version failopen runs when no version is named: 7.7.7 (23 September
/// 2026), the newest release whose linux-x64 build is on the registry. The
/// registry's `latest`, 7.8.1 (27 September 2026), has no Linux build at all
/// (`npm install @kilocode/cli@7.8.1` fails in its postinstall with
/// `ETARGET ... @kilocode/cli-linux-x64@7.8.1`), nor have 7.7.5, 7.6.2 and
/// the 7.5 line (docs/kilo.md).
pub const PINNED_VERSION: &str = "7.7.7";

/// The older release the reference results also run: 7.0.33 (8 May 2026),
/// the only release before 7.7.2 whose linux-x64 build is on the registry
/// (`npm view @kilocode/cli-linux-x64 versions`: 7.0.33, 7.7.2, 7.7.7,
/// 7.7.9), so the one about three months older there is.
pub const OLDER_VERSION: &str = "7.0.33";
