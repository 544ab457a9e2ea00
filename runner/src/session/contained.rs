//! A session's agent in the sandbox ([`crate::sandbox`]), when the process's
//! policy says so: what its configuration names is bound back read-only,
//! its temp root is the one writable tree, and its network is its own
//! loopback with the stand-in (and any loopback server a hook's URL names)
//! relayed into it. A live session keeps the host's network; an interactive
//! one keeps its pseudo-terminal. A session that plants state
//! ([`super::Planted`]) has its hidden trees backed by its temp root and its
//! read-only paths bound last.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{Backend, SessionSpec};
use crate::mode::Mode;
use crate::sandbox::{self, expose::Namer, Contain, Policy, Wrapped};

/// `program args` as the session should start them: contained when the
/// policy is on (the wrapper's relays live as long as the returned value),
/// else as they are.
pub(crate) fn command(
    spec: &SessionSpec<'_>,
    root: &Path,
    work: &Path,
    program: &Path,
    args: Vec<OsString>,
    read_only: Vec<(PathBuf, PathBuf)>,
) -> std::io::Result<(PathBuf, Vec<OsString>, Option<Wrapped>)> {
    if sandbox::policy() == Policy::Off {
        return Ok((program.to_path_buf(), args, None));
    }
    let mut texts = Vec::new();
    strings(&spec.settings, &mut texts);
    if let Some(mcp) = &spec.mcp_config {
        strings(mcp, &mut texts);
    }
    texts.extend(spec.extra_args.iter().cloned());
    texts.extend(args.iter().map(|a| a.to_string_lossy().into_owned()));
    texts.push(program.to_string_lossy().into_owned());
    // The configuration files a session is given (a user's settings copied for a census).
    // And the frontmatter of a subagent or skill definition (`hooks:` names the guard).
    for f in spec.files.iter().filter(|f| f.path.extension().is_some_and(|e| e == "json" || e == "md")) {
        texts.push(String::from_utf8_lossy(&f.contents).into_owned());
    }
    // The session runs in its project (a copy, when it has one: `SessionSpec::project`): what the
    // copy links to (dependency folders, big files) is read where it lies.
    let project = work.to_path_buf();
    if spec.project.is_some() {
        texts.extend(sandbox::expose::link_targets(work));
    }
    let namer = Namer::here(&[("CLAUDE_PROJECT_DIR", &project), ("GEMINI_PROJECT_DIR", &project)]);
    let network = matches!(spec.backend, Backend::Live);
    let uv = sandbox::uv::prepare(&texts, &namer.path_var, root, network).unwrap_or_default();
    texts.extend(uv.texts);
    let mut loopback = Vec::new();
    if let Backend::StandIn(standin) = spec.backend {
        loopback.push(standin.addr());
    }
    for t in &texts {
        loopback.extend(sandbox::loopback_urls(t));
    }
    loopback.sort();
    loopback.dedup();
    // The cell's own copy of the guards, named by its configuration (`$RUN/guards/cell-N/`).
    let guards = spec.pool.guards_dir();
    let own: Vec<PathBuf> = std::fs::read_dir(&guards)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|cell| {
            let named = format!("{}/", cell.display());
            texts.iter().any(|t| t.contains(&named))
        })
        .collect();
    let contain = Contain {
        cwd: work.to_path_buf(),
        writable: root.to_path_buf(),
        expose: namer.named(texts.iter().map(String::as_str)),
        own,
        loopback,
        network,
        terminal: spec.mode == Mode::Interactive,
        control: true,
        // A session that plants state keeps its hidden trees on disk, where the state was planted.
        backing: spec.planted.as_ref().map(|_| root.join(super::Planted::BACKING)),
        read_only,
        env: uv.env,
    };
    let w = sandbox::wrap(program, &args, &contain)?;
    Ok((w.program.clone(), w.args.clone(), Some(w)))
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}
