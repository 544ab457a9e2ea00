//! Whether an agent can run an arm at all: the question its driver answers
//! before a session starts ([`AgentDriver::unsupported`]), asked of an arm
//! without starting anything, so that a test can walk every arm set and
//! agent ([`crate::cells::runs`] says only whether it runs the hook type).
//!
//! [`AgentDriver::unsupported`]: crate::agent::driver::AgentDriver::unsupported

use std::path::Path;

use super::cell::{arm_parts, ArmParts};
use crate::agent::driver::SessionAsk;
use crate::agent::Agent;
use crate::arms::Arm;
use crate::guard_server::HttpBases;
use crate::guards::GuardDir;
use crate::mode::Mode;

/// What `agent` lacks to run `arm` in print mode against the stand-in, as a
/// run would ask it (the driver's `unsupported:<what>`, or the hook type it
/// does not run); `None`: it runs the arm. With no binary to ask, Claude
/// Code is taken to have every flag its pinned release has.
pub fn lacks(agent: Agent, arm: &Arm, failopen_exe: &Path) -> anyhow::Result<Option<String>> {
    if !crate::cells::runs(agent, arm) {
        return Ok(Some(format!("hook-type:{}", arm.guard.hook_type().as_str())));
    }
    let dir = tempfile::tempdir()?;
    let guard_dir = GuardDir::create(&dir.path().join("guards"))?;
    let unheard = "http://127.0.0.1:9/s/lacks".to_string();
    let http = HttpBases { live: unheard.clone(), down: unheard };
    let ArmParts { placed, route_files, mcp_config } =
        arm_parts(arm, &guard_dir, failopen_exe, Some(&http), &dir.path().join("plugin"))?;
    let ask = SessionAsk {
        settings: &placed.settings,
        mcp_config: mcp_config.as_ref(),
        live: false,
        mode: Mode::Print,
        setting_sources: placed.setting_sources,
        permission_mode: super::cell::permission_mode(arm.event),
        skills: placed.skill.is_some(),
        has_files: !placed.files.is_empty() || !route_files.is_empty(),
        route: arm.route,
        extra_args: &placed.args,
        source: arm.source,
        trust: arm.trust,
    };
    Ok(agent.driver().unsupported(&ask, None).map(str::to_string))
}
