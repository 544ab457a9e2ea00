//! Taking a hook's command string apart: is it wrapped by `failopen seal`,
//! which program runs, which script file it runs.

use std::path::{Path, PathBuf};

use crate::seal::invocation::{self, SealUse};
use crate::shell::lex::{self, Token};

/// Programs that run a script named by their first non-option argument.
const INTERPRETERS: &[&str] = &[
    "sh", "bash", "zsh", "dash", "ksh", "fish", "python", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby",
    "php", "tsx", "ts-node", "lua", "Rscript",
];

/// A guard command, taken apart.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GuardCommand {
    /// The words, when the command is a simple one (no pipes, `&&`, `;`...).
    pub words: Option<Vec<String>>,
    /// The interpreter word, when the script is run through one (`python3 g.py`).
    pub interpreter: Option<String>,
    /// The script or program word, as written (after `VAR=value` words).
    pub script: Option<String>,
    /// The script is inline (`sh -c '...'`): no file to check.
    pub inline: bool,
    /// The module Python runs (`python -m agent_guard`): no script file, and
    /// a missing module makes Python exit 1, where a missing script exits 2.
    pub module: Option<String>,
}

/// A hook command, taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedCommand {
    /// The words up to and including `--` when wrapped by `failopen seal`.
    pub seal_prefix: Option<Vec<String>>,
    /// The guard (the inner one when sealed).
    pub guard: GuardCommand,
    /// The command runs failopen but seal does not decide the hook's answer:
    /// [`SealUse::problem_code`] and the words of [`SealUse::problem`]
    /// (shared with `seal --install`).
    pub seal_problem: Option<(&'static str, String)>,
}

impl ParsedCommand {
    /// Whether the command runs its guard through `failopen seal`.
    pub fn sealed(&self) -> bool {
        self.seal_prefix.is_some()
    }
}

/// Take a hook command string apart.
pub fn parse(command: &str) -> ParsedCommand {
    let seal = invocation::classify(command);
    let seal_problem = seal.problem_code().zip(seal.problem());
    if let SealUse::Sealed(call) = seal {
        let inner = call.guard;
        // `seal --install` writes `-- /bin/sh -c 'ORIGINAL'`: audit ORIGINAL.
        let guard = if inner.len() == 3 && file_name(&inner[0]) == "sh" && inner[1] == "-c" {
            parse(&inner[2]).guard
        } else {
            guard_of(inner)
        };
        return ParsedCommand { seal_prefix: Some(call.prefix), guard, seal_problem };
    }
    let guard = simple_words(command).map(guard_of).unwrap_or_default();
    ParsedCommand { seal_prefix: None, guard, seal_problem }
}

fn guard_of(words: Vec<String>) -> GuardCommand {
    let mut rest = words.iter().skip_while(|w| is_assignment(w)).peekable();
    // `env [VAR=value...] PROGRAM`
    if rest.peek().is_some_and(|w| file_name(w) == "env") {
        rest.next();
        while rest.peek().is_some_and(|w| is_assignment(w) || w.starts_with('-')) {
            rest.next();
        }
    }
    let rest: Vec<&String> = rest.collect();
    let Some(program) = rest.first() else { return GuardCommand { words: Some(words.clone()), ..Default::default() } };
    let mut g = GuardCommand { words: Some(words.clone()), ..Default::default() };
    if INTERPRETERS.contains(&file_name(program).as_str()) || file_name(program).starts_with("python3.") {
        g.interpreter = Some(program.to_string());
        let args = &rest[1..];
        if args.iter().any(|a| *a == "-c" || *a == "-e" || *a == "--eval") {
            g.inline = true;
        } else if let Some(at) = args.iter().position(|a| *a == "-m").filter(|_| is_python(program)) {
            g.module = args.get(at + 1).map(|m| m.to_string());
        } else {
            g.script = args.iter().find(|a| !a.starts_with('-')).map(|s| s.to_string());
        }
    } else if SHELL_BUILTINS.contains(&program.as_str()) {
        g.inline = true;
    } else {
        g.script = Some(program.to_string());
    }
    g
}

fn is_python(program: &str) -> bool {
    let name = file_name(program);
    name == "python" || name == "python3" || name.starts_with("python3.")
}

/// Shell builtins a hook command may start with: no file to check.
const SHELL_BUILTINS: &[&str] = &["exit", "true", "false", "echo", "printf", ":", "test", "[", "cd", "exec", "eval"];

/// The words of a simple command, unquoted (None when it has shell
/// operators or bad quoting).
pub fn simple_words(command: &str) -> Option<Vec<String>> {
    let tokens = lex::tokens(command).ok()?;
    let words: Option<Vec<String>> = tokens
        .iter()
        .map(|t| match t {
            Token::Word(w) => Some(lex::unquote(w)),
            Token::Operator(_) => None,
        })
        .collect();
    words.filter(|w| !w.is_empty())
}

