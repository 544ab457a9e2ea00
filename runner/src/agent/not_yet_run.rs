//! What the other agents' sessions do not run yet, and how each names it.
//!
//! failopen measures Codex CLI and Gemini CLI in print mode against the
//! stand-in, with the arm's hook in the user config and the article's
//! route. Anything else an arm asks is not started: its row is `invalid
//! unsupported:<reason>`, with the agent's own reason.

use super::driver::SessionAsk;
use crate::mode::Mode;
use crate::surface::{HookSource, Route};

/// One agent's reasons (`codex-live-model`, ...), one per kind of session it
/// does not run yet.
pub(crate) struct NotYetRun {
    /// A live model: only the stand-in speaks the agent's protocol here.
    pub(crate) live_model: &'static str,
    /// Interactive mode (the terminal UI).
    pub(crate) interactive: &'static str,
    /// A hook from anywhere but the user config: an MCP config, other
    /// setting sources, a skill, files placed in the session, or a project
    /// hook file of Copilot CLI's (`github-hooks`).
    pub(crate) hook_source: &'static str,
    /// A permission mode, a route other than the article's, or extra flags.
    pub(crate) route: &'static str,
}

impl NotYetRun {
    /// The reason for the first thing `ask` asks that is not run yet, if any.
    pub(crate) fn asked_by(&self, ask: &SessionAsk<'_>) -> Option<&'static str> {
        if ask.live {
            return Some(self.live_model);
        }
        if ask.mode != Mode::Print {
            return Some(self.interactive);
        }
        if ask.mcp_config.is_some()
            || ask.setting_sources.is_some()
            || ask.skills
            || ask.has_files
            || ask.source == HookSource::GithubHooks
            || ask.source == HookSource::AugmentUnflagged
        {
            return Some(self.hook_source);
        }
        if ask.permission_mode.is_some() || ask.route != Route::Article || !ask.extra_args.is_empty() {
            return Some(self.route);
        }
        None
    }
}
