#!/usr/bin/env bash
# json-block: a healthy guard that refuses with a top-level JSON decision "block" (exit 0), the form
# UserPromptSubmit (and PostToolUse, Stop) hooks use.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"decision":"block","reason":"this prompt may not run (failopen json-block guard)"}'
exit 0
