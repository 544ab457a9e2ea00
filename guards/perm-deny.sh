#!/usr/bin/env bash
# perm-deny: a healthy PermissionRequest guard that refuses with JSON (decision.behavior "deny", exit 0).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"this session may not write files (failopen perm-deny guard)"}}}'
exit 0
