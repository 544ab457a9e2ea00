#!/usr/bin/env bash
# json-async-block-bom: a block beside async: true behind a BOM (issue 44), exit 0: Claude Code reads async as no answer yet.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\357\273\277%s\n' '{"async":true,"decision":"block","reason":"this session may not write files (failopen json-async-block-bom guard)"}'
exit 0
