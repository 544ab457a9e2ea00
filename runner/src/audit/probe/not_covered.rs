//! What the probe stage's sessions do not cover, in words for the report:
//! one list for Claude Code's settings hooks ([`settings`]), one for another
//! agent's hook files ([`hook_files`]).

use super::dynamic::{FAULT_TOOLS, MCP, SUBAGENT};
use super::faults::MAX_HANG_TIMEOUT_SECS;
use super::{catalogue, Probe};
use crate::agent::hook_config::HookConfig;
use crate::agent::AgentDriver;
use crate::audit::intake::config::{HookEntry, HookKind};

/// What Claude Code's sessions do not cover: `user_probes` probes of the
/// user's were tried before the catalogue; `managed`: managed settings are
/// on this machine.
pub fn settings(user_probes: usize, hooks: &[HookEntry], managed: bool) -> Vec<String> {
    let mut out = vec![
        format!(
            "probes: {} of the user's, then the catalogue: {}; each screened against the hook directly, those it \
             refuses confirmed in sessions (3 when it refused a plain write), the faults injected under the first one refused there (unless a \
             write through {} was refused)",
            user_probes,
            catalogue::names().join(", "),
            FAULT_TOOLS.join(" or ")
        ),
        format!("faults are injected through {} and the probe only", FAULT_TOOLS.join(" and ")),
        format!(
            "routes: {} is a general-purpose subagent's Bash write, {} a write through failopen mcp-fs's {}",
            SUBAGENT,
            MCP,
            crate::task::MCP_WRITE_TOOL
        ),
        "HTTP hooks: only the unreachable-URL fault is injected".into(),
        format!("a hang is not waited for when the hook's timeout is over {} s", MAX_HANG_TIMEOUT_SECS),
        "remote-managed settings (served to Team and Enterprise accounts by Anthropic's API) are not consulted: \
         the sessions point ANTHROPIC_BASE_URL at failopen's stand-in"
            .into(),
    ];
    if hooks.iter().any(|h| matches!(h.kind, HookKind::McpTool { .. })) {
        out.push(
            "an mcp_tool hook's server is replaced by failopen mcp-guard: as-is it refuses the write; under a fault \
             it answers isError, does not answer in time, or cannot be started"
                .into(),
        );
    }
    if hooks.iter().any(|h| matches!(h.kind, HookKind::Model { .. })) {
        out.push(
            "a prompt or agent hook's model is failopen's stand-in: as-is it refuses the write, as the hook asks; \
             under a model fault it answers HTTP 500, not in time, or with garbage"
                .into(),
        );
    }
    if managed {
        out.push(
            "managed hooks are checked statically and run beside the audited hook in every session; a write they \
             refuse is invalid here, never blocked"
                .into(),
        );
    }
    out
}

/// What another agent's sessions do not cover: `probes` are those its own
/// tools make, the faults were injected through `tools`.
pub fn hook_files(driver: &dyn AgentDriver, config: &dyn HookConfig, probes: &[Probe], tools: &[&str]) -> Vec<String> {
    let name = driver.display_name();
    let probe_words = match probes.is_empty() {
        true => format!(
            "no probe: audit cannot put a call to {name}'s guards directly yet, so a guard that refuses no plain \
             write is untested"
        ),
        false => format!(
            "probes: {} through {name}'s own tools ({}), each screened against the hook directly, those it refuses \
             confirmed in sessions, the faults injected under the first one refused there (unless a plain write was \
             refused); the catalogue's calls no tool of {name} makes are not tried",
            probes.len(),
            probes.iter().map(|p| p.label()).collect::<Vec<_>>().join(", ")
        ),
    };
    let mut out = vec![
        probe_words,
        format!("faults are injected through every write tool of {name}: {}", tools.join(", ")),
        format!(
            "{name} reports no hook events: whether the guard ran, and how it ended, is read from a trace its shell \
             leaves (the guard itself runs as configured)"
        ),
        format!("a hang is not waited for when the hook's timeout is over {MAX_HANG_TIMEOUT_SECS} s"),
        format!(
            "the hooks run from the user layer of a throwaway home ({}); that {name} loads them from your project \
             (trust) is not tested",
            config.session_layer()
        ),
    ];
    let system = driver.system_hook_layers();
    if !system.is_empty() {
        let shown: Vec<String> = system.iter().map(|p| p.display().to_string()).collect();
        out.push(format!(
            "system config with hooks ({}) runs beside the audited hook: a refusal it cannot tie to the hook is invalid",
            shown.join(", ")
        ));
    }
    out
}
