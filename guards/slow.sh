#!/usr/bin/env bash
# slow: a deny guard that takes 2 s, well inside the hook timeout (5 s) and the wrappers' deadline (3 s).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
sleep 2
printf 'this session may not write files (failopen slow guard)\n' >&2
exit 2
