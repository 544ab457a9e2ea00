#!/usr/bin/env bash
# json-deny-null-reason-bom: Claude Code's deny with a null reason behind a BOM (issue 44), exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\357\273\277%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}'
exit 0
