#!/usr/bin/env bash
# big-output: a deny guard that first dumps 5 MB of debug output on stdout, then exits 2.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
head -c 5242880 /dev/zero | tr '\0' 'x'
printf '\nthis session may not write files (failopen big-output guard)\n' >&2
exit 2
