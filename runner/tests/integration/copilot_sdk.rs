//! The GitHub Copilot SDK for TypeScript on its pinned release (installed by
//! `.ci/run` with `failopen agents install --agent copilot-sdk`): the arms
//! of arms/sdk.json that prove its contract give the verdict, and the reason
//! of an expected `invalid`, written next to them for `copilot-sdk`
//! (reasoning there and in docs/copilot-sdk.md). Every arm on both reference
//! releases is checked in their committed runs
//! (`results::sdk_reference_csvs_hold_every_arms_expectation`).

use failopen::agent::{copilot_sdk, Agent};

use crate::agent_sdk::sdk_arms_hold;

/// A failure bare (a throw, a rejection, a number, `Deny`), the deny and
/// the allow, `onFailure` refused as unsupported, the sealed callback
/// refusing a throw, a number, a misspelt key and a hang, and a bare hang:
/// the SDK waits for ever, so failopen's session timeout (40 s here) ends
/// that session, `invalid session-timeout`, never `blocked`.
const PINNED_PROOF: [&str; 9] = [
    "callback-deny/bare",
    "callback-allow/bare",
    "callback-throw/*",
    "callback-reject/bare",
    "callback-number/*",
    "callback-wrong-case/bare",
    "callback-misspelt-key/sealed",
    "callback-hang/bare",
    "callback-hang/sealed",
];

#[test]
fn copilot_sdk_pinned_gives_its_arms_expectation() {
    sdk_arms_hold(Agent::CopilotSdk, copilot_sdk::PINNED_VERSION, "1.0.85", &PINNED_PROOF, "40");
}
