//! Machine-wide managed settings: the files a company's IT puts where every
//! Claude Code on the machine reads them, whatever HOME and
//! `--setting-sources` say.
//!
//! `claude -p` reads them even in failopen's isolated sessions (seen on
//! 2.1.240 and 2.1.328), so a managed PreToolUse hook or permission rule
//! runs beside the hook under test and may refuse a write in its place.
//! failopen cannot switch them off; it names them, flags every row, and
//! refuses to count their refusals as the hook's (see [`crate::attribution`]).
//!
//! The directories are passed in, so tests use their own and never touch /etc.

use std::path::{Path, PathBuf};

/// Where Linux keeps managed settings.
pub const LINUX_DIR: &str = "/etc/claude-code";
/// Where macOS keeps managed settings.
pub const MACOS_DIR: &str = "/Library/Application Support/ClaudeCode";
/// Where macOS keeps the managed preferences an MDM profile pushes (the
/// `com.anthropic.claudecode` domain): `<user>/` for one user's, else the
/// device's. Claude Code takes the first of these that exists over the
/// `managed-settings.json` files ("first source wins").
pub const MACOS_MANAGED_PREFERENCES: &str = "/Library/Managed Preferences";
/// The preference domain's file name under [`MACOS_MANAGED_PREFERENCES`].
pub const MACOS_PLIST: &str = "com.anthropic.claudecode.plist";
/// Environment variable naming another directory to look in instead
/// (for tests; Claude Code itself still reads the system one).
pub const DIR_VAR: &str = "FAILOPEN_MANAGED_SETTINGS_DIR";

/// The managed settings files found on this machine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ManagedSettings {
    /// Existing files, in the order Claude Code merges them: the main file,
    /// then the drop-in directory's `*.json` by name.
    pub files: Vec<PathBuf>,
}

impl ManagedSettings {
    /// The directories to look in: `override_dir` (from [`DIR_VAR`]) when
    /// given, else the system's own for `os` (`std::env::consts::OS`).
    pub fn dirs(override_dir: Option<PathBuf>, os: &str) -> Vec<PathBuf> {
        match override_dir {
            Some(d) => vec![d],
            None if os == "macos" => vec![PathBuf::from(MACOS_DIR)],
            None => vec![PathBuf::from(LINUX_DIR)],
        }
    }

    /// The MDM preference files Claude Code reads on `os` for `user`, in its
    /// order (the user's, then the device's); none outside macOS.
    pub fn plists(os: &str, user: Option<&str>) -> Vec<PathBuf> {
        if os != "macos" {
            return Vec::new();
        }
        let root = Path::new(MACOS_MANAGED_PREFERENCES);
        let mut out: Vec<PathBuf> =
            user.filter(|u| !u.is_empty()).map(|u| root.join(u).join(MACOS_PLIST)).into_iter().collect();
        out.push(root.join(MACOS_PLIST));
        out
    }

    /// What Claude Code reads on this machine: with `override_dir` (from
    /// [`DIR_VAR`]) only that directory's files, else the MDM preference files
    /// that exist ([`ManagedSettings::plists`]) and then the system directory's
    /// JSON files. A plist is listed, not read: failopen treats it as one that
    /// may hold hooks (see [`ManagedSettings::has_pretooluse_hooks`]).
    pub fn of_machine(override_dir: Option<PathBuf>, os: &str, user: Option<&str>) -> ManagedSettings {
        let plists: Vec<PathBuf> = match override_dir {
            Some(_) => Vec::new(),
            None => Self::plists(os, user).into_iter().filter(|p| p.is_file()).collect(),
        };
        let mut found = Self::detect(&Self::dirs(override_dir, os));
        found.files.splice(0..0, plists);
        found
    }

