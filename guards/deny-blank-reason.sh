#!/usr/bin/env bash
# deny-blank-reason: refuses with exit 2, its "reason" only a vertical tab and a no-break space: blank to a
# reader that trims Unicode whitespace (Codex does), not to one that trims ASCII whitespace only.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf '\v\xc2\xa0\n' >&2
exit 2
