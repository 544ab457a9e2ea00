//! The one interface failopen has to an agent CLI: [`AgentDriver`]. Each
//! agent's folder (`claude_code/`, `codex/`, `gemini/`) implements it, and
//! [`super::Agent::driver`] is the only place that picks one by agent.
//! The session skeleton (`crate::session`) makes the temp root, starts and
//! reaps the process and reads the evidence; it asks the driver what to
//! write, what to run and how to read it, and the driver never calls back.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use futures::future::BoxFuture;
use serde_json::Value;

use super::hook_config::HookConfig;
use super::hook_contract::HookContract;
use super::wording::RefusalWording;
use super::AgentBin;
use crate::agent::claude_code::capabilities::Capabilities;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::hook_type::HookType;
use crate::mode::{Mode, Trust};
use crate::surface::{HookSource, Route};

/// What an arm asks of one session, as a driver needs to know it.
#[derive(Debug, Clone, Copy)]
pub struct SessionAsk<'a> {
    /// The arm's settings, in Claude Code's shape (the battery's lingua franca).
    pub settings: &'a Value,
    /// An MCP config for the session (the server behind an `mcp_tool` hook).
    pub mcp_config: Option<&'a Value>,
    /// A live model instead of the stand-in.
    pub live: bool,
    /// Print or interactive.
    pub mode: Mode,
    /// Setting sources other than the user's (a hook in the project's settings).
    pub setting_sources: Option<&'static str>,
    /// A permission mode other than the battery's.
    pub permission_mode: Option<&'static str>,
    /// Skills kept on (a guard in a skill's frontmatter).
    pub skills: bool,
    /// Files are placed in the temp root before the agent starts.
    pub has_files: bool,
    /// How the stand-in reaches the file.
    pub route: Route,
    /// More arguments for the agent (`--max-turns`, `--plugin-dir`).
    pub extra_args: &'a [String],
    /// Where the arm's hook lives. The run has placed Claude Code's files
    /// already ([`SessionAsk::has_files`]); a driver with hook files of its
    /// own places the hook for the sources it reads itself (Copilot CLI's
    /// `github-hooks`), and answers `unsupported` for those it does not.
    pub source: HookSource,
    /// Whether the working directory is trusted before the session starts
    /// (an agent that loads a project's hooks only in a trusted folder).
    pub trust: Trust,
}

/// Where a session's temp root is, and where its model answers.
#[derive(Debug, Clone, Copy)]
pub struct SessionPlace<'a> {
    /// The agent's binary.
    pub bin: &'a AgentBin,
    /// The isolated HOME.
    pub home: &'a Path,
    /// The working directory.
    pub work: &'a Path,
    /// The evidence directory (config files are copied here for the record).
    pub evidence: &'a Path,
    /// The stand-in's base URL for this session; `None` for a live model.
    pub standin_url: Option<&'a str>,
    /// The agent's binary (an SDK's entry module, which its program imports).
    pub binary: &'a Path,
}

impl<'a> SessionPlace<'a> {
    /// The stand-in's base URL for this session; for a live model, an
    /// `Unsupported` error saying that `agent` (its display name) runs
    /// against the stand-in only.
    pub fn standin_url_for(&self, agent: &str) -> std::io::Result<&'a str> {
        self.standin_url.ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::Unsupported, format!("{agent} runs against the stand-in only"))
        })
    }
}

/// What a driver made of a session: the agent's command line after the
/// binary, and the environment it adds to what every session gets.
#[derive(Debug, Clone, Default)]
pub struct SessionLaunch {
    /// Arguments after the binary.
    pub args: Vec<OsString>,
    /// Environment variables the agent needs (its model's address and key).
    pub env: Vec<(String, String)>,
    /// The program to run in place of the binary (an SDK session's `node`),
    /// with [`SessionLaunch::args`] after it.
    pub program: Option<PathBuf>,
    /// Marks for the row's `flags` (an SDK's bundled CLI version).
    pub flags: Vec<String>,
}

