#!/usr/bin/env bash
# What does `failopen seal` add around an instant guard?
#
# Compares `guard < payload` with `failopen seal -- guard < payload`, where
# the guard is a shell script that reads stdin and exits 0. Uses hyperfine
# when installed, else a timed loop of N runs of each. Prints both means and
# the difference in milliseconds.
#
# Usage: bench/seal.sh            (builds the release binary first)
#        FAILOPEN=/path/to/failopen N=500 bench/seal.sh
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
N="${N:-500}"
if [[ -z "${FAILOPEN:-}" ]]; then
    (cd "$here" && cargo build --release --quiet -p failopen)
    FAILOPEN="${CARGO_TARGET_DIR:-$here/target}/release/failopen"
fi
[[ -x "$FAILOPEN" ]] || { echo "no failopen binary at $FAILOPEN" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
guard="$work/instant.sh"
printf '#!/bin/sh\ncat >/dev/null\nexit 0\n' >"$guard"
chmod +x "$guard"
payload="$work/payload.json"
printf '%s' '{"session_id":"bench","transcript_path":"/t.jsonl","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}' >"$payload"

# Sanity: the sealed guard must allow.
"$FAILOPEN" seal -- "$guard" <"$payload" || { echo "sealed instant guard did not exit 0" >&2; exit 1; }

echo "failopen: $FAILOPEN"
echo "guard:    $guard (reads stdin, exits 0)"

if command -v hyperfine >/dev/null 2>&1; then
    json="$work/hyperfine.json"
    if hyperfine --help | grep -q -- '--input'; then
        # hyperfine >= 1.16: no intermediate shell at all.
        hyperfine -N --warmup 50 --runs "$N" --input "$payload" --export-json "$json" \
            -n bare "$guard" \
            -n sealed "$FAILOPEN seal -- $guard" >&2
    else
        # Older hyperfine: a shell does the redirection (its start-up cost is
        # measured and subtracted by hyperfine, and is the same for both).
        hyperfine --warmup 50 --runs "$N" --export-json "$json" \
            -n bare "$guard < $payload" \
            -n sealed "$FAILOPEN seal -- $guard < $payload" >&2
    fi
    python3 - "$json" <<'EOF'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
b, s = r["bare"], r["sealed"]
ms = lambda v: v * 1000
print(f"bare guard:   mean {ms(b['mean']):.2f} ms  (median {ms(b['median']):.2f}, stddev {ms(b['stddev']):.2f})")
print(f"sealed guard: mean {ms(s['mean']):.2f} ms  (median {ms(s['median']):.2f}, stddev {ms(s['stddev']):.2f})")
print(f"seal adds:    {ms(s['mean'] - b['mean']):.2f} ms mean, {ms(s['median'] - b['median']):.2f} ms median ({len(s['times'])} runs each, hyperfine)")
EOF
else
    loop() { # loop CMD... : seconds for N runs
        local start end
        start=$(date +%s%N)
        for ((i = 0; i < N; i++)); do "$@" <"$payload" >/dev/null; done
        end=$(date +%s%N)
        echo $(((end - start) / N))
    }
    loop "$guard" >/dev/null # warm-up
    bare=$(loop "$guard")
    sealed=$(loop "$FAILOPEN" seal -- "$guard")
    awk -v b="$bare" -v s="$sealed" -v n="$N" 'BEGIN {
        printf "bare guard:   mean %.2f ms\n", b / 1e6
        printf "sealed guard: mean %.2f ms\n", s / 1e6
        printf "seal adds:    %.2f ms mean (%d runs each, shell loop)\n", (s - b) / 1e6, n
    }'
fi
