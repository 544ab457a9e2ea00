//! The stand-in inside a sandbox whose network has only `lo`: failopen
//! listens, inside, on the stand-in's own address (`127.0.0.1:PORT`, so the
//! session's URL is unchanged) and carries each connection over a Unix
//! socket in the session's temp root to the host side ([`HostEnd`]), which
//! connects to the stand-in on the host's loopback. Nothing else of the
//! host's loopback, and nothing beyond it, is reachable.
//!
//! Inside: `failopen sandbox-exec --relay=PORT=SOCKET ... -- PROGRAM ARGS`
//! ([`exec_main`]) starts the listeners, runs the program, and exits as it
//! did.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// The hidden subcommand that runs a program behind the relays.
pub const SUBCOMMAND: &str = "sandbox-exec";

/// The host side of one relay: a Unix socket whose every connection is
/// carried to a loopback address. Serves until dropped.
#[derive(Debug)]
pub struct HostEnd {
    task: tokio::task::JoinHandle<()>,
    socket: PathBuf,
}

impl HostEnd {
    /// Listen on `socket` and carry each connection to `to`.
    pub fn start(socket: &Path, to: SocketAddr) -> std::io::Result<HostEnd> {
        let _ = std::fs::remove_file(socket);
        let listener = tokio::net::UnixListener::bind(socket)?;
        let task = tokio::spawn(async move {
            while let Ok((mut inside, _)) = listener.accept().await {
                tokio::spawn(async move {
                    if let Ok(mut host) = tokio::net::TcpStream::connect(to).await {
                        let _ = tokio::io::copy_bidirectional(&mut inside, &mut host).await;
                    }
                });
            }
        });
        Ok(HostEnd { task, socket: socket.to_path_buf() })
    }
}

impl Drop for HostEnd {
    fn drop(&mut self) {
        self.task.abort();
        let _ = std::fs::remove_file(&self.socket);
    }
}

/// `failopen sandbox-exec [--control=SOCKET] --relay=PORT=SOCKET... -- PROGRAM ARGS`
/// (`args` from after the subcommand): listen on 127.0.0.1:PORT for each
/// relay, run the program, report its end to failopen when a control socket
/// is named ([`super::control`]), and exit with its code (or die of its signal).
pub fn exec_main(args: &[OsString]) -> i32 {
    let mut relays = Vec::new();
    let mut control = None;
    let mut rest = args.iter();
    for a in rest.by_ref() {
        let a = a.to_string_lossy();
        if a == "--" {
            break;
        }
        if let Some(socket) = a.strip_prefix("--control=") {
            control = Some(PathBuf::from(socket));
            continue;
        }
        let Some((port, socket)) = a.strip_prefix("--relay=").and_then(|r| r.split_once('=')) else {
            eprintln!("failopen {SUBCOMMAND}: unknown argument {a}; expected --relay=PORT=SOCKET or --");
            return 2;
        };
        let Ok(port) = port.parse::<u16>() else {
            eprintln!("failopen {SUBCOMMAND}: --relay: {port} is not a port");
            return 2;
        };
        relays.push((port, PathBuf::from(socket)));
    }
    let rest: Vec<&OsString> = rest.collect();
    let Some((program, program_args)) = rest.split_first() else {
        eprintln!("failopen {SUBCOMMAND}: no program after --");
        return 2;
    };
    for (port, socket) in relays {
        let listener = match std::net::TcpListener::bind(("127.0.0.1", port)) {
            Ok(l) => l,
            Err(e) => {
                eprintln!("failopen {SUBCOMMAND}: cannot listen on 127.0.0.1:{port}: {e}");
                return 2;
            }
        };
        // `localhost` may be ::1 first: listen there too, where the namespace has it.
        if let Ok(v6) = std::net::TcpListener::bind(("::1", port)) {
            let socket = socket.clone();
            std::thread::spawn(move || serve(v6, socket));
        }
        std::thread::spawn(move || serve(listener, socket));
    }
    // Connected before the agent starts: the one connection failopen's end takes.
    let control = match control.map(|s| super::control::Inside::connect(&s).map_err(|e| (s, e))).transpose() {
        Ok(c) => c,
        Err((s, e)) => {
            eprintln!("failopen {SUBCOMMAND}: cannot reach failopen at {}: {e}", s.display());
            return 2;
        }
    };
    let child = match std::process::Command::new(program).args(program_args).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("failopen {SUBCOMMAND}: cannot start {}: {e}", Path::new(program).display());
            return 127;
        }
    };
    let status = match control {
        Some(c) => c.run(child),
        None => {
            let mut child = child;
            child.wait().ok()
        }
    };
    status.map_or(1, exit_as)
}

fn serve(listener: std::net::TcpListener, socket: PathBuf) {
    for conn in listener.incoming().flatten() {
        let socket = socket.clone();
        std::thread::spawn(move || {
            let Ok(host) = std::os::unix::net::UnixStream::connect(&socket) else { return };
            let (Ok(mut host_w), Ok(mut conn_w)) = (host.try_clone(), conn.try_clone()) else { return };
            let (mut host_r, mut conn_r) = (host, conn);
            let up = std::thread::spawn(move || {
                let _ = std::io::copy(&mut conn_r, &mut host_w);
                let _ = host_w.shutdown(std::net::Shutdown::Write);
            });
            let _ = std::io::copy(&mut host_r, &mut conn_w);
            let _ = conn_w.shutdown(std::net::Shutdown::Write);
            let _ = up.join();
        });
    }
}

/// Exit with `status`'s code, or die of its signal as it did.
fn exit_as(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    if let Some(sig) = status.signal() {
        if let Ok(sig) = nix::sys::signal::Signal::try_from(sig) {
            // SAFETY: the default disposition installs no handler.
            let _ = unsafe { nix::sys::signal::signal(sig, nix::sys::signal::SigHandler::SigDfl) };
            let _ = nix::sys::signal::raise(sig);
        }
        return 128 + sig;
    }
    status.code().unwrap_or(1)
}
