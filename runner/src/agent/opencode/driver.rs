//! OpenCode's [`AgentDriver`]: one `opencode run --format json PROMPT`
//! session against the stand-in, with its own HOME and XDG directories,
//! `opencode.json` in the work directory, both config directories seeded so
//! nothing is installed at start, and the arm's guard as a plugin in
//! `.opencode/plugins/` (bare) or behind failopen's sealed plugin
//! ([`super::plugin`]). It runs the native binary of the platform package,
//! not `opencode-ai`'s Node launcher; anything it leaves running carries the
//! session's tag and is reaped with it.

use crate::hook_type::HookType;
use std::path::{Path, PathBuf};

use super::{config, session, stream, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{
    package_files, AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace,
};
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;

/// OpenCode.
pub struct OpenCode;

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "opencode-ai",
    bin_name: "opencode",
    display_name: "OpenCode",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt (and its forks'). A plugin has no matcher: its hook runs before every tool, and OpenCode awaits it with no timeout at all.
pub const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::EveryTool,
    default_timeout_secs: f64::INFINITY,
};

/// How audit reads its plugins ([`super::hook_config`]).
const HOOK_CONFIG: super::hook_config::PluginHookConfig =
    super::hook_config::PluginHookConfig { flavour: &config::FLAVOUR, id_prefix: "O", version_flag: "--opencode" };

/// How audit runs its plugins.
const PLUGIN_AUDIT: crate::agent::opencode::audit_plugin::FlavourPluginAudit =
    crate::agent::opencode::audit_plugin::FlavourPluginAudit { flavour: &config::FLAVOUR };

impl AgentDriver for OpenCode {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// Only plugins: OpenCode has no hook a settings file names.
    fn runs_hook_type(&self, t: HookType) -> bool {
        t == HookType::Plugin
    }

    /// `arms/opencode.json`: its plugins (the article's arms are settings hooks it never runs).
    fn default_arm_sets(&self) -> &'static [&'static str] {
        &["opencode"]
    }

    /// The platform package's native binary ([`config::native_binary`]).
    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        config::native_binary(version_dir)
    }

    /// `opencode-ai` and its platform packages (`opencode-linux-x64`, ...),
    /// whose binary is the build.
    fn build_files(&self, version_dir: &Path) -> Vec<PathBuf> {
        package_files(version_dir, "opencode")
    }

    fn hook_config(&self) -> Option<&'static dyn crate::agent::hook_config::HookConfig> {
        Some(&HOOK_CONFIG)
    }

    /// Its plugins run in audit sessions with faults applied to a copy ([`crate::agent::opencode::audit_plugin`]).
    fn plugin_audit(&self) -> Option<&'static dyn crate::agent::plugin_audit::PluginAudit> {
        Some(&PLUGIN_AUDIT)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::OpenCodeWording
    }

    /// Only a print-mode session of one guard plugin against the stand-in.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        session::unsupported(&config::FLAVOUR, ask)
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        session::prepare(&config::FLAVOUR, ask, at)
    }

    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout)
    }
}
