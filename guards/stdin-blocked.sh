#!/usr/bin/env bash
# stdin-blocked: a deny guard that reads more than it is sent: it asks for 1 MiB of stdin,
# far more than any payload, so its read returns only at end of file, when Claude Code
# closes the hook's stdin. It refuses (exit 2) only after that read has finished.
payload="$(head -c 1048576)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen stdin-blocked guard)\n' >&2
exit 2
