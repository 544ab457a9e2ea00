//! Intake, the first stage of an audit: finding and reading the hooks
//! wherever the agent loads them. Claude Code's, gathered in [`claude_code`]: its settings scopes and managed
//! settings ([`config`]), the sources beyond settings files: skills, subagent
//! and command frontmatter ([`sources`]), installed plugins ([`plugins`]);
//! the other agents' hook files, through their drivers ([`agent_config`]);
//! every user file through one bounded reader ([`file_read`]); and a hook's
//! command taken apart ([`command`]). It imports no later stage.

pub mod agent_config;
pub mod claude_code;
pub mod command;
pub mod config;
pub mod file_read;
pub mod plugins;
pub mod sources;
