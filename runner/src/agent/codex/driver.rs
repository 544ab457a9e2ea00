//! Codex CLI's [`AgentDriver`]: one `codex exec` session against the
//! stand-in, with its own `CODEX_HOME` (`home/.codex`: `config.toml` naming
//! the stand-in as the model provider, `hooks.json` with the arm's hook).
//!
//! The command line (docs/codex.md): `codex exec --json
//! --skip-git-repo-check --ephemeral -C work -m gpt-5.5
//! --dangerously-bypass-approvals-and-sandbox
//! --dangerously-bypass-hook-trust PROMPT`. The last flag is what makes a
//! user-level hook run at all in `codex exec` (without it Codex skips
//! untrusted hooks without a word); the one before it runs commands without
//! asking and without a sandbox, as `--permission-mode bypassPermissions`
//! does for Claude Code.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{config, stream, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{
    AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace, STAND_IN_API_KEY,
};
use crate::agent::hook_config::HookConfig;
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::task::PROMPT;

/// Codex CLI.
pub struct Codex;

/// What Codex sessions do not run yet, in Codex's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "codex-live-model",
    interactive: "codex-interactive",
    hook_source: "codex-hook-source",
    route: "codex-route",
};

/// Codex's words for a refused call ([`wording`]).
#[derive(Debug)]
pub struct CodexWording;

impl RefusalWording for CodexWording {
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        wording::is_hook_refusal(text).then(|| wording::refusal_reason(text))
    }

    fn names_hook_refusal(&self, text: &str) -> bool {
        wording::is_hook_refusal(text)
    }
}

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@openai/codex",
    bin_name: "codex",
    display_name: "Codex CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt. Codex reads Claude Code's matchers, and `apply_patch` is also matched by `Edit` and `Write`; its timeout default is 600 s (docs/codex.md).
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: "PreToolUse",
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::ClaudeCode { aliases: &[("apply_patch", &["Edit", "Write"])] },
    default_timeout_secs: 600.0,
};

impl AgentDriver for Codex {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// `codex-cli 0.171.0`, or a bare version.
    fn reported_version<'a>(&self, output: &'a str) -> Option<&'a str> {
        fn after_codex_cli(line: &str) -> Option<&str> {
            let mut words = line.split_whitespace();
            (words.next() == Some("codex-cli")).then(|| words.next()).flatten()
        }
        output
            .lines()
            .rev()
            .filter_map(after_codex_cli)
            .find(|word| word.parse::<crate::version::Version>().is_ok())
            .or_else(|| crate::version::reported_version(output))
    }

    /// Codex publishes each release's native binaries as versions of their
    /// own (`0.171.0-linux-x64`), which `npm install @openai/codex@0.171.0` pulls in.
    fn is_platform_build(&self, version: &str) -> bool {
        const PLATFORMS: [&str; 3] = ["-linux-", "-darwin-", "-win32-"];
        PLATFORMS.iter().any(|p| version.contains(p))
    }

    fn system_hook_layers(&self) -> Vec<PathBuf> {
        config::system_layers_with_hooks()
    }

    fn hook_config(&self) -> Option<&'static dyn HookConfig> {
        Some(&super::hook_config::CodexHookConfig)
    }

    /// Claude Code's payload with Codex's keys; a refusal is exit 2 with a
    /// reason on stderr or a JSON deny Codex reads ([`super::hook_contract`]).
    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::CodexContract)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &CodexWording
    }

    /// Only a print-mode session of a command hook in the settings, against
    /// the stand-in, is measured on Codex so far.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if let Some(what) = NOT_YET_RUN.asked_by(ask) {
            return Some(what);
        }
        if config::has_more_than_hooks(ask.settings) {
            return Some("codex-settings");
        }
        if !config::only_command_hooks(ask.settings) {
            return Some("codex-hook-type");
        }
        None
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let codex_home = at.home.join(".codex");
        std::fs::create_dir_all(&codex_home)?;
        let base_url = format!("{}/v1", at.standin_url.ok_or_else(no_live_model)?);
        std::fs::write(codex_home.join("config.toml"), config::config_toml(&base_url))?;
        let hooks = serde_json::to_vec_pretty(&config::hooks_json(ask.settings))?;
        std::fs::write(codex_home.join("hooks.json"), &hooks)?;
        std::fs::write(at.evidence.join("hooks.json"), &hooks)?;
        let env = vec![
            ("CODEX_HOME".into(), codex_home.to_string_lossy().into_owned()),
            (config::KEY_ENV.into(), STAND_IN_API_KEY.into()),
        ];
        let mut args: Vec<OsString> =
            ["exec", "--json", "--skip-git-repo-check", "--ephemeral", "-C"].map(OsString::from).to_vec();
        args.push(at.work.into());
        args.extend(
            ["-m", config::MODEL, "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"]
                .map(OsString::from),
        );
        args.push(PROMPT.into());
        Ok(SessionLaunch { args, env, ..SessionLaunch::default() })
    }

    /// Codex's stream names no hook run; it does say when it skipped a
    /// whole hooks file, and one holding the hook under test means the
    /// hook never ran ([`StreamFacts::ignored_hook_file`]).
    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout, hook)
    }
}

/// A session [`AgentDriver::unsupported`] would have refused: only the stand-in speaks Codex's protocol.
fn no_live_model() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Unsupported, "Codex CLI runs against the stand-in only")
}
