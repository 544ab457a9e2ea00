//! A Claude Code session's command line and environment, in either mode:
//! the settings file, the permission mode, the MCP config, the stand-in's
//! start-up cuts, and what a binary must declare to run an arm at all.

use std::ffi::OsString;
use std::path::Path;

use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{SessionAsk, STAND_IN_API_KEY};
use crate::mode::Mode;
use crate::task::PROMPT;

/// Environment variables passed through to a live session.
const LIVE_PASSTHROUGH: &[&str] =
    &["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_MODEL", "ANTHROPIC_CUSTOM_HEADERS"];

/// Claude Code arguments for a stand-in session: features the stand-in's
/// script never uses (MCP servers, skills and slash commands, settings files
/// other than ours), turned off to cut start-up work. Hooks come from the
/// `--settings` file, which `--setting-sources` does not filter; both
/// 2.1.240 and 2.1.328 take these flags. Live sessions run as a user's would.
/// Measured, and checked to leave every verdict unchanged, in
/// `docs/performance.md`.
pub const STAND_IN_ARGS: &[&str] = &["--strict-mcp-config", "--disable-slash-commands", "--setting-sources", "user"];

/// [`STAND_IN_ARGS`], with `--setting-sources` set to `sources` when given,
/// without `--disable-slash-commands` when `skills` are kept on, and without
/// any flag the binary (`caps`, when known) does not declare: they only cut
/// start-up work (2.0.50 has no `--disable-slash-commands`).
pub fn stand_in_args(sources: Option<&str>, skills: bool, caps: Option<&Capabilities>) -> Vec<String> {
    let mut args: Vec<String> = STAND_IN_ARGS.iter().map(|a| a.to_string()).collect();
    if skills {
        args.retain(|a| a != "--disable-slash-commands");
    }
    if let Some(caps) = caps {
        if !caps.has("--setting-sources") {
            args.retain(|a| a != "--setting-sources" && a != "user");
        }
        args.retain(|a| !a.starts_with("--") || caps.has(a));
    }
    if let (Some(sources), Some(i)) = (sources, args.iter().position(|a| a == "--setting-sources")) {
        args[i + 1] = sources.to_string();
    }
    args
}

/// Environment for a stand-in session, with the same purpose as
/// [`STAND_IN_ARGS`]: no telemetry, error reports, surveys, bundled skills,
/// CLAUDE.md lookups, terminal titles or side model calls.
pub const STAND_IN_ENV: &[(&str, &str)] = &[
    ("DISABLE_TELEMETRY", "1"),
    ("DISABLE_ERROR_REPORTING", "1"),
    ("DISABLE_NON_ESSENTIAL_MODEL_CALLS", "1"),
    ("CLAUDE_CODE_DISABLE_BUNDLED_SKILLS", "1"),
    ("CLAUDE_CODE_DISABLE_CLAUDE_MDS", "1"),
    ("CLAUDE_CODE_DISABLE_FEEDBACK_SURVEY", "1"),
    ("CLAUDE_CODE_DISABLE_TERMINAL_TITLE", "1"),
];

