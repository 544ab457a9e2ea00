#!/usr/bin/env bash
# deny-stderr-bom: exit 2 whose stderr is a lone BOM (issue 44): Rust's trim keeps U+FEFF, JavaScript's strips it, and the reason is blank.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\357\273\277' >&2
exit 2
