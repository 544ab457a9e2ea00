#!/usr/bin/env bash
# json-deny-null-reason-nbsp: Claude Code's deny with a null reason behind a U+00A0 (issue 44): JavaScript's trim() strips it, so Claude Code parses the JSON, rejects its schema and runs the call; seal used to read it as plain text and exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\302\240%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}'
exit 0
