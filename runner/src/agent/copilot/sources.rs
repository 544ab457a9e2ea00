//! Where a Copilot CLI session's hook lives (the arm's [`HookSource`]), and
//! whether the project is trusted. Copilot reads hooks from its own
//! `$COPILOT_HOME/hooks/*.json` (the battery's `settings-flag`), a project's
//! `.github/hooks/*.json` (`github-hooks`), and Claude Code's settings files
//! (`project`, `local`, `user`: the run has written them already, in Claude
//! Code's shape). In `-p` a project's hooks load only in a trusted folder:
//! `--trust-folder` on a release that has the flag, the folder in
//! `$COPILOT_HOME/config.json`'s `trusted_folders` otherwise. Measured on
//! 1.0.73 and 1.0.102 (docs/copilot.md).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::mode::Trust;
use crate::surface::HookSource;

/// The flag that trusts the working directory for one `-p` session (1.0.102 has it, 1.0.73 not).
pub const TRUST_FLAG: &str = "--trust-folder";

/// The sources a Copilot session places the hook at.
pub fn reads(source: HookSource) -> bool {
    matches!(
        source,
        HookSource::SettingsFlag | HookSource::GithubHooks | HookSource::Project | HookSource::Local | HookSource::User
    )
}

/// Whether `source` is in the project (loaded only in a trusted folder).
pub fn in_project(source: HookSource) -> bool {
    matches!(source, HookSource::GithubHooks | HookSource::Project | HookSource::Local)
}

/// Whether a session trusts its working directory: a project source, with
/// the arm's trust `accepted` (the folder trusted beforehand, the
/// default); `answer-yes` and `answer-no` are a folder not trusted
/// beforehand, and `-p` asks nothing.
pub fn trusted(source: HookSource, trust: Trust) -> bool {
    in_project(source) && trust == Trust::Accepted
}

/// Where the session's Copilot-shaped hook file goes, under the session's
/// `copilot_home` or `work`: `None` for Claude Code's files, which the run
/// placed.
pub fn hook_file(source: HookSource, copilot_home: &Path, work: &Path) -> Option<PathBuf> {
    match source {
        HookSource::SettingsFlag => Some(copilot_home.join("hooks").join(super::config::HOOK_FILE)),
        HookSource::GithubHooks => Some(work.join(".github/hooks").join(super::config::HOOK_FILE)),
        _ => None,
    }
}

/// `$COPILOT_HOME/config.json` trusting `work` (the spelling 1.0.73 and
/// 1.0.102 both read; 1.0.102 rewrites it as `trustedFolders`).
pub fn trusting_config(work: &Path) -> serde_json::Value {
    serde_json::json!({"trusted_folders": [work.to_string_lossy()]})
}

/// Whether each binary's `--help` lists [`TRUST_FLAG`], asked once per binary.
static HAS_TRUST_FLAG: Mutex<Option<HashMap<PathBuf, bool>>> = Mutex::new(None);

/// What `--help` said of [`TRUST_FLAG`] for `bin`; `None`: not asked yet.
pub fn has_trust_flag(bin: &Path) -> Option<bool> {
    HAS_TRUST_FLAG.lock().ok()?.as_ref()?.get(bin).copied()
}

/// Remember whether `bin`'s `--help` text lists [`TRUST_FLAG`].
pub fn record_help(bin: &Path, help: &str) {
    let listed = help.split(|c: char| c.is_whitespace() || c == ',').any(|w| w == TRUST_FLAG);
    if let Ok(mut map) = HAS_TRUST_FLAG.lock() {
        map.get_or_insert_with(HashMap::new).insert(bin.to_path_buf(), listed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_accepted_project_source_is_trusted() {
        assert!(trusted(HookSource::GithubHooks, Trust::Accepted));
        assert!(trusted(HookSource::Project, Trust::Accepted));
        assert!(!trusted(HookSource::Project, Trust::AnswerNo));
        assert!(!trusted(HookSource::GithubHooks, Trust::AnswerYes));
        assert!(!trusted(HookSource::User, Trust::Accepted));
        assert!(!trusted(HookSource::SettingsFlag, Trust::Accepted));
        assert!(!reads(HookSource::Plugin) && !reads(HookSource::Skill) && !reads(HookSource::Subagent));
    }

    #[test]
    fn the_hook_file_is_copilots_own_or_the_projects() {
        let (home, work) = (Path::new("/r/home/.copilot"), Path::new("/r/work"));
        assert_eq!(
            hook_file(HookSource::SettingsFlag, home, work),
            Some(PathBuf::from("/r/home/.copilot/hooks/failopen.json"))
        );
        assert_eq!(
            hook_file(HookSource::GithubHooks, home, work),
            Some(PathBuf::from("/r/work/.github/hooks/failopen.json"))
        );
        assert_eq!(hook_file(HookSource::Project, home, work), None);
    }

    #[test]
    fn help_text_tells_whether_the_release_has_the_trust_flag() {
        let (new, old) = (Path::new("/t/1.0.102/copilot"), Path::new("/t/1.0.73/copilot"));
        assert_eq!(has_trust_flag(new), None);
        record_help(new, "  --trust-folder\n      Trust the resolved working directory's configuration");
        record_help(old, "  --allow-all-tools  Allow all tools\n  # --trust-folder-ish mention\n");
        assert_eq!((has_trust_flag(new), has_trust_flag(old)), (Some(true), Some(false)));
    }
}
