//! Which path to `failopen` `seal --install` writes into the hooks.
//!
//! The running executable's resolved path (`current_exe()`) is often a build
//! output such as `.../target/release/failopen`: after `cargo clean` or a
//! moved checkout every wrapped hook exits 127, which fails open. So the path
//! written is, in order of preference:
//!
//! 1. the `failopen` that `$PATH` finds (its first executable match, in an
//!    absolute `$PATH` directory), if it is the same file as the running
//!    binary (device and inode, after following symlinks); written as found
//!    on `$PATH`, not resolved, so a symlink that a package manager or
//!    `cargo install` keeps up to date stays the target;
//! 2. the path as invoked (`argv[0]`, made absolute against the current
//!    directory if relative, `.` components dropped, not canonicalised), if
//!    it names the running binary;
//! 3. `current_exe()`.
//!
//! [`choose`] is a function of the facts passed in ([`ExeFacts`]) plus
//! metadata lookups, so it can be tested without touching the process
//! environment. [`build_dir_warning`] flags a chosen path that is likely to
//! disappear.

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Component, Path, PathBuf};

/// What the process knows about how it was started.
#[derive(Debug, Clone)]
pub struct ExeFacts {
    /// `argv[0]` as the process received it.
    pub argv0: OsString,
    /// The value of `$PATH`, if set.
    pub path_var: Option<OsString>,
    /// The current directory.
    pub cwd: PathBuf,
    /// `std::env::current_exe()`: the running binary, resolved.
    pub current_exe: PathBuf,
}

impl ExeFacts {
    /// The facts of this process.
    pub fn from_env() -> std::io::Result<ExeFacts> {
        Ok(ExeFacts {
            argv0: std::env::args_os().next().unwrap_or_default(),
            path_var: std::env::var_os("PATH"),
            cwd: std::env::current_dir()?,
            current_exe: std::env::current_exe()?,
        })
    }
}

/// Where the chosen path came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExeSource {
    /// The `failopen` found on `$PATH`.
    Path,
    /// `argv[0]`, the path as invoked.
    Invoked,
    /// `current_exe()`, the resolved running binary.
    CurrentExe,
}

impl fmt::Display for ExeSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ExeSource::Path => "the failopen on PATH",
            ExeSource::Invoked => "the path failopen was invoked as; no failopen on PATH is this binary",
            ExeSource::CurrentExe => "the running executable; no failopen on PATH is this binary",
        })
    }
}

/// The path `--install` writes, and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExePath {
    /// The path to write into hook commands.
    pub path: PathBuf,
    /// How it was found.
    pub source: ExeSource,
}

/// Pick the most stable path naming the running binary (see the module docs).
pub fn choose(facts: &ExeFacts) -> ExePath {
    if let Some(found) = facts.path_var.as_deref().and_then(|p| first_on_path(p, "failopen")) {
        if same_file(&found, &facts.current_exe) {
            return ExePath { path: found, source: ExeSource::Path };
        }
    }
    let argv0 = Path::new(&facts.argv0);
    if argv0.as_os_str().as_encoded_bytes().contains(&b'/') {
        let invoked = lexically_absolute(&facts.cwd, argv0);
        if same_file(&invoked, &facts.current_exe) {
            return ExePath { path: invoked, source: ExeSource::Invoked };
        }
    }
    ExePath { path: facts.current_exe.clone(), source: ExeSource::CurrentExe }
}

