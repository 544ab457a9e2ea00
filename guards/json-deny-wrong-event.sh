#!/usr/bin/env bash
# json-deny-wrong-event: a JSON deny that names another event (PostToolUse, a copy-paste from a PostToolUse hook), exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-wrong-event guard)"}}'
exit 0
