#!/usr/bin/env bash
# hang: a correct deny guard that is too slow: it sleeps 60 s, then refuses (exit 2).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
sleep 60
printf 'this session may not run shell commands\n' >&2
exit 2
