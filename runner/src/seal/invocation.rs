//! Whether a hook command's exit code is seal's: the one reading of a
//! command that `seal --install` and `failopen audit` both use.
//!
//! Seal only protects a hook when seal *is* the hook command: its exit 2 is
//! the hook's exit 2, and its stdout and stderr reach the agent. Anything
//! around it can undo that:
//!
//! - `failopen seal -- g || true`: a refusal (exit 2) becomes `true`'s 0;
//! - `failopen seal -- g; echo done`: the hook's status is `echo`'s;
//! - `failopen seal -- g | tee log`: a pipeline's status is its last command's;
//! - `failopen seal -- g &`: the shell exits 0 at once;
//! - `cd dir && failopen seal -- g`: if `cd` fails, seal never runs and the
//!   hook exits 1;
//! - `failopen seal -- g >/dev/null` or `2>log`: the JSON decision or the
//!   refusal's reason never reaches the agent (Codex runs the call after a
//!   silent exit 2).
//!
//! And a hook whose program is `failopen` but whose subcommand is not `seal`
//! (`failopen sael -- g`, `failopen -- seal -- g`) runs no guard at all.

use std::path::Path;

use super::wrap::protection::{self, Protection};
use crate::shell::is_assignment;
use crate::shell::lex::{self, is_redirection, Token};

/// What a hook command does with `failopen seal`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SealUse {
    /// The command does not run failopen.
    NotSealed,
    /// The command is exactly one seal invocation: seal's answer is the hook's.
    Sealed(SealCall),
    /// Seal runs, but the command around it decides the hook's exit code or
    /// output; `why` says how (one sentence, no trailing period).
    Undone {
        /// The seal invocation inside.
        call: SealCall,
        /// How the rest of the command undoes it.
        why: String,
    },
    /// The program is `failopen` and the next word is not `seal`.
    Mistyped {
        /// The word where `seal` should be (`None`: nothing follows).
        subcommand: Option<String>,
    },
}

/// One `failopen seal` invocation, its words unquoted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealCall {
    /// `VAR=value` words, the program, `seal`, seal's options, and `--` if given.
    pub prefix: Vec<String>,
    /// The guard's words (after `--`, or after seal's options).
    pub guard: Vec<String>,
}

impl SealUse {
    /// Whether seal decides the hook's answer.
    pub fn is_sealed(&self) -> bool {
        matches!(self, SealUse::Sealed(_))
    }

    /// The seal invocation, whole or undone.
    pub fn call(&self) -> Option<&SealCall> {
        match self {
            SealUse::Sealed(call) | SealUse::Undone { call, .. } => Some(call),
            _ => None,
        }
    }

    /// A stable kebab-case name for what is wrong (audit's finding code):
    /// `seal-undone` or `seal-mistyped`.
    pub fn problem_code(&self) -> Option<&'static str> {
        match self {
            SealUse::Undone { .. } => Some("seal-undone"),
            SealUse::Mistyped { .. } => Some("seal-mistyped"),
            _ => None,
        }
    }

    /// What is wrong, for reports (`None` when sealed or not sealed).
    pub fn problem(&self) -> Option<String> {
        match self {
            SealUse::Undone { why, .. } => Some(format!("the command around `failopen seal` undoes it: {why}")),
            SealUse::Mistyped { subcommand: Some(s) } => {
                Some(format!("the command runs failopen with {:?} where `seal` should be, so no guard runs", s))
            }
            SealUse::Mistyped { subcommand: None } => {
                Some("the command runs failopen without `seal`, so no guard runs".into())
            }
            _ => None,
        }
    }
}

/// Read a hook command. A command the shell cannot tokenize (an unterminated
/// quote) is [`SealUse::NotSealed`].
pub fn classify(command: &str) -> SealUse {
    classify_for(command, None)
}

