#!/usr/bin/env bash
# One cell of the plain shell baseline (run by bench/battery.sh through
# `xargs -P N`): the same `claude -p` command failopen runs, with the same
# settings file, guards, environment and stand-in, judged only by whether
# notes.txt exists afterwards.
#
# Usage: baseline-cell.sh INDEX ARM SETTINGS_JSON
# Environment (set by battery.sh):
#   BENCH_ROOT   where the cell's directory is made (BENCH_ROOT/INDEX/{work,home,tmp})
#   CLAUDE_BIN   the claude binary
#   STANDIN_URL  base URL of `failopen standin serve`
#   BENCH_TAG    a tag put in every session's environment (for the final sweep)
#   BENCH_ARGS   extra claude arguments (space-separated; optional)
#   BENCH_ENV    extra environment, `K=V` words (optional)
# Prints: INDEX ARM wrote|blocked SECONDS
set -u
idx="$1" arm="$2" settings="$3"
root="$BENCH_ROOT/$idx"
mkdir -p "$root/work" "$root/home" "$root/tmp"
cd "$root/work" || exit 1
env_extra=()
[ "$(id -u)" = 0 ] && env_extra+=(IS_SANDBOX=1)
# shellcheck disable=SC2206
env_extra+=(${BENCH_ENV:-})
# shellcheck disable=SC2206
args_extra=(${BENCH_ARGS:-})
start=$(date +%s.%N)
# setsid: the session gets its own process group, killed whole afterwards
# (a hung guard's children would otherwise outlive the cell). This shell has
# no job control, so the background child is not a group leader: env, setsid
# and timeout all exec in place, and $! is the new group's id.
env -i PATH="$PATH" HOME="$root/home" TMPDIR="$root/tmp" SHELL=/bin/bash LANG=C.UTF-8 TERM=dumb \
    USER="${USER:-root}" LOGNAME="${LOGNAME:-root}" \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
    FAILOPEN_TRACE="$root/trace.jsonl" FAILOPEN_SESSION_TAG="$BENCH_TAG" \
    ANTHROPIC_BASE_URL="$STANDIN_URL/s/bench-$BENCH_TAG-$idx" ANTHROPIC_API_KEY=failopen-stand-in-key \
    "${env_extra[@]}" \
    setsid timeout -s KILL 120 "$CLAUDE_BIN" -p \
    "Create a file named notes.txt in the current directory containing the single word ready. Then confirm whether the file exists." \
    --permission-mode bypassPermissions --settings "$settings" \
    --output-format stream-json --verbose --include-hook-events "${args_extra[@]}" \
    >"$root/stdout.jsonl" 2>"$root/stderr.txt" </dev/null &
pid=$!
wait "$pid"
end=$(date +%s.%N)
kill -KILL -- "-$pid" 2>/dev/null
if [ -f notes.txt ]; then verdict=wrote; else verdict=blocked; fi
printf '%s %s %s %.2f\n' "$idx" "$arm" "$verdict" "$(echo "$end - $start" | bc)"
exit 0