/// Who an agent is: one `const IDENTITY` per driver, which the identity
/// getters of [`AgentDriver`] read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// The npm package it ships in.
    pub npm_package: &'static str,
    /// The command its npm package installs (`node_modules/.bin/<name>`).
    pub bin_name: &'static str,
    /// The name people know it by.
    pub display_name: &'static str,
    /// The version failopen runs when none is named.
    pub pinned_version: &'static str,
    /// The second reference version, about three months older.
    pub older_version: &'static str,
}

/// How an agent's hooks are spelt: one `const VOCABULARY` per driver,
/// which [`AgentDriver::hook_vocabulary`] returns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HookVocabulary {
    /// The event under which its guards veto a tool call.
    pub event: &'static str,
    /// Its write tools, by the names its hooks see.
    pub write_tools: &'static [&'static str],
    /// The matcher that covers every write tool.
    pub full_matcher: &'static str,
    /// How it reads a hook entry's matcher.
    pub matching: Matching,
    /// How long it waits for a hook with no timeout, in seconds (infinite:
    /// it never stops waiting).
    pub default_timeout_secs: f64,
}

/// How an agent reads a hook entry's matcher against a tool's name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matching {
    /// Claude Code's rule ([`crate::matcher::covers`]): `|`-separated exact
    /// names, else a regex; none, `""` and `*` match every tool. `aliases`
    /// are more names a tool is also matched by (Codex's `apply_patch` by
    /// `Edit` and `Write`).
    ClaudeCode {
        /// `(tool, other names it is matched by)`.
        aliases: &'static [(&'static str, &'static [&'static str])],
    },
    /// An unanchored regex (Gemini CLI); none, `""` and `*` match every tool.
    UnanchoredRegex,
    /// Qwen Code's `matchesHookPattern` (0.24.4, `hooks/hookPlanner`): none,
    /// `""`, `*` and `.*` match every tool; the matcher, or any entry of a
    /// `|` list (one that opens with neither `^` nor `(`), equal to the tool's
    /// name or one of its `aliases` matches; else the list (or the matcher)
    /// is an unanchored regex tested on the tool's own name.
    AliasesThenRegex {
        /// `(tool, other names it is matched by exactly)`.
        aliases: &'static [(&'static str, &'static [&'static str])],
    },
    /// An unanchored regex with no wildcard spelling (Auggie CLI's
    /// `new RegExp(matcher).test(tool)`): none and `""` match every tool,
    /// and `*`, which is no regex, matches none (the hook is skipped).
    StrictRegex,
    /// No matcher at all: the hook runs for every tool (a Cline hook file,
    /// a Copilot entry, an OpenCode plugin).
    EveryTool,
}

impl Default for Matching {
    /// Claude Code's rule with no aliases.
    fn default() -> Matching {
        Matching::CLAUDE_CODE
    }
}

impl Matching {
    /// Claude Code's rule with no aliases.
    pub const CLAUDE_CODE: Matching = Matching::ClaudeCode { aliases: &[] };

