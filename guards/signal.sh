#!/usr/bin/env bash
# signal: a guard that dies by SIGSEGV before deciding (a crashing native helper).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
kill -SEGV $$
printf 'this session may not write files (failopen signal guard)\n' >&2
exit 2
