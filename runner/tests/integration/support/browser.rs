//! Headless Chromium from Debian's package (`/usr/bin/chromium`; `.ci/run`
//! installs it): the DOM a page holds once its scripts ran, a screenshot, and
//! reading attributes out of the dumped HTML. Without Chromium a test fails,
//! it does not skip.
//!
//! The browser runs in its own process group, with a fresh profile and HOME
//! that are removed afterwards; the group is killed when it is done, and if
//! it outlives [`BROWSER_TIMEOUT`].

use std::collections::{BTreeSet, HashMap};
use std::fmt::Debug;
use std::fs::File;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use regex::Regex;

use crate::support;

const CHROMIUM: &str = "/usr/bin/chromium";
/// Long enough for a loaded two-core machine; a hung browser is killed then.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(120);

/// Run Chromium headless with `args` (then the URL); its stdout.
fn chromium(args: &[String], url: &str) -> String {
    assert!(
        Path::new(CHROMIUM).exists(),
        "{CHROMIUM} is missing: this test loads a page in Debian's headless Chromium. \
         .ci/run installs it (apt-get install -y chromium); on this machine run `apt-get install -y chromium`"
    );
    let _cores = support::lock::sessions();
    let scratch = tempfile::tempdir().unwrap();
    let profile = scratch.path().join("profile");
    let (out_path, err_path) = (scratch.path().join("stdout.txt"), scratch.path().join("stderr.txt"));
    let mut child = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .env("HOME", scratch.path())
        .env("XDG_CONFIG_HOME", scratch.path().join("config"))
        .env("XDG_CACHE_HOME", scratch.path().join("cache"))
        .stdin(Stdio::null())
        .stdout(File::create(&out_path).unwrap())
        .stderr(File::create(&err_path).unwrap())
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("{CHROMIUM}: {e}"));
    let pid = Pid::from_raw(child.id() as i32);
    let started = Instant::now();
    // Wait without reaping (WNOWAIT): while the leader is unreaped, its
    // group id cannot be reused, so killing the group reaches only ours.
    let finished = loop {
        let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
        match waitid(Id::Pid(pid), flags).unwrap() {
            WaitStatus::StillAlive if started.elapsed() < BROWSER_TIMEOUT => {
                std::thread::sleep(Duration::from_millis(50))
            }
            WaitStatus::StillAlive => break false,
            _ => break true,
        }
    };
    let _ = killpg(pid, Signal::SIGKILL);
    let status = child.wait().unwrap();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let tail: String =
        stderr.lines().rev().take(20).collect::<Vec<_>>().into_iter().rev().collect::<Vec<_>>().join("\n");
    assert!(finished, "chromium did not finish within {BROWSER_TIMEOUT:?} and was killed; its stderr ends:\n{tail}");
    assert!(status.success(), "chromium exited with {status}; its stderr ends:\n{tail}");
    std::fs::read_to_string(&out_path).unwrap()
}

/// The DOM Chromium holds after loading `url` (its scripts run), through `--dump-dom`.
pub fn dump_dom(url: &str) -> String {
    let dom = chromium(&["--dump-dom".to_string()], url);
    assert!(!dom.is_empty(), "chromium dumped no DOM for {url}");
    dom
}

/// [`dump_dom`] with more Chromium flags (`--allow-file-access-from-files`).
pub fn dump_dom_with(url: &str, flags: &[&str]) -> String {
    let mut args = vec!["--dump-dom".to_string()];
    args.extend(flags.iter().map(|f| f.to_string()));
    let dom = chromium(&args, url);
    assert!(!dom.is_empty(), "chromium dumped no DOM for {url}");
    dom
}

/// A `width`×`height` screenshot of `url`, as PNG, written to `png`.
pub fn screenshot(url: &str, png: &Path, width: u32, height: u32) {
    let args = [
        format!("--screenshot={}", png.display()),
        format!("--window-size={width},{height}"),
        "--hide-scrollbars".to_string(),
    ];
    chromium(&args, url);
    assert!(png.is_file(), "chromium wrote no screenshot of {url} to {}", png.display());
}

/// Undo the escaping Chromium applies to attribute values.
fn unescape(s: &str) -> String {
    s.replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", "\u{a0}")
        .replace("&amp;", "&")
}

/// The attributes of every `<tag ...>` opening tag in `html`.
pub fn tags(html: &str, tag: &str) -> Vec<HashMap<String, String>> {
    let open = Regex::new(&format!(r#"<{tag}((?:\s+[^\s=>"/]+(?:="[^"]*")?)*)\s*/?>"#)).unwrap();
    let attr = Regex::new(r#"([^\s=>"/]+)(?:="([^"]*)")?"#).unwrap();
    open.captures_iter(html)
        .map(|c| {
            attr.captures_iter(&c[1])
                .map(|a| (a[1].to_string(), a.get(2).map(|v| unescape(v.as_str())).unwrap_or_default()))
                .collect()
        })
        .collect()
}

/// The part of `html` from `<tag id="id"` to its first `</tag>`.
pub fn element<'a>(html: &'a str, tag: &str, id: &str) -> &'a str {
    let open = format!("<{tag} id=\"{id}\"");
    let start = html.find(&open).unwrap_or_else(|| panic!("no {open} in the DOM:\n{html}"));
    let close = format!("</{tag}>");
    &html[start..start + html[start..].find(&close).unwrap_or_else(|| panic!("{open} does not end"))]
}

/// Which items only `got` has, and which only `want` has (for failure messages).
pub fn set_diff<T: Ord + Debug>(got: &BTreeSet<T>, want: &BTreeSet<T>) -> String {
    let only = |a: &BTreeSet<T>, b: &BTreeSet<T>| a.difference(b).map(|t| format!("{t:?}")).collect::<Vec<_>>();
    format!("drawn but not expected: {:?}\nexpected but not drawn: {:?}", only(got, want), only(want, got))
}
