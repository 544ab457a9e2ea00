#!/usr/bin/env bash
# json-deny-top-reason: a JSON deny whose reason is the top-level reason, not permissionDecisionReason, exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"reason":"this session may not write files (failopen json-deny-top-reason guard)","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}'
exit 0
