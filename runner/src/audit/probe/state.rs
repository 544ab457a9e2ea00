//! Where a guard keeps state, and the state faults (issue 47): a guard
//! that keeps state in a file (a write budget, a rate limit, a "tests must
//! fail first" log, a lock) meets failures of its own, and audit runs it
//! under two of them: its state read-only ([`Fault::StateUnwritable`]) and
//! its state file corrupt ([`Fault::StateCorrupt`]).
//!
//! The state is learned from the guard's screens ([`super::plan::screen_all`]):
//! there the guard runs alone, with no agent beside it, so every file that
//! appears or changes in the screen's world while it answers the probes is
//! its own. The world's tree is compared before and after (the project's
//! copy and the screen's HOME), and in the sandbox the hidden trees (the
//! user's HOME, `/tmp`) are backed by a directory of the screen's root for
//! each probe ([`crate::sandbox::Contain::backing`]), so that what the guard
//! writes there is left on disk to read. Left out: the world's git
//! internals (`.git/`, which a `git status` in a guard refreshes), Python's
//! byte-code caches and the package managers' download caches, and an empty
//! file where the host has the same path (the mount point of a bound file).
//!
//! A state fault runs the guard as configured in a session whose HOME, `/tmp`
//! and project copy hold the state as the fault leaves it ([`planted`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use serde::Serialize;

use super::faults::Fault;
use crate::audit::intake::config::HookEntry;
use crate::session::{PlantAt, Planted};

/// The most state files kept per hook (a guard that writes a file per call
/// is faulted through the first ones, in path order).
pub const MAX_FILES_PER_HOOK: usize = 8;

/// What a corrupt state file holds: a JSON object cut short, then bytes no
/// UTF-8 reader accepts.
pub const GARBAGE: &[u8] = b"{\"failopen-corrupt-state\": [1, 2, \xff\xfe\x00";

/// Where a state file lies, as the guard sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// In the project (relative to its root).
    Project,
    /// In the guard's HOME (relative to it).
    Home,
    /// Elsewhere (absolute: `/tmp/...`).
    Absolute,
}

/// One file a guard's as-is runs wrote: its state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StateFile {
    /// Hook id.
    pub hook: String,
    /// Where it lies.
    pub place: Place,
    /// Its path: relative to the project or HOME, or absolute.
    pub path: String,
    /// Its size when the screens ended.
    pub bytes: u64,
    /// Its content when the screens ended (a state file made read-only in
    /// the project's or HOME's root starts as the guard left it).
    #[serde(skip)]
    pub content: Vec<u8>,
}

impl StateFile {
    /// The path as a user reads it: `~/.budget/state.json`, `./.guard.json`, `/tmp/x`.
    pub fn shown(&self) -> String {
        match self.place {
            Place::Project => format!("./{}", self.path),
            Place::Home => format!("~/{}", self.path),
            Place::Absolute => self.path.clone(),
        }
    }
}

/// Files under a tree, by path: (size, modification time).
#[derive(Debug, Default, Clone)]
pub struct Snapshot(BTreeMap<PathBuf, (u64, Option<SystemTime>)>);

impl Snapshot {
    /// The regular files under `dir` (links not followed), leaving out the
    /// directories `skip` names (by path).
    pub fn take(dir: &Path, skip: &dyn Fn(&Path) -> bool) -> Snapshot {
        let mut out = BTreeMap::new();
        walk(dir, skip, &mut |p, m| {
            out.insert(p.to_path_buf(), (m.len(), m.modified().ok()));
        });
        Snapshot(out)
    }

    /// The files of `after` that are new or changed since `self`.
    pub fn changed<'a>(&self, after: &'a Snapshot) -> Vec<&'a Path> {
        after.0.iter().filter(|(p, v)| self.0.get(*p) != Some(v)).map(|(p, _)| p.as_path()).collect()
    }
}

