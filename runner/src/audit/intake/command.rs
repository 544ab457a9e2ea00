//! Taking a hook's command string apart: is it wrapped by `failopen seal`,
//! which program runs, which script file it runs.

use std::path::{Path, PathBuf};

use crate::seal::invocation::{self, SealUse};
use crate::shell::lex::{self, Token};

/// `command` (a simple command) with its `index`-th word replaced by
/// `with` (quoted), every other word kept exactly as written (quotes and
/// `$VARS` included); None when it is not a simple command.
pub fn replace_word(command: &str, index: usize, with: &str) -> Option<String> {
    let tokens = lex::tokens(command).ok()?;
    let mut words = Vec::new();
    for t in tokens {
        match t {
            Token::Word(w) => words.push(w),
            Token::Operator(_) => return None,
        }
    }
    *words.get_mut(index)? = shlex::try_quote(with).ok()?.into_owned();
    Some(words.join(" "))
}

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
    /// The package a launcher runs (`npx some-guard`, `uvx pkg`), or a
    /// command of the project's environment (`uv run my-guard`): no script
    /// file of its own to check or remove.
    pub package: Option<String>,
    /// The index in `words` of the script (or module) word: the `missing`
    /// fault replaces that word only, and keeps the launcher before it.
    pub script_at: Option<usize>,
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
    let mut g = GuardCommand { words: Some(words.clone()), ..Default::default() };
    let mut at = words.iter().take_while(|w| is_assignment(w)).count();
    // `env [VAR=value...] PROGRAM`
    if words.get(at).is_some_and(|w| file_name(w) == "env") {
        at += 1;
        while words.get(at).is_some_and(|w| is_assignment(w) || w.starts_with('-')) {
            at += 1;
        }
    }
    if at < words.len() {
        describe(&mut g, &words, at, None);
    }
    g
}

/// Fill `g` from the program at `words[at]`; `launcher`: the program a
/// launcher before it (`uv run`, `npx`) looks up on PATH.
fn describe(g: &mut GuardCommand, words: &[String], at: usize, launcher: Option<&str>) {
    let program = &words[at];
    // What a launcher runs may carry a version (`tsx@4`).
    let name = if launcher.is_some() { package_name(program) } else { file_name(program) };
    if let Some((after, target)) = launch(words, at) {
        let launcher = launcher.unwrap_or(program);
        g.interpreter = Some(launcher.to_string());
        let Some(next) = words.get(after) else { return };
        let next_name = package_name(next);
        match target {
            // `npx -c '...'`: inline.
            Target::Inline => g.inline = true,
            // `npx tsx g.ts`, `uv run python g.py`: the interpreter it runs takes the script.
            _ if INTERPRETERS.contains(&next_name.as_str()) || next_name.starts_with("python3.") => {
                describe(g, words, after, Some(launcher));
                g.interpreter = Some(launcher.to_string());
            }
            Target::Package => g.package = Some(next.to_string()),
            // `uv run g.py`, `bun run g.ts`, `deno run -A g.ts`: a script file; a bare name is a command of the
            // project's environment or a package.json script.
            Target::ScriptOrCommand if next.contains('/') || has_script_extension(next) => {
                g.script = Some(next.to_string());
                g.script_at = Some(after);
            }
            Target::ScriptOrCommand => g.package = Some(next.to_string()),
        }
        return;
    }
    if INTERPRETERS.contains(&name.as_str()) || name.starts_with("python3.") {
        if launcher.is_none() {
            g.interpreter = Some(program.to_string());
        }
        let args = &words[at + 1..];
        if args.iter().any(|a| a == "-c" || a == "-e" || a == "--eval") {
            g.inline = true;
        } else if let Some(i) = args.iter().position(|a| a == "-m").filter(|_| is_python(program)) {
            g.module = args.get(i + 1).map(|m| m.to_string());
            g.script_at = args.get(i + 1).map(|_| at + 1 + i + 1);
        } else if let Some(i) = args.iter().position(|a| !a.starts_with('-')) {
            g.script = Some(args[i].to_string());
            g.script_at = Some(at + 1 + i);
        }
    } else if SHELL_BUILTINS.contains(&program.as_str()) {
        g.inline = true;
    } else if launcher.is_some() {
        g.package = Some(program.to_string());
    } else {
        g.script = Some(program.to_string());
        g.script_at = Some(at);
    }
}

