//! Does a hook command fail closed, or can it once wrapped?
//!
//! The agent reads only the hook command's exit code (and output). Seal
//! refuses with exit 2, so a hook is protected only when nothing in the
//! command can turn seal's exit 2 into another code. And wrapping a command
//! (`failopen seal -- /bin/sh -c 'ORIGINAL'`) protects it only when nothing in
//! ORIGINAL can turn a failure of the guard into exit 0, which seal would
//! pass on as an allow. Both are read from the command's shape
//! ([`crate::shell::tree`]), never by matching strings:
//!
//! - a command with `failopen seal` in it is [`Protection::Sealed`] only
//!   when seal's exit code is the command's exit code: seal is the one
//!   command (inside `( )` or `{ }` at most), with no redirection, and
//!   nothing before it but assignments and the prefixes that pass their
//!   child's exit code on unchanged ([`transparent_prefix`]). A guard seal
//!   runs as `SHELL -c 'COMMAND'` (what `--install` writes) is read too:
//!   `failopen seal -- /bin/sh -c 'g || true'` exits 0 when `g` crashes.
//! - a command without it is [`Protection::Wrappable`] when every command in
//!   it can fail the whole (`&&` joins, `( )`, `{ }`, `SHELL -c`), so a
//!   guard's crash or exit 2 is still non-zero when seal reads it;
//! - anything else is [`Protection::NotProtected`], with the first construct
//!   that undoes it: `||`, `;` or a newline before another command, `&`,
//!   `|`, `!`, `&&` around seal, a redirection of seal's input or output, a
//!   prefix such as `timeout`, seal inside `$(...)`, or a compound command
//!   (`if`, `case`, ...) this reader does not follow.

use std::path::Path;

use crate::shell::is_assignment;
use crate::shell::lex;
use crate::shell::tree::{self, AndOr, Command, List, Pipeline, Simple};

/// What a hook command does for a guard's refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Protection {
    /// One `failopen seal` call is the whole command: its exit code is the hook's.
    Sealed,
    /// No failopen in it, and every command in it can fail the hook, so
    /// wrapping it with seal makes it fail closed.
    Wrappable,
    /// Neither: the reason names the construct (one sentence, no period).
    NotProtected(String),
}

/// Shells whose `-c STRING` runs STRING and exits with its code.
const SHELLS: [&str; 5] = ["sh", "bash", "dash", "zsh", "ksh"];

/// Read `command`; `seal_exe` is one more path that counts as failopen (the
/// one `--install` writes, whose file may be named otherwise).
pub fn judge(command: &str, seal_exe: Option<&str>) -> Protection {
    let r = Reader { seal_exe };
    let list = match tree::parse(command) {
        Ok(list) => list,
        Err(e) => {
            return Protection::NotProtected(format!(
                "failopen cannot read this command ({e}), so it cannot tell what its exit code is"
            ))
        }
    };
    let outcome = if r.list_has_seal(&list) { r.exact_list(&list) } else { r.fails_closed(&list) };
    match outcome {
        Ok(()) if r.list_has_seal(&list) => Protection::Sealed,
        Ok(()) => Protection::Wrappable,
        Err(why) => Protection::NotProtected(why),
    }
}

struct Reader<'a> {
    seal_exe: Option<&'a str>,
}

/// What a simple command does with failopen.
enum Call {
    /// No failopen in it.
    None,
    /// `failopen seal ...` at `at` (index of the failopen word), after `prefix`.
    Seal { words: Vec<String>, at: usize },
    /// The program is failopen but the next word is not `seal`.
    Mistyped(Option<String>),
    /// `SHELL -c STRING`: STRING, parsed, and the words before SHELL.
    Shell { inner: Box<List>, prefix: Vec<String> },
    /// `$(...)` or a backquote with failopen seal in it.
    Substituted,
}