fn walk(dir: &Path, skip: &dyn Fn(&Path) -> bool, f: &mut dyn FnMut(&Path, &std::fs::Metadata)) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let p = entry.path();
        let Ok(m) = std::fs::symlink_metadata(&p) else { continue };
        if m.is_dir() {
            if !skip(&p) {
                walk(&p, skip, f);
            }
        } else if m.is_file() {
            f(&p, &m);
        }
    }
}

/// Whether a path is a cache no guard keeps its state in: Python's byte
/// code, a package manager's downloads.
fn is_cache(rel: &Path) -> bool {
    let s = rel.to_string_lossy();
    rel.components().any(|c| c.as_os_str() == "__pycache__")
        || s.ends_with(".pyc")
        || [".npm/", ".cache/pip/", ".cache/uv/", ".cache/node-gyp/", ".bun/install/cache/", ".yarn/"]
            .iter()
            .any(|c| s.starts_with(c))
}

/// A screen world's directories that hold no state: the git repository's
/// internals and the per-probe backing directories ([`BACKING_PREFIX`]).
pub fn skip_in_world(root: &Path) -> impl Fn(&Path) -> bool + '_ {
    move |p: &Path| {
        p.file_name().is_some_and(|n| n.to_string_lossy().starts_with(BACKING_PREFIX))
            || p.starts_with(root.join("work/.git"))
    }
}

/// The name of a screen's per-probe backing directory starts with this.
pub const BACKING_PREFIX: &str = "hidden-";

/// The state files in a screen world `root`: those of `after` new or changed
/// since `before` in its `work/` (the project) and, when the hook runs with
/// the screen's own HOME (`user_home` false), its `home/`.
pub fn from_world(hook: &str, root: &Path, before: &Snapshot, after: &Snapshot, user_home: bool) -> Vec<StateFile> {
    let mut out = Vec::new();
    for p in before.changed(after) {
        let (place, rel) = if let Ok(rel) = p.strip_prefix(root.join("work")) {
            (Place::Project, rel)
        } else if let (false, Ok(rel)) = (user_home, p.strip_prefix(root.join("home"))) {
            (Place::Home, rel)
        } else {
            continue;
        };
        if !is_cache(rel) {
            out.push(file(hook, place, rel, p));
        }
    }
    out
}

/// The state files in one screen's backing directory `backing` (the mirror
/// of the hidden trees): under `home` (the hook's HOME, when it is the
/// user's) as HOME's, the rest by their absolute path inside.
pub fn from_backing(hook: &str, backing: &Path, home: Option<&Path>) -> Vec<StateFile> {
    let mut out = Vec::new();
    walk(backing, &|_| false, &mut |p, m| {
        let Ok(rel) = p.strip_prefix(backing) else { return };
        let inside = Path::new("/").join(rel);
        // An empty file where the host has the same path: the mount point of a file bound in.
        if m.len() == 0 && inside.exists() {
            return;
        }
        let (place, rel) = match home.and_then(|h| inside.strip_prefix(h).ok()) {
            Some(rel) => (Place::Home, rel.to_path_buf()),
            None => (Place::Absolute, inside.clone()),
        };
        if !is_cache(&rel) {
            out.push(file(hook, place, &rel, p));
        }
    });
    out
}

fn file(hook: &str, place: Place, rel: &Path, host: &Path) -> StateFile {
    let content = std::fs::read(host).unwrap_or_default();
    StateFile {
        hook: hook.to_string(),
        place,
        path: rel.to_string_lossy().into_owned(),
        bytes: content.len() as u64,
        content,
    }
}

/// `found` merged into `into`: one entry per (hook, place, path), the last
/// content kept; at most [`MAX_FILES_PER_HOOK`] per hook, in path order.
pub fn merge(into: &mut Vec<StateFile>, found: Vec<StateFile>) {
    for f in found {
        match into.iter_mut().find(|s| s.hook == f.hook && s.place == f.place && s.path == f.path) {
            Some(s) => *s = f,
            None => into.push(f),
        }
    }
    into.sort_by(|a, b| (&a.hook, &a.place, &a.path).cmp(&(&b.hook, &b.place, &b.path)));
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    into.retain(|s| {
        let n = count.entry(s.hook.clone()).or_default();
        *n += 1;
        *n <= MAX_FILES_PER_HOOK
    });
}