/// The first executable file named `name` in an absolute directory of
/// `path_var` (relative entries are skipped: they depend on the directory
/// the hook runs in).
fn first_on_path(path_var: &OsStr, name: &str) -> Option<PathBuf> {
    std::env::split_paths(path_var).filter(|dir| dir.is_absolute()).map(|dir| dir.join(name)).find(|candidate| {
        std::fs::metadata(candidate).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

/// Whether `a` and `b` are the same file (device and inode, symlinks followed).
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// `path` made absolute against `cwd`, with `.` components dropped; `..` and
/// symlinks are kept as they are (resolving them is canonicalising).
fn lexically_absolute(cwd: &Path, path: &Path) -> PathBuf {
    let joined = if path.is_absolute() { path.to_path_buf() } else { cwd.join(path) };
    joined.components().filter(|c| !matches!(c, Component::CurDir)).collect()
}

/// A warning when `path` lies under a build or versioned directory, which a
/// `cargo clean`, an upgrade or a moved checkout removes.
pub fn build_dir_warning(path: &Path) -> Option<String> {
    let parts: Vec<String> = path
        .parent()
        .unwrap_or(Path::new(""))
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect();
    let has = |name: &str| parts.iter().any(|p| p == name);
    let after = |first: &str, then: &[&str]| {
        parts.iter().position(|p| p == first).is_some_and(|i| parts[i + 1..].iter().any(|p| then.contains(&p.as_str())))
    };
    let why = if after("target", &["release", "debug"]) {
        "a cargo build directory (target/...)".to_string()
    } else if after(".cargo", &["registry", "git"]) {
        "cargo's download cache (.cargo/registry or .cargo/git)".to_string()
    } else if path.starts_with("/nix/store") {
        "the Nix store (/nix/store/, one directory per version)".to_string()
    } else if has("Cellar") {
        "a Homebrew Cellar (one directory per version)".to_string()
    } else if let Some(v) = parts.iter().find(|p| is_version(p)) {
        format!("a versioned directory ({v})")
    } else {
        return None;
    };
    Some(format!(
        "warning: the failopen path written into the hooks, {}, lies under {why}; when it goes away \
         (cargo clean, an upgrade, a moved checkout) every wrapped hook fails to start. Put failopen at a \
         stable place on PATH (e.g. `cargo install --path runner`), restore the backup and run --install again",
        path.display()
    ))
}

/// A path component that is a version number: `1.2`, `1.2.3`, `v0.30.1`,
/// `2.1.328-beta`.
fn is_version(s: &str) -> bool {
    let core = s.strip_prefix('v').unwrap_or(s);
    let core = core.split(['-', '+']).next().unwrap_or("");
    let numbers: Vec<&str> = core.split('.').collect();
    numbers.len() >= 2 && numbers.iter().all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::os::unix::fs::symlink;

    /// A fake `failopen` binary in `dir/real`, and facts for it.
    struct Setup {
        dir: tempfile::TempDir,
        exe: PathBuf,
    }

    impl Setup {
        fn new() -> Setup {
            let dir = tempfile::tempdir().unwrap();
            let exe = dir.path().join("real/target/release/failopen");
            fs::create_dir_all(exe.parent().unwrap()).unwrap();
            fs::write(&exe, "#!/bin/sh\n").unwrap();
            fs::set_permissions(&exe, fs::Permissions::from_mode(0o755)).unwrap();
            Setup { dir, exe }
        }

        fn path(&self, rel: &str) -> PathBuf {
            self.dir.path().join(rel)
        }

        /// `rel/failopen` as a symlink to the fake binary.
        fn link_in(&self, rel: &str) -> PathBuf {
            let d = self.path(rel);
            fs::create_dir_all(&d).unwrap();
            symlink(&self.exe, d.join("failopen")).unwrap();
            d
        }

        fn facts(&self, argv0: &str, path_dirs: &[&Path]) -> ExeFacts {
            ExeFacts {
                argv0: argv0.into(),
                path_var: Some(std::env::join_paths(path_dirs).unwrap()),
                cwd: self.dir.path().to_path_buf(),
                current_exe: self.exe.clone(),
            }
        }
    }

    #[test]
    fn the_failopen_on_path_as_found_not_resolved() {
        let s = Setup::new();
        let empty = s.path("empty");
        fs::create_dir_all(&empty).unwrap();
        let bin = s.link_in("bin");
        let chosen = choose(&s.facts("failopen", &[&empty, &bin]));
        assert_eq!(chosen, ExePath { path: bin.join("failopen"), source: ExeSource::Path });
    }

    #[test]
    fn a_different_failopen_first_on_path_is_not_used() {
        let s = Setup::new();
        let other = s.path("other");
        fs::create_dir_all(&other).unwrap();
        fs::write(other.join("failopen"), "#!/bin/sh\n").unwrap();
        fs::set_permissions(other.join("failopen"), fs::Permissions::from_mode(0o755)).unwrap();
        let bin = s.link_in("bin");
        let invoked = s.link_in("dev").join("failopen");
        let chosen = choose(&s.facts(invoked.to_str().unwrap(), &[&other, &bin]));
        assert_eq!(chosen, ExePath { path: invoked, source: ExeSource::Invoked });
    }

    #[test]
    fn relative_path_entries_are_skipped() {
        let s = Setup::new();
        s.link_in("rel");
        let mut facts = s.facts("failopen", &[]);
        facts.path_var = Some("rel".into());
        assert_eq!(choose(&facts).source, ExeSource::CurrentExe);
    }

    #[test]
    fn relative_argv0_is_made_absolute_but_not_resolved() {
        let s = Setup::new();
        s.link_in("links");
        // `./links/../links/failopen` through a symlinked directory too.
        symlink(s.path("links"), s.path("alias")).unwrap();
        let chosen = choose(&s.facts("./alias/failopen", &[]));
        assert_eq!(chosen, ExePath { path: s.path("alias/failopen"), source: ExeSource::Invoked });
        let chosen = choose(&s.facts("alias/../links/./failopen", &[]));
        assert_eq!(chosen.path, s.path("alias/../links/failopen"), "`..` kept, `.` dropped");
    }

    #[test]
    fn falls_back_to_current_exe() {
        let s = Setup::new();
        // A bare name not found on PATH, and an argv[0] naming another file.
        assert_eq!(choose(&s.facts("failopen", &[])), ExePath { path: s.exe.clone(), source: ExeSource::CurrentExe });
        let chosen = choose(&s.facts("/bin/sh", &[]));
        assert_eq!(chosen.source, ExeSource::CurrentExe);
        let mut facts = s.facts("failopen", &[]);
        facts.path_var = None;
        assert_eq!(choose(&facts).path, s.exe);
    }

    #[test]
    fn build_and_versioned_directories_are_flagged() {
        for (path, says) in [
            ("/home/u/failopen/target/release/failopen", "a cargo build directory"),
            ("/w/target/debug/failopen", "a cargo build directory"),
            ("/w/target/x86_64-unknown-linux-gnu/release/failopen", "a cargo build directory"),
            ("/home/u/.cargo/registry/src/x/failopen", "cargo's download cache"),
            ("/nix/store/abc-failopen-0.1.0/bin/failopen", "the Nix store"),
            ("/usr/local/Cellar/failopen/bin/failopen", "a Homebrew Cellar"),
            ("/opt/failopen/1.2.3/bin/failopen", "a versioned directory (1.2.3)"),
            ("/opt/failopen/v0.30.1/failopen", "a versioned directory (v0.30.1)"),
        ] {
            let w = build_dir_warning(Path::new(path)).unwrap_or_else(|| panic!("{path} not flagged"));
            assert!(w.contains(says) && w.contains(path), "{path}: {w}");
        }
        for path in
            ["/usr/local/bin/failopen", "/home/u/.cargo/bin/failopen", "/opt/target/bin/failopen", "/srv/1/failopen"]
        {
            assert_eq!(build_dir_warning(Path::new(path)), None, "{path}");
        }
    }

    #[test]
    fn versions() {
        for v in ["1.2", "1.2.3", "v0.30.1", "2.1.328-beta", "1.0+git"] {
            assert!(is_version(v), "{v}");
        }
        for v in ["1", "bin", "1.x", ".1", "release", "failopen-0.1.0", "v"] {
            assert!(!is_version(v), "{v}");
        }
    }
}
