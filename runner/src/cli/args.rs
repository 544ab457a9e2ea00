//! Command-line definitions (clap derive only; no logic lives here).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Does an AI coding agent's guard hook fail open when it breaks? Measure it, audit yours, seal it.
#[derive(Debug, Parser)]
#[command(name = "failopen", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run arms (a guard, the way it is wired, its expected verdict) as real agent sessions against a scripted model, one CSV row per session.
    Run(RunArgs),
    /// Install, list and prune the agent releases in failopen's cache (Claude Code's unless `--agent` names another).
    ///
    /// `failopen agents install --agent codex 0.171.0`. (`failopen claude`
    /// is the old name, still accepted.)
    #[command(alias = "claude")]
    Agents {
        /// Whose releases.
        #[arg(long, global = true, value_name = "AGENT", default_value = "claude-code", value_parser = agent_parser())]
        agent: failopen::agent::Agent,
        #[command(subcommand)]
        command: AgentsCommand,
    },
    /// Run a guard so that every failure to decide becomes a refusal (exit 2).
    ///
    /// Use it as a hook command: `failopen seal -- /path/to/guard.sh`.
    #[command(version, after_help = SEAL_AFTER_HELP)]
    Seal(SealArgs),
    /// Render one or more result CSVs as a report (Markdown, JSON, CSV, SVG, HTML, timelines, the findings site).
    Report(ReportArgs),
    /// List the arms whose verdict changed between two result CSVs of one agent.
    ///
    /// Exit 0: nothing changed. Exit 3: a cell moved from blocked to wrote
    /// (a guard opened). Exit 4: some other verdict changed. Exit 7: the two
    /// files are different agents' results (nothing compared; --across-agents
    /// compares them anyway).
    ///
    /// Arms are matched by name; a file holding several versions of its agent
    /// is compared on its newest. Exit 3 wins over 4; blocked to mixed with a
    /// wrote run counts as opened; an arm in one file only is another change.
    /// Exit 1: an input is unreadable or not a failopen results file.
    Diff(DiffArgs),
    /// Merge result CSVs (e.g. the shards of one run) into one file.
    Merge(MergeArgs),
    /// Find the first release of an agent (`--agent`, Claude Code by default) whose verdict on an arm differs from a good one's.
    Bisect(BisectArgs),
    /// Run an arm set over every published release of a range, oldest first, into one CSV.
    ///
    /// Installs the next version while the current one runs, keeps the cache
    /// bounded, resumes where an interrupted history stopped, and copies the
    /// rows of a release whose binary is byte-identical to one already run
    /// (flagged `identical-binary:VERSION`). A ledger beside the CSV
    /// (`NAME-versions.csv`) records each version's binary, install time and
    /// disk use.
    History(HistoryArgs),
    /// Does *my* guard fail closed? Check and fault-inject your hooks: Claude Code, Codex, Gemini, Copilot, Qwen, Cline, OpenCode, Kilo and Continue configs.
    Audit(AuditArgs),
    /// The census of public guards: install each guard of `guards/census.json`
    /// pinned by version and integrity, set it up as its README says, audit
    /// it, and write its evidence to `results/census/` and its row to
    /// `results/census.csv`. Resumable: a guard whose version and agent
    /// version already have a row is not run again.
    Census(CensusArgs),
    /// The stand-in model as a separate server (for testing live mode). Internal: hidden from the list.
    #[command(hide = true)]
    Standin {
        #[command(subcommand)]
        command: StandinCommand,
    },
    /// An MCP server over stdio for Claude Code's `mcp_tool` hooks: one tool, `guard`.
    ///
    /// Serves until stdin closes (exit 0) or SIGTERM/SIGINT (exit 130).
    #[command(name = "mcp-guard", after_help = MCP_GUARD_AFTER_HELP, hide = true)]
    McpGuard(McpGuardArgs),
    /// A filesystem-like MCP server over stdio: one tool, `write_file {path, content}`, writing
    /// inside the working directory only (the `mcp` route of arms/surface.json).
    ///
    /// Serves until stdin closes (exit 0) or SIGTERM/SIGINT (exit 130).
    #[command(name = "mcp-fs", hide = true)]
    McpFs(McpFsArgs),
}

