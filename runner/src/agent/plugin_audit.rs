//! How `failopen audit` runs a guard that is a plugin (JS in the agent's own
//! process, OpenCode's and Kilo CLI's) in real sessions of its agent: the
//! session's settings that carry a copy of the user's plugin with a fault
//! applied to it, and what the session's evidence shows of each tool call
//! (whether the plugin under test refused it). Audit plans the sessions and
//! judges them by the file on disk (`audit/probe/plugin_faults.rs`); the
//! agent's driver says how ([`crate::agent::AgentDriver::plugin_audit`]).

use std::path::Path;

use serde_json::Value;

/// What is done to the copy of the plugin a session runs (the user's own
/// file is only read).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PluginFault {
    /// The plugin exactly as written.
    None,
    /// Its `tool.execute.before` throws before it decides.
    Throw,
    /// Its `tool.execute.before` returns a promise that never settles.
    Hang,
    /// The module does not parse (a syntax error appended).
    SyntaxError,
    /// The module exports no plugin function (its code still runs).
    NoExport,
    /// The module imports a package that is not installed.
    MissingDependency,
}

/// One tool call of a plugin session, as its evidence shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PluginCall {
    /// The model's call id.
    pub id: String,
    /// The tool, by the agent's name (`bash`, `write`).
    pub tool: String,
    /// Whether the call failed (the agent's stream says so).
    pub failed: bool,
    /// Its result or error, as the model got it.
    pub text: String,
    /// Whether the plugin under test is what failed it: the agent's hook
    /// point ran for this call id, the hooks before the plugin's ran, those
    /// after it did not, and the call failed with the plugin's message
    /// before the tool ran.
    pub refused_by_plugin: bool,
}

/// An agent whose guards are plugins, as audit runs them.
pub trait PluginAudit: Sync {
    /// The session settings that run the plugin module `name` (its text
    /// `text`, read from the user's file) under `fault`; a copy is placed in
    /// the session's project, the user's file is never touched.
    fn settings(&self, name: &str, text: &str, fault: PluginFault) -> Value;
    /// The label of the write a session attempts (its tools, in order:
    /// `bash+write`).
    fn writes(&self) -> &'static str;
    /// Each tool call of a session whose evidence directory is `evidence`,
    /// in the order the stream shows them.
    fn calls(&self, evidence: &Path) -> Vec<PluginCall>;
    /// How long a session may run before it is ended: the agent waits on a
    /// plugin's hook with no timeout of its own, so a hang ends here.
    fn session_timeout_secs(&self) -> f64;
}
