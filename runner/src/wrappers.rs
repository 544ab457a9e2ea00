//! Wrappers: how a guard is put behind the hook entry.
//!
//! - `bare`: the guard is the hook command.
//! - `plain`, `timed`: the article's two wrapper scripts, verbatim, with the
//!   guard passed in `$GUARD` as the article's scripts expect.
//! - `native`: the bare guard with Claude Code's own `"onFailure": "block"`.
//! - `sealed`: `failopen seal -- GUARD`, our fail-closed wrapper; for an
//!   Agent SDK callback, failopen's sealed callback around it
//!   (guards/sdk/sealed_callback.*), with the arm's deadline.

use std::fmt;
use std::io;
use std::path::Path;
use std::str::FromStr;

use crate::guards::{Guard, GuardDir, GuardKind};
use crate::hook_type::HookType;

/// One of the wrappers a guard can run under.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wrapper {
    /// The guard is the hook command.
    Bare,
    /// The article's plain wrapper.
    Plain,
    /// The article's timed wrapper (perl alarm).
    Timed,
    /// The bare guard with `"onFailure": "block"` on the hook entry.
    Native,
    /// `failopen seal -- GUARD`.
    Sealed,
}

/// Every wrapper, in report column order.
pub const ALL: [Wrapper; 5] = [Wrapper::Bare, Wrapper::Plain, Wrapper::Timed, Wrapper::Native, Wrapper::Sealed];

impl Wrapper {
    /// The name used in arms and CSVs.
    pub fn name(self) -> &'static str {
        match self {
            Wrapper::Bare => "bare",
            Wrapper::Plain => "plain",
            Wrapper::Timed => "timed",
            Wrapper::Native => "native",
            Wrapper::Sealed => "sealed",
        }
    }

    /// Whether this wrapper can be applied to `guard`; `Err` says why not.
    pub fn applies_to(self, guard: &Guard) -> Result<(), String> {
        match self {
            Wrapper::Bare | Wrapper::Native => Ok(()),
            Wrapper::Plain | Wrapper::Timed if !guard.is_single_path() => Err(format!(
                "the article's {} wrapper runs \"$GUARD\" as one path; guard {} is not a single script path",
                self.name(),
                guard.name
            )),
            Wrapper::Sealed if guard.is_callback() => Ok(()),
            Wrapper::Plain | Wrapper::Timed | Wrapper::Sealed if !guard.is_command() => Err(format!(
                "wrapper {} wraps a command; guard {} is {} {} hook",
                self.name(),
                guard.name,
                guard.hook_type().article(),
                guard.hook_type()
            )),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Wrapper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Wrapper {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ALL.iter()
            .copied()
            .find(|w| w.name() == s)
            .ok_or_else(|| format!("unknown wrapper {s:?}; valid wrappers: {}", ALL.map(|w| w.name()).join(", ")))
    }
}

/// What the hook entry runs: a shell command, an HTTP URL, or a model's prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HookTarget {
    /// `"type": "command"` with this command line.
    Command(String),
    /// `"type": "http"` with this URL.
    Http(String),
    /// `"type": "prompt"` with this prompt.
    Prompt(String),
    /// `"type": "agent"` with this prompt.
    Agent(String),
    /// An Agent SDK callback (`"type": "callback"` or `"can-use-tool"`) doing `behaviour`.
    Callback {
        /// The entry's type: `callback` or `can-use-tool`.
        kind: HookType,
        /// What the callback does.
        behaviour: &'static str,
        /// Inside failopen's sealed callback with this deadline, in
        /// milliseconds (the `sealed` wrapper).
        sealed_deadline_ms: Option<u64>,
    },
    /// `"type": "mcp_tool"`: this server's tool.
    McpTool {
        /// The MCP server's name in the MCP config.
        server: String,
        /// The tool.
        tool: String,
    },
}

impl HookTarget {
    /// What Claude Code writes between the brackets of this hook's refusals:
    /// the command line, the URL, or the prompt.
    pub fn label(&self) -> String {
        match self {
            HookTarget::Command(s) | HookTarget::Http(s) | HookTarget::Prompt(s) | HookTarget::Agent(s) => s.clone(),
            // 2.1.328's onFailure refusal: `PreToolUse:Bash hook error: [failopen-guard/guard]: failed; ...`
            HookTarget::McpTool { server, tool } => format!("{server}/{tool}"),
            // The bundled CLI's onFailure refusal: `PreToolUse:Bash hook error: [callback]: failed; ...`.
            HookTarget::Callback { .. } => "callback".to_string(),
        }
    }
}

/// Everything needed to turn (guard, wrapper) into a hook entry.
#[derive(Debug, Clone)]
pub struct HookContext<'a> {
    /// Where the guard scripts and wrappers were written.
    pub guards: &'a GuardDir,
    /// The failopen binary, by absolute path (for `sealed`).
    pub failopen_exe: &'a Path,
    /// The guard server's URLs for this session (for HTTP guards).
    pub guard_server: Option<&'a crate::guard_server::HttpBases>,
    /// The wrapper's own deadline in seconds (timed, sealed).
    pub deadline_secs: f64,
}