#[derive(Debug, Args)]
pub struct McpFsArgs {
    /// The directory writes stay inside (default: the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Shown after `failopen mcp-guard --help`.
const MCP_GUARD_AFTER_HELP: &str = "\
Use it from an MCP config: {\"mcpServers\": {\"failopen-guard\": {\"type\": \"stdio\", \
\"command\": \"/path/to/failopen\", \"args\": [\"mcp-guard\", \"--policy\", \"deny\"]}}}, and a hook \
{\"type\": \"mcp_tool\", \"server\": \"failopen-guard\", \"tool\": \"guard\", \"input\": {...}}. \
See docs/mcp-tool-hooks.md.";

/// How `failopen mcp-guard` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum McpPolicyArg {
    /// No objection: the text `{}`.
    Allow,
    /// A PreToolUse JSON deny as text.
    Deny,
    /// A tool result with isError: true.
    Error,
    /// Never answers a call.
    Hang,
    /// Text that is not JSON.
    Garbage,
    /// Exits 1 before the MCP handshake.
    CrashAtStart,
}

#[derive(Debug, Args)]
pub struct McpGuardArgs {
    /// How the `guard` tool answers.
    #[arg(long, value_enum)]
    pub policy: McpPolicyArg,
    /// Append one JSON line per `guard` call (the arguments it got) to this file.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct BisectArgs {
    /// The agent whose releases to bisect.
    #[arg(long, value_name = "AGENT", default_value = "claude-code", value_parser = agent_parser())]
    pub agent: failopen::agent::Agent,
    /// The arm to run, e.g. crash/native.
    #[arg(long)]
    pub arm: String,
    /// A version with the known-good verdict.
    #[arg(long)]
    pub good: String,
    /// A version whose verdict differs.
    #[arg(long)]
    pub bad: String,
    /// Arm set holding the arm (file or built-in name).
    #[arg(long = "arms", default_value = "all")]
    pub arms: String,
    /// Sessions per version.
    #[arg(long, default_value_t = 1)]
    pub repeats: u32,
    /// Bisect on a row flag too (e.g. sdk-notice:hook_callback_failed): a
    /// version's verdict is the arm's verdict `with` or `without` the flag on
    /// every row, so a change the verdict does not show can be bisected.
    #[arg(long, value_name = "FLAG")]
    pub flag: Option<String>,
    /// Count a version whose every session is `invalid` for this reason as a
    /// verdict of its own (`invalid REASON`), as `hook-not-run` always is:
    /// e.g. `session-error` for a Python SDK release whose `HookMatcher`
    /// refuses `on_failure`, so its program never starts. Repeatable.
    #[arg(long = "invalid-as-verdict", value_name = "REASON", value_parser = parse_invalid_reason)]
    pub invalid_as_verdict: Vec<failopen::verdict::InvalidReason>,
}

fn parse_invalid_reason(s: &str) -> Result<failopen::verdict::InvalidReason, String> {
    s.parse()
}

