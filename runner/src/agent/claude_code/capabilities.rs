//! What a Claude Code binary can be asked to do, detected rather than
//! assumed: the command-line flags its `--help` declares, and whether it is
//! a JavaScript entry point run by Node (releases before the native binary
//! ship `cli.js`). Parsing is pure ([`Capabilities::from_help`]); [`probe`]
//! runs the binary once per run and keeps the answer in memory and, for a
//! binary in failopen's cache, in a small JSON file beside its install.
//!
//! Measured (`runner/tests/fixtures/claude-help/`): 2.0.50 has no
//! `--include-hook-events` and no `--disable-slash-commands`; 2.1.100,
//! 2.1.240 and 2.1.328 have every flag failopen uses.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use serde::{Deserialize, Serialize};

use crate::agent::ask::{self, NotRunnable};

/// The flags failopen's sessions may pass, each checked against `--help`.
pub const FLAGS: [&str; 10] = [
    "--include-hook-events",
    "--settings",
    "--setting-sources",
    "--permission-mode",
    "--output-format",
    "--verbose",
    "--strict-mcp-config",
    "--disable-slash-commands",
    "--mcp-config",
    "--plugin-dir",
];

/// The name of the capabilities file beside a cached install.
pub const FILE_NAME: &str = ".failopen-capabilities.json";

/// What one Claude Code binary supports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// The version the binary reports.
    pub version: String,
    /// The flags of [`FLAGS`] that its `--help` declares.
    pub flags: BTreeSet<String>,
    /// `--output-format` offers `stream-json`.
    pub stream_json: bool,
    /// The binary is a JavaScript entry point (`#!/usr/bin/env node`).
    pub js_entry: bool,
    /// `node --version` on the PATH sessions get, when it is a JS entry.
    pub node_version: Option<String>,
    /// Size and modification time (seconds) of the binary the file describes:
    /// a file that does not match is probed again.
    pub stamp: (u64, i64),
}

impl Capabilities {
    /// Read the flags out of `--help` text. An option is declared on a line
    /// that opens, after exactly two spaces, with `-`: its first column
    /// (`-d, --debug [filter]`, `--allowedTools, --allowed-tools <tools...>`)
    /// lists its spellings. Mentions inside descriptions (indented deeper,
    /// or after the column) do not count.
    pub fn from_help(version: &str, help: &str) -> Capabilities {
        let mut declared = BTreeSet::new();
        for line in help.lines() {
            let Some(rest) = line.strip_prefix("  ").filter(|r| r.starts_with('-')) else { continue };
            let column = rest.split("  ").next().unwrap_or("");
            for spelling in column.split(", ") {
                if let Some(flag) = spelling.split_whitespace().next() {
                    declared.insert(flag.to_string());
                }
            }
        }
        let flags: BTreeSet<String> = FLAGS.iter().filter(|f| declared.contains(**f)).map(|f| f.to_string()).collect();
        let stream_json = flags.contains("--output-format") && help.contains("stream-json");
        Capabilities {
            version: version.to_string(),
            flags,
            stream_json,
            js_entry: false,
            node_version: None,
            stamp: (0, 0),
        }
    }

    /// What runs the binary: `native`, or `node <version>` for a JS entry
    /// (`node` alone when `node --version` said nothing).
    pub fn runtime(&self) -> String {
        match (&self.js_entry, &self.node_version) {
            (false, _) => "native".into(),
            (true, Some(v)) => format!("node {v}"),
            (true, None) => "node".into(),
        }
    }

    /// Whether the binary declares `flag`.
    pub fn has(&self, flag: &str) -> bool {
        self.flags.contains(flag)
    }