impl Reader<'_> {
    fn is_failopen(&self, word: &str) -> bool {
        Path::new(word).file_name().is_some_and(|n| n == "failopen") || self.seal_exe == Some(word)
    }

    fn call(&self, s: &Simple) -> Call {
        let words: Vec<String> = s.words.iter().map(|w| lex::unquote(w)).collect();
        if let Some(at) = (0..words.len()).find(|&i| self.is_failopen(&words[i])) {
            match words.get(at + 1).map(String::as_str) {
                Some("seal") => return Call::Seal { words, at },
                next if transparent_prefix(&words[..at]).is_ok() => return Call::Mistyped(next.map(str::to_string)),
                _ => {}
            }
        }
        let is_shell = |w: &String| Path::new(w).file_name().is_some_and(|n| SHELLS.iter().any(|s| n == *s));
        if let Some(at) = (0..words.len()).find(|&i| is_shell(&words[i]) && words.get(i + 1).is_some_and(|w| w == "-c"))
        {
            if let Some(Ok(inner)) = words.get(at + 2).map(|s| tree::parse(s)) {
                return Call::Shell { inner: Box::new(inner), prefix: words[..at].to_vec() };
            }
        }
        let substituted = |w: &String| !w.starts_with('\'') && (w.contains("$(") || w.contains('`'));
        if s.words.iter().any(|w| substituted(w) && w.contains("failopen") && w.contains("seal")) {
            return Call::Substituted;
        }
        Call::None
    }

    fn list_has_seal(&self, list: &List) -> bool {
        list.items.iter().any(|(a, _)| self.and_or_has_seal(a))
    }

    fn and_or_has_seal(&self, a: &AndOr) -> bool {
        std::iter::once(&a.first)
            .chain(a.rest.iter().map(|(_, p)| p))
            .any(|p| p.commands.iter().any(|c| self.command_has_seal(c)))
    }

    fn command_has_seal(&self, c: &Command) -> bool {
        match c {
            Command::Simple(s) => match self.call(s) {
                Call::None => false,
                Call::Shell { inner, .. } => self.list_has_seal(&inner),
                Call::Seal { .. } | Call::Mistyped(_) | Call::Substituted => true,
            },
            Command::Group { body, .. } => self.list_has_seal(body),
            Command::Unmodelled(_) => false,
        }
    }

    /// The list's exit code is exactly seal's, always.
    fn exact_list(&self, list: &List) -> Result<(), String> {
        let seal_at = list.items.iter().position(|(a, _)| self.and_or_has_seal(a)).unwrap_or(0);
        let (and_or, sep) = &list.items[seal_at];
        if seal_at > 0 {
            let op = list.items[seal_at - 1].1.as_deref().unwrap_or(";");
            return Err(match op {
                "&" => "`&` before seal: another command runs first, in the background, in the same hook".into(),
                op => format!("`{}` before seal: another command runs first, in the same hook", shown(op)),
            });
        }
        if sep.as_deref() == Some("&") {
            return Err("`&` runs seal in the background, and the hook exits 0 at once".into());
        }
        if list.items.len() > 1 {
            return Err(format!(
                "`{}` after seal: the hook exits with the last command's code, not seal's",
                shown(sep.as_deref().unwrap_or(";"))
            ));
        }
        self.exact_and_or(and_or)
    }

    fn exact_and_or(&self, a: &AndOr) -> Result<(), String> {
        let pipelines: Vec<&Pipeline> = std::iter::once(&a.first).chain(a.rest.iter().map(|(_, p)| p)).collect();
        let seal_at = pipelines.iter().position(|p| p.commands.iter().any(|c| self.command_has_seal(c))).unwrap_or(0);
        if seal_at > 0 {
            return Err(match a.rest[seal_at - 1].0.as_str() {
                "&&" => "`&&` before seal: when the command before it fails, seal never runs and the hook exits with that command's code".into(),
                _ => "`||` before seal: when the command before it succeeds, seal never runs and the hook exits 0".into(),
            });
        }
        if let Some((op, _)) = a.rest.first() {
            return Err(match op.as_str() {
                "||" => "`||` after seal turns its refusal (exit 2) into the exit code of what follows".into(),
                _ => "`&&` after seal: when seal allows, what follows runs and its output and exit code become the hook's".into(),
            });
        }
        self.exact_pipeline(&a.first)
    }

    fn exact_pipeline(&self, p: &Pipeline) -> Result<(), String> {
        if p.bang {
            return Err("`!` before seal turns its refusal (exit 2) into 0".into());
        }
        if p.commands.len() > 1 {
            let last_has_seal = p.commands.last().is_some_and(|c| self.command_has_seal(c));
            return Err(if last_has_seal {
                "seal reads another command's output through a pipe instead of the hook's payload".into()
            } else {
                "`|` after seal: a pipeline exits with its last command's code, so seal's refusal is lost".into()
            });
        }
        self.exact_command(&p.commands[0])
    }

    fn exact_command(&self, c: &Command) -> Result<(), String> {
        match c {
            Command::Group { body, redirections, .. } => {
                if let Some(r) = redirections.first() {
                    return Err(redirection_reason(r));
                }
                self.exact_list(body)
            }
            Command::Unmodelled(what) => Err(unmodelled(what)),
            Command::Simple(s) => match self.call(s) {
                Call::None => unreachable!("exact_command is only called on a command with seal"),
                Call::Substituted => Err("seal runs inside a command substitution (`$(...)` or backquotes), whose exit code the command around it drops".into()),
                Call::Mistyped(Some(word)) => Err(format!("the command runs failopen with {word:?} where `seal` should be, so no guard runs")),
                Call::Mistyped(None) => Err("the command runs failopen without `seal`, so no guard runs".into()),
                Call::Shell { inner, prefix } => {
                    if let Some(r) = s.redirections.first() {
                        return Err(redirection_reason(r));
                    }
                    transparent_prefix(&prefix)?;
                    self.exact_list(&inner)
                }
                Call::Seal { words, at } => {
                    if let Some(r) = s.redirections.first() {
                        return Err(redirection_reason(r));
                    }
                    transparent_prefix(&words[..at])?;
                    self.guard_fails_closed(&words[at + 2..])
                }
            },
        }
    }

    /// The guard seal runs, when it is `SHELL -c STRING`, must not turn a
    /// failure into exit 0 either (seal would pass that 0 on as an allow).
    fn guard_fails_closed(&self, seal_args: &[String]) -> Result<(), String> {
        let guard = match seal_args.iter().position(|w| w == "--") {
            Some(dash) => &seal_args[dash + 1..],
            None => &seal_args[seal_args.iter().take_while(|w| w.starts_with('-')).count()..],
        };
        let is_shell =
            guard.first().and_then(|p| Path::new(p).file_name()).is_some_and(|n| SHELLS.iter().any(|s| n == *s));
        if !is_shell || guard.get(1).map(String::as_str) != Some("-c") {
            return Ok(());
        }
        let Some(inner) = guard.get(2) else { return Ok(()) };
        match tree::parse(inner) {
            Ok(list) if self.list_has_seal(&list) => self.exact_list(&list),
            Ok(list) => self.fails_closed(&list),
            Err(e) => Err(format!("failopen cannot read the command seal runs ({e})")),
        }
        .map_err(|why| format!("the command seal runs ({inner:?}) can exit 0 when the guard fails: {why}"))
    }

    /// Every command in the list can fail it (a command without seal).
    fn fails_closed(&self, list: &List) -> Result<(), String> {
        for (i, (and_or, sep)) in list.items.iter().enumerate() {
            if sep.as_deref() == Some("&") {
                return Err("`&` runs a command in the background, and the hook goes on without its exit code".into());
            }
            if i + 1 < list.items.len() {
                return Err(format!(
                    "`{}` between commands: the hook exits with the last one's code, so a failure of the one before it (a crash, or the guard's exit 2) is lost",
                    shown(sep.as_deref().unwrap_or(";"))
                ));
            }
            if and_or.rest.iter().any(|(op, _)| op == "||") {
                return Err(
                    "`||` turns a failure (a crash, or the guard's exit 2) into the exit code of what follows, often 0"
                        .into(),
                );
            }
            for p in std::iter::once(&and_or.first).chain(and_or.rest.iter().map(|(_, p)| p)) {
                if p.bang {
                    return Err("`!` turns a failure (a crash, or the guard's exit 2) into exit 0".into());
                }
                if p.commands.len() > 1 {
                    return Err("`|`: a pipeline exits with its last command's code, so a failure of a command before it is lost".into());
                }
                match &p.commands[0] {
                    Command::Group { body, .. } => self.fails_closed(body)?,
                    Command::Unmodelled(what) => return Err(unmodelled(what)),
                    Command::Simple(s) => {
                        if let Call::Shell { inner, .. } = self.call(s) {
                            self.fails_closed(&inner)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// Whether `words` (everything before the failopen word) pass failopen's
/// exit code on unchanged: assignments, then `exec` or `command` (no
/// options), then any of `env` with assignments only, and `nice` with at
/// most an adjustment. Measured, and checked by running each prefix in
/// front of a guard that exits 2: these exit with their child's code.
/// `env` with an option (`-i` drops `PATH`, so failopen may not be found:
/// exit 127), `timeout` (124 when its time runs out), `command -v` (runs
/// nothing, exits 0), `setsid` (forks and exits 0 when the hook leads its
/// process group), `xargs` (123), and any other program are not.
pub fn transparent_prefix(words: &[String]) -> Result<(), String> {
    let mut k = words.iter().take_while(|w| is_assignment(w)).count();
    if matches!(words.get(k).map(String::as_str), Some("exec" | "command"))
        && words.get(k + 1).is_none_or(|w| !w.starts_with('-'))
    {
        k += 1;
    }
    while let Some(w) = words.get(k) {
        let name = Path::new(w).file_name().and_then(|n| n.to_str()).unwrap_or(w);
        let next = words.get(k + 1).map(String::as_str);
        match name {
            "env" => {
                k += 1;
                k += words[k..].iter().take_while(|w| is_assignment(w)).count();
                if words.get(k).is_some_and(|w| w.starts_with('-')) {
                    return Err(format!("`env {}` before failopen: an option of `env` can drop `PATH` or make `env` exit with its own code (125, 126, 127), which the agent reads as no decision; only `env NAME=VALUE ...` passes seal's exit code on", words[k]));
                }
            }
            "nice" => {
                k += 1;
                let adjustment = |w: &str| w.trim_start_matches('-').parse::<i32>().is_ok();
                match next {
                    Some("-n") if words.get(k + 1).is_some_and(|w| w.parse::<i32>().is_ok()) => k += 2,
                    Some(w) if w.starts_with("--adjustment=") && w["--adjustment=".len()..].parse::<i32>().is_ok() => k += 1,
                    Some(w) if w.starts_with("-n") && w[2..].parse::<i32>().is_ok() => k += 1,
                    Some(w) if w.starts_with('-') && adjustment(w) => k += 1,
                    Some(w) if w.starts_with('-') => {
                        return Err(format!("`nice {w}` before failopen: nice exits 125 on an option it cannot use, which the agent reads as no decision"))
                    }
                    _ => {}
                }
            }
            _ => return Err(prefix_reason(name, next)),
        }
    }
    Ok(())
}

fn prefix_reason(name: &str, next: Option<&str>) -> String {
    match (name, next) {
        ("timeout", _) => "`timeout` before failopen exits 124 when its time runs out, and the agent reads 124 as no decision".into(),
        ("command", Some(o)) if o.starts_with("-v") || o.starts_with("-V") => format!("`command {o}` prints where failopen is and runs nothing, so the hook exits 0"),
        ("command", Some(o)) => format!("`command {o}` before failopen looks it up another way and exits 127 when it finds nothing, which the agent reads as no decision"),
        ("exec", Some(o)) => format!("`exec {o}` before failopen is not a plain exec"),
        ("setsid", _) => "`setsid` before failopen forks and exits 0 at once when the hook leads its own process group".into(),
        ("xargs", _) => "`xargs` before failopen turns seal's exit 2 into 123, which the agent reads as no decision".into(),
        (name, _) => format!("`{name}` runs failopen, so the hook exits with `{name}`'s code, which failopen cannot vouch for (only assignments, `exec`, `command`, plain `env NAME=VALUE` and `nice` pass seal's exit 2 on)"),
    }
}

fn redirection_reason(r: &str) -> String {
    if r.starts_with('<') {
        format!("`{r}` feeds seal from a file instead of the hook's payload")
    } else {
        format!(
            "`{r}` sends seal's output to a file, so its JSON decision or its refusal's reason never reaches the agent"
        )
    }
}

fn unmodelled(what: &str) -> String {
    match what {
        "<<" => "a here-document, which failopen does not follow, so it cannot tell what the hook's exit code is".into(),
        w if w.ends_with("()") => format!("a function definition ({w}), which failopen does not follow, so it cannot tell what the hook's exit code is"),
        w => format!("`{w}`, a compound command failopen does not follow, so it cannot tell what the hook's exit code is (a guard it skips lets the call through)"),
    }
}

fn shown(op: &str) -> &str {
    if op == "\n" {
        "a newline"
    } else {
        op
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn why(command: &str) -> String {
        match judge(command, Some("/opt/fo/fo-renamed")) {
            Protection::NotProtected(why) => why,
            other => panic!("{command:?}: {other:?}"),
        }
    }

    #[test]
    fn seal_as_the_whole_command_is_sealed() {
        for c in [
            "failopen seal -- /x.sh",
            "'/other dir/failopen' seal --deadline 2 -- /x.sh",
            "/opt/fo/fo-renamed seal -- /x.sh",
            "A=1 /opt/fo/failopen seal -- /x.sh",
            "exec failopen seal -- /x.sh",
            "failopen seal -- /x.sh;",
            "failopen seal -- /x.sh\n",
            "failopen seal -- /x.sh # logs go to ~/.g",
            "/x/failopen seal --deadline 4 -- /bin/sh -c '/g.sh --flag && echo ok'",
            "env failopen seal -- g",
            "env A=1 B=2 failopen seal -- g",
            "nice failopen seal -- g",
            "nice -n 5 failopen seal -- g",
            "nice -5 failopen seal -- g",
            "command failopen seal -- g",
            "A=1 exec env B=2 nice -n 1 failopen seal -- g",
            "(failopen seal -- g)",
            "{ failopen seal -- g; }",
            "sh -c 'failopen seal -- g'",
        ] {
            assert_eq!(judge(c, Some("/opt/fo/fo-renamed")), Protection::Sealed, "{c:?}");
        }
    }

    #[test]
    fn whatever_can_change_seals_exit_code_is_named() {
        for (c, says) in [
            ("failopen seal -- g || true", "`||` after seal"),
            ("failopen seal -- g||true", "`||` after seal"),
            ("env failopen seal -- g || true", "`||` after seal"),
            ("env A=1 failopen seal -- g || true", "`||` after seal"),
            ("nice -n 5 failopen seal -- g || exit 0", "`||` after seal"),
            ("command failopen seal -- g || :", "`||` after seal"),
            ("timeout 5 failopen seal -- g", "exits 124"),
            ("timeout 5 failopen seal -- g || true", "`||` after seal"),
            ("command -v failopen seal -- g", "runs nothing"),
            ("command -p failopen seal -- g", "exits 127"),
            ("env -i failopen seal -- g", "`env -i`"),
            ("nice --bogus failopen seal -- g", "exits 125"),
            ("setsid failopen seal -- g", "forks and exits 0"),
            ("xargs failopen seal -- g", "123"),
            ("sudo failopen seal -- g", "`sudo` runs failopen"),
            ("failopen seal -- g; echo done", "`;` after seal"),
            ("failopen seal -- g\necho done", "`a newline` after seal"),
            ("failopen seal -- g; exit 0", "`;` after seal"),
            ("failopen seal -- g &", "background"),
            ("failopen seal -- g | tee log", "pipeline exits with its last"),
            ("cat | failopen seal -- g", "through a pipe"),
            ("! failopen seal -- g", "`!` before seal"),
            ("(failopen seal -- g) || true", "`||` after seal"),
            ("(failopen seal -- g || true)", "`||` after seal"),
            ("(failopen seal -- g; exit 0)", "`;` after seal"),
            ("{ failopen seal -- g; exit 0; }", "`;` after seal"),
            ("failopen seal -- g && exit 0", "`&&` after seal"),
            ("cd x && failopen seal -- g", "`&&` before seal"),
            ("true || failopen seal -- g", "`||` before seal"),
            ("echo hi; failopen seal -- g", "`;` before seal"),
            ("failopen seal -- g >/dev/null", "`>` sends seal's output"),
            ("failopen seal -- g 2>>log", "`>>`"),
            ("failopen seal -- g </dev/null", "feeds seal"),
            ("(failopen seal -- g) >log", "`>` sends"),
            ("echo \"$(failopen seal -- g)\"", "command substitution"),
            ("x=`failopen seal -- g`", "command substitution"),
            ("sh -c 'failopen seal -- g || true'", "`||` after seal"),
            ("bash -c 'failopen seal -- g; true'", "`;` after seal"),
            ("timeout 9 sh -c 'failopen seal -- g'", "exits 124"),
            (
                "failopen seal -- /bin/sh -c 'g.sh || true'",
                "the command seal runs (\"g.sh || true\") can exit 0 when the guard fails: `||`",
            ),
            ("failopen seal --deadline 4 -- sh -c 'g.sh; echo'", "can exit 0 when the guard fails: `;`"),
            ("failopen sael -- g", "\"sael\" where `seal` should be"),
            ("/x/failopen -- seal -- g", "\"--\" where `seal` should be"),
            ("failopen", "without `seal`"),
            ("if true; then failopen seal -- g; fi", "`if`, a compound command"),
            ("f() { failopen seal -- g; }; f", "function definition"),
            ("failopen seal -- g <<EOF\n{}\nEOF", "here-document"),
            ("failopen seal -- 'g", "cannot read this command (unterminated single quote)"),
        ] {
            let w = why(c);
            assert!(w.contains(says), "{c:?}: {w}");
        }
    }

    #[test]
    fn a_command_every_part_of_which_can_fail_is_wrappable() {
        for c in [
            "/g.sh",
            "FOO=1 \"/g/it's.sh\" --flag \"$HOME\"",
            "cd \"$CLAUDE_PROJECT_DIR\" && uv run .claude/hooks/pre_tool_use.py",
            "g.sh && echo ok",
            "(g.sh)",
            "{ g.sh; }",
            "g.sh 2>/dev/null",
            "g.sh;",
            "timeout 5 g.sh",
            "nice -n 5 g.sh",
            "node \"$(git rev-parse --show-toplevel)/g.js\"",
            "python3 -c 'import sys; sys.exit(2)'",
            "bash -c 'cd x && g.sh'",
            "/x/guard.sh seal",
            "python3 g.py 'failopen seal'",
            "grep failopen log",
        ] {
            assert_eq!(judge(c, None), Protection::Wrappable, "{c:?}");
        }
    }

    #[test]
    fn a_command_that_can_swallow_a_failure_is_not_wrapped() {
        for (c, says) in [
            ("g.sh || true", "`||` turns a failure"),
            ("nice -n 5 g.sh || exit 0", "`||`"),
            ("env A=1 g.sh || true", "`||`"),
            ("g.sh; echo done", "`;` between commands"),
            ("g.sh\necho done", "`a newline` between commands"),
            ("cd /x; g.sh", "`;` between commands"),
            ("g.sh | tee log", "pipeline"),
            ("g.sh &", "background"),
            ("! g.sh", "`!`"),
            ("(g.sh || true)", "`||`"),
            ("{ g.sh; true; }", "`;`"),
            ("sh -c 'g.sh || true'", "`||`"),
            ("if [ -x g ]; then g; fi", "`if`"),
            ("case x in x) g;; esac", "`case`"),
        ] {
            let w = why(c);
            assert!(w.contains(says), "{c:?}: {w}");
        }
    }
}