/// Audit output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// A terminal report.
    Text,
    /// The report as JSON, for machines.
    Json,
    /// GitHub Markdown tables, for a CI job summary.
    Md,
    /// SARIF 2.1.0, for GitHub code scanning: one result per hole and per static finding, at its line.
    Sarif,
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Settings files (default: the project and user settings Claude Code would read here, and
    /// the project's `.codex/hooks.json`, `.codex/config.toml` `[hooks]`, `.gemini/settings.json`,
    /// `.github/hooks/*.json`, `.qwen/settings.json`, `.clinerules/hooks/PreToolUse*`, `.factory/hooks.json`, and the plugins
    /// in `.opencode/plugins/` and `.kilo/plugins/` and the `plugin` entries of `opencode.json` and `kilo.json`).
    #[arg(value_name = "SETTINGS.json")]
    pub settings: Vec<PathBuf>,
    /// Claude Code to run the dynamic checks on.
    #[arg(long = "claude", value_name = "SPEC")]
    pub claude: Option<String>,
    /// Codex CLI to run the dynamic checks of Codex hooks on (default: the pinned version).
    #[arg(long = "codex", value_name = "SPEC")]
    pub codex: Option<String>,
    /// Gemini CLI to run the dynamic checks of Gemini hooks on (default: the pinned version).
    #[arg(long = "gemini", value_name = "SPEC")]
    pub gemini: Option<String>,
    /// Copilot CLI to run the dynamic checks of Copilot hooks on (default: the pinned version).
    #[arg(long = "copilot", value_name = "SPEC")]
    pub copilot: Option<String>,
    /// Qwen Code to run the dynamic checks of Qwen hooks on (default: the pinned version).
    #[arg(long = "qwen", value_name = "SPEC")]
    pub qwen: Option<String>,
    /// Cline CLI to run the dynamic checks of Cline hook files on (default: the pinned version).
    #[arg(long = "cline", value_name = "SPEC")]
    pub cline: Option<String>,
    /// OpenCode to run the plugins of `.opencode/plugins/` in, as written and under plugin faults (default: the pinned version).
    #[arg(long = "opencode", value_name = "SPEC")]
    pub opencode: Option<String>,
    /// Kilo CLI to run the plugins of `.kilo/plugins/` in, as written and under plugin faults (default: the pinned version).
    #[arg(long = "kilo", value_name = "SPEC")]
    pub kilo: Option<String>,
    /// Continue CLI to run the dynamic checks of Continue hook files on (default: the pinned version).
    #[arg(long = "continue", value_name = "SPEC")]
    pub continue_cli: Option<String>,
    /// Droid CLI to run the dynamic checks of Droid hook files on (default: the pinned version).
    #[arg(long = "droid", value_name = "SPEC")]
    pub droid: Option<String>,
    /// Whose hook configs the named files are: claude-code, codex, gemini, copilot, qwen, cline, opencode, kilo, continue or droid
    /// (default: by path: a file in `.codex/` or named hooks.json is Codex CLI's,
    /// `.gemini/settings.json` Gemini CLI's, a `*.json` in `.github/hooks/` or `.copilot/hooks/`
    /// Copilot CLI's, `.qwen/settings.json` Qwen Code's, `PreToolUse[.ext]` in `.clinerules/hooks/` or
    /// `.cline/hooks/` Cline CLI's, a plugin in `.opencode/plugins/` or `opencode.json` OpenCode's, in
    /// `.kilo/plugins/` or `kilo.json` Kilo CLI's, `settings[.local].json` in `.continue/` Continue CLI's, `hooks.json` or `settings.json` in `.factory/` Droid CLI's).
    #[arg(long = "agent", value_name = "AGENT")]
    pub agent: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = AuditFormat::Text)]
    pub format: AuditFormat,
    /// Also write the report as SARIF 2.1.0 to this file (for code scanning, beside a report for people).
    #[arg(long = "sarif", value_name = "FILE")]
    pub sarif: Option<PathBuf>,
    /// Only the static checks (no agent sessions). Exit 3 on a finding of warning level or worse, else 6
    /// (untested: no session proved a guard holds).
    #[arg(long)]
    pub static_only: bool,
    /// Run the dynamic checks without the sandbox (bubblewrap): the audited hooks then reach your
    /// HOME, environment and network. Without it, where no sandbox can be had, only the static checks run.
    #[arg(long)]
    pub no_sandbox: bool,
    /// A plugin directory whose `hooks/hooks.json` to read too, as `claude --plugin-dir` loads it (repeatable).
    #[arg(long = "plugin-dir", value_name = "DIR")]
    pub plugin_dirs: Vec<PathBuf>,
    /// A call the healthy guard refuses, as JSON: `{"tool": "Bash", "command": "git reset --hard"}`,
    /// `{"tool": "Write", "file_path": ".env"}` (repeatable; tried before the built-in catalogue
    /// and the project's `.failopen/probes.json`).
    #[arg(long = "probe", value_name = "JSON")]
    pub probes: Vec<String>,
    /// Sessions running at once.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// How long a session of an OpenCode or Kilo plugin may run, in seconds, before audit ends it (default
    /// 300). Those agents wait on a plugin's hook for ever, so the plugin `hang` fault lasts this long; a
    /// healthy session that outlives it is `invalid`, never a verdict.
    #[arg(long = "plugin-timeout", value_name = "SECS", value_parser = plugin_timeout)]
    pub plugin_timeout: Option<f64>,
}

