#!/usr/bin/env bash
# json-deny-dup-key: permissionDecision twice, allow then deny (issue 44), exit 0: one reader may keep the first, another the last.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-dup-key guard)"}}'
exit 0
