#!/usr/bin/env bash
# involucro: falhar fechado em volta de qualquer guarda
input="$(cat)"
tmp="$(mktemp)"
printf '%s' "$input" | "$GUARD" > "$tmp" 2>&1
rc=$?
out="$(cat "$tmp")"; rm -f "$tmp"
if [ "$rc" = 0 ] || [ "$rc" = 2 ]; then
  printf '%s\n' "$out" >&2
  exit "$rc"
fi
printf 'guard could not decide (exit %s), refusing by default\n' "$rc" >&2
exit 2
