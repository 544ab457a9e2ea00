#!/usr/bin/env bash
# involucro com relogio proprio, 3 segundos, sob um timeout de hook de 5
input="$(cat)"
tmp="$(mktemp)"
printf '%s' "$input" | perl -e 'alarm shift; exec @ARGV' 3 "$GUARD" > "$tmp" 2>&1
rc=$?
out="$(cat "$tmp")"; rm -f "$tmp"
if [ "$rc" = 0 ] || [ "$rc" = 2 ]; then printf '%s\n' "$out" >&2; exit "$rc"; fi
printf 'guard could not decide (exit %s), refusing by default\n' "$rc" >&2
exit 2