/// A `--plugin-timeout`: a number of seconds from 10 to 3600.
fn plugin_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if (10.0..=3600.0).contains(&secs) => Ok(secs),
        _ => Err(format!("`{text}`: a number of seconds from 10 to 3600")),
    }
}

impl AuditArgs {
    /// The version an agent's flag (its driver's `version_flag`, `--codex`) names, if given.
    pub fn version_named_by(&self, flag: &str) -> Option<&str> {
        let flags = [
            ("--claude", &self.claude),
            ("--codex", &self.codex),
            ("--gemini", &self.gemini),
            ("--copilot", &self.copilot),
            ("--qwen", &self.qwen),
            ("--cline", &self.cline),
            ("--opencode", &self.opencode),
            ("--kilo", &self.kilo),
            ("--continue", &self.continue_cli),
            ("--droid", &self.droid),
        ];
        flags.iter().find(|(f, _)| *f == flag).and_then(|(_, v)| v.as_deref())
    }
}

/// Stand-in policies for `standin serve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PolicyArg {
    /// Bash, then Write if refused, then text.
    Scripted,
    /// Never calls a tool.
    Refuse,
    /// Writes the file by a route the hook never sees.
    Wayward,
    /// 529 overloaded, or a stream dropped mid-message.
    Flaky,
}

#[derive(Debug, Subcommand)]
pub enum StandinCommand {
    /// Serve the stand-in on 127.0.0.1 until interrupted.
    Serve {
        /// Port (0: any free port; the chosen URL is printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
        #[arg(long, value_enum, default_value_t = PolicyArg::Scripted)]
        policy: PolicyArg,
    },
}

/// Which model drives the sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModelArg {
    /// The built-in scripted stand-in on loopback (free, offline, deterministic).
    Scripted,
    /// A real model through the user's credentials (costs money).
    Live,
}

