#!/usr/bin/env bash
# no-exec: a correct deny guard whose file lost its execute bit (failopen writes it mode 0644).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen no-exec guard)\n' >&2
exit 2
