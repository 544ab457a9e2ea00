//! Claude Code in a pseudo-terminal (portable-pty): spawned as the leader
//! of its own session and process group (portable-pty calls `setsid`), the
//! master side read on a thread of its own, its exit reaped by pid.
//!
//! The reader thread sends what it reads over a bounded channel and ends
//! at end of file, at a read error (every slave closed, or the master
//! dropped), or when nobody listens. It is never joined: an orphan still
//! holding the slave cannot make the session wait; once the session's
//! processes are reaped, the read fails and the thread ends.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::Path;

use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
use nix::unistd::Pid;
use portable_pty::{CommandBuilder, MasterPty, PtySize};
use tokio::sync::mpsc;

use crate::evidence::SessionExit;

/// The terminal's size: wide enough that refusal texts are not cut short on
/// the screen the evidence keeps.
pub const ROWS: std::num::NonZeroU16 = std::num::NonZeroU16::new(50).unwrap();
/// Columns.
pub const COLS: std::num::NonZeroU16 = std::num::NonZeroU16::new(160).unwrap();

/// How many chunks may wait between the reader thread and the session.
const CHANNEL_CHUNKS: usize = 256;

/// A running Claude Code in a pseudo-terminal.
pub struct Pty {
    /// Its pid, which is also its process group and session id.
    pub pid: u32,
    /// What the terminal shows, chunk by chunk; `None` at end of file.
    pub output: mpsc::Receiver<Vec<u8>>,
    writer: Option<Box<dyn Write + Send>>,
    master: Option<Box<dyn MasterPty + Send>>,
    // Kept so that portable-pty's handle is dropped only with the session;
    // the exit is reaped by pid ([`Pty::try_exit`]).
    _child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Pty {
    /// Start `program args` in `cwd` with exactly `env`, in a new pseudo-terminal.
    pub fn spawn(program: &Path, args: &[OsString], env: &[(String, String)], cwd: &Path) -> std::io::Result<Pty> {
        let other = |e: anyhow::Error| std::io::Error::other(format!("pseudo-terminal: {e:#}"));
        let pair = portable_pty::native_pty_system()
            .openpty(PtySize { rows: ROWS.get(), cols: COLS.get(), pixel_width: 0, pixel_height: 0 })
            .map_err(other)?;
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        cmd.env_clear();
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.cwd(cwd);
        let child = pair.slave.spawn_command(cmd).map_err(other)?;
        // Only the child holds the slave from here on: its exit ends our reads.
        drop(pair.slave);
        let pid = child.process_id().ok_or_else(|| std::io::Error::other("pseudo-terminal: the child has no pid"))?;
        let reader = pair.master.try_clone_reader().map_err(other)?;
        let writer = pair.master.take_writer().map_err(other)?;
        let (tx, output) = mpsc::channel(CHANNEL_CHUNKS);
        std::thread::Builder::new().name(format!("pty-{pid}")).spawn(move || read_all(reader, tx))?;
        Ok(Pty { pid, output, writer: Some(writer), master: Some(pair.master), _child: child })
    }

    /// Type `bytes` into the terminal. A write to a terminal whose reader
    /// has gone is ignored (the session is ending anyway).
    pub fn type_bytes(&mut self, bytes: &[u8]) {
        if let Some(w) = self.writer.as_mut() {
            let _ = w.write_all(bytes).and_then(|()| w.flush());
        }
    }

    /// Close our side of the terminal: the session gets a hangup.
    pub fn hang_up(&mut self) {
        self.writer = None;
        self.master = None;
    }

    /// The child's exit, if it has exited (reaped here, once).
    pub fn try_exit(&self) -> Option<SessionExit> {
        try_exit(self.pid)
    }
}

/// The exit of our child `pid`, if it has exited (reaped here, once; a pid
/// already reaped reads as an error, which ends any wait for it).
pub fn try_exit(pid: u32) -> Option<SessionExit> {
    {
        match waitpid(Pid::from_raw(pid as i32), Some(WaitPidFlag::WNOHANG)) {
            Ok(WaitStatus::Exited(_, code)) => Some(SessionExit::Code(code)),
            Ok(WaitStatus::Signaled(_, sig, _)) => Some(SessionExit::Signal(sig as i32)),
            Ok(_) => None,
            Err(e) => Some(SessionExit::SpawnFailed(format!("waiting for the session: {e}"))),
        }
    }
}

fn read_all(mut reader: Box<dyn Read + Send>, tx: mpsc::Sender<Vec<u8>>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        match reader.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                if tx.blocking_send(buf[..n].to_vec()).is_err() {
                    return;
                }
            }
        }
    }
}
