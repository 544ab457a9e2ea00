//! The paths of a hidden tree (HOME, `/tmp`, ...: [`super::hidden_roots`])
//! that a hook's configuration names, to bind back read-only: its script
//! and the package or plugin the script belongs to, a program it runs by
//! name from the user's PATH (`node` from a version manager, an npm-global
//! or `pip --user` guard) with its install, and the interpreter of a
//! script's `#!`. Only the configuration is read for names (settings,
//! command lines, the arguments): never what a script says, so a hook
//! cannot name its way to a file. Credential stores are never bound, even
//! when named (`~/.ssh`, `~/.aws`, ...).

use std::path::{Path, PathBuf};

/// Files and directories never bound, whatever names them.
const NEVER: &[&str] = &[
    ".ssh",
    ".gnupg",
    ".aws",
    ".azure",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".pypirc",
    ".credentials.json",
    "gcloud",
    "gh",
    "keyrings",
];

/// A file or directory whose presence marks the root of an install (a
/// package, a plugin, a virtualenv, a checkout).
const MARKERS: &[&str] =
    &["package.json", "pyproject.toml", "setup.py", "pyvenv.cfg", ".claude-plugin", "Cargo.toml", "go.mod", ".git"];

/// What a configuration's names are read against.
#[derive(Debug, Clone)]
pub struct Namer {
    /// `(NAME, value)`: `$NAME` and `${NAME}` are read as `value` (`HOME`, the project's variables).
    pub vars: Vec<(String, String)>,
    /// The PATH a program named bare is looked up on.
    pub path_var: String,
    /// The trees hidden in the sandbox.
    pub hidden: Vec<PathBuf>,
}

impl Namer {
    /// A namer for this process: `HOME` (and `FAILOPEN_AUDIT_HOME`) read as
    /// this process's HOME, `vars` besides, PATH this process's.
    pub fn here(vars: &[(&str, &Path)]) -> Namer {
        let mut v: Vec<(String, String)> = Vec::new();
        if let Ok(home) = std::env::var("HOME") {
            v.push(("HOME".into(), home.clone()));
            v.push(("FAILOPEN_AUDIT_HOME".into(), home));
        }
        v.extend(vars.iter().map(|(k, p)| (k.to_string(), p.to_string_lossy().into_owned())));
        Namer { vars: v, path_var: std::env::var("PATH").unwrap_or_default(), hidden: super::hidden_roots() }
    }

    /// The paths to bind back for everything `texts` name (settings, command
    /// lines, arguments), parents before children, none inside another.
    pub fn named<'a>(&self, texts: impl IntoIterator<Item = &'a str>) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for text in texts {
            let expanded = self.expand(text);
            // A quoted part joined to the rest of its word (`"$HOME"/.claude/g.py`) is one path to the
            // shell: read the words once as written and once with the quotes taken out.
            let joined = expanded.replace(['"', '\''], "");
            for word in words(&expanded).chain(words(&joined)) {
                let candidate = if word.starts_with('/') {
                    Some(PathBuf::from(word))
                } else if is_program_name(word) {
                    which(word, &self.path_var)
                } else {
                    None
                };
                if let Some(p) = candidate {
                    self.expose(&p, &mut out, 0);
                }
            }
        }
        out.sort_by_key(|p| p.components().count());
        out.dedup();
        let mut kept: Vec<PathBuf> = Vec::new();
        for p in out {
            if !kept.iter().any(|k| p.starts_with(k)) {
                kept.push(p);
            }
        }
        kept
    }

    fn expand(&self, text: &str) -> String {
        let mut vars = self.vars.clone();
        vars.sort_by_key(|(k, _)| std::cmp::Reverse(k.len()));
        let mut s = text.to_string();
        for (k, v) in &vars {
            s = s.replace(&format!("${{{k}}}"), v).replace(&format!("${k}"), v);
        }
        if let Some((_, home)) = self.vars.iter().find(|(k, _)| k == "HOME") {
            for lead in [" ", "\"", "'", "=", ":"] {
                s = s.replace(&format!("{lead}~/"), &format!("{lead}{home}/"));
            }
            if let Some(rest) = s.strip_prefix("~/") {
                s = format!("{home}/{rest}");
            }
        }
        s
    }

    fn hidden(&self, p: &Path) -> bool {
        self.hidden.iter().any(|r| p.starts_with(r))
    }

    /// A hidden root itself, or a directory above one: never bound whole.
    fn too_wide(&self, p: &Path) -> bool {
        self.hidden.iter().any(|r| r.starts_with(p))
    }

    fn push(&self, p: &Path, out: &mut Vec<PathBuf>) {
        let never = p.components().any(|c| NEVER.iter().any(|n| c.as_os_str() == *n));
        if self.hidden(p) && !self.too_wide(p) && !never && p.exists() {
            out.push(p.to_path_buf());
        }
    }

    fn expose(&self, p: &Path, out: &mut Vec<PathBuf>, depth: u8) {
        if depth > 3 || !p.exists() {
            return;
        }
        let canonical = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        if !self.hidden(p) && !self.hidden(&canonical) {
            return;
        }
        for q in [p, canonical.as_path()] {
            if q.is_dir() {
                self.push(q, out);
                continue;
            }
            match q.parent() {
                Some(parent) if !self.too_wide(parent) => {
                    self.push(parent, out);
                    // A `bin` beside a `lib`: a prefix (`~/.local`, a venv, an npm prefix).
                    if parent.file_name().is_some_and(|n| n == "bin") {
                        if let Some(prefix) = parent.parent().filter(|pre| !self.too_wide(pre)) {
                            self.push(&prefix.join("lib"), out);
                        }
                    }
                }
                _ => self.push(q, out),
            }
            if let Some(root) = self.package_root(q) {
                self.push(&root, out);
            }
        }
        if let Some(interpreter) = shebang(&canonical) {
            let found = if interpreter.contains('/') {
                Some(PathBuf::from(interpreter))
            } else {
                which(&interpreter, &self.path_var)
            };
            if let Some(i) = found {
                self.expose(&i, out, depth + 1);
            }
        }
    }

    fn package_root(&self, p: &Path) -> Option<PathBuf> {
        for dir in p.ancestors().skip(1) {
            if self.too_wide(dir) || !self.hidden(dir) {
                return None;
            }
            if MARKERS.iter().any(|m| dir.join(m).exists()) {
                return Some(dir.to_path_buf());
            }
        }
        None
    }
}

