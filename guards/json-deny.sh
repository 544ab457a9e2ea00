#!/usr/bin/env bash
# json-deny: a healthy guard that refuses with a structured JSON decision (exit 0).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny guard)"}}'
exit 0
