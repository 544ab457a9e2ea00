//! A hook's type: one vocabulary for the guards, the arms, the CSV's
//! `hook_type` column, the stand-in's hook model and audit.
//!
//! The spellings are the ones the agents' settings use (`command`, `http`,
//! `prompt`, `agent`, `mcp_tool`), and failopen's own for guards written as
//! code for the Claude Agent SDK (`callback`, `can-use-tool`) and OpenCode
//! (`plugin`).

use std::fmt;

use serde::{Deserialize, Serialize};

/// What kind of hook a guard is behind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum HookType {
    /// `"type": "command"`: a shell command.
    #[serde(rename = "command")]
    Command,
    /// `"type": "http"`: a POST to a URL.
    #[serde(rename = "http")]
    Http,
    /// `"type": "prompt"`: one model call decides.
    #[serde(rename = "prompt")]
    Prompt,
    /// `"type": "agent"`: a model's turns decide.
    #[serde(rename = "agent")]
    Agent,
    /// `"type": "mcp_tool"`: a tool on an MCP server decides.
    #[serde(rename = "mcp_tool")]
    McpTool,
    /// A PreToolUse hook callback of the Claude Agent SDK.
    #[serde(rename = "callback")]
    Callback,
    /// The Claude Agent SDK's `canUseTool` callback.
    #[serde(rename = "can-use-tool")]
    CanUseTool,
    /// An OpenCode plugin's `tool.execute.before`: a JS module in the agent's process.
    #[serde(rename = "plugin")]
    Plugin,
}

impl HookType {
    /// Every hook type.
    pub const ALL: [HookType; 8] = [
        HookType::Command,
        HookType::Http,
        HookType::Prompt,
        HookType::Agent,
        HookType::McpTool,
        HookType::Callback,
        HookType::CanUseTool,
        HookType::Plugin,
    ];

    /// The spelling in settings files and in the CSV.
    pub fn as_str(self) -> &'static str {
        match self {
            HookType::Command => "command",
            HookType::Http => "http",
            HookType::Prompt => "prompt",
            HookType::Agent => "agent",
            HookType::McpTool => "mcp_tool",
            HookType::Callback => "callback",
            HookType::CanUseTool => "can-use-tool",
            HookType::Plugin => "plugin",
        }
    }

    /// The hook type spelt `s`, if failopen knows it.
    pub fn parse(s: &str) -> Option<HookType> {
        HookType::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// Whether a model decides (`prompt`, `agent`).
    pub fn asks_a_model(self) -> bool {
        matches!(self, HookType::Prompt | HookType::Agent)
    }

    /// Whether it is a callback in the SDK's process (`callback`, `can-use-tool`).
    pub fn is_callback(self) -> bool {
        matches!(self, HookType::Callback | HookType::CanUseTool)
    }

    /// Whether it is code in the agent's own process (an SDK callback,
    /// `canUseTool`, an OpenCode plugin), not a hook a settings file names.
    pub fn is_in_process(self) -> bool {
        self.is_callback() || self == HookType::Plugin
    }

    /// "a" or "an", as in "an agent hook".
    pub fn article(self) -> &'static str {
        if self == HookType::Agent {
            "an"
        } else {
            "a"
        }
    }
}

impl fmt::Display for HookType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spelling_reads_back_and_serde_agrees() {
        for t in HookType::ALL {
            assert_eq!(HookType::parse(t.as_str()), Some(t));
            assert_eq!(serde_json::to_value(t).unwrap(), serde_json::json!(t.as_str()));
        }
        assert_eq!(HookType::parse("Command"), None);
        assert_eq!(HookType::parse("mcp-tool"), None);
    }
}