/// What a session under the state fault `fault` plants for `e`, whose
/// learned state is `states`: every one of its files made corrupt, or made
/// read-only (its directory; the file itself in the project's, HOME's or a
/// hidden tree's root, where a read-only directory would stop the agent's
/// own writes too). `home`: the user's HOME, when the hook runs with it
/// (its `~` is then that path in the sandbox). `Err`: why it is not run.
pub fn planted(e: &HookEntry, states: &[StateFile], fault: Fault, home: Option<&Path>) -> Result<Planted, String> {
    let mine: Vec<&StateFile> = states.iter().filter(|s| s.hook == e.id).collect();
    if mine.is_empty() {
        return Err("no state learned: its screens wrote no file".into());
    }
    let sandboxed = crate::sandbox::policy() == crate::sandbox::Policy::On;
    let mut out = Planted::default();
    for s in mine {
        let rel = PathBuf::from(&s.path);
        let at = |p: PathBuf| match s.place {
            Place::Project => PlantAt::Work(p),
            Place::Home => match home {
                Some(h) => PlantAt::Abs(h.join(p)),
                None => PlantAt::Home(p),
            },
            Place::Absolute => PlantAt::Abs(p),
        };
        if !sandboxed && (fault == Fault::StateUnwritable || matches!(at(rel.clone()), PlantAt::Abs(_))) {
            return Err(format!(
                "needs the sandbox: {} (root ignores a mode bit, and nothing outside the session is touched)",
                s.shown()
            ));
        }
        match fault {
            Fault::StateCorrupt => out.files.push((at(rel), GARBAGE.to_vec())),
            Fault::StateUnwritable => {
                let parent = rel.parent().filter(|p| !p.as_os_str().is_empty());
                let in_root = match (s.place, parent) {
                    (_, None) => true,
                    (Place::Absolute, Some(p)) => {
                        crate::sandbox::hidden_roots().iter().any(|r| r == p) || p == Path::new("/")
                    }
                    _ => false,
                };
                if in_root {
                    // The file itself, as the guard left it (or as the project holds it).
                    let in_project = s.place == Place::Project && e.project_dir.join(&rel).is_file();
                    if !in_project {
                        out.files.push((at(rel.clone()), s.content.clone()));
                    }
                    out.read_only.push(at(rel));
                } else if let Some(dir) = parent {
                    out.read_only.push(at(dir.to_path_buf()));
                }
            }
            other => return Err(format!("{} is not a state fault", other.as_str())),
        }
    }
    out.read_only.dedup();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(place: Place, path: &str) -> StateFile {
        StateFile { hook: "H1".into(), place, path: path.into(), bytes: 2, content: b"{}".to_vec() }
    }

    fn entry(project: &Path) -> HookEntry {
        let value = serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/g"}]}]}});
        crate::audit::intake::config::first_entry(project, value)
    }

    #[test]
    fn new_and_changed_files_of_the_world_are_state_and_caches_are_not() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path();
        std::fs::create_dir_all(root.join("work/.git")).unwrap();
        std::fs::create_dir_all(root.join("home")).unwrap();
        std::fs::write(root.join("work/tracked.txt"), "a").unwrap();
        std::fs::write(root.join("work/kept.txt"), "same").unwrap();
        let skip = skip_in_world(root);
        let before = Snapshot::take(root, &skip);
        std::fs::write(root.join("work/tracked.txt"), "ab").unwrap();
        std::fs::create_dir_all(root.join("work/.guard/__pycache__")).unwrap();
        std::fs::write(root.join("work/.guard/budget.json"), "{}").unwrap();
        std::fs::write(root.join("work/.guard/__pycache__/x.pyc"), "c").unwrap();
        std::fs::write(root.join("work/.git/index"), "i").unwrap();
        std::fs::write(root.join("home/.rate"), "1").unwrap();
        std::fs::create_dir_all(root.join("hidden-0/tmp")).unwrap();
        std::fs::write(root.join("hidden-0/tmp/x"), "x").unwrap();
        let after = Snapshot::take(root, &skip);
        let found: Vec<String> = from_world("H1", root, &before, &after, false).iter().map(StateFile::shown).collect();
        assert_eq!(found, ["~/.rate", "./.guard/budget.json", "./tracked.txt"]);
        // With the user's HOME, the screen's own home/ is not the guard's.
        let found: Vec<String> = from_world("H1", root, &before, &after, true).iter().map(StateFile::shown).collect();
        assert_eq!(found, ["./.guard/budget.json", "./tracked.txt"]);
    }

    #[test]
    fn a_backing_directory_maps_back_to_home_and_absolute_paths() {
        let d = tempfile::tempdir().unwrap();
        let b = d.path();
        std::fs::create_dir_all(b.join("home/u/.budget")).unwrap();
        std::fs::write(b.join("home/u/.budget/state.json"), "{}").unwrap();
        std::fs::create_dir_all(b.join("tmp/guard")).unwrap();
        std::fs::write(b.join("tmp/guard/lock"), "1").unwrap();
        std::fs::create_dir_all(b.join("home/u/.npm/_logs")).unwrap();
        std::fs::write(b.join("home/u/.npm/_logs/x.log"), "n").unwrap();
        // An empty file where the host has the same path: a bound file's mount point.
        std::fs::create_dir_all(b.join("bin")).unwrap();
        std::fs::write(b.join("bin/sh"), "").unwrap();
        let mut found = from_backing("H1", b, Some(Path::new("/home/u")));
        found.sort_by(|a, b| a.path.cmp(&b.path));
        let shown: Vec<String> = found.iter().map(StateFile::shown).collect();
        assert_eq!(shown, ["~/.budget/state.json", "/tmp/guard/lock"]);
        assert_eq!(found[0].content, b"{}");
    }

    #[test]
    fn merging_keeps_one_entry_per_path_and_caps_each_hook() {
        let mut all = Vec::new();
        merge(&mut all, vec![state(Place::Home, "a")]);
        let mut newer = state(Place::Home, "a");
        newer.content = b"{\"n\":2}".to_vec();
        merge(&mut all, vec![newer.clone()]);
        assert_eq!(all, vec![newer]);
        merge(&mut all, (0..20).map(|i| state(Place::Absolute, &format!("/tmp/{i:02}"))).collect());
        assert_eq!(all.len(), MAX_FILES_PER_HOOK);
    }

    #[test]
    fn a_state_fault_plants_garbage_or_a_read_only_directory_and_needs_state() {
        let d = tempfile::tempdir().unwrap();
        let e = entry(d.path());
        let home = Path::new("/home/u");
        let none = planted(&e, &[], Fault::StateCorrupt, Some(home)).unwrap_err();
        assert!(none.contains("no state learned"), "{none}");
        let states = vec![state(Place::Home, ".budget/state.json"), state(Place::Project, ".guard.json")];
        if crate::sandbox::policy() == crate::sandbox::Policy::Off {
            // The unit tests choose no policy: a HOME path is out of reach, and nothing is planted there.
            let why = planted(&e, &states, Fault::StateCorrupt, Some(home)).unwrap_err();
            assert!(why.contains("needs the sandbox") && why.contains("~/.budget/state.json"), "{why}");
            let project_only = [state(Place::Project, ".guard.json")];
            let p = planted(&e, &project_only, Fault::StateCorrupt, Some(home)).unwrap();
            assert_eq!(p.files, vec![(PlantAt::Work(".guard.json".into()), GARBAGE.to_vec())]);
            assert!(planted(&e, &project_only, Fault::StateUnwritable, Some(home)).is_err());
        }
    }
}
