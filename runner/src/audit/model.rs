//! The types every stage of an audit shares, from intake to render: a
//! finding and its severity, and whether the agent honours `onFailure`. A
//! leaf: it imports no stage.

use serde::Serialize;

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// A likely hole.
    Warning,
    /// The hook cannot work as written.
    Error,
}

impl Severity {
    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One static finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Hook id, when about one hook.
    pub hook: Option<String>,
    /// Severity.
    pub severity: Severity,
    /// Stable kebab-case code, e.g. `script-missing`.
    pub code: String,
    /// What is wrong, in words.
    pub message: String,
}

/// Whether the audited Claude Code honours `"onFailure": "block"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnFailure {
    /// Measured: a crashing guard with it set was refused.
    Honoured,
    /// Measured: a crashing guard with it set let the write through.
    Ignored,
    /// Not measured (static only, or the probe was inconclusive).
    Unknown,
}
