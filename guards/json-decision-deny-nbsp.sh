#!/usr/bin/env bash
# json-decision-deny-nbsp: Gemini CLI's deny shape ({"decision":"deny"}, which Claude Code's schema rejects) behind a U+00A0 (issue 44), exit 0.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\302\240%s\n' '{"decision":"deny","reason":"this session may not write files (failopen json-decision-deny-nbsp guard)"}'
exit 0
