#!/usr/bin/env bash
# json-decision-deny-case: Gemini CLI's deny in the wrong case ("Deny") behind a U+00A0 (issue 44), exit 0: Gemini reads no decision from it.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\302\240%s\n' '{"decision":"Deny","reason":"this session may not write files (failopen json-decision-deny-case guard)"}'
exit 0
