//! The agents failopen measures: Claude Code, OpenAI's Codex CLI and
//! Google's Gemini CLI. Each is installed from the npm registry by version
//! into failopen's cache, given an arm's hook in its own config format, run
//! headless against the stand-in (which speaks its model protocol), and its
//! session read into the same [`crate::evidence::Evidence`]; the runner,
//! verdict rule, CSV, reports, diff and bisect do not know which agent ran.
//!
//! Everything that differs between agents is behind one trait,
//! [`AgentDriver`] ([`driver`]), one folder per agent: [`claude_code`],
//! [`codex`], [`gemini`]. [`Agent::driver`] is the only place that picks
//! one by agent; what the verdict rule reads of a driver, its words for a
//! refusal, is the leaf [`wording`].

pub mod agent_sdk;
pub mod agent_sdk_py;
pub mod agent_sdk_ts;
pub mod ask;
pub mod auggie;
pub mod claude_code;
pub mod cline;
pub mod codex;
pub mod continue_cli;
pub mod copilot;
pub mod copilot_sdk;
pub mod driver;
pub mod droid;
pub mod gemini;
pub mod hook_config;
pub mod hook_contract;
pub mod kilo;
pub(crate) mod not_yet_run;
pub mod opencode;
pub mod plugin_audit;
pub mod qwen;
pub mod wording;

use std::path::PathBuf;

pub use driver::AgentDriver;

/// Which agent CLI a session runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Agent {
    /// Anthropic's Claude Code (`claude`), the default and the only agent of
    /// files written before the `agent` column.
    #[default]
    ClaudeCode,
    /// OpenAI's Codex CLI (`codex exec`).
    Codex,
    /// Google's Gemini CLI (`gemini -p`).
    Gemini,
    /// GitHub's Copilot CLI (`copilot -p`).
    Copilot,
    /// Anthropic's Claude Agent SDK for TypeScript: a guard written as a
    /// callback, in a `query()` session failopen writes.
    AgentSdkTs,
    /// Anthropic's Claude Agent SDK for Python, the same in a venv of
    /// failopen's cache.
    AgentSdkPy,
    /// Cline CLI (`cline "PROMPT" --json`).
    Cline,
    /// OpenCode (`opencode run --format json`), whose guards are plugins.
    OpenCode,
    /// Qwen Code (`qwen --yolo -o stream-json PROMPT`), a Gemini CLI fork
    /// with Claude Code's hook format.
    Qwen,
    /// Kilo CLI (`kilo run --format json`), an OpenCode fork.
    Kilo,
    /// Continue CLI (`cn -p --auto --config <yaml>`), with Claude Code's hook files.
    Continue,
    /// GitHub's Copilot SDK for TypeScript: a guard written as an
    /// `onPreToolUse` callback, in a session failopen writes.
    CopilotSdk,
    /// Factory's Droid CLI (`droid exec --auto high`), with Claude Code's hook format.
    Droid,
    /// Augment's Auggie CLI (`auggie --print`), against the stand-in's
    /// simulation of Augment's own API.
    Auggie,
}

impl Agent {
    /// Every agent, by its CSV and command-line spelling.
    pub const ALL: [(&'static str, Agent); 14] = [
        ("claude-code", Agent::ClaudeCode),
        ("codex", Agent::Codex),
        ("gemini", Agent::Gemini),
        ("copilot", Agent::Copilot),
        ("agent-sdk-ts", Agent::AgentSdkTs),
        ("agent-sdk-py", Agent::AgentSdkPy),
        ("cline", Agent::Cline),
        ("opencode", Agent::OpenCode),
        ("qwen", Agent::Qwen),
        ("kilo", Agent::Kilo),
        ("continue", Agent::Continue),
        ("copilot-sdk", Agent::CopilotSdk),
        ("droid", Agent::Droid),
        ("auggie", Agent::Auggie),
    ];

    /// The agent's driver: everything failopen knows of it.
    pub fn driver(self) -> &'static dyn AgentDriver {
        match self {
            Agent::ClaudeCode => &claude_code::driver::ClaudeCode,
            Agent::Codex => &codex::driver::Codex,
            Agent::Gemini => &gemini::driver::Gemini,
            Agent::Copilot => &copilot::driver::Copilot,
            Agent::AgentSdkTs => &agent_sdk_ts::driver::AgentSdkTs,
            Agent::AgentSdkPy => &agent_sdk_py::driver::AgentSdkPy,
            Agent::Cline => &cline::driver::Cline,
            Agent::OpenCode => &opencode::driver::OpenCode,
            Agent::Qwen => &qwen::driver::Qwen,
            Agent::Kilo => &kilo::driver::Kilo,
            Agent::Continue => &continue_cli::driver::ContinueCli,
            Agent::CopilotSdk => &copilot_sdk::driver::CopilotSdk,
            Agent::Droid => &droid::driver::Droid,
            Agent::Auggie => &auggie::driver::Auggie,
        }
    }

