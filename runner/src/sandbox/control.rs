//! What a session's sandbox tells failopen of its agent, so that a
//! sandboxed row records what an unsandboxed one does.
//!
//! Left to itself, the sandbox hides two facts: `bwrap` exits `128+n` for a
//! program killed by signal `n` (a crashed agent would read `139`, not
//! `signal:11`), and the PID namespace's end kills whatever the agent left
//! behind (a `setsid` daemon) before failopen's reaper ([`crate::reap`]) can
//! find and count it. So `failopen sandbox-exec --control=SOCKET` ([`Inside`])
//! does inside what failopen does outside: it waits for the agent, kills the
//! rest of its process group, finds every process still carrying the
//! session's tag ([`crate::reap::TAG_VAR`]), kills and counts them, and
//! reports the agent's own wait status and that count over a Unix socket in
//! the session's temp root to failopen ([`HostEnd`]). When failopen ends a
//! session early (its timeout), it says `stop` on the same socket, and the
//! inside does the same before the sandbox is torn down.
//!
//! The socket takes one connection, `sandbox-exec`'s, made before the agent
//! starts; its path is then removed. Nothing the agent could write there is
//! more than the agent could do itself (exit as it likes, leave processes).

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::ExitStatus;
use std::sync::mpsc;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt};

/// What the inside reported when the session ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// The agent's own wait status (`None`: it could not be had after the stop).
    pub status: Option<ExitStatus>,
    /// Tagged processes still alive after the group kill, killed one by one.
    pub stragglers: usize,
}

impl Report {
    fn line(&self) -> String {
        let status = self.status.map_or("-".to_string(), |s| s.into_raw().to_string());
        format!("end {status} {}\n", self.stragglers)
    }

    fn parse(line: &str) -> Option<Report> {
        let mut w = line.split_whitespace();
        if w.next()? != "end" {
            return None;
        }
        let status = match w.next()? {
            "-" => None,
            raw => Some(ExitStatus::from_raw(raw.parse().ok()?)),
        };
        Some(Report { status, stragglers: w.next()?.parse().ok()? })
    }
}

/// failopen's end of a session's control socket. Serves until dropped.
#[derive(Debug)]
pub struct HostEnd {
    socket: PathBuf,
    stop: tokio::sync::mpsc::UnboundedSender<()>,
    report: tokio::sync::watch::Receiver<Option<Report>>,
    task: tokio::task::JoinHandle<()>,
}

impl HostEnd {
    /// Listen on `socket` for the one connection of the sandbox's inside.
    pub fn start(socket: &Path) -> std::io::Result<HostEnd> {
        let _ = std::fs::remove_file(socket);
        let listener = tokio::net::UnixListener::bind(socket)?;
        let (stop, mut stopped) = tokio::sync::mpsc::unbounded_channel::<()>();
        let (tx, report) = tokio::sync::watch::channel(None);
        let path = socket.to_path_buf();
        let task = tokio::spawn(async move {
            let Ok((conn, _)) = listener.accept().await else { return };
            // One connection only: nobody else reaches it from here on.
            drop(listener);
            let _ = std::fs::remove_file(&path);
            let (read, mut write) = conn.into_split();
            let mut lines = tokio::io::BufReader::new(read).lines();
            loop {
                tokio::select! {
                    line = lines.next_line() => match line {
                        Ok(Some(l)) => {
                            if let Some(r) = Report::parse(&l) {
                                let _ = tx.send(Some(r));
                            }
                        }
                        _ => return,
                    },
                    Some(()) = stopped.recv() => {
                        let _ = write.write_all(b"stop\n").await;
                    }
                }
            }
        });
        Ok(HostEnd { socket: socket.to_path_buf(), stop, report, task })
    }

    /// Ask the inside to end the session (kill the agent's group, reap and
    /// count what is left) and wait, at most `within`, for its report.
    pub async fn stop(&self, within: Duration) -> Option<Report> {
        let _ = self.stop.send(());
        self.report(within).await
    }

    /// The inside's report, waiting at most `within` for it (the sandbox
    /// has exited: it was written before).
    pub async fn report(&self, within: Duration) -> Option<Report> {
        let mut rx = self.report.clone();
        let got = tokio::time::timeout(within, rx.wait_for(Option::is_some)).await;
        match got {
            Ok(Ok(r)) => *r,
            _ => *self.report.borrow(),
        }
    }
}

impl Drop for HostEnd {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.socket);
    }
}

/// The inside's end: connected before the agent starts.
pub struct Inside {
    conn: UnixStream,
}

enum Event {
    Exited(std::io::Result<ExitStatus>),
    Stop,
}

impl Inside {
    /// Connect to failopen's end at `socket`.
    pub fn connect(socket: &Path) -> std::io::Result<Inside> {
        Ok(Inside { conn: UnixStream::connect(socket)? })
    }

    /// Wait for `child` (the agent) to exit or for failopen's `stop`; then do
    /// what failopen's reaper does outside, report, and return the agent's
    /// status (`None` when it could not be had).
    pub fn run(self, mut child: std::process::Child) -> Option<ExitStatus> {
        let (tx, rx) = mpsc::channel();
        let waiter = tx.clone();
        std::thread::spawn(move || {
            let _ = waiter.send(Event::Exited(child.wait()));
        });
        if let Ok(read) = self.conn.try_clone() {
            std::thread::spawn(move || {
                // A `stop`, or failopen gone (end of file): end the session either way.
                let mut line = String::new();
                let _ = BufReader::new(read).read_line(&mut line);
                let _ = tx.send(Event::Stop);
            });
        }
        let status = match rx.recv() {
            Ok(Event::Exited(s)) => s.ok(),
            Ok(Event::Stop) | Err(_) => {
                // As failopen's timeout does outside: the agent's group is killed; its status follows.
                kill_group_but_us();
                loop {
                    match rx.recv_timeout(Duration::from_secs(2)) {
                        Ok(Event::Exited(s)) => break s.ok(),
                        Ok(Event::Stop) => continue,
                        Err(_) => break None,
                    }
                }
            }
        };
        kill_group_but_us();
        let stragglers = match std::env::var(crate::reap::TAG_VAR) {
            Ok(tag) => crate::reap::reap_tagged_except(&tag, &[1]),
            Err(_) => 0,
        };
        let mut conn = &self.conn;
        let _ = conn.write_all(Report { status, stragglers }.line().as_bytes());
        let _ = conn.flush();
        status
    }
}

/// SIGKILL every live process of this process's group but this one and the
/// namespace's init (the agent's group, as failopen's `kill_group` outside).
fn kill_group_but_us() {
    let me = std::process::id();
    let group = nix::unistd::getpgrp().as_raw();
    let Ok(entries) = std::fs::read_dir("/proc") else { return };
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        if pid == me || pid == 1 {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else { continue };
        // After the command's `)`: state, ppid, pgrp.
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() < 3 || fields[0] == "Z" || fields[2].parse::<i32>().ok() != Some(group) {
            continue;
        }
        let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), nix::sys::signal::Signal::SIGKILL);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_report_reads_back_as_written() {
        for r in [
            Report { status: Some(ExitStatus::from_raw(11)), stragglers: 3 },
            Report { status: Some(ExitStatus::from_raw(2 << 8)), stragglers: 0 },
            Report { status: None, stragglers: 1 },
        ] {
            assert_eq!(Report::parse(r.line().trim()), Some(r));
        }
        assert_eq!(Report::parse("end x 1"), None);
        assert_eq!(Report::parse("stop"), None);
    }
}
