#!/usr/bin/env bash
# json-deny-exit1: prints a well-formed JSON deny, then exits 1 (JSON is only read on exit 0).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-exit1 guard)"}}'
exit 1
