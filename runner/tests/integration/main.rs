//! failopen's integration tests, one crate: the real binary, on real
//! Claude Code installed by failopen's own installer (`.ci/run`), through
//! the stand-in. Shared code is in [`support`]; every expected verdict that
//! an arm file does not carry is in [`oracle`], with its reasoning.

mod support;

mod oracle;

mod agent_sdk;
mod agents;
mod agents_install;
mod audit;
mod audit_advice;
mod audit_agents;
mod audit_answers;
mod audit_hook_start;
mod audit_hostile_files;
mod audit_launchers;
mod audit_models;
mod audit_plugin_faults;
mod audit_probes;
mod audit_public_guards;
mod audit_public_guards2;
mod audit_public_guards3;
mod audit_public_guards4;
mod audit_qwen_cline_plugins;
mod audit_repeat;
#[cfg(target_os = "linux")]
mod audit_sandbox;
mod audit_sources;
mod audit_state;
mod auggie;
mod battery;
mod census;
mod cline;
mod continue_cli;
mod copilot;
mod copilot_sdk;
mod droid;
mod extended;
mod fuzz_parsers;
mod history;
mod interactive;
mod kilo;
mod links;
mod live;
mod machine_output;
mod mcp_fs;
mod mcp_guard;
mod npm_package;
mod old_releases;
mod opencode;
mod qwen;
mod readme;
mod regression;
mod release;
mod reliability;
mod report;
mod results;
#[cfg(target_os = "linux")]
mod run_sandbox;
mod seal;
#[cfg(target_os = "linux")]
mod site_browser;
mod state;
mod surface;
#[cfg(target_os = "linux")]
mod timeline_browser;
mod workflows;