/// What a launcher runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A package, fetched or cached (`npx pkg`, `uvx pkg`, `bunx pkg`, `pnpm dlx pkg`).
    Package,
    /// A script file, or a command of the project's environment (`uv run`, `bun run`, `deno run`).
    ScriptOrCommand,
    /// Inline code (`npx -c '...'`).
    Inline,
}

/// When `words[at]` starts a launcher: the index of the word it runs, and what that is.
fn launch(words: &[String], at: usize) -> Option<(usize, Target)> {
    let name = file_name(&words[at]);
    let sub = words.get(at + 1).map(String::as_str);
    let (skip, target, valued): (usize, Target, &[&str]) = match (name.as_str(), sub) {
        ("uv", Some("run")) => (2, Target::ScriptOrCommand, UV_VALUED),
        ("uv", Some("tool")) if words.get(at + 2).is_some_and(|w| w == "run") => (3, Target::Package, UV_VALUED),
        ("uvx", _) => (1, Target::Package, UV_VALUED),
        ("bun", Some("run")) => (2, Target::ScriptOrCommand, BUN_VALUED),
        ("bun", Some("x")) => (2, Target::Package, BUN_VALUED),
        ("bunx", _) => (1, Target::Package, BUN_VALUED),
        ("npx", _) => (1, Target::Package, NPX_VALUED),
        ("pnpm" | "yarn", Some("dlx" | "exec")) => (2, Target::Package, NPX_VALUED),
        ("deno", Some("run")) => (2, Target::ScriptOrCommand, DENO_VALUED),
        _ => return None,
    };
    let mut i = at + skip;
    while let Some(w) = words.get(i) {
        if !w.starts_with('-') || w == "-" {
            break;
        }
        if name == "npx" && (w == "-c" || w == "--call") {
            return Some((i, Target::Inline));
        }
        if w == "--" {
            i += 1;
            break;
        }
        i += if valued.contains(&w.as_str()) { 2 } else { 1 };
    }
    Some((i, target))
}

/// Options of `uv run`/`uvx` that take a value.
const UV_VALUED: &[&str] = &[
    "--with",
    "-w",
    "--with-editable",
    "--with-requirements",
    "--python",
    "-p",
    "--project",
    "--directory",
    "--env-file",
    "--extra",
    "--group",
    "--index",
    "--index-url",
    "--default-index",
    "--extra-index-url",
    "--from",
    "--package",
    "--cache-dir",
    "--config-file",
];
/// Options of `bun run`/`bunx` that take a value.
const BUN_VALUED: &[&str] = &["--cwd", "-p", "--package", "--config", "-c", "--env-file", "--preload", "-r"];
/// Options of `npx`/`pnpm dlx` that take a value.
const NPX_VALUED: &[&str] = &["-p", "--package", "--registry", "--cache", "--prefix", "-C", "--dir"];
/// Options of `deno run` that take a value (most are written `--opt=value`).
const DENO_VALUED: &[&str] = &["--config", "-c", "--import-map", "--lock", "--env-file", "--cert", "--location"];

/// A package word without its scope's `@` or its `@version`: `tsx@4` → `tsx`.
fn package_name(word: &str) -> String {
    let base = file_name(word);
    match base.rsplit_once('@') {
        Some((name, _)) if !name.is_empty() => name.to_string(),
        _ => base,
    }
}

fn has_script_extension(word: &str) -> bool {
    [".py", ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".tsx", ".jsx", ".sh"].iter().any(|e| word.ends_with(e))
}

