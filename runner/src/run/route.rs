//! What an arm's route and source add to its session: the files seeded in
//! the working directory, the MCP servers, the subagent definition, and the
//! stand-in's route plan.
//!
//! - `edit` seeds `notes.txt` with [`SEED_TEXT`]; `notebook-edit` seeds
//!   `notes.ipynb` ([`seed_notebook`]): the write landed only when they
//!   changed ([`crate::landed`]);
//! - `mcp` adds failopen's `mcp-fs` server to the MCP config;
//! - `source: subagent` moves the hook entry into the frontmatter `hooks:` of
//!   a subagent definition ([`FAILOPEN_SUBAGENT`]) that the `subagent` route's
//!   Agent call asks for; the settings file then holds no hook. The
//!   definition goes in the isolated HOME's `~/.claude/agents/`: a project's
//!   `.claude/agents/` is not loaded under the stand-in's `--setting-sources
//!   user` (measured on 2.1.328: "Agent type 'failopen-writer' not found"),
//!   and the user's is.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::arms::Arm;
use crate::session::{SessionDir, SessionFile};
use crate::standin::route::RoutePlan;
use crate::surface::{HookSource, Route};
use crate::task::{seed_notebook, BUILTIN_SUBAGENT, FAILOPEN_SUBAGENT, NOTEBOOK_FILE, NOTES_FILE, SEED_TEXT};

/// Where a subagent definition goes, relative to HOME.
pub fn subagent_path() -> PathBuf {
    Path::new(".claude/agents").join(format!("{FAILOPEN_SUBAGENT}.md"))
}

/// The stand-in's plan for the arm's route.
pub fn plan(arm: &Arm) -> RoutePlan {
    let subagent_type = if arm.source == HookSource::Subagent { FAILOPEN_SUBAGENT } else { BUILTIN_SUBAGENT };
    RoutePlan { route: arm.route, subagent_type, subagent_tool: None }
}

/// The files the route needs before Claude Code starts; `hooks` is the
/// hook entry's `hooks` object, for a subagent's frontmatter.
pub fn files(arm: &Arm, hooks: &Value) -> Vec<SessionFile> {
    let mut files = Vec::new();
    match arm.route {
        Route::Edit => files.push(work(NOTES_FILE, SEED_TEXT.as_bytes().to_vec())),
        Route::NotebookEdit => files.push(work(NOTEBOOK_FILE, seed_notebook().to_string().into_bytes())),
        _ => {}
    }
    if arm.source == HookSource::Subagent {
        files.push(SessionFile {
            dir: SessionDir::Home,
            path: subagent_path(),
            contents: subagent_md(hooks).into_bytes(),
        });
    }
    files
}

/// A subagent definition whose frontmatter carries `hooks` (JSON is YAML).
pub fn subagent_md(hooks: &Value) -> String {
    format!(
        "---\nname: {FAILOPEN_SUBAGENT}\ndescription: Writes the file it is asked to write (failopen).\nhooks: {hooks}\n---\n\
         You write the file you are asked to write, with the tools you have.\n"
    )
}

/// The session's MCP config: `guard`'s (an mcp_tool hook's server) and, on
/// the `mcp` route, failopen's `mcp-fs`, in one `mcpServers` object.
pub fn mcp_config(arm: &Arm, guard: Option<Value>, failopen_exe: &Path) -> Option<Value> {
    let fs = (arm.route == Route::Mcp).then(|| crate::mcp_fs::mcp_config(failopen_exe));
    match (guard, fs) {
        (Some(mut g), Some(f)) => {
            crate::settings::merge(&mut g, &f);
            Some(g)
        }
        (g, f) => g.or(f),
    }
}

fn work(path: &str, contents: Vec<u8>) -> SessionFile {
    SessionFile { dir: SessionDir::Work, path: PathBuf::from(path), contents }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn arm(route: &str, source: &str) -> Arm {
        let text = format!(r#"{{"arms":[{{"guard":"deny","wrapper":"bare","route":"{route}","source":"{source}"}}]}}"#);
        crate::arms::parse(&text, "t.json").unwrap().remove(0)
    }

    #[test]
    fn edit_routes_seed_their_file() {
        let f = files(&arm("edit", "settings-flag"), &json!({}));
        assert_eq!((f[0].path.to_str(), f[0].contents.as_slice()), (Some(NOTES_FILE), SEED_TEXT.as_bytes()));
        let f = files(&arm("notebook-edit", "settings-flag"), &json!({}));
        assert_eq!(f[0].path.to_str(), Some(NOTEBOOK_FILE));
        assert!(files(&arm("bash", "settings-flag"), &json!({})).is_empty());
    }

    #[test]
    fn a_subagent_source_writes_the_hooks_into_the_frontmatter() {
        let hooks =
            json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/g/deny.sh"}]}]});
        let a = arm("subagent", "subagent");
        let f = files(&a, &hooks);
        assert_eq!(f[0].path, subagent_path());
        let md = String::from_utf8(f[0].contents.clone()).unwrap();
        assert!(
            md.starts_with("---\nname: failopen-writer\n") && md.contains(&format!("hooks: {hooks}\n---\n")),
            "{md}"
        );
        assert_eq!(plan(&a).subagent_type, FAILOPEN_SUBAGENT);
        assert_eq!(plan(&arm("subagent", "settings-flag")).subagent_type, BUILTIN_SUBAGENT);
    }

    #[test]
    fn the_mcp_route_adds_the_fs_server_beside_a_guard_server() {
        let exe = Path::new("/bin/failopen");
        assert_eq!(mcp_config(&arm("bash", "settings-flag"), None, exe), None);
        let both = mcp_config(&arm("mcp", "settings-flag"), Some(json!({"mcpServers": {"g": {}}})), exe).unwrap();
        assert!(both["mcpServers"]["g"].is_object());
        assert_eq!(both["mcpServers"][crate::task::MCP_FS_SERVER]["args"][0], "mcp-fs");
    }
}
