//! Lint, the second stage of an audit: the static checks, with no session.
//! Each hook entry's script, timeout, seal and matcher ([`static_checks`],
//! with [`matcher`]'s coverage count), and a settings file's shape against
//! what Claude Code's schema accepts ([`broken_config`], [`hook_schema`]);
//! a hook read through another agent's driver ([`driver_checks`]).
//! It reads intake's entries and imports no later stage.

pub mod broken_config;
pub mod driver_checks;
pub mod hook_schema;
pub mod matcher;
pub mod static_checks;
