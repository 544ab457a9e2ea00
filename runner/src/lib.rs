//! failopen: does a Claude Code hook fail open when it breaks?
//!
//! The library behind the `failopen` binary. One arm (a guard under a
//! wrapper) becomes a real `claude -p` session in a throwaway directory,
//! talking to a scripted stand-in model; the session is judged only by the
//! file it leaves on disk, and recorded as one CSV row.
//!
//! Data flow: [`arms`] → [`cells`] → [`session`] (with [`settings`],
//! [`guards`], [`wrappers`], [`standin`]) → [`evidence`] → [`verdict`] →
//! [`record`] → [`tally`] → [`report`], [`diff`], [`bisect`]; [`merge`]
//! joins results files row by row. Under all of them, [`task`] holds what
//! the experiment asks of every session: the prompt, the judged file and
//! the write tools a hook must cover; version numbers are parsed and
//! ordered by [`version`] alone ([`install`] resolves and installs them).

pub mod agent;
pub mod arms;
pub mod attribution;
pub mod audit;
pub mod bisect;
pub mod cells;
pub mod census;
pub mod diff;
pub mod evidence;
pub mod file_read;
pub mod guard_server;
pub mod guard_state;
pub mod guards;
pub mod history;
pub mod hook_type;
pub mod install;
pub mod json_error;
pub mod judge;
pub mod landed;
pub mod live;
pub mod managed;
pub mod matcher;
pub mod mcp_fs;
pub mod mcp_guard;
pub mod merge;
pub mod mode;
pub mod pool;
pub mod progress;
pub mod reap;
pub mod record;
pub mod report;
pub mod run;
pub mod sandbox;
pub mod seal;
pub mod session;
pub mod settings;
pub mod shell;
pub mod standin;
pub mod surface;
pub mod tally;
pub mod task;
#[cfg(test)]
pub mod test_helpers;
pub mod verdict;
pub mod version;
pub mod wrappers;