    /// The first of `needed` the binary lacks, as [`FLAGS`] spells it
    /// (`--output-format` also when it has no `stream-json`).
    pub fn first_missing(&self, needed: &[&'static str]) -> Option<&'static str> {
        needed.iter().copied().find(|f| !self.has(f) || (*f == "--output-format" && !self.stream_json))
    }
}

/// The flag an `error: unknown option '--x'` (Commander's wording, seen on
/// 2.0.50 for `--include-hook-events`) in a session's stderr names.
pub fn unknown_option(stderr: &str) -> Option<&str> {
    let i = stderr.find("unknown option '")?;
    let rest = &stderr[i + "unknown option '".len()..];
    Some(&rest[..rest.find('\'')?])
}

/// The binary's capabilities: from this run's memory, else from the file
/// beside its cached install when it still describes the binary, else by
/// running `--help` (and `node --version` for a JS entry).
pub async fn probe(bin: &crate::agent::AgentBin) -> Result<Capabilities, NotRunnable> {
    static SEEN: OnceLock<Mutex<HashMap<PathBuf, Capabilities>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(c) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&bin.path) {
        return Ok(c.clone());
    }
    // One probe at a time: the sessions a run starts together wait for the
    // first one's answer instead of starting a `--help` each (on a loaded
    // machine, 14 cold Node starts at once let one of them time out, and
    // that session ran with flags its release lacks).
    static PROBING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _one = PROBING.lock().await;
    if let Some(c) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(&bin.path) {
        return Ok(c.clone());
    }
    let stamp = stamp_of(&bin.path);
    let file = file_for(&bin.path);
    let cached = file
        .as_ref()
        .and_then(|f| std::fs::read(f).ok())
        .and_then(|b| serde_json::from_slice::<Capabilities>(&b).ok())
        .filter(|c| c.stamp == stamp && c.version == bin.version);
    let caps = match cached {
        Some(c) => c,
        None => {
            let help = run(&bin.path, &["--help"]).await?;
            let mut c = Capabilities::from_help(&bin.version, &help);
            c.stamp = stamp;
            c.js_entry = is_js_entry(&bin.path);
            if c.js_entry {
                c.node_version = run(Path::new("node"), &["--version"]).await.ok().map(|v| v.trim().to_string());
            }
            if let Some(f) = &file {
                // Best effort: a read-only cache still runs.
                let _ = std::fs::write(f, serde_json::to_vec_pretty(&c).unwrap_or_default());
            }
            c
        }
    };
    seen.lock().unwrap_or_else(|e| e.into_inner()).insert(bin.path.clone(), caps.clone());
    Ok(caps)
}

/// `<install>/.failopen-capabilities.json` for a binary at
/// `<install>/node_modules/.bin/claude` (failopen's cache); none elsewhere.
fn file_for(bin: &Path) -> Option<PathBuf> {
    let bin_dir = bin.parent()?;
    let modules = bin_dir.parent()?;
    (bin.file_name()? == "claude" && bin_dir.file_name()? == ".bin" && modules.file_name()? == "node_modules")
        .then(|| modules.parent().map(|d| d.join(FILE_NAME)))
        .flatten()
}

fn stamp_of(bin: &Path) -> (u64, i64) {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(bin).map(|m| (m.len(), m.mtime())).unwrap_or((0, 0))
}

/// Whether the file opens with a `node` shebang.
fn is_js_entry(bin: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 64];
    let n = std::fs::File::open(bin).and_then(|mut f| f.read(&mut head)).unwrap_or(0);
    let first = String::from_utf8_lossy(&head[..n]);
    first.starts_with("#!") && first.lines().next().is_some_and(|l| l.contains("node"))
}

/// `program args`'s stdout, asked in a throwaway HOME; an error unless it exits 0.
async fn run(program: &Path, args: &[&str]) -> Result<String, NotRunnable> {
    let out = ask::ask(super::DISPLAY_NAME, program, args).await?;
    if !out.status.success() {
        return Err(NotRunnable {
            agent: super::DISPLAY_NAME,
            path: program.display().to_string(),
            message: format!("`{}` exited {:?}", args.join(" "), out.status.code()),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(version: &str) -> Capabilities {
        let path = format!("{}/tests/fixtures/claude-help/{version}.txt", env!("CARGO_MANIFEST_DIR"));
        Capabilities::from_help(version, &std::fs::read_to_string(path).unwrap())
    }

    #[test]
    fn recorded_help_texts_declare_what_each_release_has() {
        let old = fixture("2.0.50");
        assert!(!old.has("--include-hook-events") && !old.has("--disable-slash-commands"));
        assert_eq!(old.flags.len(), FLAGS.len() - 2, "{:?}", old.flags);
        assert!(old.stream_json);
        for v in ["2.1.100", "2.1.240", "2.1.328"] {
            let c = fixture(v);
            assert_eq!(c.flags.len(), FLAGS.len(), "{v}: {:?}", c.flags);
            assert!(c.stream_json, "{v}");
        }
    }

    #[test]
    fn only_the_option_column_declares_a_flag() {
        // 2.1.240 wraps `--bare`'s description onto a line that opens with `--settings,` deep in.
        let help = "Options:\n  --bare            Minimal mode. Provide context via:\n                    --settings, --plugin-dir.\n  -v, --verbose     Verbose\n  --mcp-config <configs...>  Load; see --strict-mcp-config\n";
        let c = Capabilities::from_help("9.9.9", help);
        assert_eq!(c.flags.iter().map(String::as_str).collect::<Vec<_>>(), ["--mcp-config", "--verbose"]);
        assert!(!c.stream_json);
        assert_eq!(c.first_missing(&["--verbose", "--settings"]), Some("--settings"));
        assert_eq!(c.first_missing(&["--verbose"]), None);
    }

    #[test]
    fn an_unknown_option_is_named() {
        assert_eq!(unknown_option("error: unknown option '--include-hook-events'\n"), Some("--include-hook-events"));
        assert_eq!(unknown_option("Error: Settings file not found"), None);
    }

    #[test]
    fn the_runtime_names_node_for_a_js_entry() {
        let mut c = fixture("2.0.50");
        assert_eq!(c.runtime(), "native");
        c.js_entry = true;
        assert_eq!(c.runtime(), "node");
        c.node_version = Some("v20.20.2".into());
        assert_eq!(c.runtime(), "node v20.20.2");
    }

    #[test]
    fn the_file_sits_beside_a_cached_install_only() {
        assert_eq!(
            file_for(Path::new("/c/2.0.50/node_modules/.bin/claude")),
            Some(PathBuf::from("/c/2.0.50").join(FILE_NAME))
        );
        assert_eq!(file_for(Path::new("/usr/local/bin/claude")), None);
    }
}
