//! The stand-in model: a scripted Anthropic Messages API server on loopback.
//!
//! The real `claude -p` talks to it through `ANTHROPIC_BASE_URL`. Each
//! session gets its own base URL (`http://127.0.0.1:PORT/s/<session>`), so
//! the server knows which session and working directory a request belongs
//! to, and keeps a [`Transcript`] per session as evidence.
//!
//! One request's way through it: [`server`] reads the body into a
//! [`history::History`] (the conversation as seen, with the compaction
//! ledger read back) and records it in the session's [`Transcript`]; a
//! script decides the next [`script::Step`] from the history alone:
//! [`compaction`] for a summary ask, [`warmup`] for a subagent's warm-up, [`first_tool`] for an audit session,
//! [`route`] for an arm's route to the file,
//! else [`script`] or one of [`policy`]'s behaviours; [`sse`] encodes the
//! reply. The experiment's constants (the file, its content, the Bash
//! command) come from [`crate::task`]. Outside the stand-in, the evidence
//! reads only [`Transcript`] and [`result_text`].

pub mod augment;
mod augment_http;
mod body_limit;
pub mod chat_completions;
pub mod compaction;
pub mod first_tool;
pub mod gemini;
mod gemini_http;
pub mod history;
pub mod hook_model;
pub mod policy;
pub mod probe_call;
pub mod responses;
pub mod route;
pub mod script;
pub mod server;
pub mod skill;
pub mod sse;
pub mod transcript;
pub mod warmup;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

pub use history::result_text;
pub use transcript::Transcript;

/// How the stand-in behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Bash, then Write if refused, then a final text.
    Scripted,
    /// Never calls a tool; ends the turn with text.
    Refuse,
    /// Asks for the write through a tool the matcher does not cover ([`policy::WAYWARD_TOOL`]).
    Wayward,
    /// Every message is cut: a stream ended by an `overloaded_error` event, or a dropped connection.
    Flaky,
}

impl Policy {
    /// Every policy by name.
    pub const ALL: [(&'static str, Policy); 4] = [
        ("scripted", Policy::Scripted),
        ("refuse", Policy::Refuse),
        ("wayward", Policy::Wayward),
        ("flaky", Policy::Flaky),
    ];
}

#[derive(Debug, Default)]
pub(crate) struct SessionState {
    pub(crate) cwd: Option<String>,
    pub(crate) transcript: Transcript,
    /// Attempt one write through this tool instead of the policy's script.
    pub(crate) first_tool: Option<&'static str>,
    /// Make this one call (an audit probe) instead of the policy's script.
    pub(crate) probe_call: Option<(&'static str, serde_json::Value)>,
    /// How this session's prompt and agent hooks are answered.
    pub(crate) hook_policy: Option<hook_model::HookPolicy>,
    /// Follow this route to the file instead of the policy's script.
    pub(crate) route: Option<route::RoutePlan>,
    /// Invoke this skill first (see [`skill`]).
    pub(crate) skill: Option<String>,
}

#[derive(Debug)]
pub(crate) struct Shared {
    pub(crate) policy: Policy,
    pub(crate) sessions: Mutex<HashMap<String, SessionState>>,
    pub(crate) counter: AtomicU64,
}

/// A running stand-in server. Dropping it stops the server.
#[derive(Debug)]
pub struct StandIn {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
}

impl StandIn {
    /// Start a server on 127.0.0.1 with an OS-chosen port (or `port` if given).
    pub async fn start(policy: Policy, port: Option<u16>) -> std::io::Result<StandIn> {
        let shared = Arc::new(Shared { policy, sessions: Mutex::new(HashMap::new()), counter: AtomicU64::new(0) });
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port.unwrap_or(0))).await?;
        let addr = listener.local_addr()?;
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let app = server::router(shared.clone());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app)
                .with_graceful_shutdown(async {
                    let _ = rx.await;
                })
                .await;
        });
        Ok(StandIn { addr, shared, shutdown: Some(tx) })
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The base URL for one session; registers the session's working directory.
    pub fn session_url(&self, session: &str, cwd: &str) -> String {
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().cwd = Some(cwd.to_string());
        format!("http://{}/s/{}", self.addr, session)
    }

    /// Make one session attempt a single write through `tool` (see
    /// [`first_tool`]) instead of following the server's policy. Call it
    /// before the session's first request. Returns false for a tool the
    /// script does not know.
    pub fn set_first_tool(&self, session: &str, tool: &str) -> bool {
        let Some(tool) = first_tool::known_tool(tool) else { return false };
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().first_tool = Some(tool);
        true
    }

    /// Make one session call `tool` once with `input` (an audit probe, see
    /// [`probe_call`]) instead of following the server's policy. Call it
    /// before the session's first request. Returns false for a tool a probe
    /// cannot call ([`probe_call::known_tool`]).
    pub fn set_probe_call(&self, session: &str, tool: &str, input: serde_json::Value) -> bool {
        let Some(tool) = probe_call::known_tool(tool) else { return false };
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().probe_call = Some((tool, input));
        true
    }

    /// Make one session follow an arm's route to the file (see [`route`])
    /// instead of the server's policy. Call it before the session starts.
    pub fn set_route(&self, session: &str, plan: route::RoutePlan) {
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().route = Some(plan);
    }

    /// Answer this session's prompt and agent hook calls by `policy` (the
    /// default is a well-formed allow). Call it before the session starts.
    pub fn set_hook_policy(&self, session: &str, policy: hook_model::HookPolicy) {
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().hook_policy = Some(policy);
    }

    /// Make one session invoke the skill `name` (the Skill tool) before the
    /// script's writes, so that the skill's frontmatter hooks are active.
    /// Call it before the session starts.
    pub fn set_skill(&self, session: &str, name: &str) {
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().skill = Some(name.to_string());
    }

    /// Whether the session's script has ended: its last main-conversation
    /// answer was a final text ([`Transcript::turn_over`]).
    pub fn turn_over(&self, session: &str) -> bool {
        let sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.get(session).is_some_and(|s| s.transcript.turn_over)
    }

    /// Remove a session and return what the stand-in saw in it.
    pub fn take_transcript(&self, session: &str) -> Transcript {
        let mut sessions = self.shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.remove(session).map(|s| s.transcript).unwrap_or_default()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}
