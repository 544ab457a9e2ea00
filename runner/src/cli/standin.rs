//! `failopen standin serve`: the stand-in model as a separate server, for
//! testing live mode (`ANTHROPIC_BASE_URL=<the printed URL>`).
//!
//! The URL is the first line on stdout (flushed at once), so a script or a
//! test can read it; the server runs until SIGINT or SIGTERM.

use std::io::Write;

use failopen::standin::{Policy, StandIn};

use super::args::{PolicyArg, StandinCommand};
use super::ExitCode;

/// The library policy for a command-line policy.
pub fn policy(arg: PolicyArg) -> Policy {
    match arg {
        PolicyArg::Scripted => Policy::Scripted,
        PolicyArg::Refuse => Policy::Refuse,
        PolicyArg::Wayward => Policy::Wayward,
        PolicyArg::Flaky => Policy::Flaky,
    }
}

pub async fn main(command: StandinCommand) -> anyhow::Result<ExitCode> {
    let StandinCommand::Serve { port, policy: arg } = command;
    let server = StandIn::start(policy(arg), Some(port))
        .await
        .map_err(|e| anyhow::anyhow!("--port {port}: cannot listen on 127.0.0.1:{port}: {e}"))?;
    {
        let mut out = std::io::stdout().lock();
        writeln!(out, "http://{}", server.addr())?;
        out.flush()?;
    }
    let name = Policy::ALL.iter().find(|(_, p)| *p == policy(arg)).map(|(n, _)| *n).unwrap_or("?");
    eprintln!("failopen: stand-in ({name}) serving on http://{}; Ctrl-C to stop", server.addr());
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
    drop(server);
    eprintln!("failopen: stand-in stopped");
    Ok(ExitCode::Success)
}
