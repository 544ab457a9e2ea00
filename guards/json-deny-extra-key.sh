#!/usr/bin/env bash
# json-deny-extra-key: a JSON deny with a key of the guard's own inside hookSpecificOutput (ruleId), exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-extra-key guard)","ruleId":"no-writes"}}'
exit 0
