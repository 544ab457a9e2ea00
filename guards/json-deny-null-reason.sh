#!/usr/bin/env bash
# json-deny-null-reason: a JSON deny whose reason is null (Python's None through json.dumps), exit 0: Claude Code's schema allows a string or nothing there, not null.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}'
exit 0
