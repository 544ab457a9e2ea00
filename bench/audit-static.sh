#!/usr/bin/env bash
# Do audit's static checks stay linear in the number of hooks?
#
# Generates settings files with N and 2N PreToolUse hooks (each entry its own
# matcher, so that "does another hook cover this tool?" is asked of every
# one), times `failopen audit --static-only` on each, and prints the ratio.
# Linear checks give about 2; the quadratic ones before issue 29 gave about 4
# (2k hooks 0.4 s, 4k 1.5 s, 8k 7.3 s). Measured after: 2.02 (cpu, median of 5,
# 20k against 40k hooks, the two run in alternating pairs). With hyperfine
# installed it times the two commands side by side and prints their ratio.
#
# Usage: bench/audit-static.sh          (N=20000; builds the release binary)
#        FAILOPEN=/path/to/failopen N=40000 bench/audit-static.sh
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
N="${N:-20000}"
if [[ -z "${FAILOPEN:-}" ]]; then
    (cd "$here" && cargo build --release --quiet -p failopen)
    FAILOPEN="${CARGO_TARGET_DIR:-$here/target}/release/failopen"
fi
FAILOPEN="$(realpath "$FAILOPEN")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

gen() { # gen COUNT DIR: a project whose .claude/settings.json has COUNT hooks
    mkdir -p "$2/.claude"
    python3 - "$1" >"$2/.claude/settings.json" <<'PY'
import json, sys
n = int(sys.argv[1])
tools = ["Bash", "Write", "Edit", "Bash|Write", "Edit|MultiEdit", "NotebookEdit|Bash"]
groups = [{"matcher": tools[i % len(tools)],
           "hooks": [{"type": "command", "command": f"/bin/true guard-{i}", "timeout": 5}]} for i in range(n)]
print(json.dumps({"hooks": {"PreToolUse": groups}}))
PY
}
gen "$N" "$work/small"
gen "$((2 * N))" "$work/large"
run() { (cd "$1" && HOME="$work" "$FAILOPEN" audit --static-only >/dev/null 2>&1 || true); }

if command -v hyperfine >/dev/null 2>&1; then
    hyperfine --warmup 1 --runs 5 -N \
        "sh -c 'cd $work/small && HOME=$work $FAILOPEN audit --static-only >/dev/null 2>&1; true'" \
        "sh -c 'cd $work/large && HOME=$work $FAILOPEN audit --static-only >/dev/null 2>&1; true'"
    exit 0
fi
t() { local s e; s=$(date +%s.%N); run "$1"; e=$(date +%s.%N); echo "$e - $s" | bc; }
small=$(t "$work/small") large=$(t "$work/large")
echo "hooks $N: ${small} s; hooks $((2 * N)): ${large} s; ratio $(echo "scale=2; $large / $small" | bc)"
