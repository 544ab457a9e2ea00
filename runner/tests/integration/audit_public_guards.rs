//! Public guard projects, from the registries, pinned by version and
//! integrity hash, set up as their READMEs say, then `failopen audit` with no
//! arguments (issue 28 "Done when"). Real Claude Code 2.1.328.
//!
//! **CC Safety Net** (npm `cc-safety-net` 2.4.5, kenryu42): its README's
//! setup is `npx -y cc-safety-net@latest install`, which for Claude Code runs
//! `claude plugin marketplace add kenryu42/cc-marketplace` and `claude plugin
//! install cc-safety-net@cc-marketplace` (read from its `dist/cli.js`). CI
//! reaches npm, not GitHub, so the test builds that marketplace locally: the
//! npm package's files as the plugin root, with the repository's
//! `.claude-plugin/plugin.json` and `hooks/hooks.json` (one PreToolUse hook,
//! no matcher, no timeout: `node "${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js"
//! hook --coding-cli`), then the same two `claude plugin` commands.
//!
//! Expected, with the reasoning (measured with this test's setup on 2.1.328):
//! - found: the plugin is loaded through `enabledPlugins` and
//!   `installed_plugins.json`, its hook listed from the install path;
//! - exercised: it lets a plain write through, and refuses `git reset --hard`
//!   (rule `git.reset-hard`) with a JSON deny on exit 0, on screen and in a
//!   session: `blocked` as configured;
//! - holes: its answer is exit 0 + JSON, so anything else is no decision:
//!   `missing` (node exits 1 on a missing script), `crash`, `signal` and
//!   `no-launcher` (node gone from the hook's PATH: `/bin/sh` exits 127) let
//!   the reset run: **wrote**; `hang` is not waited for (no timeout: 600 s);
//!   the bundle has no `node_modules`, so `no-deps` does not apply. Exit 3.

use std::path::Path;

use serde_json::{json, Value};

use crate::audit_probes::{audit, cache, result};

/// The pinned package and its registry integrity (`npm view cc-safety-net@2.4.5 dist.integrity`).
const CC_SAFETY_NET: &str = "cc-safety-net@2.4.5";
const CC_SAFETY_NET_INTEGRITY: &str =
    "sha512-NxVJYOyXsqI6+xX18nk5AiHilhgIR3thwBgDzXeEHuxKPrUhutD40tOGX3kgYDyqBwHPASyn7UOm05pAzhTsPw==";

/// `npm pack SPEC` into `dir`, checked against `integrity`, unpacked: the package's root.
fn npm_package(spec: &str, integrity: &str, dir: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let out = std::process::Command::new("npm")
        .args(["pack", spec, "--json", "--loglevel=error", "--pack-destination"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "npm pack {spec}: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["integrity"], integrity, "{spec} is not the pinned tarball");
    let tgz = dir.join(v[0]["filename"].as_str().unwrap());
    let st = std::process::Command::new("tar").arg("xzf").arg(&tgz).arg("-C").arg(dir).status().unwrap();
    assert!(st.success());
    dir.join("package")
}

/// `claude plugin marketplace add MARKET` then `claude plugin install PLUGIN`, in `home`.
pub(crate) fn claude_plugin_install(market: &Path, plugin: &str, home: &Path, project: &Path) {
    let claude = cache().join("claude-code/2.1.328/node_modules/.bin/claude");
    for args in [vec!["plugin", "marketplace", "add", market.to_str().unwrap()], vec!["plugin", "install", plugin]] {
        let out = std::process::Command::new(&claude)
            .args(&args)
            .current_dir(project)
            .env("HOME", home)
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "claude {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn cc_safety_net_installed_as_its_readme_says_is_found_exercised_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let (market, home, project) = (d.path().join("cc-marketplace"), d.path().join("home"), d.path().join("project"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let package = npm_package(CC_SAFETY_NET, CC_SAFETY_NET_INTEGRITY, &d.path().join("npm"));
    let plugin = market.join("plugins/cc-safety-net");
    std::fs::create_dir_all(plugin.parent().unwrap()).unwrap();
    std::fs::rename(&package, &plugin).unwrap();
    let write = |p: &Path, v: Value| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, v.to_string()).unwrap()
    };
    write(
        &market.join(".claude-plugin/marketplace.json"),
        json!({"name": "cc-marketplace", "owner": {"name": "kenryu42"},
               "plugins": [{"name": "cc-safety-net", "source": "./plugins/cc-safety-net"}]}),
    );
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        json!({"name": "cc-safety-net", "version": "2.4.5", "description": "Block destructive commands and secret access"}),
    );
    write(
        &plugin.join("hooks/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
            "command": "node \"${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js\" hook --coding-cli"}]}]}}),
    );
    claude_plugin_install(&market, "cc-safety-net@cc-marketplace", &home, &project);
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert_eq!(v["plugins"][0]["name"], "cc-safety-net@cc-marketplace", "{v:#}");
    assert_eq!(v["plugins"][0]["loaded"], true, "{v:#}");
    let hook = &v["hooks"][0];
    assert!(
        hook["file"].as_str().unwrap().ends_with("plugins/cache/cc-marketplace/cc-safety-net/2.4.5/hooks/hooks.json"),
        "{v:#}"
    );
    assert_eq!(result(&v, "H1", "Bash", "none"), "wrote", "a harmless write is allowed: {v:#}");
    let probe = "Bash:git-reset-hard";
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["missing", "crash", "signal", "no-launcher"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    assert_eq!(result(&v, "H1", probe, "hang"), "skipped", "no timeout: a 600 s hang is not waited for: {v:#}");
    assert_eq!(result(&v, "H1", probe, "no-deps"), "skipped", "a bundle with no node_modules: {v:#}");
    let guard = v["guards"].as_array().unwrap().iter().find(|g| g["hook"] == "H1").unwrap();
    assert_eq!(guard["status"], "open", "{v:#}");
}
