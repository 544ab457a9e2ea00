#!/usr/bin/env bash
# stdout-deny: exits 2 but prints its reason on stdout only (the reason is lost, the exit code is not).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen stdout-deny guard)\n'
exit 2
