#!/usr/bin/env bash
# json-decision-deny: a healthy guard that refuses with a top-level JSON decision "deny" (exit 0): the
# shape Gemini CLI's BeforeTool documents, which Claude Code's PreToolUse does not list.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '%s\n' '{"decision":"deny","reason":"this session may not write files (failopen json-decision-deny guard)"}'
exit 0
