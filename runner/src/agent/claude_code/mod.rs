//! Anthropic's Claude Code as an agent under test, the first agent and the
//! one with the widest battery: its [`AgentDriver`] ([`driver`]), its
//! command line and environment ([`session`]) and its words for a refused
//! call ([`wording`]). Its binary's flags, asked of its `--help`, are
//! [`capabilities`]', its stream-json output [`stream`]'s, and the bracket
//! rules that tie a refusal to a hook [`crate::attribution`]'s.
//!
//! [`AgentDriver`]: crate::agent::AgentDriver

pub mod capabilities;
pub mod driver;
pub mod hook_census;
pub mod hook_config;
pub mod hook_contract;
pub mod session;
pub mod stream;
pub mod wording;

/// The name people know it by.
pub const DISPLAY_NAME: &str = "Claude Code";

/// The version failopen runs when `--claude` is not given.
pub const PINNED_VERSION: &str = "2.1.328";

/// The version the article measured, and failopen's second reference.
pub const ARTICLE_VERSION: &str = "2.1.240";
