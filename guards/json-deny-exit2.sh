#!/usr/bin/env bash
# json-deny-exit2: prints Claude Code's JSON deny and exits 2 with its reason on stderr too (belt and braces).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-exit2 guard)"}}'
printf 'this session may not write files (failopen json-deny-exit2 guard)\n' >&2
exit 2
