//! Kilo CLI's [`AgentDriver`]: OpenCode's session (`kilo run --format json
//! PROMPT` against the stand-in, the arm's guard plugin in `.kilo/plugins/`
//! bare or behind failopen's sealed plugin), hook vocabulary, stream and
//! wording, under Kilo's names ([`super::flavour::FLAVOUR`]). It runs the
//! platform package's native binary (`@kilocode/cli-linux-x64/bin/kilo`),
//! not `@kilocode/cli`'s Node launcher.

use std::path::{Path, PathBuf};

use super::flavour::FLAVOUR;
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::opencode::{driver::VOCABULARY, session, stream, wording};
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::hook_type::HookType;

/// Kilo CLI.
pub struct Kilo;

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@kilocode/cli",
    bin_name: "kilo",
    display_name: "Kilo CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How audit reads its plugins: OpenCode's reader under Kilo's names.
const HOOK_CONFIG: crate::agent::opencode::hook_config::PluginHookConfig =
    crate::agent::opencode::hook_config::PluginHookConfig { flavour: &FLAVOUR, id_prefix: "K", version_flag: "--kilo" };

/// How audit runs its plugins.
const PLUGIN_AUDIT: crate::agent::opencode::audit_plugin::FlavourPluginAudit =
    crate::agent::opencode::audit_plugin::FlavourPluginAudit { flavour: &FLAVOUR };

impl AgentDriver for Kilo {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    /// OpenCode's: a plugin's `tool.execute.before`, run before every tool
    /// and awaited with no timeout.
    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// Only plugins, as OpenCode.
    fn runs_hook_type(&self, t: HookType) -> bool {
        t == HookType::Plugin
    }

    /// `arms/opencode.json`: OpenCode's plugin arms, which Kilo loads as OpenCode does (the article's arms are settings hooks it never runs).
    fn default_arm_sets(&self) -> &'static [&'static str] {
        &["opencode"]
    }

    /// The platform package's native binary.
    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        FLAVOUR.native_binary(version_dir)
    }

    /// A refusal reaches the model as the bare thrown message, as in OpenCode.
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
        session::unsupported(&FLAVOUR, ask)
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        session::prepare(&FLAVOUR, ask, at)
    }

    /// OpenCode's `--format json` lines, which Kilo prints unchanged.
    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout)
    }
}
