#!/opt/failopen/no-such-interpreter
# bad-interpreter: a deny guard whose shebang names an interpreter that is not installed.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
printf 'this session may not write files (failopen bad-interpreter guard)\n' >&2
exit 2
