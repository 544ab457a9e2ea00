#!/usr/bin/env failopen-no-such-interpreter
# env-interpreter: a deny guard whose shebang is the portable `#!/usr/bin/env NAME` form,
# naming an interpreter that is not installed: env starts, finds nothing, exits 127.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen env-interpreter guard)\n' >&2
exit 2
