#!/usr/bin/env bash
# orphan: a deny guard that leaves a background child holding its stdout open (a forgotten `&`).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
sleep 30 &
printf 'this session may not write files (failopen orphan guard)\n' >&2
exit 2
