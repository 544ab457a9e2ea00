//! `failopen mcp-guard --policy POLICY [--trace FILE]`: the MCP server behind
//! an `mcp_tool` hook, over stdio.
//!
//! Exit 0 when stdin closes, 130 on SIGTERM or SIGINT, 1 when the handshake
//! fails and, on purpose, at once under `--policy crash-at-start`. It runs
//! on a runtime of its own that is dropped without waiting: a read of stdin
//! cannot be cancelled, and must not keep the process alive after a signal.

use failopen::mcp_guard::{self, GuardServer, Policy, Stopped, Trace};
use tokio_util::sync::CancellationToken;

use super::args::{McpGuardArgs, McpPolicyArg};
use super::ExitCode;

/// The library policy for a command-line policy.
pub fn policy(arg: McpPolicyArg) -> Policy {
    match arg {
        McpPolicyArg::Allow => Policy::Allow,
        McpPolicyArg::Deny => Policy::Deny,
        McpPolicyArg::Error => Policy::Error,
        McpPolicyArg::Hang => Policy::Hang,
        McpPolicyArg::Garbage => Policy::Garbage,
        McpPolicyArg::CrashAtStart => Policy::CrashAtStart,
    }
}

pub fn run(args: McpGuardArgs) -> ExitCode {
    let policy = policy(args.policy);
    if policy.crashes_at_start() {
        eprintln!("failopen mcp-guard: crash-at-start: exiting before the MCP handshake, as asked");
        return ExitCode::Failure;
    }
    serve_on_own_runtime(GuardServer::new(policy, args.trace.map(Trace::new)))
}

/// Serve `server` over stdio on a current-thread runtime of its own, dropped
/// without waiting for a pending read of stdin.
pub(super) fn serve_on_own_runtime<H: mcp_guard::one_tool::OneTool>(server: H) -> ExitCode {
    let rt = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("{}: cannot start the async runtime: {e}", H::SERVER_NAME);
            return ExitCode::Failure;
        }
    };
    let code = rt.block_on(serve_stdio(server));
    rt.shutdown_background();
    code
}

/// Serve an MCP handler over stdio until stdin closes (0), a signal (130) or a failed handshake (1).
async fn serve_stdio<H: mcp_guard::one_tool::OneTool>(server: H) -> ExitCode {
    let stop = CancellationToken::new();
    if let Err(e) = watch_signals(stop.clone()) {
        eprintln!("{}: cannot watch signals: {e}", H::SERVER_NAME);
        return ExitCode::Failure;
    }
    let (input, output) = rmcp::transport::io::stdio_pipes();
    match mcp_guard::serve_handler(server, input, output, stop).await {
        Ok(Stopped::InputClosed) => ExitCode::Success,
        Ok(Stopped::Stopped) => ExitCode::Interrupted,
        Err(e) => {
            eprintln!("{}: {e:#}", H::SERVER_NAME);
            ExitCode::Failure
        }
    }
}

/// Cancel `stop` on SIGTERM or SIGINT.
fn watch_signals(stop: CancellationToken) -> std::io::Result<()> {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    tokio::spawn(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        stop.cancel();
    });
    Ok(())
}
