//! One session of an OpenCode-family agent, for any [`Flavour`]: what it
//! cannot run (anything but one guard plugin, in print mode, against the
//! stand-in) and what it is given: the config file in the work directory,
//! both config directories seeded so nothing is installed at start, the
//! arm's plugin bare or sealed, and `run --format json PROMPT` with its own
//! XDG directories and offline variables. OpenCode's driver and Kilo's
//! (`agent/kilo/`) both pass their flavour here.

use std::ffi::OsString;

use super::flavour::Flavour;
use super::{audit_plugin, config, plugin};
use crate::agent::driver::{SessionAsk, SessionLaunch, SessionPlace};
use crate::task::PROMPT;

/// Why this session cannot run, as the row's `unsupported:<reason>`: only a
/// print-mode session of one guard plugin against the stand-in runs.
pub fn unsupported(flavour: &Flavour, ask: &SessionAsk<'_>) -> Option<&'static str> {
    if let Some(why) = flavour.not_yet_run.asked_by(ask) {
        return Some(why);
    }
    // An audit's copy of a user's plugin ([`audit_plugin`]), else the arm's plugin.
    match audit_plugin::read(ask.settings) {
        Some(_) => None,
        None => plugin::read(flavour, ask.settings).err(),
    }
}

/// Write the session's files (copies in the evidence) and return its
/// command line and environment.
pub fn prepare(flavour: &Flavour, ask: &SessionAsk<'_>, at: &SessionPlace<'_>) -> std::io::Result<SessionLaunch> {
    let base_url = at.standin_url_for(flavour.display_name)?;
    let audit = audit_plugin::read(ask.settings);
    let guard = match audit {
        Some(_) => None,
        None => Some(
            plugin::read(flavour, ask.settings)
                .map_err(|what| std::io::Error::new(std::io::ErrorKind::InvalidInput, what.to_string()))?,
        ),
    };
    for dir in config::config_dirs(flavour, at.home, at.work) {
        config::seed_config_dir(flavour, &dir)?;
    }
    let mut config = config::config_json(flavour, base_url);
    let mut env = config::env(flavour, at.home);
    match (&audit, &guard) {
        (Some(files), _) => {
            let (before, after) = audit_plugin::place(flavour, files, &at.work.join(flavour.project_dir), at.evidence)?;
            config["plugin"] = before;
            env.push(after);
        }
        (None, Some(guard)) => plugin::place(flavour, guard, at.work, at.evidence)?,
        (None, None) => {}
    }
    let config_json = serde_json::to_vec_pretty(&config)?;
    std::fs::write(at.work.join(flavour.config_file), &config_json)?;
    std::fs::write(at.evidence.join(flavour.config_file), &config_json)?;
    Ok(SessionLaunch {
        args: config::args(PROMPT).into_iter().map(OsString::from).collect(),
        env,
        ..SessionLaunch::default()
    })
}
