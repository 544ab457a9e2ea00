//! Intake, the first stage of an audit: finding and reading the hooks
//! wherever the agent loads them, gathered in [`read`] for every agent
//! alike: its hook files, through its driver ([`agent_config`]), then the
//! sources its driver's reach names: managed settings ([`config`]), skills,
//! subagent and command frontmatter ([`sources`]), plugins ([`plugins`]);
//! every user file through one bounded reader ([`file_read`]); and a hook's
//! command taken apart ([`command`]). It imports no later stage.

pub mod agent_config;
pub mod command;
pub mod config;
pub mod file_read;
pub mod plugins;
pub mod read;
pub mod sources;
