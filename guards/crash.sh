#!/usr/bin/env bash
# crash: a guard that breaks before deciding (exit 1), like the article's.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'guard failed before deciding\n' >&2
exit 1
