//! Droid's [`AgentDriver`]: one `droid exec --auto high -m custom:Mock-0
//! -o stream-json PROMPT` session, offline (`FACTORY_AIRGAP_ENABLED`),
//! against the stand-in as a custom Anthropic model, with the arm's hook in
//! the isolated HOME's `.factory/hooks.json`. Measured on 0.215.0 and
//! 0.225.2: docs/droid.md.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{config, log, stream, transcript, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{
    AgentDriver, HookVocabulary, Identity, Matching, OwnFiles, SessionAsk, SessionLaunch, SessionPlace,
};
use crate::agent::hook_config::HookConfig;
use crate::agent::hook_contract::HookContract;
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::task::PROMPT;

/// Factory's Droid CLI.
pub struct Droid;

/// What Droid sessions do not run yet, in Droid's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "droid-live-model",
    interactive: "droid-interactive",
    hook_source: "droid-hook-source",
    route: "droid-route",
};

/// The npm package of this machine's Droid binary: the per-platform build
/// of `@factory/cli`, installed by its own version (the binary it holds is
/// the whole CLI; the launcher package only copies it).
const PLATFORM_PACKAGE: &str = if cfg!(all(target_os = "macos", target_arch = "aarch64")) {
    "@factory/cli-darwin-arm64"
} else if cfg!(target_os = "macos") {
    "@factory/cli-darwin-x64"
} else if cfg!(target_arch = "aarch64") {
    "@factory/cli-linux-arm64"
} else {
    "@factory/cli-linux-x64"
};

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: PLATFORM_PACKAGE,
    bin_name: "droid",
    display_name: "Droid CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt: Claude Code's event and matcher rule, Droid's
/// tool names, 60 s by default.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::CLAUDE_CODE,
    default_timeout_secs: config::DEFAULT_TIMEOUT_SECS,
};

impl AgentDriver for Droid {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// The binary in the platform package (`bin/droid`): the package
    /// declares no `bin`, so npm links none into `node_modules/.bin`.
    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        version_dir.join("node_modules").join(PLATFORM_PACKAGE).join("bin").join(self.bin_name())
    }

    fn hook_config(&self) -> Option<&'static dyn HookConfig> {
        Some(&super::hook_config::DroidHookConfig)
    }

    fn hook_contract(&self) -> Option<&'static dyn HookContract> {
        Some(&super::hook_contract::DroidContract)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::DroidWording
    }

    /// Only a print-mode session of command hooks in the user's hook file,
    /// against the stand-in, is measured on Droid so far. Claude Code's
    /// `onFailure` is dropped (Droid has no such key), which makes a
    /// `native` arm a bare one.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if let Some(what) = NOT_YET_RUN.asked_by(ask) {
            return Some(what);
        }
        if config::not_carried(ask.settings).iter().any(|what| !config::is_dropped_key(what)) {
            return Some("droid-settings");
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
        let factory_dir = at.home.join(".factory");
        std::fs::create_dir_all(&factory_dir)?;
        let settings = serde_json::to_vec_pretty(&config::settings_json(base_url))?;
        std::fs::write(factory_dir.join("settings.json"), &settings)?;
        let hooks = serde_json::to_vec_pretty(&config::hooks_json(ask.settings))?;
        std::fs::write(factory_dir.join("hooks.json"), &hooks)?;
        std::fs::write(at.evidence.join("droid-hooks.json"), &hooks)?;
        let mut args: Vec<OsString> = config::args().into_iter().map(OsString::from).collect();
        args.push(OsString::from(PROMPT));
        Ok(SessionLaunch { args, env: config::env(), ..SessionLaunch::default() })
    }

    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout)
    }

    /// Droid's session transcript records each hook run, with its command
    /// and exit code: when Droid wrote one, the runs of the hook under test
    /// there are the session's hook outcomes ([`transcript::hook_runs`]; none
    /// when the hook never ran), in place of the tool results that stand in
    /// for them otherwise. Its log says when it ignored a whole hooks file;
    /// one holding the hook under test means the hook never ran
    /// ([`StreamFacts::ignored_hook_file`]).
    fn read_own_log(&self, files: &OwnFiles<'_>, hook: &HookIdentity, facts: &mut StreamFacts) {
        let transcripts = transcript::read(files.home);
        if !transcripts.is_empty() {
            facts.hook_outcomes =
                transcripts.iter().flat_map(|t| transcript::hook_runs(t, &hook.spellings())).collect();
        }
        for path in log::read(files.home).as_deref().map(log::ignored_hook_files).unwrap_or_default() {
            facts.ignored_hook_file(&path, hook);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_binary_is_the_platform_packages_own() {
        let bin = Droid.installed_binary(Path::new("/c/droid/versions/0.225.2"));
        let shown = bin.display().to_string();
        assert!(shown.starts_with("/c/droid/versions/0.225.2/node_modules/@factory/cli-"), "{shown}");
        assert!(bin.ends_with("bin/droid"), "{}", bin.display());
        assert_eq!(Droid.reported_version("0.225.2\n"), Some("0.225.2"));
    }
}