/// How Claude Code is driven.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    /// `claude -p` with stream-json output.
    Print,
    /// `claude` in a pseudo-terminal, ended with /exit when the turn is over.
    Interactive,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// Arm set: a JSON file, or a built-in name: article, full, extended, http, model, trust, surface,
    /// workspace-trust, shapes, seal-shapes, sdk, cline, opencode, copilot, continue, state, auggie, all. Repeatable. Default: the
    /// agent's own set (article; opencode for OpenCode and Kilo CLI; sdk for the Agent SDKs and the Copilot SDK).
    #[arg(long = "arms", value_name = "FILE|NAME")]
    pub arms: Vec<String>,
    /// Keep only arms whose name matches this glob (e.g. '*/timed'). Repeatable.
    #[arg(long = "only", value_name = "GLOB")]
    pub only: Vec<String>,
    /// The agent under test.
    #[arg(long, value_name = "AGENT", default_value = "claude-code", value_parser = agent_parser())]
    pub agent: failopen::agent::Agent,
    /// The agent's version to run: a version, `latest`, a range of published
    /// versions (`2.1.240..latest`, both ends included), or a path to the
    /// binary. Comma-separated for several. Default: the agent's pinned
    /// version (Claude Code 2.1.328, Codex 0.171.0).
    #[arg(long = "agent-version", alias = "claude", value_name = "SPEC")]
    pub agent_version: Option<String>,
    /// Keep pre-releases that fall inside an `--agent-version` range.
    #[arg(long = "pre-releases")]
    pub pre_releases: bool,
    /// The model behind the sessions.
    #[arg(long, value_enum, default_value_t = ModelArg::Scripted)]
    pub model: ModelArg,
    /// How each session runs Claude Code: `print` (`claude -p`) or
    /// `interactive` (a pseudo-terminal; with the scripted stand-in only).
    #[arg(long, value_enum, default_value_t = ModeArg::Print)]
    pub mode: ModeArg,
    /// Sessions per arm (default: 1 with the scripted stand-in, 3 live).
    #[arg(long)]
    pub repeats: Option<u32>,
    /// Sessions running at once (default: the CPU count). With the stand-in,
    /// long idle cells (hangs) wait beside them, up to 4 per job.
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// CSV file to write (default: results/<timestamp>-<version>.csv).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Keep each session's temp root and print where it is.
    #[arg(long)]
    pub keep: bool,
    /// Wall timeout of one session, in seconds.
    #[arg(long = "session-timeout", value_name = "SECS", default_value_t = 120.0)]
    pub session_timeout: f64,
    /// Run only shard K of N (1-based), e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Append to this CSV, skipping the cells it already holds.
    #[arg(long, value_name = "FILE", conflicts_with = "out")]
    pub resume: Option<PathBuf>,
    /// Live mode: skip the confirmation question.
    #[arg(long)]
    pub yes: bool,
    /// Live mode: passed to Claude Code as --max-turns.
    #[arg(long, value_name = "N")]
    pub max_turns: Option<u32>,
    /// Live mode: passed to Claude Code as --max-budget-usd.
    #[arg(long, value_name = "USD")]
    pub max_budget_usd: Option<f64>,
    /// What goes to stdout: `text` (the verdict table and what let a write through) or `json`
    /// (one JSON object per session as it finishes, then a summary object: JSON lines).
    #[arg(long, value_enum, default_value_t = RunFormat::Text)]
    pub format: RunFormat,
    /// Run the sessions without the sandbox. By default each session's agent and guards run in a bubblewrap
    /// sandbox: an allowlisted environment, your HOME hidden (what the hooks' configuration names bound back
    /// read-only), writes only in the session's temp root, no network but the stand-in's (a live model's
    /// sessions keep the network), every process gone with the session; a row records what it would outside
    /// (docs/sandbox.md). Without a sandbox (no bwrap, no unprivileged user namespaces, macOS) the sessions do
    /// not start unless told this (or FAILOPEN_SANDBOX=off).
    #[arg(long = "no-sandbox")]
    pub no_sandbox: bool,
}

/// `run` output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RunFormat {
    /// The verdict table and a summary, for people.
    Text,
    /// JSON lines: `{"type": "session", ...}` per session as it finishes, then `{"type": "summary", ...}`.
    Json,
}

#[derive(Debug, Subcommand)]
pub enum AgentsCommand {
    /// List the versions installed in the cache: size, last use, pinned.
    List,
    /// Install versions, `latest` or ranges into the cache.
    Install {
        #[arg(required = true, value_name = "VER")]
        versions: Vec<String>,
        /// Keep pre-releases inside a range.
        #[arg(long = "pre-releases")]
        pre_releases: bool,
    },
    /// Print the published versions a spec names, oldest first, one per line.
    Versions {
        /// Versions, `latest` or ranges (`2.1.240..latest`), comma-separated.
        #[arg(value_name = "SPEC")]
        spec: String,
        /// Print N contiguous sub-ranges `FIRST..LAST` instead (a CI matrix).
        #[arg(long, value_name = "N")]
        split: Option<usize>,
        /// Keep pre-releases inside a range.
        #[arg(long = "pre-releases")]
        pre_releases: bool,
    },
    /// Remove every cached version that is not pinned (the agent's pinned and older reference releases) or kept.
    Prune {
        /// Also keep these (versions, ranges, `latest`; comma-separated).
        #[arg(long, value_name = "SPEC")]
        keep: Option<String>,
        /// Say what would be removed, remove nothing.
        #[arg(long = "dry-run")]
        dry_run: bool,
    },
}

