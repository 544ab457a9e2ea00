//! What an OpenCode session differs by between OpenCode and its forks
//! (Kilo CLI, `agent/kilo/`): the names of its config directories and
//! config file, the variables that keep it offline, the package its config
//! directories install at start, where the platform package keeps the
//! native binary, and the words of its `unsupported` reasons. Everything
//! else (the plugin hook, the `--format json` stream, the session's files)
//! is OpenCode's, and [`super::session`] does it for every flavour.

use crate::agent::not_yet_run::NotYetRun;

/// One member of the OpenCode family, as data.
pub struct Flavour {
    /// The name people know it by (in errors).
    pub display_name: &'static str,
    /// Its CSV spelling, the prefix of its `unsupported` reasons and of the
    /// evidence's copies of its plugin files (`opencode`, `kilo`).
    pub id: &'static str,
    /// The project's config directory in the work directory (`.opencode`).
    pub project_dir: &'static str,
    /// The user's config directory under `$XDG_CONFIG_HOME` (`opencode`).
    pub user_dir: &'static str,
    /// The config file it reads in the work directory (`opencode.json`).
    pub config_file: &'static str,
    /// The config file's `$schema`.
    pub schema: &'static str,
    /// The variable whose JSON it applies as config after every config file
    /// and plugin directory (`OPENCODE_CONFIG_CONTENT`): audit's observer
    /// after the plugin under test ([`super::audit_plugin`]).
    pub config_content_env: &'static str,
    /// The variables that keep a session offline and to itself.
    pub offline_env: &'static [(&'static str, &'static str)],
    /// The package it installs into every config directory at start, and
    /// waits for, unless the directory's lock already names it.
    pub plugin_package: &'static str,
    /// The native binary under the install's `node_modules`, `{platform}`
    /// standing for [`super::config::platform`] (`linux-x64`).
    pub native_binary: &'static str,
    /// What its sessions do not run yet, in its words.
    pub(crate) not_yet_run: NotYetRun,
    /// The `unsupported` reasons of an arm that is not one guard plugin.
    pub reasons: PluginReasons,
}

/// Why an arm's settings are no guard plugin this agent can run, in the
/// agent's words (`opencode-not-a-plugin-guard`).
pub struct PluginReasons {
    /// Settings other than hooks.
    pub settings: &'static str,
    /// Not exactly one hook entry.
    pub hooks: &'static str,
    /// An event other than `PreToolUse`.
    pub event: &'static str,
    /// An entry that names no guard plugin (a command hook, an SDK callback).
    pub not_a_plugin: &'static str,
    /// A key a plugin entry has no meaning for (`onFailure`).
    pub hook_key: &'static str,
}

impl Flavour {
    /// The native binary of an install whose directory is `version_dir`.
    pub fn native_binary(&self, version_dir: &std::path::Path) -> std::path::PathBuf {
        let relative = self.native_binary.replace("{platform}", &super::config::platform());
        version_dir.join("node_modules").join(relative)
    }
}
