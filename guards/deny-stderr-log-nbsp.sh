#!/usr/bin/env bash
# deny-stderr-log-nbsp: exit 2 whose stderr is a JSON log line behind a U+00A0 (issue 44): Gemini and Qwen parse it and find no deny.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\302\240%s\n' '{"level":"error"}' >&2
exit 2
