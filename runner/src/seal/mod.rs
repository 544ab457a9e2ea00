//! `failopen seal`: the runtime is its own crate, [`failopen_seal`] (top-level
//! `seal/`: no async runtime, no dependency on the rest of failopen), re-exported
//! here so `failopen::seal::...` keeps its paths. What stays in failopen is the
//! setup side:
//!
//! - [`install`]: rewrite a Claude Code settings file to route hooks through seal
//!   (the pure JSON transform is in [`wrap`]; [`exe_path`] picks the path
//!   to failopen it writes; [`on_failure`] decides whether to add
//!   `"onFailure": "block"`; [`settings_file`] writes the file and its
//!   backup with the original's mode and owner).
//! - [`invocation`]: whether a hook command's exit code is seal's.

pub use failopen_seal::*;

pub mod exe_path;
pub mod install;
pub mod invocation;
pub mod on_failure;
pub mod settings_file;
pub mod wrap;
