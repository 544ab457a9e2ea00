//! The audit's stages import only earlier ones: model < intake < lint <
//! probe < advice < report < render, then the orchestration: what an audit
//! runs with (`options.rs`), one agent's part (`section.rs`) and the whole
//! (`mod.rs`), which may call them all. Checked on the source files.

use std::path::{Path, PathBuf};

/// The stage of a top-level module of `audit/`; `None`: not given one (a
/// new module must be placed here).
fn stage(module: &str) -> Option<u8> {
    Some(match module {
        "model" => 0,
        "intake" => 1,
        "lint" => 2,
        "probe" => 3,
        "advice" | "guard_verdict" | "checks" => 4,
        "report" => 5,
        "render" => 6,
        "options" => 7,
        "section" => 8,
        "mod" | "layers" => 9,
        _ => return None,
    })
}

/// The stage an item named right under `audit` belongs to: a module's, or
/// the orchestration's for an item of `mod.rs` (`AuditOptions`, `audit`).
fn stage_of_name(name: &str) -> u8 {
    stage(name).unwrap_or(9)
}

/// The first path segment of each path that follows `prefix` in `code`:
/// `prefix` then `name` or `{a::b, c}`.
fn names_after(code: &str, prefix: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let before = rest[..at].chars().last();
        rest = &rest[at + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut start = 0usize;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        out.push(first_segment(&group[start..i]));
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(first_segment(&group[start..i]));
                        start = i + 1;
                    }
                    _ => {}
                }
            }
        } else {
            out.push(first_segment(rest));
        }
    }
    out.retain(|n| !n.is_empty() && n != "self");
    out
}

fn first_segment(path: &str) -> String {
    path.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect()
}

/// The code of a file without its comments and its test module.
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or_default();
    text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// The imports of the file `rel` (relative to `audit/`, e.g. `probe/plan.rs`)
/// that point to a later stage, as `(module, its stage)`.
fn later_imports(rel: &Path, text: &str) -> Vec<(String, u8)> {
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    let top = parts[0].trim_end_matches(".rs");
    let own = stage(top).unwrap_or_else(|| panic!("audit/{}: give its module a stage in layers.rs", rel.display()));
    let code = code(text);
    let mut names = names_after(&code, "crate::audit::");
    // `super::` names a sibling of `audit/` from a top-level file or a stage's `mod.rs`.
    let up = match parts.as_slice() {
        [_] if top != "mod" => Some("super::"),
        [_, "mod.rs"] => Some("super::"),
        [_, _] => Some("super::super::"),
        _ => None,
    };
    if let Some(up) = up {
        names.extend(names_after(&code, up));
    }
    names.into_iter().map(|n| (stage_of_name(&n), n)).filter(|(s, _)| *s > own).map(|(s, n)| (n, s)).collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("audit/ is readable").flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_stage_of_the_audit_imports_a_later_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/audit");
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    assert!(files.len() > 20, "found the audit's files: {files:?}");
    let mut back = Vec::new();
    for f in &files {
        let rel = f.strip_prefix(&root).expect("under audit/");
        let text = std::fs::read_to_string(f).expect("readable");
        for (name, s) in later_imports(rel, &text) {
            back.push(format!("audit/{} imports {name} (stage {s})", rel.display()));
        }
    }
    assert!(back.is_empty(), "imports pointing up:\n{}", back.join("\n"));
}

#[test]
fn the_check_sees_an_import_of_a_later_stage_in_every_form() {
    let later = |rel: &str, text: &str| -> Vec<String> {
        later_imports(Path::new(rel), text).into_iter().map(|(n, _)| n).collect()
    };
    assert_eq!(later("intake/config.rs", "use crate::audit::render::words;"), ["render"]);
    assert_eq!(later("lint/matcher.rs", "use crate::audit::{intake::x, probe::{a, b}};"), ["probe"]);
    assert_eq!(later("probe/plan.rs", "let f = crate::audit::Finding {"), ["Finding"]);
    assert_eq!(later("guard_verdict.rs", "let w = super::render::words::fault_words(f);"), ["render"]);
    assert_eq!(later("probe/mod.rs", "use super::{advice, model};"), ["advice"]);
    assert_eq!(later("lint/static_checks.rs", "use super::super::report::AuditReport;"), ["report"]);
    // Earlier stages, siblings, comments and tests are fine.
    assert!(later("render/mod.rs", "use crate::audit::{advice, report::AuditReport};").is_empty());
    assert!(later("probe/plan.rs", "use super::screen;\n// [`crate::audit::render`]").is_empty());
    assert!(later("intake/config.rs", "#[cfg(test)]\nmod tests { use crate::audit::probe; }").is_empty());
}

/// The names of agents in code outside `agent/`: `Agent::ClaudeCode`,
/// `Agent::default()`... of the code of `text` (comments and tests left out).
fn agent_names(text: &str) -> Vec<String> {
    let code = code(text);
    let mut out = Vec::new();
    for (at, _) in code.match_indices("Agent::") {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name = first_segment(&code[at + "Agent::".len()..]);
        // Every agent, each asked the same thing, is no choice of one.
        if !name.is_empty() && name != "ALL" {
            out.push(format!("Agent::{name}"));
        }
    }
    out
}

/// Audit (and the command that runs it) never asks which agent runs:
/// whatever differs is its driver's, so adding an agent's audit touches only
/// its folder under `agent/`.
#[test]
fn no_code_of_the_audit_names_an_agent() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![src.join("cli/audit.rs")];
    rust_files(&src.join("audit"), &mut files);
    let mut named = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).expect("readable");
        for n in agent_names(&text) {
            named.push(format!("{}: {n}", f.strip_prefix(&src).unwrap_or(f).display()));
        }
    }
    assert!(named.is_empty(), "code outside agent/ that names an agent:\n{}", named.join("\n"));
    assert_eq!(agent_names("if a != Agent::default() {}"), ["Agent::default"]);
    assert_eq!(agent_names("let x = crate::agent::Agent::ClaudeCode;"), ["Agent::ClaudeCode"]);
    assert!(
        agent_names("for (_, a) in Agent::ALL {}\n// Agent::Codex\n#[cfg(test)]\nmod t { Agent::Gemini }").is_empty()
    );
}
