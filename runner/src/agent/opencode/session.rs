//! One session of an OpenCode-family agent, for any [`Flavour`]: what it
//! cannot run (anything but one guard plugin, in print mode, against the
//! stand-in) and what it is given: the config file in the work directory,
//! both config directories seeded so nothing is installed at start, the
//! arm's plugin bare or sealed, and `run --format json PROMPT` with its own
//! XDG directories and offline variables. OpenCode's driver and Kilo's
//! (`agent/kilo/`) both pass their flavour here.

use std::ffi::OsString;

use super::flavour::Flavour;
use super::{config, plugin};
use crate::agent::driver::{SessionAsk, SessionLaunch, SessionPlace};
use crate::task::PROMPT;

/// Why this session cannot run, as the row's `unsupported:<reason>`: only a
/// print-mode session of one guard plugin against the stand-in runs.
pub fn unsupported(flavour: &Flavour, ask: &SessionAsk<'_>) -> Option<&'static str> {
    flavour.not_yet_run.asked_by(ask).or_else(|| plugin::read(flavour, ask.settings).err())
}

/// Write the session's files (copies in the evidence) and return its
/// command line and environment.
pub fn prepare(flavour: &Flavour, ask: &SessionAsk<'_>, at: &SessionPlace<'_>) -> std::io::Result<SessionLaunch> {
    let base_url = at.standin_url_for(flavour.display_name)?;
    let guard = plugin::read(flavour, ask.settings)
        .map_err(|what| std::io::Error::new(std::io::ErrorKind::InvalidInput, what.to_string()))?;
    let config_json = serde_json::to_vec_pretty(&config::config_json(flavour, base_url))?;
    std::fs::write(at.work.join(flavour.config_file), &config_json)?;
    std::fs::write(at.evidence.join(flavour.config_file), &config_json)?;
    for dir in config::config_dirs(flavour, at.home, at.work) {
        config::seed_config_dir(flavour, &dir)?;
    }
    plugin::place(flavour, &guard, at.work, at.evidence)?;
    Ok(SessionLaunch {
        args: config::args(PROMPT).into_iter().map(OsString::from).collect(),
        env: config::env(flavour, at.home),
        ..SessionLaunch::default()
    })
}