/// What the binary (`caps`) lacks to run `ask` at all, if anything: the
/// hook comes through `--settings` and the mode through `--permission-mode`;
/// print mode's evidence through `--output-format stream-json --verbose`
/// (an interactive session's from its transcripts); and the arm may need
/// `--mcp-config`, `--setting-sources` (a hook in the project's settings) or
/// `--plugin-dir` (a plugin's hook). `--include-hook-events` is not needed:
/// the guard's trace stands in (see `evidence`).
pub fn unsupported(ask: &SessionAsk<'_>, caps: &Capabilities) -> Option<&'static str> {
    let mut needed = vec!["--settings", "--permission-mode"];
    if ask.mode == Mode::Print {
        needed.extend(["--output-format", "--verbose"]);
    }
    if ask.mcp_config.is_some() {
        needed.push("--mcp-config");
    }
    if ask.setting_sources.is_some() {
        needed.push("--setting-sources");
    }
    if ask.extra_args.iter().any(|a| a == "--plugin-dir") {
        needed.push("--plugin-dir");
    }
    caps.first_missing(&needed)
}

/// The whole command line after the binary: print mode's `-p PROMPT
/// --output-format stream-json --verbose [--include-hook-events]` (the last
/// when the binary declares it, or when it is not known), then
/// [`common_args`]; an interactive session gets [`common_args`] alone.
pub fn args(ask: &SessionAsk<'_>, settings_path: &Path, mcp_path: &Path, caps: Option<&Capabilities>) -> Vec<OsString> {
    let mut args: Vec<OsString> = Vec::new();
    if ask.mode == Mode::Print {
        let hook_events = caps.is_none_or(|c| c.has("--include-hook-events"));
        args.extend(["-p", PROMPT, "--output-format", "stream-json", "--verbose"].map(OsString::from));
        args.extend(hook_events.then(|| OsString::from("--include-hook-events")));
    }
    args.extend(common_args(ask, settings_path, mcp_path, caps));
    args
}

/// The arguments both modes pass: permission mode, the settings file, the
/// arm's extra arguments, the MCP config and the stand-in's start-up cuts.
pub fn common_args(
    ask: &SessionAsk<'_>,
    settings_path: &Path,
    mcp_path: &Path,
    caps: Option<&Capabilities>,
) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![
        "--permission-mode".into(),
        ask.permission_mode.unwrap_or("bypassPermissions").into(),
        "--settings".into(),
        settings_path.into(),
    ];
    args.extend(ask.extra_args.iter().map(OsString::from));
    if ask.mcp_config.is_some() {
        args.extend(["--mcp-config".into(), mcp_path.into()]);
    }
    if !ask.live {
        // An interactive session keeps its slash commands: it is ended with `/exit`.
        let commands = ask.skills || ask.mode == Mode::Interactive;
        args.extend(stand_in_args(ask.setting_sources, commands, caps).into_iter().map(OsString::from));
    }
    args
}

/// The environment Claude Code adds: the stand-in's address and key and
/// [`STAND_IN_ENV`], or a live session's credentials passed through.
pub fn env(standin_url: Option<&str>) -> Vec<(String, String)> {
    let mut env = Vec::new();
    match standin_url {
        Some(url) => {
            env.push(("ANTHROPIC_BASE_URL".into(), url.to_string()));
            env.push(("ANTHROPIC_API_KEY".into(), STAND_IN_API_KEY.into()));
            env.extend(STAND_IN_ENV.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        }
        None => {
            for var in LIVE_PASSTHROUGH {
                if let Ok(v) = std::env::var(var) {
                    env.push((var.to_string(), v));
                }
            }
        }
    }
    env
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn setting_sources_and_skills_change_only_their_flag() {
        assert_eq!(stand_in_args(None, false, None), STAND_IN_ARGS);
        let args = stand_in_args(Some("user,project,local"), false, None);
        assert_eq!(args.len(), STAND_IN_ARGS.len());
        assert_eq!(args.iter().skip_while(|a| *a != "--setting-sources").nth(1).unwrap(), "user,project,local");
        let args = stand_in_args(None, true, None);
        assert!(!args.iter().any(|a| a == "--disable-slash-commands") && args.len() == STAND_IN_ARGS.len() - 1);
    }

    #[test]
    fn flags_a_release_lacks_are_left_out() {
        let help = include_str!("../../../tests/fixtures/claude-help/2.0.50.txt");
        let old = Capabilities::from_help("2.0.50", help);
        assert_eq!(stand_in_args(None, false, Some(&old)), ["--strict-mcp-config", "--setting-sources", "user"]);
        let mut none = old.clone();
        none.flags.retain(|f| f != "--setting-sources" && f != "--settings");
        assert_eq!(stand_in_args(None, false, Some(&none)), ["--strict-mcp-config"]);
    }
}
