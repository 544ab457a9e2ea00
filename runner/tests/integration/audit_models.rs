//! `failopen audit` on guards judged by a model or a tool server: a prompt
//! hook whose model is the stand-in, and an mcp_tool hook whose server is
//! `failopen mcp-guard`, under the faults of what decides for them.

use crate::audit::{audit, cell, findings, holes, set, settings_file};

/// A prompt hook: its model is the stand-in. As configured it refuses the
/// write; when its model answers HTTP 500, does not answer in time, or
/// answers garbage, the write lands (measured on 2.1.328: docs/model-hooks.md),
/// and onFailure does not help. Both are found, statically and dynamically.
#[test]
fn a_prompt_hook_fails_open_when_its_model_fails() {
    let (_d, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
            {"type": "prompt", "prompt": "Refuse writes to notes.txt. $ARGUMENTS", "timeout": 5, "onFailure": "block"}]}
    ]}}));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    for tool in ["Bash", "Write"] {
        assert_eq!(cell(&v, "H1", tool, "none")["result"], "blocked", "{tool} as configured");
    }
    let mut want = Vec::new();
    for tool in ["Bash", "Write"] {
        for f in ["model-500", "model-hang", "model-garbage"] {
            want.push(("H1", "fails-open", tool, f));
        }
    }
    assert_eq!(holes(&v), set(&want));
    assert!(findings(&v).contains(&("H1".into(), "model-fails-open".into())));
}

/// An mcp_tool hook, its server replaced by `failopen mcp-guard`: without
/// onFailure an isError answer, a hang and a missing server each let the
/// write through (holes); with onFailure, which 2.1.328 honours on mcp_tool
/// hooks (results/bisect-mcp-error-native.txt), every one is refused.
#[test]
fn an_mcp_tool_hook_fails_open_unless_on_failure_holds_it() {
    let hook = |on_failure: bool| {
        let mut h = serde_json::json!({"type": "mcp_tool", "server": "policy", "tool": "check", "timeout": 5});
        if on_failure {
            h["onFailure"] = "block".into();
        }
        serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [h]}]}})
    };
    let (_d, settings) = settings_file(&hook(false));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let mut want = Vec::new();
    for tool in ["Bash", "Write"] {
        assert_eq!(cell(&v, "H1", tool, "none")["result"], "blocked", "{tool} as configured");
        for f in ["mcp-error", "mcp-hang", "mcp-missing"] {
            want.push(("H1", "fails-open", tool, f));
        }
    }
    assert_eq!(holes(&v), set(&want));
    let (_d, settings) = settings_file(&hook(true));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    for f in ["mcp-error", "mcp-hang", "mcp-missing"] {
        assert_eq!(cell(&v, "H1", "Bash", f)["result"], "blocked", "{f} with onFailure");
    }
}