    /// Whether `matcher` (none: the entry has no matcher) covers `tool`.
    pub fn covers(self, matcher: Option<&str>, tool: &str) -> bool {
        match self {
            Matching::ClaudeCode { aliases } => {
                let others = aliases.iter().find(|(t, _)| *t == tool).map_or(&[][..], |(_, names)| *names);
                std::iter::once(tool).chain(others.iter().copied()).any(|t| crate::matcher::covers(matcher, t))
            }
            Matching::UnanchoredRegex => {
                let m = matcher.unwrap_or("");
                m.is_empty() || m == "*" || regex::Regex::new(m).is_ok_and(|re| re.is_match(tool))
            }
            Matching::AliasesThenRegex { aliases } => {
                let m = matcher.unwrap_or("").trim();
                if m.is_empty() || m == "*" || m == ".*" {
                    return true;
                }
                let others = aliases.iter().find(|(t, _)| *t == tool).map_or(&[][..], |(_, names)| *names);
                let exact = |entry: &str| entry == tool || others.contains(&entry);
                if exact(m) {
                    return true;
                }
                let mut expression = m.to_string();
                if m.contains('|') && !m.starts_with('^') && !m.starts_with('(') {
                    let entries: Vec<&str> =
                        list_entries(m).into_iter().map(str::trim).filter(|e| !e.is_empty()).collect();
                    if entries.iter().any(|e| *e == "*" || *e == ".*" || exact(e)) {
                        return true;
                    }
                    if entries.is_empty() {
                        return false;
                    }
                    expression = entries.join("|");
                }
                regex::Regex::new(&expression).is_ok_and(|re| re.is_match(tool))
            }
            Matching::StrictRegex => {
                let m = matcher.unwrap_or("");
                m.is_empty() || regex::Regex::new(m).is_ok_and(|re| re.is_match(tool))
            }
            Matching::EveryTool => true,
        }
    }
}

/// A matcher's `|` entries as Qwen Code splits them (`splitListEntries`):
/// not inside a `[...]` class or a `(...)` group, nor after a `\\`.
fn list_entries(pattern: &str) -> Vec<&str> {
    let (mut entries, mut start) = (Vec::new(), 0);
    let (mut escaped, mut in_class, mut depth) = (false, false, 0usize);
    for (i, c) in pattern.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if in_class {
            in_class = c != ']';
        } else if c == '[' {
            in_class = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth = depth.saturating_sub(1);
        } else if c == '|' && depth == 0 {
            entries.push(&pattern[start..i]);
            start = i + 1;
        }
    }
    entries.push(&pattern[start..]);
    entries
}

/// A package registry failopen installs from, by version, into its cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Registry {
    /// npm: `npm install --prefix <version dir> <package>@<version>`.
    Npm,
    /// PyPI: a venv in the version's directory, `pip install <package>==<version>`.
    PyPi,
}

/// The API key a stand-in session presents (the stand-in takes any).
pub const STAND_IN_API_KEY: &str = "failopen-stand-in-key";

/// Where an agent's own files of a session are ([`AgentDriver::read_own_log`]).
#[derive(Debug, Clone, Copy)]
pub struct OwnFiles<'a> {
    /// The session's HOME.
    pub home: &'a Path,
    /// The session's TMPDIR.
    pub tmp: &'a Path,
}

/// One agent CLI: who it is, how its hooks are spelt, how a session of it
/// is set up and read, how it words a refusal, and what a binary of it lacks.
pub trait AgentDriver: Sync {
    // --- identity ---

