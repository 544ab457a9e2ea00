#!/usr/bin/env bash
# json-async-block: a top-level decision block marked async: true, exit 0: async means "no answer yet" to Claude Code.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"async":true,"decision":"block","reason":"this session may not write files (failopen json-async-block guard)"}'
exit 0
