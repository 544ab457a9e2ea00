#!/usr/bin/env bash
# What one session costs, and what claude flags or environment change it.
#
# Runs one `claude -p` session per variant per round, one at a time, against
# a `failopen standin serve` stand-in, with the settings file failopen writes
# for the `allow/bare` arm (so the hook runs and the file is written), the
# same environment failopen gives a session, and the variants in a rotating
# order so that background load falls on all of them alike. Prints, per
# variant, the median and mean wall and CPU seconds (claude + hook) of a
# session, and how many sessions wrote notes.txt.
#
# Usage: bench/session.sh [--claude VER] [--rounds N] [--arm ARM] [--url URL] VARIANT...
#   VARIANT: a label, then `:`, then words: `--flag`s go to claude, `K=V`
#            words to its environment, e.g.
#              base:  'nmcp:--strict-mcp-config'  'tel:DISABLE_TELEMETRY=1'
#   --arm    which arm's settings file to use (default allow/bare)
#   --url    another model server instead of the stand-in (e.g. the one
#            bench/reply-size.py starts)
# Environment: FAILOPEN=/path/to/failopen (default: build the release binary).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
claude="" rounds=10 arm="allow/bare" url="" variants=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --claude) claude="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --arm) arm="$2"; shift 2 ;;
        --url) url="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
        *:*) variants+=("$1"); shift ;;
        *) echo "session.sh: $1: expected LABEL:WORDS or an option (see --help)" >&2; exit 2 ;;
    esac
done
[[ ${#variants[@]} -gt 0 ]] || variants=("base:")
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "session.sh: --rounds must be a positive integer" >&2; exit 2; }
if [[ -z "${FAILOPEN:-}" ]]; then
    (cd "$here" && cargo build --release --quiet -p failopen)
    FAILOPEN="${CARGO_TARGET_DIR:-$here/target}/release/failopen"
fi

bench="$(mktemp -d /tmp/failopen-session-bench-XXXXXX)"
standin_pid="" prep_root=""
cleanup() {
    [[ -n "$standin_pid" ]] && kill "$standin_pid" 2>/dev/null && wait "$standin_pid" 2>/dev/null || true
    rm -rf "$bench"
    [[ -n "$prep_root" && -d "$prep_root" ]] && rm -rf "$prep_root"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [[ -z "$url" ]]; then
    "$FAILOPEN" standin serve --port 0 >"$bench/standin.url" 2>"$bench/standin.err" &
    standin_pid=$!
    for _ in $(seq 100); do [[ -s "$bench/standin.url" ]] && break; sleep 0.05; done
    url="$(head -n1 "$bench/standin.url")"
    [[ "$url" == http://* ]] || { echo "session.sh: the stand-in did not start" >&2; exit 1; }
fi

sel=(--arms full --only "$arm")
[[ -n "$claude" ]] && sel+=(--agent-version "$claude")
"$FAILOPEN" run "${sel[@]}" -j 1 --session-timeout 0.001 --keep --out "$bench/prep.csv" >"$bench/prep.log" 2>&1 || true
kept="$(grep -o 'kept:[^;,"]*' "$bench/prep.csv" | head -n1 | cut -c6-)"
[[ -n "$kept" ]] || { echo "session.sh: no settings for arm $arm:" >&2; cat "$bench/prep.log" >&2; exit 1; }
prep_root="$(dirname "$(dirname "$kept")")"
cp "$kept/evidence/settings.json" "$bench/settings.json"
version="$(tail -n1 "$bench/prep.csv" | cut -d, -f1)"
if [[ -n "$claude" && -x "$claude" && ! -d "$claude" ]]; then cbin="$claude"
else cbin="${FAILOPEN_CACHE:-$HOME/.cache/failopen}/claude-code/$version/node_modules/.bin/claude"; fi
sandbox=(); [[ "$(id -u)" == 0 ]] && sandbox=(IS_SANDBOX=1)

one() { # one LABEL WORDS... -> appends "label wall cpu wrote" to results
    local label="$1"; shift
    local args=() envs=() w
    for w in "$@"; do if [[ "$w" == -* ]]; then args+=("$w"); else envs+=("$w"); fi; done
    local d; d="$(mktemp -d "$bench/s.XXXXXX")"
    mkdir -p "$d/work" "$d/home" "$d/tmp"
    (cd "$d/work" && /usr/bin/time -f "%e %U %S" -o "$d/time" env -i PATH="$PATH" HOME="$d/home" TMPDIR="$d/tmp" \
        SHELL=/bin/bash LANG=C.UTF-8 TERM=dumb CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 \
        FAILOPEN_TRACE="$d/trace.jsonl" ANTHROPIC_BASE_URL="$url/s/$(basename "$d")" ANTHROPIC_API_KEY=failopen-stand-in-key \
        "${sandbox[@]}" "${envs[@]}" \
        setsid "$cbin" -p "Create a file named notes.txt in the current directory containing the single word ready. Then confirm whether the file exists." \
        --permission-mode bypassPermissions --settings "$bench/settings.json" \
        --output-format stream-json --verbose --include-hook-events "${args[@]}" \
        >"$d/stdout.jsonl" 2>"$d/stderr.txt" </dev/null) || true
    local e u s wrote=0
    read -r e u s <"$d/time" || true
    [[ -f "$d/work/notes.txt" ]] && wrote=1
    echo "$label $e $(echo "$u + $s" | bc) $wrote" >>"$bench/results"
    rm -rf "$d"
}

echo "claude $version, arm $arm, $rounds rounds, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
n=${#variants[@]}
for r in $(seq 0 $((rounds - 1))); do
    for k in $(seq 0 $((n - 1))); do
        v="${variants[$(( (k + r) % n ))]}"
        label="${v%%:*}" words="${v#*:}"
        # shellcheck disable=SC2086
        one "$label" $words
    done
done
python3 - "$bench/results" "${variants[@]}" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
print("| variant | words | wall s (median) | wall s (mean) | CPU s (median) | CPU s (mean) | wrote |")
print("|---|---|---|---|---|---|---|")
for v in sys.argv[2:]:
    label, words = v.split(":", 1)
    mine = [r for r in rows if r[0] == label]
    wall, cpu = [float(r[1]) for r in mine], [float(r[2]) for r in mine]
    wrote = sum(int(r[3]) for r in mine)
    print(f"| {label} | {words} | {statistics.median(wall):.3f} | {statistics.mean(wall):.3f} | "
          f"{statistics.median(cpu):.3f} | {statistics.mean(cpu):.3f} | {wrote}/{len(mine)} |")
PY
