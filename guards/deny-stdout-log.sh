#!/usr/bin/env bash
# deny-stdout-log: refuses with exit 2 and its reason on stderr, after a JSON log line on stdout
# ({"level":"error",...}): an agent that reads JSON whatever the exit code finds no deny in it.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"level":"error","msg":"write refused"}'
printf 'this session may not write files (failopen deny-stdout-log guard)\n' >&2
exit 2
