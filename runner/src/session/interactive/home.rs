//! The isolated HOME's `~/.claude.json` for an interactive session: what a
//! user who has set Claude Code up once has, so the first screens (the
//! onboarding, which would reach Anthropic's servers; the question whether
//! to use the API key; the bypass-permissions warning) do not show. The
//! workspace trust is the arm's ([`Trust`]).

use std::path::Path;

use serde_json::{json, Value};

use crate::mode::Trust;

/// The `~/.claude.json` for a session in `work` presenting `api_key`.
pub fn claude_json(work: &Path, api_key: &str, trust: Trust) -> Value {
    // Claude Code remembers an approved key by its last 20 characters.
    let tail: String = {
        let chars: Vec<char> = api_key.chars().collect();
        chars[chars.len().saturating_sub(20)..].iter().collect()
    };
    let mut projects = serde_json::Map::new();
    projects.insert(
        work.to_string_lossy().into_owned(),
        json!({"hasTrustDialogAccepted": trust == Trust::Accepted, "allowedTools": []}),
    );
    json!({
        "hasCompletedOnboarding": true,
        "bypassPermissionsModeAccepted": true,
        "customApiKeyResponses": {"approved": [tail], "rejected": []},
        "projects": projects,
    })
}

/// Write it into `home`.
pub fn seed(home: &Path, work: &Path, api_key: &str, trust: Trust) -> std::io::Result<()> {
    let body = serde_json::to_vec_pretty(&claude_json(work, api_key, trust))?;
    std::fs::write(home.join(".claude.json"), body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trust_is_the_arms_and_the_key_is_approved_by_its_tail() {
        let v = claude_json(Path::new("/r/work"), "failopen-stand-in-key", Trust::Accepted);
        assert_eq!(v["projects"]["/r/work"]["hasTrustDialogAccepted"], true);
        assert_eq!(v["customApiKeyResponses"]["approved"][0], "ailopen-stand-in-key");
        assert_eq!(v["hasCompletedOnboarding"], true);
        for t in [Trust::AnswerYes, Trust::AnswerNo] {
            assert_eq!(claude_json(Path::new("/w"), "k", t)["projects"]["/w"]["hasTrustDialogAccepted"], false);
        }
        assert_eq!(claude_json(Path::new("/w"), "k", Trust::Accepted)["customApiKeyResponses"]["approved"][0], "k");
    }
}