/// [`classify`], with one more path that counts as failopen: the seal
/// executable `seal --install` writes (its file may be named otherwise).
///
/// This finds the seal call's words; whether the command around it (and the
/// `SHELL -c` string inside it) keeps seal's exit code the hook's is
/// [`protection::judge`]'s answer, the one `seal --install` acts on.
pub fn classify_for(command: &str, seal_exe: Option<&str>) -> SealUse {
    let Ok(tokens) = lex::tokens(command) else { return SealUse::NotSealed };
    let Some(words) = simple_commands(&tokens).into_iter().find_map(|c| failopen_words(&c, seal_exe)) else {
        return SealUse::NotSealed;
    };
    let program_at = words.iter().take_while(|w| is_assignment(w) || *w == "exec").count();
    match words.get(program_at + 1).map(String::as_str) {
        Some("seal") => {}
        other => return SealUse::Mistyped { subcommand: other.map(str::to_string) },
    }
    let call = seal_call(&words, program_at);
    match protection::judge(command, seal_exe) {
        Protection::Sealed => SealUse::Sealed(call),
        Protection::NotProtected(why) => SealUse::Undone { call, why },
        // The lexer saw failopen run where the shell reader did not: say
        // unprotected rather than guess that seal decides.
        Protection::Wrappable => {
            SealUse::Undone { call, why: "failopen cannot tell whether seal's exit code is the hook's".into() }
        }
    }
}

