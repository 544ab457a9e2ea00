#!/usr/bin/env bash
# cline-cancel: a healthy guard that refuses in Cline CLI's own shape ({"cancel": true}, exit 0).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"cancel":true,"errorMessage":"this session may not write files (failopen cline-cancel guard)"}'
exit 0