    /// Look for `managed-settings.json` and `managed-settings.d/*.json` in `dirs`.
    pub fn detect(dirs: &[PathBuf]) -> ManagedSettings {
        let mut files = Vec::new();
        for dir in dirs {
            let main = dir.join("managed-settings.json");
            if main.is_file() {
                files.push(main);
            }
            let mut drop_ins: Vec<PathBuf> = std::fs::read_dir(dir.join("managed-settings.d"))
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "json") && p.is_file())
                .collect();
            drop_ins.sort();
            files.extend(drop_ins);
        }
        ManagedSettings { files }
    }

    /// Whether no managed settings file exists.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// The row flag, `managed-settings:PATH[,PATH...]`, when files exist.
    pub fn flag(&self) -> Option<String> {
        (!self.is_empty()).then(|| format!("managed-settings:{}", self.joined()))
    }

    /// The one warning a run prints before its first session, when files exist.
    pub fn warning(&self) -> Option<String> {
        (!self.is_empty()).then(|| {
            format!(
                "warning: managed settings found: {}. Claude Code applies them in every session, beside the hook \
                 under test; a refusal they cause is recorded as invalid (foreign-refusal), never as blocked, and \
                 every row is flagged managed-settings",
                self.joined()
            )
        })
    }

    /// Whether any of the files holds a PreToolUse hook (unreadable files count as yes).
    pub fn has_pretooluse_hooks(&self) -> bool {
        self.files.iter().any(|f| has_pretooluse_hooks(f))
    }

    fn joined(&self) -> String {
        self.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(",")
    }
}

fn has_pretooluse_hooks(file: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(file) else { return true };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else { return true };
    v.pointer("/hooks/PreToolUse").and_then(serde_json::Value::as_array).is_some_and(|a| !a.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_main_file_and_drop_ins_in_order() {
        let d = tempfile::tempdir().unwrap();
        assert!(ManagedSettings::detect(&[d.path().into()]).is_empty());
        std::fs::write(d.path().join("managed-settings.json"), "{}").unwrap();
        std::fs::create_dir(d.path().join("managed-settings.d")).unwrap();
        for name in ["20-b.json", "10-a.json", "notes.txt"] {
            std::fs::write(d.path().join("managed-settings.d").join(name), "{}").unwrap();
        }
        let m = ManagedSettings::detect(&[d.path().into()]);
        let names: Vec<_> = m.files.iter().map(|f| f.file_name().unwrap().to_str().unwrap()).collect();
        assert_eq!(names, ["managed-settings.json", "10-a.json", "20-b.json"]);
        assert!(m.flag().unwrap().starts_with("managed-settings:"));
        assert!(m.warning().unwrap().contains("managed-settings.json"));
        assert!(!m.has_pretooluse_hooks());
        std::fs::write(d.path().join("managed-settings.json"), r#"{"hooks":{"PreToolUse":[{"hooks":[]}]}}"#).unwrap();
        assert!(m.has_pretooluse_hooks());
    }

    #[test]
    fn system_dirs_per_os_and_the_override() {
        assert_eq!(ManagedSettings::dirs(None, "linux"), [PathBuf::from(LINUX_DIR)]);
        assert_eq!(ManagedSettings::dirs(None, "macos"), [PathBuf::from(MACOS_DIR)]);
        assert_eq!(ManagedSettings::dirs(Some("/t".into()), "linux"), [PathBuf::from("/t")]);
    }

    #[test]
    fn macos_also_reads_the_mdm_preference_files_user_first() {
        assert!(ManagedSettings::plists("linux", Some("ann")).is_empty());
        assert_eq!(
            ManagedSettings::plists("macos", Some("ann")),
            [
                PathBuf::from("/Library/Managed Preferences/ann/com.anthropic.claudecode.plist"),
                PathBuf::from("/Library/Managed Preferences/com.anthropic.claudecode.plist")
            ]
        );
        assert_eq!(ManagedSettings::plists("macos", None).len(), 1);
        let d = tempfile::tempdir().unwrap();
        std::fs::write(d.path().join("managed-settings.json"), "{}").unwrap();
        let m = ManagedSettings::of_machine(Some(d.path().into()), "macos", Some("ann"));
        assert_eq!(m.files, [d.path().join("managed-settings.json")], "the override stands alone");
        let plist = d.path().join("p.plist");
        std::fs::write(&plist, "<?xml version=\"1.0\"?><plist><dict/></plist>").unwrap();
        assert!(
            ManagedSettings { files: vec![plist] }.has_pretooluse_hooks(),
            "a plist is not read: it may hold hooks"
        );
    }
}