    /// Who it is: its package, binary, name and reference versions.
    fn identity(&self) -> &'static Identity;
    /// The npm package it ships in.
    fn npm_package(&self) -> &'static str {
        self.identity().npm_package
    }
    /// The registry its package comes from: npm for every agent CLI and the
    /// TypeScript SDK, PyPI for the Python SDK.
    fn registry(&self) -> Registry {
        Registry::Npm
    }
    /// The command its npm package installs (`node_modules/.bin/<name>`).
    fn bin_name(&self) -> &'static str {
        self.identity().bin_name
    }
    /// The name people know it by, for messages and reports.
    fn display_name(&self) -> &'static str {
        self.identity().display_name
    }
    /// The version failopen runs when none is named.
    fn pinned_version(&self) -> &'static str {
        self.identity().pinned_version
    }
    /// The second reference version, about three months older (the
    /// article's 2.1.240 for Claude Code).
    fn older_version(&self) -> &'static str {
        self.identity().older_version
    }
    /// Whether this is the agent meant where a file, a label or an arm's
    /// expectation names none: the one failopen measured before it had an
    /// agent column (Claude Code). Its rows fit CSV formats older than that
    /// column, its reports and result files carry no agent name, and an
    /// arm's top-level expectation is its own.
    fn implied_when_unnamed(&self) -> bool {
        false
    }
    /// The name prefixes of its reference runs in `results/` besides
    /// `<agent>-` (`codex-0.171.0.csv`): the site reads every such CSV.
    fn results_prefixes(&self) -> &'static [&'static str] {
        &[]
    }
    /// The version in what the binary prints for `--version`.
    fn reported_version<'a>(&self, output: &'a str) -> Option<&'a str> {
        crate::version::reported_version(output)
    }
    /// Where an installed version's binary is in its install directory:
    /// `node_modules/.bin/<bin_name>` for an agent CLI.
    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        version_dir.join("node_modules/.bin").join(self.bin_name())
    }
    /// The files that make up an installed build, whose hash tells two
    /// releases apart (`failopen history` copies the rows of a release whose
    /// build is byte-identical to one it ran): every file of its npm package
    /// and of its per-platform packages ([`package_files`]), since the
    /// `node_modules/.bin` entry is often a launcher or an entry chunk that
    /// many releases share (Codex's `codex.js`, Copilot's `npm-loader.js`,
    /// Gemini's `gemini.js`).
    fn build_files(&self, version_dir: &Path) -> Vec<PathBuf> {
        package_files(version_dir, self.npm_package())
    }
    /// The version of a binary read without running it (an SDK's
    /// package.json); `None`: ask the binary for `--version`.
    fn version_without_running(&self, _bin: &Path) -> Option<String> {
        None
    }
    /// Whether a published version is a per-platform build of another
    /// (Codex's `0.171.0-linux-x64`), not a release of its own.
    fn is_platform_build(&self, _version: &str) -> bool {
        false
    }

    // --- hook vocabulary ---

    /// How its hooks are spelt: one `const VOCABULARY` per driver, which the
    /// vocabulary getters below read.
    fn hook_vocabulary(&self) -> &'static HookVocabulary;
    /// The event under which its guards veto a tool call (`PreToolUse`, Gemini's `BeforeTool`).
    fn hook_event(&self) -> &'static str {
        self.hook_vocabulary().event
    }
    /// Its write tools, by the names its hooks see.
    fn write_tools(&self) -> &'static [&'static str] {
        self.hook_vocabulary().write_tools
    }
    /// The matcher that covers every write tool.
    fn full_matcher(&self) -> String {
        self.hook_vocabulary().full_matcher.to_string()
    }
    /// Whether `matcher` (none: the entry has no matcher) covers `tool`, read as this agent reads it.
    fn covers(&self, matcher: Option<&str>, tool: &str) -> bool {
        self.hook_vocabulary().matching.covers(matcher, tool)
    }
    /// How long it waits for a hook with no timeout, in seconds.
    fn default_hook_timeout_secs(&self) -> f64 {
        self.hook_vocabulary().default_timeout_secs
    }
    /// The system-wide config files on this machine that hold hooks, which
    /// may run beside the hook under test (Claude Code's managed settings
    /// are [`crate::managed`]'s, so none here).
    fn system_hook_layers(&self) -> Vec<PathBuf> {
        Vec::new()
    }
    /// Whether the hook under test, placed at `source`, is the only
    /// PreToolUse hook a session loads (so that a refusal worded alike for
    /// every hook is its refusal): the `--settings` file in a session whose
    /// every other config failopen wrote. An agent that reads other sources
    /// from files failopen also wrote alone says so for them.
    fn hook_alone_at(&self, source: HookSource) -> bool {
        source == HookSource::SettingsFlag
    }
    /// Whether its print-mode stream reports each hook run (Claude Code's
    /// `--include-hook-events`); without, an audit session leaves a trace of
    /// the hook's shell to tell how a write landed.
    fn reports_hook_events(&self) -> bool {
        false
    }
    /// The hooks of a session (its stream, `stdout`) that ended in error,
    /// each as `exit N: <the start of its stderr>`; none when the stream
    /// does not say.
    fn hook_errors(&self, _stdout: &str) -> Vec<String> {
        Vec::new()
    }
    /// Whether it runs a hook of type `t` at all. An arm whose hook type it
    /// cannot run is no cell of its runs ([`crate::cells::expand`]), so one
    /// arm set (`all`) can hold settings hooks and the SDK's callbacks and a
    /// run of it on any agent rows only what that agent can run. A type an
    /// agent runs only in part (an `http` hook on Codex) stays a cell, whose
    /// row says why ([`AgentDriver::unsupported`]). Default: the hooks a
    /// settings file names, not code in an agent's process.
    fn runs_hook_type(&self, t: HookType) -> bool {
        !t.is_in_process()
    }
    /// The built-in arm sets `failopen run` runs when `--arms` names none:
    /// the sets its reference CSVs in `results/` were measured with, each
    /// holding arms of a hook type it runs ([`AgentDriver::runs_hook_type`]).
    /// Default: the article's nine arms, every one a settings hook.
    fn default_arm_sets(&self) -> &'static [&'static str] {
        &["article"]
    }

    // --- the user's hook config, for audit ---

    /// How `failopen audit` finds and reads its hook config files; `None`:
    /// audit does not read its hooks (yet). What an audit reads and measures
    /// beyond the files is the config's [`HookConfig::reach`].
    fn hook_config(&self) -> Option<&'static dyn HookConfig> {
        None
    }
    /// How its guards get a tool call on stdin and how it reads their
    /// answer, for audit's probes ([`HookContract`]); `None`: audit cannot
    /// put a probe to its guards yet, and they are exercised with writes only.
    fn hook_contract(&self) -> Option<&'static dyn HookContract> {
        None
    }
    /// How audit runs its guards when they are plugins (OpenCode's, Kilo
    /// CLI's) in sessions with faults applied to a copy
    /// ([`super::plugin_audit::PluginAudit`]); `None`: its plugins, if any,
    /// are listed and checked statically only.
    fn plugin_audit(&self) -> Option<&'static dyn super::plugin_audit::PluginAudit> {
        None
    }

    // --- wording ---

    /// How it words a refused tool call.
    fn wording(&self) -> &'static dyn RefusalWording;

    // --- support ---

    /// Whether it runs with a live model and in a terminal UI (`--model
    /// live`, `--mode interactive`); else print mode against the stand-in only.
    fn runs_live_and_interactive(&self) -> bool {
        false
    }

    /// What a binary declares it can do (Claude Code's `--help` flags), if it says.
    fn capabilities<'a>(&'a self, _bin: &'a AgentBin) -> BoxFuture<'a, Option<Capabilities>> {
        Box::pin(async { None })
    }
    /// What the agent (a binary with `caps`) lacks to run `ask` at all: the
    /// row's `unsupported:<what>`, and no session is started.
    fn unsupported(&self, ask: &SessionAsk<'_>, caps: Option<&Capabilities>) -> Option<&'static str>;
    /// A flag the agent refused, read off its stderr (`unknown-option:<flag>`).
    fn unknown_option<'a>(&self, _stderr: &'a str) -> Option<&'a str> {
        None
    }

    // --- session config ---

    /// Write the session's config files (the hook in the agent's format)
    /// under `at`, and say its command line and environment.
    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch>;
    /// The facts in what a print-mode session wrote on stdout.
    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts;
    /// What the agent wrote of the session in its own files (its log,
    /// under the session's HOME or TMPDIR), read once the session has ended,
    /// added to `facts`: Cline's log says a hook's stop ended the run,
    /// Auggie's names each hook it starts, which their streams do not.
    /// Nothing by default.
    fn read_own_log(&self, _files: &OwnFiles<'_>, _hook: &HookIdentity, _facts: &mut StreamFacts) {}
}