/// Whether a word's value is only known when the shell runs it: a command
/// substitution (`$(npm root -g)`, backquotes), or a variable other than
/// `$CLAUDE_PROJECT_DIR`, `$CLAUDE_PLUGIN_ROOT` and `$HOME` (which audit
/// expands as Claude Code's shell would).
pub fn resolved_at_run_time(word: &str) -> bool {
    if word.contains("$(") || word.contains('`') {
        return true;
    }
    let known = ["CLAUDE_PROJECT_DIR", "CLAUDE_PLUGIN_ROOT", "HOME"];
    let mut rest = word;
    while let Some(i) = rest.find('$') {
        let after = &rest[i + 1..];
        let var: String =
            after.trim_start_matches('{').chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if !known.contains(&var.as_str()) {
            return true;
        }
        rest = after;
    }
    false
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
    fn launchers_are_told_from_the_guards_own_script() {
        let g = parse("uv run \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/x.py --strict").guard;
        assert_eq!(g.interpreter.as_deref(), Some("uv"));
        assert_eq!(g.script.as_deref(), Some("$CLAUDE_PROJECT_DIR/.claude/hooks/x.py"));
        assert_eq!(g.script_at, Some(2));
        let g = parse("uv run --with pyyaml --python 3.12 -q x.py").guard;
        assert_eq!((g.script.as_deref(), g.script_at), (Some("x.py"), Some(7)));
        let g = parse("uv run --project /p python -m guard.hook").guard;
        assert_eq!((g.interpreter.as_deref(), g.module.as_deref()), (Some("uv"), Some("guard.hook")));
        let g = parse("uv run my-guard --hook").guard;
        assert_eq!((g.script, g.package.as_deref()), (None, Some("my-guard")), "a command of the project's venv");
        for (cmd, package) in [
            ("uvx guard-pkg@1.2 check", "guard-pkg@1.2"),
            ("uv tool run --from g guard", "guard"),
            ("bunx @scope/guard --hook", "@scope/guard"),
            ("bun x guard", "guard"),
            ("npx -y some-guard", "some-guard"),
            ("npx --package a b", "b"),
            ("pnpm dlx guard", "guard"),
            ("bun run lint-hook", "lint-hook"),
        ] {
            let g = parse(cmd).guard;
            assert_eq!((g.script.as_deref(), g.package.as_deref()), (None, Some(package)), "{cmd}");
            assert!(g.interpreter.is_some(), "{cmd}");
        }
        let g = parse("bun run ${CLAUDE_PLUGIN_ROOT}/hooks/guard.ts").guard;
        assert_eq!(
            (g.interpreter.as_deref(), g.script.as_deref()),
            (Some("bun"), Some("${CLAUDE_PLUGIN_ROOT}/hooks/guard.ts"))
        );
        let g = parse("deno run -A --config /c.json g.ts").guard;
        assert_eq!((g.interpreter.as_deref(), g.script.as_deref()), (Some("deno"), Some("g.ts")));
        let g = parse("npx -y tsx@4 .claude/hooks/g.ts").guard;
        assert_eq!((g.interpreter.as_deref(), g.script.as_deref()), (Some("npx"), Some(".claude/hooks/g.ts")));
        assert!(parse("npx -c 'exit 2'").guard.inline);
        let g = parse("FOO=1 env BAR=2 node --experimental-strip-types g.ts").guard;
        assert_eq!((g.interpreter.as_deref(), g.script.as_deref(), g.script_at), (Some("node"), Some("g.ts"), Some(5)));
        // The launcher alone stays what it was.
        assert_eq!(parse("bun g.ts").guard.script.as_deref(), Some("g.ts"));
        assert_eq!(parse("deno g.ts").guard.script.as_deref(), Some("g.ts"));
    }

    #[test]
    fn a_substitution_or_an_unknown_variable_is_resolved_at_run_time() {
        assert!(resolved_at_run_time("$(npm root -g)/g/dist/hook.js"));
        assert!(resolved_at_run_time("`npm root -g`/g.js"));
        assert!(resolved_at_run_time("${GUARD_HOME}/g.js"));
        assert!(resolved_at_run_time("$PWD/g.js"));
        assert!(!resolved_at_run_time("$CLAUDE_PROJECT_DIR/.claude/g.py"));
        assert!(!resolved_at_run_time("${CLAUDE_PLUGIN_ROOT}/g.js"));
        assert!(!resolved_at_run_time("$HOME/g.sh"));
        let g = parse("node $(npm root -g)/guard/dist/hook.js").guard;
        assert_eq!(g.script.as_deref(), Some("$(npm root -g)/guard/dist/hook.js"));
    }

    #[test]
    fn one_word_is_replaced_and_the_rest_kept_as_written() {
        let c = "uv run \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/x.py --arg \"$X\"";
        assert_eq!(replace_word(c, 2, "/no/x y.py").unwrap(), "uv run '/no/x y.py' --arg \"$X\"");
        assert_eq!(replace_word("a | b", 0, "x"), None);
    }

    #[test]
    fn expands_project_dir_and_home() {
        let e = expand("$CLAUDE_PROJECT_DIR/.claude/g.sh", Path::new("/p"), Some(Path::new("/h")));
        assert_eq!(e, "/p/.claude/g.sh");
        assert_eq!(expand("~/g.sh", Path::new("/p"), Some(Path::new("/h"))), "/h/g.sh");
    }
}