/// The hook target for `guard` under `wrapper`.
pub fn hook_target(guard: &Guard, wrapper: Wrapper, ctx: &HookContext<'_>) -> io::Result<HookTarget> {
    wrapper.applies_to(guard).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    if let GuardKind::McpTool { .. } = guard.kind {
        return Ok(HookTarget::McpTool {
            server: crate::mcp_guard::MCP_SERVER_KEY.to_string(),
            tool: crate::mcp_guard::server::TOOL_NAME.to_string(),
        });
    }
    if let GuardKind::Callback { behaviour, .. } = guard.kind {
        let sealed_deadline_ms = (wrapper == Wrapper::Sealed).then(|| (ctx.deadline_secs * 1000.0).round() as u64);
        return Ok(HookTarget::Callback { kind: guard.hook_type(), behaviour, sealed_deadline_ms });
    }
    if let GuardKind::ModelHook { agent, .. } = guard.kind {
        let prompt = crate::guards::MODEL_HOOK_PROMPT.to_string();
        return Ok(if agent { HookTarget::Agent(prompt) } else { HookTarget::Prompt(prompt) });
    }
    if let GuardKind::Http { endpoint } = guard.kind {
        let bases = ctx.guard_server.ok_or_else(|| io::Error::other("HTTP guard needs the guard server"))?;
        let base = if endpoint == "down" { &bases.down } else { &bases.live };
        return Ok(HookTarget::Http(format!("{}/{}", base.trim_end_matches('/'), endpoint)));
    }
    let argv = ctx.guards.argv(guard).expect("command guard has an argv");
    let command = match wrapper {
        Wrapper::Bare | Wrapper::Native => join(&argv),
        Wrapper::Plain => format!("GUARD={} {}", quote(&argv[0]), quote_path(&ctx.guards.plain_wrapper())),
        Wrapper::Timed => {
            let alarm = ctx.deadline_secs.round().max(1.0) as u64;
            format!("GUARD={} {}", quote(&argv[0]), quote_path(&ctx.guards.timed_wrapper(alarm)?))
        }
        Wrapper::Sealed => {
            let mut parts = vec![ctx.failopen_exe.to_string_lossy().into_owned(), "seal".into()];
            if guard.answers_json {
                parts.push("--expect-json".into());
            }
            parts.push("--deadline".into());
            parts.push(format!("{}", ctx.deadline_secs));
            parts.push("--".into());
            parts.extend(argv);
            join(&parts)
        }
    };
    Ok(HookTarget::Command(command))
}

fn quote(s: &str) -> String {
    shlex::try_quote(s).map(|c| c.into_owned()).unwrap_or_else(|_| format!("'{}'", s.replace('\'', "'\\''")))
}

fn quote_path(p: &Path) -> String {
    quote(&p.to_string_lossy())
}

fn join(argv: &[String]) -> String {
    argv.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards;

    fn ctx<'a>(gd: &'a GuardDir, exe: &'a Path) -> HookContext<'a> {
        HookContext { guards: gd, failopen_exe: exe, guard_server: None, deadline_secs: 3.0 }
    }

    #[test]
    fn names_round_trip_and_unknown_lists_valid() {
        for w in ALL {
            assert_eq!(w.name().parse::<Wrapper>().unwrap(), w);
        }
        let err = "sealded".parse::<Wrapper>().unwrap_err();
        assert!(err.contains("bare, plain, timed, native, sealed"), "{err}");
    }

    #[test]
    fn commands_per_wrapper() {
        let dir = tempfile::tempdir().unwrap();
        let gd = GuardDir::create(dir.path()).unwrap();
        let exe = Path::new("/opt/fo/failopen");
        let crash = guards::find("crash").unwrap();
        let root = dir.path().display().to_string();
        let c = ctx(&gd, exe);
        assert_eq!(hook_target(crash, Wrapper::Bare, &c).unwrap(), HookTarget::Command(format!("{root}/crash.sh")));
        assert_eq!(
            hook_target(crash, Wrapper::Plain, &c).unwrap(),
            HookTarget::Command(format!("GUARD={root}/crash.sh {root}/plain.sh"))
        );
        assert_eq!(
            hook_target(crash, Wrapper::Timed, &c).unwrap(),
            HookTarget::Command(format!("GUARD={root}/crash.sh {root}/timed.sh"))
        );
        assert_eq!(
            hook_target(crash, Wrapper::Sealed, &c).unwrap(),
            HookTarget::Command(format!("/opt/fo/failopen seal --deadline 3 -- {root}/crash.sh"))
        );
        let jd = guards::find("json-deny").unwrap();
        let HookTarget::Command(cmd) = hook_target(jd, Wrapper::Sealed, &c).unwrap() else { panic!() };
        assert!(cmd.contains(" seal --expect-json --deadline 3 -- "), "{cmd}");
    }

    #[test]
    fn paths_with_spaces_are_quoted() {
        let dir = tempfile::tempdir().unwrap();
        let spaced = dir.path().join("a b");
        let gd = GuardDir::create(&spaced).unwrap();
        let exe = Path::new("/x/failopen");
        let HookTarget::Command(cmd) =
            hook_target(guards::find("deny").unwrap(), Wrapper::Bare, &ctx(&gd, exe)).unwrap()
        else {
            panic!()
        };
        assert!(cmd.starts_with('\'') && cmd.ends_with("deny.sh'"), "{cmd}");
    }
}
