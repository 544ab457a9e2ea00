#!/usr/bin/env bash
# garbage-json: a JSON guard that exits 0 with malformed JSON on stdout (a truncated deny).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"truncat'
exit 0