#[derive(Debug, Args)]
pub struct CensusArgs {
    /// The census file.
    #[arg(long, value_name = "FILE", default_value = "guards/census.json")]
    pub list: PathBuf,
    /// Only this guard (by its name in the census; repeatable).
    #[arg(long, value_name = "GUARD")]
    pub only: Vec<String>,
    /// The Claude Code version audit runs on (default: the pinned version).
    #[arg(long, value_name = "VERSION")]
    pub claude: Option<String>,
    /// Where each guard's evidence JSON goes.
    #[arg(long = "out-dir", value_name = "DIR", default_value = "results/census")]
    pub out_dir: PathBuf,
    /// The CSV of rows, one per guard (read to resume, rewritten after each guard).
    #[arg(long, value_name = "FILE", default_value = "results/census.csv")]
    pub csv: PathBuf,
    /// Measure each selected guard again, even when its row is current.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct HistoryArgs {
    /// The agent whose releases to run.
    #[arg(long, value_name = "AGENT", default_value = "claude-code", value_parser = agent_parser())]
    pub agent: failopen::agent::Agent,
    /// The versions: a range of published versions (both ends included),
    /// versions, `latest`, comma-separated. Default: from the agent's older
    /// reference version to the latest (`2.1.240..latest` for Claude Code).
    #[arg(long = "agent-version", alias = "claude", value_name = "SPEC")]
    pub agent_version: Option<String>,
    /// Keep pre-releases inside a range.
    #[arg(long = "pre-releases")]
    pub pre_releases: bool,
    /// Arm set: a JSON file, or a built-in name. Repeatable.
    #[arg(long = "arms", value_name = "FILE|NAME", default_value = "full")]
    pub arms: Vec<String>,
    /// Keep only arms whose name matches this glob. Repeatable.
    #[arg(long = "only", value_name = "GLOB")]
    pub only: Vec<String>,
    /// Sessions per arm and version.
    #[arg(long, default_value_t = 1)]
    pub repeats: u32,
    /// Sessions running at once (default: the CPU count).
    #[arg(long, short = 'j')]
    pub jobs: Option<usize>,
    /// The CSV to append to (and resume from). Default: results/history.csv
    /// for Claude Code, results/AGENT-history.csv for another agent.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Bound the cache: a number of versions (e.g. 4) or a size (e.g. 3G),
    /// least recently used removed first, pinned versions kept. Default:
    /// remove each version this history installed once it has run.
    #[arg(long = "cache-max", value_name = "N|SIZE")]
    pub cache_max: Option<String>,
    /// Run only shard K of N of every version's cells, e.g. 2/4.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// Wall timeout of one session, in seconds.
    #[arg(long = "session-timeout", value_name = "SECS", default_value_t = 120.0)]
    pub session_timeout: f64,
    /// Run the sessions without the sandbox they run in by default (bubblewrap: see `failopen run --help`);
    /// where none can be had, the sessions do not start unless told this (or FAILOPEN_SANDBOX=off).
    #[arg(long = "no-sandbox")]
    pub no_sandbox: bool,
}

/// Shown after `failopen seal --help`.
const SEAL_AFTER_HELP: &str = "\
Exit codes: 0 only when the guard ran, exited 0, its output was read to the end, and its \
answer is one the agent will read as the guard meant (and --expect-json was satisfied); \
2 otherwise. Argument errors, --help and --version also exit 2, on purpose: in a hook \
command any other exit code lets the tool call through.

A JSON refusal in a shape some agent would not read (a null reason, no or another \
hookEventName, async: true, a deny Codex drops) becomes exit 2 with its reason, with or \
without --expect-json. Every catchable signal to seal is a refusal, and the guard's whole \
process group dies with seal, SIGKILL included.

