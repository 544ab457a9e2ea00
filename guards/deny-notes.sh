#!/usr/bin/env bash
# deny-notes: a path-scoped guard: refuses a call that names notes.txt (exit 2), allows any other.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
case "$payload" in
  *notes.txt*)
    printf 'notes.txt is protected (failopen deny-notes guard)\n' >&2
    exit 2 ;;
esac
exit 0