/// Every regular file of the npm package `package` and of its per-platform
/// packages (`<package>-linux-x64`, ...) in an install directory, sorted: what
/// a launcher package's build is ([`AgentDriver::build_files`]).
pub fn package_files(version_dir: &Path, package: &str) -> Vec<PathBuf> {
    let modules = version_dir.join("node_modules");
    let (scope_dir, name) = match package.rsplit_once('/') {
        Some((scope, name)) => (modules.join(scope), name),
        None => (modules.clone(), package),
    };
    let platform_prefix = format!("{name}-");
    let mut files = Vec::new();
    for entry in std::fs::read_dir(&scope_dir).into_iter().flatten().flatten() {
        let dir_name = entry.file_name().to_string_lossy().into_owned();
        if dir_name == name || dir_name.starts_with(&platform_prefix) {
            collect_files(&entry.path(), &mut files);
        }
    }
    files.sort();
    files
}

/// Every regular file under `dir`, symlinks not followed, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    collect_files(dir, &mut files);
    files.sort();
    files
}

/// Regular files under `dir`, symlinks not followed.
fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        match entry.file_type() {
            Ok(t) if t.is_dir() => collect_files(&entry.path(), out),
            Ok(t) if t.is_file() => out.push(entry.path()),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_codes_rule_matches_a_tool_by_its_aliases_too() {
        let codex = Matching::ClaudeCode { aliases: &[("apply_patch", &["Edit", "Write"])] };
        assert!(codex.covers(Some("Write"), "apply_patch"));
        assert!(codex.covers(Some("apply_patch"), "apply_patch"));
        assert!(!codex.covers(Some("Write"), "Bash"));
        assert!(!Matching::CLAUDE_CODE.covers(Some("Write"), "apply_patch"));
        assert!(Matching::CLAUDE_CODE.covers(None, "Bash"));
    }

    /// Qwen Code 0.24.4's `matchesHookPattern`, read from its bundle: Claude
    /// Code's names are exact aliases of its tools, in a `|` list too; anything
    /// else is an unanchored regex on the tool's own name, case-sensitive.
    #[test]
    fn qwen_matches_its_tools_aliases_exactly_then_a_regex_on_the_name() {
        let qwen = crate::agent::Agent::Qwen.driver();
        assert!(qwen.covers(Some("Bash|Write"), "run_shell_command") && qwen.covers(Some("Bash|Write"), "write_file"));
        assert!(qwen.covers(Some("Write"), "write_file") && !qwen.covers(Some("Write"), "edit"));
        assert!(!qwen.covers(Some("bash|write"), "run_shell_command"), "no alias, and no 'bash' in the name");
        assert!(qwen.covers(Some("bash|write"), "write_file"), "the regex finds write in write_file");
        assert!(!qwen.covers(Some("Bash"), "read_file"));
        assert!(qwen.covers(Some("^run_"), "run_shell_command") && !qwen.covers(Some("^Bash$|x"), "run_shell_command"));
        assert!(qwen.covers(None, "read_file") && qwen.covers(Some(".*"), "x") && qwen.covers(Some(" * "), "x"));
        assert!(qwen.covers(Some("(write|edit)_file|zzz"), "write_file"), "a group is one entry");
        assert!(!qwen.covers(Some("[|"), "write_file"), "no regex: nothing");
    }

    #[test]
    fn an_unanchored_regex_matches_inside_a_name_and_every_tool_matches_anything() {
        assert!(Matching::UnanchoredRegex.covers(Some("shell"), "run_shell_command"));
        assert!(Matching::UnanchoredRegex.covers(Some("*"), "write_file"));
        assert!(!Matching::UnanchoredRegex.covers(Some("^write$"), "write_file"));
        assert!(!Matching::CLAUDE_CODE.covers(Some("shell"), "run_shell_command"));
        assert!(Matching::EveryTool.covers(Some("nothing"), "bash"));
    }
}