fn file_name(word: &str) -> String {
    Path::new(word).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

pub use crate::shell::is_assignment;

/// Expand what Claude Code's shell would expand in a path word:
/// `$CLAUDE_PROJECT_DIR`, `${CLAUDE_PROJECT_DIR}`, `$HOME`, `~/`.
pub fn expand(word: &str, project_dir: &Path, home: Option<&Path>) -> String {
    let p = project_dir.to_string_lossy();
    let mut s = word.replace("${CLAUDE_PROJECT_DIR}", &p).replace("$CLAUDE_PROJECT_DIR", &p);
    if let Some(h) = home {
        let h = h.to_string_lossy();
        s = s.replace("${HOME}", &h).replace("$HOME", &h);
        if let Some(rest) = s.strip_prefix("~/") {
            s = format!("{h}/{rest}");
        }
    }
    s
}

/// Where a word naming a program or script points: a path (absolute, or
/// relative to `cwd`) when it has a `/`, else looked up on `path_var`.
pub fn resolve(word: &str, cwd: &Path, path_var: &str) -> Option<PathBuf> {
    if word.contains('/') {
        let p = Path::new(word);
        return Some(if p.is_absolute() { p.to_path_buf() } else { cwd.join(p) });
    }
    which(word, path_var)
}

/// The first executable file named `name` on `path_var`.
pub fn which(name: &str, path_var: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::split_paths(path_var)
        .map(|d| d.join(name))
        .find(|p| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Option<Vec<String>> {
        Some(v.iter().map(|x| x.to_string()).collect())
    }

    #[test]
    fn plain_script_and_interpreter() {
        let p = parse("/g/deny.sh");
        assert!(!p.sealed());
        assert_eq!(p.guard.script.as_deref(), Some("/g/deny.sh"));
        assert_eq!(p.guard.interpreter, None);
        let p = parse("FOO=1 python3 -u \"$CLAUDE_PROJECT_DIR\"/.claude/g.py --strict");
        assert_eq!(p.guard.interpreter.as_deref(), Some("python3"));
        assert_eq!(p.guard.script.as_deref(), Some("$CLAUDE_PROJECT_DIR/.claude/g.py"));
        assert!(parse("bash -c 'exit 2'").guard.inline);
    }

    #[test]
    fn a_python_module_is_no_script_file() {
        let g = parse("python -m agent_guard").guard;
        assert_eq!(g.interpreter.as_deref(), Some("python"));
        assert_eq!(g.module.as_deref(), Some("agent_guard"));
        assert_eq!(g.script, None, "agent_guard is a module, not a file to look for");
        let g = parse("/v/bin/python3.12 -u -m pkg.hook --strict").guard;
        assert_eq!(g.module.as_deref(), Some("pkg.hook"));
        assert_eq!(parse("node -m x.js").guard.module, None, "-m is Python's");
    }

    #[test]
    fn seal_prefix_and_inner_guard() {
        let p = parse("/x/failopen seal --deadline 4 -- node /g/guard.js");
        assert_eq!(p.seal_prefix, s(&["/x/failopen", "seal", "--deadline", "4", "--"]));
        assert_eq!(p.guard.interpreter.as_deref(), Some("node"));
        assert_eq!(p.guard.script.as_deref(), Some("/g/guard.js"));
        // The shape `seal --install` writes.
        let p = parse("'/x y/failopen' seal --deadline 4 -- /bin/sh -c '/g/deny.sh --x'");
        assert!(p.sealed());
        assert_eq!(p.guard.script.as_deref(), Some("/g/deny.sh"));
    }

    #[test]
    fn shell_operators_make_it_not_simple() {
        assert_eq!(parse("cat | /g/x.sh").guard, GuardCommand::default());
        assert!(simple_words("a && b").is_none());
        assert!(simple_words("a||true").is_none(), "operators need no spaces");
        assert!(simple_words("a 'b && c'").is_some());
    }

    #[test]
    fn a_seal_the_command_undoes_is_not_sealed_and_says_why() {
        let p = parse("/x/failopen seal -- /g/deny.sh || true");
        assert!(!p.sealed());
        let (code, problem) = p.seal_problem.unwrap();
        assert_eq!(code, "seal-undone");
        assert!(problem.contains("undoes it: `||` after seal"), "{problem}");
        let p = parse("failopen sael -- /g/deny.sh");
        assert!(!p.sealed());
        let (code, problem) = p.seal_problem.unwrap();
        assert_eq!(code, "seal-mistyped");
        assert!(problem.contains("\"sael\" where `seal` should be"), "{problem}");
        assert_eq!(parse("/x/failopen seal -- /g/deny.sh").seal_problem, None);
    }

    #[test]
    fn expands_project_dir_and_home() {
        let e = expand("$CLAUDE_PROJECT_DIR/.claude/g.sh", Path::new("/p"), Some(Path::new("/h")));
        assert_eq!(e, "/p/.claude/g.sh");
        assert_eq!(expand("~/g.sh", Path::new("/p"), Some(Path::new("/h"))), "/h/g.sh");
    }
}
