#!/usr/bin/env bash
# deny: a healthy guard that refuses every matched tool call (exit 2, reason on stderr).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen deny guard)\n' >&2
exit 2
