#!/usr/bin/env bash
# stdout-closed: a deny guard that closes its stdout early, goes on working for a second,
# then refuses by exit 2 with its reason on stderr. Claude Code sees stdout's end of file
# a second before the guard exits: the refusal holds only if it waits for the exit.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
exec 1>&-
sleep 1
printf 'this session may not write files (failopen stdout-closed guard)\n' >&2
exit 2