/// The first executable file named `name` on `path_var`.
fn which(name: &str, path_var: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    std::env::split_paths(path_var)
        .map(|d| d.join(name))
        .find(|p| p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// The words of `text` that can be a path or a program's name.
/// The targets of the links under `dir` (at most 8 levels and 10,000 entries
/// deep): audit's copy of a project links its dependency folders and big files
/// to the originals (`audit::probe::hook_start`), which must be readable in
/// the sandbox for the hook to run as it would in the project.
pub fn link_targets(dir: &Path) -> Vec<String> {
    fn walk(dir: &Path, depth: u8, left: &mut usize, out: &mut Vec<String>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            if *left == 0 {
                return;
            }
            *left -= 1;
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_symlink() {
                if let Ok(target) = std::fs::read_link(e.path()) {
                    let target = if target.is_absolute() { target } else { dir.join(target) };
                    out.push(target.to_string_lossy().into_owned());
                }
            } else if kind.is_dir() && depth < 8 {
                walk(&e.path(), depth + 1, left, out);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, 0, &mut 10_000, &mut out);
    out
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_whitespace() || "\"'`=;&|()<>,:{}[]".contains(c)).filter(|w| !w.is_empty())
}

fn is_program_name(word: &str) -> bool {
    word.len() > 1 && word.chars().all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
}

/// The program a script's `#!` runs: `X` of `#!/usr/bin/env [-S] X`, else the interpreter's path.
fn shebang(script: &Path) -> Option<String> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = std::fs::File::open(script).ok()?.read(&mut head).ok()?;
    let line = std::str::from_utf8(&head[..n]).ok()?.strip_prefix("#!")?.lines().next()?.to_string();
    let mut w = line.split_whitespace();
    let first = w.next()?;
    if first.ends_with("/env") {
        w.find(|a| !a.starts_with('-')).map(str::to_string)
    } else {
        Some(first.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn namer(home: &Path, path: &Path) -> Namer {
        Namer {
            vars: vec![("HOME".into(), home.to_string_lossy().into_owned())],
            path_var: path.to_string_lossy().into_owned(),
            hidden: vec![home.to_path_buf()],
        }
    }

    #[test]
    fn a_named_script_its_package_and_its_launcher_are_bound_and_secrets_never() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        let home = d.path().join("home");
        let pkg = home.join(".npm-global/lib/node_modules/guard");
        std::fs::create_dir_all(pkg.join("dist")).unwrap();
        std::fs::write(pkg.join("package.json"), "{}").unwrap();
        std::fs::write(pkg.join("dist/cli.js"), "#!/usr/bin/env mynode\n").unwrap();
        std::fs::set_permissions(pkg.join("dist/cli.js"), std::fs::Permissions::from_mode(0o755)).unwrap();
        let bin = home.join(".npm-global/bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink("../lib/node_modules/guard/dist/cli.js", bin.join("guard")).unwrap();
        let nvm = home.join(".nvm/v1/bin");
        std::fs::create_dir_all(&nvm).unwrap();
        std::fs::write(nvm.join("mynode"), "").unwrap();
        std::fs::set_permissions(nvm.join("mynode"), std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".secret"), "s").unwrap();
        let path = std::env::join_paths([&bin, &nvm]).unwrap();
        let n = Namer { path_var: path.to_string_lossy().into_owned(), ..namer(&home, &bin) };
        let got = n.named(["guard --hook; cat $HOME/.ssh/id_rsa ~/.ssh"]);
        assert!(got.contains(&bin), "{got:?}");
        assert!(got.contains(&home.join(".npm-global/lib")), "the prefix's lib: {got:?}");
        assert!(got.contains(&nvm), "the #! launcher: {got:?}");
        assert!(!got.iter().any(|p| p.starts_with(home.join(".ssh"))), "{got:?}");
        assert!(!got.contains(&home), "{got:?}");
        assert_eq!(n.named(["cat ~/.secret"]), vec![home.join(".secret")], "a file the command names, alone");
        assert_eq!(
            n.named(["cat \"${HOME}\"/.secret"]),
            vec![home.join(".secret")],
            "a quoted HOME joined to the rest of its path names that path"
        );
        assert!(n.named(["cat ~/.unnamed-elsewhere"]).is_empty());
    }
}