    /// The CSV and command-line spelling.
    pub fn as_str(self) -> &'static str {
        Agent::ALL.iter().find(|(_, a)| *a == self).map(|(n, _)| *n).unwrap_or("claude-code")
    }

    /// The agent a CSV cell names: empty (a file from before the column) is Claude Code.
    pub fn of_csv(s: &str) -> Option<Agent> {
        if s.is_empty() {
            return Some(Agent::ClaudeCode);
        }
        Agent::ALL.iter().find(|(n, _)| *n == s).map(|(_, a)| *a)
    }

    /// The npm package the agent ships in ([`AgentDriver::npm_package`]).
    pub fn npm_package(self) -> &'static str {
        self.driver().npm_package()
    }

    /// The command its npm package installs ([`AgentDriver::bin_name`]).
    pub fn bin_name(self) -> &'static str {
        self.driver().bin_name()
    }

    /// The version in what the binary prints for `--version` ([`AgentDriver::reported_version`]).
    pub fn reported_version(self, output: &str) -> Option<&str> {
        self.driver().reported_version(output)
    }

    /// The name prefixes of its reference runs in `results/`: `<agent>-`
    /// and the driver's own ([`AgentDriver::results_prefixes`]).
    pub fn results_prefixes(self) -> Vec<String> {
        let mut out = vec![format!("{}-", self.as_str())];
        out.extend(self.driver().results_prefixes().iter().map(|p| p.to_string()));
        out
    }

    /// The name people know it by ([`AgentDriver::display_name`]).
    pub fn display_name(self) -> &'static str {
        self.driver().display_name()
    }
}

impl std::fmt::Display for Agent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl std::str::FromStr for Agent {
    type Err = String;

    fn from_str(s: &str) -> Result<Agent, String> {
        Agent::ALL.iter().find(|(n, _)| *n == s).map(|(_, a)| *a).ok_or_else(|| {
            let names: Vec<&str> = Agent::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown agent {s:?}: valid agents are {}", names.join(", "))
        })
    }
}

/// A runnable agent binary and the version it reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentBin {
    /// Which agent it is.
    pub agent: Agent,
    /// Absolute path of the binary (`claude`, or Codex's native `codex`).
    pub path: PathBuf,
    /// The version it reports, e.g. `2.1.328` or `0.171.0`.
    pub version: String,
}

impl AgentBin {
    /// A Claude Code binary.
    pub fn claude(path: PathBuf, version: String) -> AgentBin {
        AgentBin { agent: Agent::ClaudeCode, path, version }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_agent_is_implied_where_none_is_named_and_it_is_the_default() {
        // Old CSV formats, result file names and arms' top-level expectations
        // name no agent: they must mean one agent, the one a file without an
        // agent column is read as.
        let implied: Vec<Agent> =
            Agent::ALL.iter().map(|(_, a)| *a).filter(|a| a.driver().implied_when_unnamed()).collect();
        assert_eq!(implied, vec![Agent::default()]);
    }

    #[test]
    fn agents_parse_and_name_the_choices_when_wrong() {
        assert_eq!("codex".parse::<Agent>(), Ok(Agent::Codex));
        assert_eq!("claude-code".parse::<Agent>(), Ok(Agent::ClaudeCode));
        let e = "cursor".parse::<Agent>().unwrap_err();
        assert!(
            e.contains("claude-code, codex, gemini, copilot, agent-sdk-ts, agent-sdk-py, cline, opencode, qwen, kilo, continue, copilot-sdk, droid, auggie"),
            "{e}"
        );
        assert_eq!(Agent::of_csv(""), Some(Agent::ClaudeCode), "a file from before the column");
        assert_eq!(Agent::of_csv("codex"), Some(Agent::Codex));
        assert_eq!(Agent::of_csv("x"), None);
    }

    #[test]
    fn versions_are_read_from_each_agents_words() {
        assert_eq!(Agent::Codex.reported_version("codex-cli 0.171.0\n"), Some("0.171.0"));
        assert_eq!(Agent::Codex.reported_version("0.171.0\n"), Some("0.171.0"));
        assert_eq!(Agent::Codex.reported_version("codex-cli dev\n"), None);
        assert_eq!(Agent::Gemini.reported_version("0.61.0\n"), Some("0.61.0"));
        let warned = "Claude configuration file not found at: /h/.claude.json\nA backup exists\n2.0.20 (Claude Code)\n";
        assert_eq!(Agent::ClaudeCode.reported_version(warned), Some("2.0.20"));
    }
}
