//! Where a guard lives and which calls it sees: the axes of
//! `arms/surface.json` beyond guard × wrapper.
//!
//! - [`HookEvent`]: the event the hook is registered under;
//! - [`HookSource`]: the file (or flag) Claude Code loads it from;
//! - [`Route`]: the way the stand-in's script tries to reach `notes.txt`.
//!
//! Each defaults to what the article measured: a `PreToolUse` hook in the
//! `--settings` file, watching `Bash` and then `Write` from the main
//! conversation. Pure names and parsing; how an axis becomes files and
//! requests lives with the code that writes them.

use std::fmt;
use std::str::FromStr;

macro_rules! named_enum {
    ($(#[$meta:meta])* $name:ident, $what:literal, { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            $($(#[$vmeta])* $variant),+
        }

        impl $name {
            /// Every value, in the order the arm file documentation lists them.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name used in arm files.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }
        }

        impl FromStr for $name {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                $name::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    let valid: Vec<&str> = $name::ALL.iter().map(|v| v.as_str()).collect();
                    format!("unknown {} {:?}; valid {}s: {}", $what, s, $what, valid.join(", "))
                })
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

named_enum!(
    /// The hook event the guard is registered under.
    HookEvent, "event", {
        /// Before a tool call; exit 2 or a JSON `permissionDecision: "deny"` refuses it (the article's).
        #[default]
        PreToolUse => "PreToolUse",
        /// When Claude Code would ask for permission; refuses through JSON `decision.behavior: "deny"`.
        PermissionRequest => "PermissionRequest",
        /// Before the prompt reaches the model; exit 2 or `decision: "block"` refuses the prompt.
        UserPromptSubmit => "UserPromptSubmit",
    }
);

named_enum!(
    /// Where Claude Code loads the guard's hook entry from.
    HookSource, "source", {
        /// The file passed with `--settings` (the article's).
        #[default]
        SettingsFlag => "settings-flag",
        /// The project's `.claude/settings.json`.
        Project => "project",
        /// The project's `.claude/settings.local.json`.
        Local => "local",
        /// The user's `~/.claude/settings.json` (the session's isolated HOME).
        User => "user",
        /// A local plugin's `hooks/hooks.json`, loaded with `--plugin-dir`.
        Plugin => "plugin",
        /// A skill's frontmatter `hooks:` (active while the skill runs).
        Skill => "skill",
        /// A subagent's frontmatter `hooks:` (active while the subagent runs).
        Subagent => "subagent",
        /// The project's `.github/hooks/failopen.json`, in Copilot CLI's own
        /// shape (Copilot's project hooks; no other agent reads it).
        GithubHooks => "github-hooks",
        /// Auggie CLI's own `~/.augment/settings.json`, on a tenant whose
        /// `get-models` reply leaves the hooks feature flag unset (the
        /// stand-in's simulation of Augment's API; no other agent reads it).
        AugmentUnflagged => "augment-unflagged",
    }
);

named_enum!(
    /// How the stand-in's script tries to write `notes.txt`.
    Route, "route", {
        /// `Bash`, then `Write` if Bash was refused (the article's).
        #[default]
        Article => "article",
        /// `Bash` only.
        Bash => "bash",
        /// `Write` only.
        Write => "write",
        /// `Edit` of a seeded `notes.txt` only.
        Edit => "edit",
        /// `NotebookEdit` of a seeded notebook only.
        NotebookEdit => "notebook-edit",
        /// The main conversation asks a subagent, which writes the file.
        Subagent => "subagent",
        /// A write tool of failopen's filesystem-like MCP server.
        Mcp => "mcp",
        /// Several write calls in one assistant message.
        Parallel => "parallel",
        /// `Bash` with a tool input larger than a pipe's buffer.
        BashLarge => "bash-large",
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_errors_list_the_choices() {
        for r in Route::ALL {
            assert_eq!(r.as_str().parse::<Route>(), Ok(*r));
        }
        assert_eq!(HookEvent::default(), HookEvent::PreToolUse);
        assert_eq!(HookSource::default().as_str(), "settings-flag");
        let err = "Project".parse::<HookSource>().unwrap_err();
        assert!(
            err.contains("unknown source \"Project\"") && err.contains("valid sources: settings-flag, project"),
            "{err}"
        );
    }
}
