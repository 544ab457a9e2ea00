#!/usr/bin/env bash
# json-deny-bom: Claude Code's own deny behind a BOM (issue 44), exit 0: Cline and Copilot read no hookSpecificOutput.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\357\273\277%s\n' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"this session may not write files (failopen json-deny-bom guard)"}}'
exit 0
