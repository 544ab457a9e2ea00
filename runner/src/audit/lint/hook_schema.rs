//! What Claude Code's settings schema accepts for hooks, read from its
//! binaries (2.1.240 and 2.1.328): the event names, the keys of each hook
//! type, the fields each type needs, and the tool names matchers name.
//! Data only; [`super::broken_config`] checks files against it.

use crate::hook_type::HookType;

/// The hook events Claude Code 2.1.328 knows (from its settings schema).
pub const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "Stop",
    "StopFailure",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "PostCompact",
    "PreModelSwitch",
    "PostModelSwitch",
    "PermissionRequest",
    "PermissionDenied",
    "Setup",
    "TeammateIdle",
    "TaskCreated",
    "TaskCompleted",
    "Elicitation",
    "ElicitationResult",
    "ConfigChange",
    "WorktreeCreate",
    "WorktreeRemove",
    "InstructionsLoaded",
    "CwdChanged",
    "FileChanged",
    "DirectoryAdded",
    "MessageDisplay",
];

/// The keys a hook entry of each type may carry (Claude Code 2.1.328's
/// schema; 2.1.240's lacks `onFailure` and `cloud`).
/// The SDK's callbacks are no type a settings file holds: `None`.
pub fn known_keys(kind: HookType) -> Option<&'static [&'static str]> {
    Some(match kind {
        HookType::Command => &[
            "type",
            "command",
            "args",
            "if",
            "shell",
            "timeout",
            "onFailure",
            "statusMessage",
            "once",
            "async",
            "asyncRewake",
            "rewakeMessage",
            "rewakeSummary",
            "cloud",
        ],
        HookType::Http => &[
            "type",
            "url",
            "if",
            "timeout",
            "onFailure",
            "headers",
            "allowedEnvVars",
            "statusMessage",
            "once",
            "cloud",
        ],
        HookType::Prompt => &["type", "prompt", "if", "timeout", "model", "continueOnBlock", "statusMessage", "once"],
        HookType::Agent => &["type", "prompt", "if", "timeout", "model", "statusMessage", "once"],
        HookType::McpTool => {
            &["type", "server", "tool", "input", "if", "timeout", "onFailure", "statusMessage", "once"]
        }
        HookType::Callback | HookType::CanUseTool | HookType::Plugin => return None,
    })
}

/// The string fields each hook type needs.
pub fn required_strings(kind: HookType) -> &'static [&'static str] {
    match kind {
        HookType::Command => &["command"],
        HookType::Http => &["url"],
        HookType::Prompt | HookType::Agent => &["prompt"],
        HookType::McpTool => &["server", "tool"],
        HookType::Callback | HookType::CanUseTool | HookType::Plugin => &[],
    }
}

/// Tool names a matcher may name, for the case check.
pub const TOOLS: &[&str] = &[
    "Bash",
    "Write",
    "Edit",
    "MultiEdit",
    "NotebookEdit",
    "Read",
    "Glob",
    "Grep",
    "LS",
    "WebFetch",
    "WebSearch",
    "Task",
    "Agent",
    "TodoWrite",
];
