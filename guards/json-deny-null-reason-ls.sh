#!/usr/bin/env bash
# json-deny-null-reason-ls: Claude Code's deny with a null reason behind a U+2028 LINE SEPARATOR (issue 44), exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\342\200\250%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}'
exit 0
