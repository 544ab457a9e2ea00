#!/usr/bin/env bash
# deny-stderr-number: exit 2 whose stderr is the JSON 1 (issue 44): Gemini CLI parses stdout.trim() || stderr.trim() whatever the exit code and reads no decision from it.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '1' >&2
exit 2
