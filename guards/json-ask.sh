#!/usr/bin/env bash
# json-ask: a JSON guard that answers "ask"; in claude -p nobody is there to answer.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"a person must approve writes (failopen json-ask guard)"}}'
exit 0
