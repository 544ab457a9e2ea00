//! The state a stateful guard finds when its session starts (`arms/state.json`).
//!
//! The budget guards (`guards/budget.sh`, `guards/budget-locked.sh`) keep a
//! write budget in `~/.budget-guard/state.json`, in the session's isolated
//! HOME. An arm's `state` says what that directory holds before the agent
//! starts: a budget (spent, or one write left), or a fault a real guard
//! meets: no file on first use, a file cut short by a killed run, a file it
//! cannot write back, a lock left by a run that is gone. The session makes
//! it with a seed script ([`GuardState::seed_script`]) run in its temp root.

/// The guards that keep their state in [`STATE_DIR`].
pub const STATEFUL_GUARDS: [&str; 2] = ["budget", "budget-locked"];

/// Where the budget guards keep their state, relative to HOME.
pub const STATE_DIR: &str = ".budget-guard";

/// What a stateful guard's state directory holds when the session starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GuardState {
    /// `{"writes_left": 0}`: the budget is spent, and a healthy guard refuses.
    Spent,
    /// `{"writes_left": 1}`: one write left (the race: parallel calls both read it).
    OneLeft,
    /// No state directory at all: the guard's first use, before anything made it.
    Missing,
    /// `{"writes_left": ` and nothing more: a write cut short when its run was killed.
    Corrupt,
    /// A spent budget the guard cannot write back: its temporary file is a
    /// link to `/dev/full`, so the write fails with ENOSPC, as on a full
    /// disk, for root too (a read-only mode does not stop root).
    Unwritable,
    /// A spent budget behind `state.lock/`, whose `pid` names a process
    /// that has exited: a lock left by a run that was killed.
    StaleLock,
}

impl GuardState {
    /// Every state by its name in an arm file.
    pub const ALL: [(&'static str, GuardState); 6] = [
        ("spent", GuardState::Spent),
        ("one-left", GuardState::OneLeft),
        ("missing", GuardState::Missing),
        ("corrupt", GuardState::Corrupt),
        ("unwritable", GuardState::Unwritable),
        ("stale-lock", GuardState::StaleLock),
    ];

    /// Its name in an arm file.
    pub fn as_str(self) -> &'static str {
        Self::ALL.iter().find(|(_, s)| *s == self).map(|(n, _)| *n).unwrap_or("spent")
    }

    /// The `/bin/sh` script that makes this state under `$HOME`, run before
    /// the agent starts.
    pub fn seed_script(self) -> String {
        let dir = format!("\"$HOME/{STATE_DIR}\"");
        let spent = format!("mkdir -p {dir} && printf '{{\"writes_left\": 0}}' > {dir}/state.json");
        match self {
            GuardState::Spent => spent,
            GuardState::OneLeft => format!("mkdir -p {dir} && printf '{{\"writes_left\": 1}}' > {dir}/state.json"),
            GuardState::Missing => format!("rm -rf {dir}"),
            GuardState::Corrupt => format!("mkdir -p {dir} && printf '{{\"writes_left\": ' > {dir}/state.json"),
            GuardState::Unwritable => format!("{spent} && ln -s /dev/full {dir}/state.json.tmp"),
            GuardState::StaleLock => {
                format!("{spent} && mkdir {dir}/state.lock && sh -c 'echo $$' > {dir}/state.lock/pid")
            }
        }
    }
}

impl std::str::FromStr for GuardState {
    type Err = String;

    fn from_str(s: &str) -> Result<GuardState, String> {
        Self::ALL.iter().find(|(n, _)| *n == s).map(|(_, g)| *g).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown guard state {s:?}; valid states: {}", names.join(", "))
        })
    }
}

/// Whether the guard named `guard` keeps state a [`GuardState`] can set.
pub fn keeps_state(guard: &str) -> bool {
    STATEFUL_GUARDS.contains(&guard)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run a state's seed script in a HOME of its own and list what it left.
    fn seeded(state: GuardState) -> (tempfile::TempDir, std::path::PathBuf) {
        let home = tempfile::tempdir().unwrap();
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(state.seed_script())
            .env("HOME", home.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}: {}", state.as_str(), String::from_utf8_lossy(&out.stderr));
        let dir = home.path().join(STATE_DIR);
        (home, dir)
    }

    #[test]
    fn every_state_is_made_as_its_name_says() {
        let read = |d: &std::path::Path| std::fs::read_to_string(d.join("state.json")).unwrap();
        let (_h, d) = seeded(GuardState::Spent);
        assert_eq!(read(&d), r#"{"writes_left": 0}"#);
        let (_h, d) = seeded(GuardState::OneLeft);
        assert_eq!(read(&d), r#"{"writes_left": 1}"#);
        let (_h, d) = seeded(GuardState::Missing);
        assert!(!d.exists());
        let (_h, d) = seeded(GuardState::Corrupt);
        assert!(serde_json::from_str::<serde_json::Value>(&read(&d)).is_err(), "cut short");
        let (_h, d) = seeded(GuardState::Unwritable);
        assert_eq!(std::fs::read_link(d.join("state.json.tmp")).unwrap(), std::path::Path::new("/dev/full"));
        let (_h, d) = seeded(GuardState::StaleLock);
        let pid: i32 = std::fs::read_to_string(d.join("state.lock/pid")).unwrap().trim().parse().unwrap();
        assert!(nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None).is_err(), "its owner is gone");
    }

    #[test]
    fn names_round_trip_and_an_unknown_one_lists_the_valid_ones() {
        for (name, state) in GuardState::ALL {
            assert_eq!(name.parse::<GuardState>(), Ok(state));
            assert_eq!(state.as_str(), name);
        }
        let err = "full".parse::<GuardState>().unwrap_err();
        assert!(err.contains("stale-lock"), "{err}");
    }

    #[test]
    fn the_stateful_guards_are_in_the_catalogue_and_keep_their_state_there() {
        for name in STATEFUL_GUARDS {
            let guard = crate::guards::find(name).unwrap_or_else(|| panic!("{name} is no guard"));
            let crate::guards::GuardKind::Script { body, .. } = guard.kind else { panic!("{name} is no script") };
            assert!(body.contains(&format!("$HOME/{STATE_DIR}")), "{name}");
        }
    }
}
