//! Qwen Code's [`AgentDriver`]: one `qwen --yolo -o stream-json PROMPT`
//! session against the stand-in's Gemini API face, the arm's hook in the
//! isolated HOME's `.qwen/settings.json` (user scope: a project's hooks
//! load only in a trusted folder). Measured on 0.15.6 and 0.24.4:
//! docs/qwen.md.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{config, stream, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::task::PROMPT;

/// Qwen Code.
pub struct Qwen;

/// What Qwen Code sessions do not run yet, in Qwen's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "qwen-live-model",
    interactive: "qwen-interactive",
    hook_source: "qwen-hook-source",
    route: "qwen-route",
};

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@qwen-code/qwen-code",
    bin_name: "qwen",
    display_name: "Qwen Code",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt: Claude Code's event, Qwen's (Gemini CLI's) tool
/// names, a matcher read by Qwen's own rule (its tools' exact aliases, Claude
/// Code's names among them, then an unanchored regex), 60 s by default.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::AliasesThenRegex { aliases: &MATCHER_ALIASES },
    default_timeout_secs: config::DEFAULT_TIMEOUT_SECS,
};

/// The names Qwen Code 0.24.4 matches its write tools by, besides their own
/// (`TOOL_NAME_ALIASES` and the alias sets of its hook planner).
const MATCHER_ALIASES: [(&str, &[&str]); 4] = [
    ("run_shell_command", &["Shell", "ShellTool", "Bash"]),
    ("write_file", &["WriteFile", "WriteFileTool", "Write"]),
    ("edit", &["Edit", "EditTool", "replace"]),
    ("notebook_edit", &["NotebookEdit", "NotebookEditTool"]),
];

impl AgentDriver for Qwen {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    fn system_hook_layers(&self) -> Vec<PathBuf> {
        config::system_settings_with_hooks()
    }

    fn hook_config(&self) -> Option<&'static dyn crate::agent::hook_config::HookConfig> {
        Some(&super::hook_config::QwenHookConfig)
    }

    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::QwenContract)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::QwenWording
    }

    /// Only a print-mode session of command hooks in the settings, against
    /// the stand-in, is measured on Qwen Code so far. Claude Code's
    /// `onFailure` is dropped (Qwen has no such key), which makes a `native`
    /// arm a bare one.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if let Some(what) = NOT_YET_RUN.asked_by(ask) {
            return Some(what);
        }
        if config::not_carried(ask.settings).iter().any(|what| !config::is_dropped_key(what)) {
            return Some("qwen-settings");
        }
        None
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let base_url = at.standin_url_for(self.display_name())?;
        let qwen_dir = at.home.join(".qwen");
        std::fs::create_dir_all(&qwen_dir)?;
        let settings = serde_json::to_vec_pretty(&config::settings_json(ask.settings))?;
        std::fs::write(qwen_dir.join("settings.json"), &settings)?;
        std::fs::write(at.evidence.join("qwen-settings.json"), &settings)?;
        let mut args: Vec<OsString> = config::args().into_iter().map(OsString::from).collect();
        args.push(OsString::from(PROMPT));
        Ok(SessionLaunch { args, env: config::env(base_url), ..SessionLaunch::default() })
    }

    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout)
    }
}
