//! Auggie CLI's [`AgentDriver`]: one `auggie --print PROMPT` session on the
//! stand-in's simulation of Augment's API, the arm's hook in the isolated
//! HOME's `.augment/settings.json`. The battery's source runs on a tenant
//! that turns hooks on; `augment-unflagged` on one that does not.
//! Measured on 0.36.0: docs/auggie.md.

use std::ffi::OsString;

use super::{config, log, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{
    AgentDriver, HookVocabulary, Identity, Matching, OwnFiles, SessionAsk, SessionLaunch, SessionPlace,
};
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::file_read::{read_text, MAX_AGENT_FILE_BYTES};
use crate::surface::HookSource;
use crate::task::PROMPT;

/// Auggie CLI.
pub struct Auggie;

/// Auggie's log, in the TMPDIR it is given (the session's own `tmp/`).
const LOG_FILE: &str = "augment-log.txt";

/// What Auggie sessions do not run yet, in Auggie's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "auggie-live-model",
    interactive: "auggie-interactive",
    hook_source: "auggie-hook-source",
    route: "auggie-route",
};

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@augmentcode/auggie",
    bin_name: "auggie",
    display_name: "Auggie CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt: Claude Code's event, Auggie's tool names, a
/// matcher tested as a JavaScript regex in which `*` is no pattern at all,
/// 60 s by default.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::StrictRegex,
    default_timeout_secs: config::DEFAULT_TIMEOUT_SECS,
};

impl AgentDriver for Auggie {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// Its settings file in a session's own HOME is the one file with hooks,
    /// on either tenant.
    fn hook_alone_at(&self, source: HookSource) -> bool {
        config::tenant(source).is_some()
    }

    /// The article's nine arms and Auggie's own (`arms/auggie.json`).
    fn default_arm_sets(&self) -> &'static [&'static str] {
        &["article", "auggie"]
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::AuggieWording
    }

    /// A print-mode session against the stand-in, the hook in Auggie's
    /// user settings (on either tenant), command hooks only. Claude Code's
    /// `onFailure` is dropped, which makes a `native` arm a bare one.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if config::tenant(ask.source).is_none() {
            return Some(NOT_YET_RUN.hook_source);
        }
        let as_battery = SessionAsk { source: HookSource::SettingsFlag, ..*ask };
        if let Some(what) = NOT_YET_RUN.asked_by(&as_battery) {
            return Some(what);
        }
        if config::not_carried(ask.settings).iter().any(|what| !config::is_dropped_key(what)) {
            return Some("auggie-settings");
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
        let tenant = config::tenant(ask.source).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::Unsupported, "Auggie reads hooks from its own settings file only")
        })?;
        let path = at.home.join(config::SETTINGS_FILE);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let settings = serde_json::to_vec_pretty(&config::settings_json(ask.settings))?;
        std::fs::write(&path, &settings)?;
        std::fs::write(at.evidence.join("augment-settings.json"), &settings)?;
        Ok(SessionLaunch {
            args: config::args(PROMPT).into_iter().map(OsString::from).collect(),
            env: config::env(base_url, tenant),
            ..SessionLaunch::default()
        })
    }

    /// `auggie --print` prints each call and result as text for a person:
    /// the calls and their results are the stand-in's transcript, and a
    /// hook's run is the guard's trace. Of hooks it prints only what a
    /// refusal or a failure told its user; a hook under test that Auggie
    /// tried and could not run (a spawn error, its timeout: exit code -1,
    /// [`wording::failed_to_run`]) is an `error:-1` outcome, so a write
    /// that landed after it is `wrote`, not `hook-not-run`. It is no
    /// refusal: nothing here can make a session `blocked`.
    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts {
        let mut facts = StreamFacts::of_plain_text(stdout);
        let tried = wording::failed_to_run(stdout, &hook.spellings());
        facts.hook_outcomes.extend(std::iter::repeat_n("error:-1".to_string(), tried));
        facts
    }

    /// Auggie's log (`augment-log.txt` in its TMPDIR) names each hook it
    /// starts, and the failures its stdout words without the command (an
    /// `env` or `bash` that exits 127 before the guard runs): when the log
    /// says it started the hook under test, its failures there
    /// ([`log::failures`]) are the session's hook outcomes. Outcomes are no
    /// refusal: they only tell a write that landed from a hook never run.
    fn read_own_log(&self, files: &OwnFiles<'_>, hook: &HookIdentity, facts: &mut StreamFacts) {
        let Ok(text) = read_text(&files.tmp.join(LOG_FILE), MAX_AGENT_FILE_BYTES) else { return };
        if let Some(failures) = log::failures(&text, &hook.spellings()) {
            facts.hook_outcomes = failures;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_matcher_is_replaced_and_a_star_matches_nothing() {
        let d = Auggie;
        for tool in config::WRITE_TOOLS {
            assert!(d.covers(Some(VOCABULARY.full_matcher), tool), "{tool}");
            assert!(d.covers(None, tool) && d.covers(Some(".*"), tool), "{tool}");
        }
        assert!(!d.covers(Some("*"), "save-file"), "new RegExp('*') throws: the hook is skipped");
        assert!(!d.covers(Some("Bash|Write"), "launch-process"));
    }

    #[test]
    fn a_hook_under_test_auggie_could_not_spawn_is_a_failed_outcome_and_no_refusal() {
        let cmd = "GUARD=/tmp/r/guards/cell-0/deny.sh /tmp/r/guards/cell-0/plain.sh";
        let stdout = format!("Failed with non-blocking status code -1: Hook '{cmd}' failed: spawn GUARD=/tmp/r/guards/cell-0/deny.sh ENOENT\n\nDone.\n");
        let f = Auggie.parse_stream(&stdout, &HookIdentity::new(cmd, vec![]));
        assert_eq!(f.hook_outcomes, ["error:-1"]);
        assert!(f.attempts.is_empty() && f.decided_reasons.is_empty() && f.run_aborted_at_hook.is_none());
        let other = Auggie.parse_stream(&stdout, &HookIdentity::new("/tmp/r/guards/cell-0/deny.sh", vec![]));
        assert!(other.hook_outcomes.is_empty(), "another hook's failure is not this hook's");
    }

    #[test]
    fn the_log_in_the_sessions_tmp_gives_the_failure_its_stdout_does_not_name() {
        let tmp = tempfile::tempdir().unwrap();
        let cmd = "/tmp/r/guards/cell-0/env-interpreter.sh";
        let hook = HookIdentity::new(cmd, vec![]);
        let stdout = "Failed with non-blocking status code 127: /usr/bin/env: 'failopen-no-such-interpreter': No such file or directory\n";
        let mut f = Auggie.parse_stream(stdout, &hook);
        assert!(f.hook_outcomes.is_empty(), "the stdout names no hook");
        Auggie.read_own_log(&OwnFiles { home: tmp.path(), tmp: tmp.path() }, &hook, &mut f);
        assert!(f.hook_outcomes.is_empty(), "no log: nothing added");
        let log = format!("t [info] 'HookExecutor': Executing 1 hooks in parallel\nt [info] 'HookExecutor': Executing hook: {cmd}\nt [info] 'HookExecutor': Hook execution completed: exitCode=127, shouldContinue=true, time=40ms\n");
        std::fs::write(tmp.path().join(LOG_FILE), log).unwrap();
        Auggie.read_own_log(&OwnFiles { home: tmp.path(), tmp: tmp.path() }, &hook, &mut f);
        assert_eq!(f.hook_outcomes, ["error:127"]);
        assert!(f.attempts.is_empty() && f.run_aborted_at_hook.is_none(), "no refusal");
    }
}