/// The words of each simple command, redirections and their targets left out.
fn simple_commands(tokens: &[Token]) -> Vec<Vec<&str>> {
    let mut out = vec![Vec::new()];
    let mut redirect_target = false;
    for token in tokens {
        match token {
            Token::Word(_) if redirect_target => redirect_target = false,
            Token::Word(w) => out.last_mut().expect("never empty").push(w.as_str()),
            Token::Operator(op) if is_redirection(op) => redirect_target = true,
            Token::Operator(_) => out.push(Vec::new()),
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

/// The unquoted words of a simple command whose program is named `failopen`.
fn failopen_words(words: &[&str], seal_exe: Option<&str>) -> Option<Vec<String>> {
    let words: Vec<String> = words.iter().map(|w| lex::unquote(w)).collect();
    let program = words.iter().find(|w| !is_assignment(w) && *w != "exec")?;
    let is_failopen = Path::new(program).file_name()? == "failopen" || seal_exe == Some(program.as_str());
    is_failopen.then_some(words)
}

fn seal_call(words: &[String], program_at: usize) -> SealCall {
    let after_seal = program_at + 2;
    let split = match words[after_seal..].iter().position(|w| w == "--") {
        Some(dash) => after_seal + dash + 1,
        None => after_seal + words[after_seal..].iter().take_while(|w| w.starts_with('-')).count(),
    };
    SealCall { prefix: words[..split].to_vec(), guard: words[split..].to_vec() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn undone(command: &str) -> String {
        match classify(command) {
            SealUse::Undone { why, .. } => why,
            other => panic!("{command}: {other:?}"),
        }
    }

    #[test]
    fn a_whole_seal_command_is_sealed() {
        for c in [
            "failopen seal -- /x.sh",
            "'/other dir/failopen' seal --deadline 2 -- /x.sh",
            "A=1 /opt/fo/failopen seal -- /x.sh",
            "exec failopen seal -- /x.sh",
            "failopen seal -- /x.sh;",
            "failopen seal -- /x.sh # logs go to ~/.g",
            "/x/failopen seal --deadline 4 -- /bin/sh -c '/g.sh && /h.sh'",
        ] {
            assert!(classify(c).is_sealed(), "{c}: {:?}", classify(c));
        }
        let SealUse::Sealed(call) = classify("A=1 '/p q/failopen' seal --deadline 4 -- node \"$D\"/g.js --x") else {
            panic!()
        };
        assert_eq!(call.prefix, ["A=1", "/p q/failopen", "seal", "--deadline", "4", "--"]);
        assert_eq!(call.guard, ["node", "$D/g.js", "--x"]);
        let SealUse::Sealed(call) = classify("failopen seal /g.sh") else { panic!() };
        assert_eq!((call.prefix.len(), call.guard.as_slice()), (2, ["/g.sh".to_string()].as_slice()));
    }

    #[test]
    fn the_command_around_seal_undoes_it() {
        assert!(undone("failopen seal -- g || true").contains("`||` after seal turns its refusal"));
        assert!(undone("failopen seal -- g||true").contains("`||`"), "no spaces needed");
        assert!(undone("failopen seal -- g; echo done").contains("last command's code"));
        assert!(undone("failopen seal -- g\necho done").contains("a newline"));
        assert!(undone("failopen seal -- g | tee log").contains("pipeline"));
        assert!(undone("failopen seal -- g &").contains("background"));
        assert!(undone("failopen seal -- g && echo ok").contains("`&&` after seal"));
        assert!(undone("cd \"$CLAUDE_PROJECT_DIR\" && failopen seal -- g").contains("seal never runs"));
        assert!(undone("cat | failopen seal -- g").contains("pipe"));
        assert!(undone("failopen seal -- g >/dev/null").contains("`>` sends seal's output"));
        assert!(undone("failopen seal -- g 2>>/tmp/log").contains("`>>`"));
        assert!(undone("failopen seal -- g </dev/null").contains("feeds seal"));
        let problem = classify("failopen seal -- g || true").problem().unwrap();
        assert!(problem.starts_with("the command around `failopen seal` undoes it: "), "{problem}");
    }

    #[test]
    fn failopen_without_seal_is_a_typo() {
        assert_eq!(classify("failopen sael -- g"), SealUse::Mistyped { subcommand: Some("sael".into()) });
        assert_eq!(classify("/x/failopen -- seal -- g"), SealUse::Mistyped { subcommand: Some("--".into()) });
        assert_eq!(classify("failopen"), SealUse::Mistyped { subcommand: None });
        assert!(classify("failopen sael -- g").problem().unwrap().contains("\"sael\" where `seal` should be"));
    }

    #[test]
    fn other_commands_are_not_sealed() {
        for c in [
            "/g.sh",
            "/x/guard.sh seal",
            "",
            "python3 g.py 'failopen seal'",
            "f 'unterminated",
            "sh -c 'failopen seal -- g'",
        ] {
            assert_eq!(classify(c), SealUse::NotSealed, "{c}");
        }
    }

    #[test]
    fn a_shell_string_that_turns_a_crash_into_exit_0_undoes_seal() {
        // seal passes the guard's exit 0 on as an allow: `|| true` inside the
        // string it runs makes a crash an allow.
        let why = undone("/x/failopen seal --deadline 4 -- /bin/sh -c '/g.sh || true'");
        assert!(why.contains("||"), "{why}");
    }

    proptest::proptest! {
        /// What `seal --install` writes is read back as seal's call of
        /// `/bin/sh -c ORIGINAL`, and as sealed exactly when ORIGINAL can fail
        /// the hook wherever its guard fails (the one reading of both).
        #[test]
        fn every_installed_command_is_read_back_as_its_call(original in "[^\\x00]{0,40}") {
            let wrapped = super::super::wrap::wrap_command(&original, "/x y/failopen", Some(1.5));
            let seal = classify(&wrapped);
            let Some(call) = seal.call() else {
                return Err(proptest::test_runner::TestCaseError::fail(format!("{wrapped:?}: {seal:?}")));
            };
            proptest::prop_assert_eq!(&call.guard, &["/bin/sh", "-c", original.as_str()]);
            let wrappable = protection::judge(&original, None) == Protection::Wrappable;
            proptest::prop_assert_eq!(seal.is_sealed(), wrappable, "{:?}: {:?}", wrapped, seal);
        }
    }
}
