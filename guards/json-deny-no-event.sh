#!/usr/bin/env bash
# json-deny-no-event: a JSON deny without hookEventName, exit 0: the field that picks which event's output this is.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-no-event guard)"}}'
exit 0