Limits: the hook payload at most 64 MiB, the guard's stdout and stderr at most 64 MiB each; \
more, or memory running out, is a refusal (exit 2), never an abort.

--install is a setup command, not a hook: it exits 0 on success and 1 on error (also when \
a hook runs failopen without being protected by it). Never put `failopen seal --install` \
in a hook command.";

#[derive(Debug, Args)]
pub struct SealArgs {
    /// Seconds from seal's start (reading the payload included) until it kills
    /// the guard and refuses: finite, more than 0, at most 86400.
    #[arg(
        long,
        value_name = "SECS",
        default_value_t = failopen::seal::DEFAULT_DEADLINE_SECS,
        value_parser = failopen::seal::deadline::parse,
        allow_hyphen_values = true
    )]
    pub deadline: f64,
    /// An exit 0 must come with a JSON decision for the payload's hook_event_name
    /// on stdout that the agent reads (PreToolUse: hookSpecificOutput with
    /// hookEventName and permissionDecision allow|deny|ask), or seal refuses.
    #[arg(long)]
    pub expect_json: bool,
    /// Setup, not a hook: rewrite this Claude Code settings file so every PreToolUse
    /// command hook runs through seal. Exits 0 on success, 1 on error; never put it in a
    /// hook command.
    #[arg(long, value_name = "SETTINGS.json", conflicts_with_all = ["guard"])]
    pub install: Option<PathBuf>,
    /// The guard command and its arguments (everything after it is passed on,
    /// dashes included; put `--` before a guard whose name starts with `-`).
    #[arg(trailing_var_arg = true, value_name = "GUARD", required_unless_present = "install")]
    pub guard: Vec<String>,
}

/// Report output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Md,
    Json,
    Csv,
    Svg,
    Html,
    /// Every version along x, every arm along y, change points marked.
    TimelineSvg,
    /// The timeline as a page to scroll and filter by guard, wrapper and hook type.
    TimelineHtml,
    /// What changed when: one line per change point, by version.
    TimelineMd,
    /// The findings as a static site, built from a results folder (default
    /// `results`: its reference CSVs, history and bisects) into the folder --out.
    Site,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// Result CSVs (for --format site: one results folder, default `results`).
    #[arg(value_name = "FILE.csv", default_value_if("format", "site", "results"))]
    pub files: Vec<PathBuf>,
    #[arg(long, value_enum, default_value_t = FormatArg::Md)]
    pub format: FormatArg,
    /// Write here instead of stdout (for --format site: the folder to write the site into).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier results CSV (e.g. the reference run of the older release).
    #[arg(value_name = "OLD.csv")]
    pub old: PathBuf,
    /// The later results CSV, compared with OLD arm by arm.
    #[arg(value_name = "NEW.csv")]
    pub new: PathBuf,
    /// Compare two different agents' results anyway (by default that is refused with exit 7).
    #[arg(long)]
    pub across_agents: bool,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// Result CSVs to join (e.g. the shards of one run); every file's header must be failopen's.
    #[arg(required = true, value_name = "FILE.csv")]
    pub files: Vec<PathBuf>,
    /// The merged CSV to write (refused if it is one of the inputs).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}

