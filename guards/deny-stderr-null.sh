#!/usr/bin/env bash
# deny-stderr-null: exit 2 whose stderr is the JSON null (issue 44): Gemini CLI parses stdout.trim() || stderr.trim() whatever the exit code and reads no decision from it.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' 'null' >&2
exit 2
