#!/usr/bin/env bash
# json-deny-suppress: a JSON deny with suppressOutput: true (Claude Code's documented flag to hide the hook's output), exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"suppressOutput":true,"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-suppress guard)"}}'
exit 0