/// `--agent NAME`: one of [`failopen::agent::Agent::ALL`]'s names, which
/// `--help` and the error for any other name list.
pub fn agent_parser() -> impl clap::builder::TypedValueParser<Value = failopen::agent::Agent> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(failopen::agent::Agent::ALL.map(|(name, _)| name))
        .try_map(|name| name.parse::<failopen::agent::Agent>())
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use failopen::agent::Agent;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("failopen").chain(args.iter().copied()))
    }

    /// `failopen agents` installs any agent's releases, `--agent` before or
    /// after its subcommand; `failopen claude`, its old name, still parses
    /// to the same command, so existing CI scripts keep working.
    #[test]
    fn agents_is_the_installer_and_claude_its_old_name() {
        for args in [
            &["agents", "install", "--agent", "codex", "0.171.0"][..],
            &["agents", "--agent", "codex", "install", "0.171.0"],
            &["claude", "--agent", "codex", "install", "0.171.0"],
        ] {
            match parse(args).unwrap_or_else(|e| panic!("{args:?}: {e}")).command {
                Command::Agents { agent, command: AgentsCommand::Install { versions, .. } } => {
                    assert_eq!(agent, Agent::Codex, "{args:?}");
                    assert_eq!(versions, ["0.171.0"], "{args:?}");
                }
                other => panic!("{args:?} parsed to {other:?}"),
            }
        }
        match parse(&["agents", "list"]).unwrap().command {
            Command::Agents { agent, .. } => assert_eq!(agent, Agent::ClaudeCode),
            other => panic!("{other:?}"),
        }
    }

    /// `--agent-version` names the release to run; `--claude`, its old
    /// name, is still accepted by run and history.
    #[test]
    fn agent_version_and_its_old_name_claude() {
        for flag in ["--agent-version", "--claude"] {
            let Command::Run(run) = parse(&["run", "--agent", "qwen", flag, "0.24.4"]).unwrap().command else {
                panic!("{flag}: not run")
            };
            assert_eq!((run.agent, run.agent_version.as_deref()), (Agent::Qwen, Some("0.24.4")), "{flag}");
            let Command::History(history) = parse(&["history", flag, "2.1.240..latest"]).unwrap().command else {
                panic!("{flag}: not history")
            };
            assert_eq!(history.agent_version.as_deref(), Some("2.1.240..latest"), "{flag}");
        }
    }

    /// `run --help` names every built-in arm set, so none is found only in an error.
    #[test]
    fn run_help_lists_every_built_in_arm_set() {
        let help = parse(&["run", "--help"]).unwrap_err().to_string();
        for (name, _) in failopen::arms::BUILTIN {
            assert!(help.contains(&format!(" {name},")) || help.contains(&format!(" {name}.")), "{name}: {help}");
        }
    }

    /// The internal subcommands are hidden from the list but still run;
    /// `diff` and `merge` describe their arguments.
    #[test]
    fn internal_commands_are_hidden_and_arguments_described() {
        let help = parse(&["--help"]).unwrap_err().to_string();
        for hidden in ["standin", "mcp-guard", "mcp-fs"] {
            assert!(!help.contains(&format!("  {hidden} ")), "{hidden} listed: {help}");
        }
        for shown in ["run", "audit", "seal", "report", "diff", "merge", "bisect", "history", "agents"] {
            assert!(help.contains(&format!("  {shown} ")), "{shown} missing: {help}");
        }
        assert!(parse(&["mcp-fs", "--root", "/tmp"]).is_ok());
        for (cmd, args) in [("diff", &["<OLD.csv>", "<NEW.csv>"][..]), ("merge", &["<FILE.csv>...", "--out"])] {
            let help = parse(&[cmd, "-h"]).unwrap_err().to_string();
            for arg in args {
                let line = help
                    .lines()
                    .find(|l| l.trim_start().starts_with(arg))
                    .unwrap_or_else(|| panic!("{cmd}: {arg}: {help}"));
                let described = line.split_once(arg).map(|(_, rest)| rest.trim().len() > 10).unwrap_or(false);
                assert!(described, "{cmd} {arg} has no description: {help}");
            }
        }
    }

    /// An unknown agent is refused with every valid name listed, and `--help`
    /// lists them too: the list is `Agent::ALL`, so a new agent is in both.
    #[test]
    fn an_unknown_agent_lists_every_valid_one() {
        let err = parse(&["run", "--agent", "claude"]).unwrap_err().to_string();
        for (name, _) in Agent::ALL {
            assert!(err.contains(name), "{name} missing from: {err}");
        }
        let help = parse(&["agents", "--help"]).unwrap_err().to_string();
        assert!(help.contains("possible values") && help.contains("continue"), "{help}");
    }
}
