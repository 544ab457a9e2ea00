#!/usr/bin/env bash
# never-reads: a deny guard that decides without ever reading its stdin (exit 2, reason on stderr).
# It traces a fixed line, not the payload, so hook_invocations still counts its runs.
[ -n "${FAILOPEN_TRACE:-}" ] && printf '{"never-reads":true}\n' >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen never-reads guard)\n' >&2
exit 2
