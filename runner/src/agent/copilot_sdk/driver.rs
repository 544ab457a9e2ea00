//! The Copilot SDK (TypeScript)'s [`AgentDriver`]: one `node session.mjs`
//! per cell ([`super::program`]), whose session gets the arm's callback as
//! its `onPreToolUse` hook, the work directory, and the stand-in as an
//! Anthropic provider through Copilot CLI's own environment (offline, its
//! own `COPILOT_HOME`). The runtime is Copilot CLI's, so its words for a
//! refusal are Copilot's; the session's events say which calls a hook
//! refused ([`super::stream`]), and the row's flags carry the bundled
//! runtime's version.

use std::path::{Path, PathBuf};

use super::{program, stream};
use crate::agent::agent_sdk::callback;
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::copilot::config;
use crate::agent::copilot::driver::CopilotWording;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::hook_type::HookType;

/// The GitHub Copilot SDK for TypeScript.
pub struct CopilotSdk;

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@github/copilot-sdk",
    // The SDK ships no command; its entry module stands for one
    // ([`AgentDriver::installed_binary`]).
    bin_name: "index.js",
    display_name: "Copilot SDK (TypeScript)",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt: Copilot CLI's event and tools. `onPreToolUse`
/// takes no matcher (it runs for every tool) and no timeout: the SDK waits
/// for a callback for ever (measured: docs/copilot-sdk.md), so an arm's
/// `timeout` does not reach the session.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::EveryTool,
    default_timeout_secs: f64::INFINITY,
};

/// What Copilot SDK sessions do not run yet.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "copilot-sdk-live-model",
    interactive: "copilot-sdk-interactive",
    hook_source: "copilot-sdk-hook-source",
    route: "copilot-sdk-route",
};

impl AgentDriver for CopilotSdk {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        version_dir.join(super::ENTRY)
    }

    /// The SDK's package.json, not a `--version` run.
    fn version_without_running(&self, bin: &Path) -> Option<String> {
        program::sdk_version(bin)
    }

    /// Only a guard written as code: the `onPreToolUse` callback.
    fn runs_hook_type(&self, t: HookType) -> bool {
        t == HookType::Callback
    }

    /// `arms/sdk.json`: its callbacks (the canUseTool ones are no cells here).
    fn default_arm_sets(&self) -> &'static [&'static str] {
        &["sdk"]
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &CopilotWording
    }

    /// Only one PreToolUse callback, in print mode against the stand-in,
    /// doing what `session.mjs` knows; `onFailure` has no counterpart in
    /// this SDK, so a `native` arm is not run.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        NOT_YET_RUN.asked_by(ask).or_else(|| match callback::read(ask.settings) {
            Err(reason) => Some(reason),
            Ok(cb) if cb.kind != HookType::Callback => Some("copilot-sdk-can-use-tool"),
            Ok(cb) if cb.on_failure_block => Some("copilot-sdk-on-failure"),
            Ok(cb) if !program::knows(&cb.behaviour) => Some("sdk-other-language"),
            Ok(_) => None,
        })
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let unsupported = |what: &str| std::io::Error::new(std::io::ErrorKind::Unsupported, what.to_string());
        let callback = callback::read(ask.settings).map_err(unsupported)?;
        let base_url = at.standin_url_for(self.display_name())?;
        std::fs::write(at.evidence.join("settings.json"), serde_json::to_vec_pretty(ask.settings)?)?;
        let script = program::write(at.evidence, at.binary, at.work, crate::task::PROMPT, &callback)?;
        let copilot_home = at.home.join(".copilot");
        std::fs::create_dir_all(&copilot_home)?;
        Ok(SessionLaunch {
            args: vec![script.into_os_string()],
            env: config::env(base_url, &copilot_home, None),
            program: Some(PathBuf::from("node")),
            flags: program::bundled_cli_version(at.binary).map(|v| format!("bundled-cli:{v}")).into_iter().collect(),
        })
    }

    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse_stream(stdout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::{Mode, Trust};
    use crate::surface::{HookSource, Route};
    use serde_json::json;

    fn why(entry: serde_json::Value) -> Option<&'static str> {
        let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [entry]}]}});
        let ask = SessionAsk {
            settings: &settings,
            mcp_config: None,
            live: false,
            mode: Mode::Print,
            setting_sources: None,
            permission_mode: None,
            skills: false,
            has_files: false,
            route: Route::Article,
            extra_args: &[],
            source: HookSource::SettingsFlag,
            trust: Trust::default(),
        };
        CopilotSdk.unsupported(&ask, None)
    }

    #[test]
    fn runs_one_callback_and_names_what_it_cannot() {
        assert_eq!(why(json!({"type": "callback", "callback": "throw", "timeout": 3})), None);
        assert_eq!(why(json!({"type": "callback", "callback": "hang", "sealed": 2})), None);
        let native = json!({"type": "callback", "callback": "throw", "onFailure": "block"});
        assert_eq!(why(native), Some("copilot-sdk-on-failure"));
        assert_eq!(why(json!({"type": "can-use-tool", "callback": "deny"})), Some("copilot-sdk-can-use-tool"));
        assert_eq!(why(json!({"type": "callback", "callback": "def-deny"})), Some("sdk-other-language"));
        assert_eq!(why(json!({"type": "command", "command": "/g/deny.sh"})), Some("agent-sdk-command-hook"));
        assert!(CopilotSdk.runs_hook_type(HookType::Callback) && !CopilotSdk.runs_hook_type(HookType::CanUseTool));
    }
}
