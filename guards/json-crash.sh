#!/usr/bin/env bash
# json-crash: a JSON guard that dies (exit 1) before printing its decision.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'guard failed before printing its decision\n' >&2
exit 1
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"unreachable"}}'
