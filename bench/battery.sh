#!/usr/bin/env bash
# failopen against a plain shell loop, on the same cells, in one run.
#
# For each --jobs N it runs the selected cells twice:
#   (a) `failopen run ... -j N`;
#   (b) a plain shell baseline: `xargs -P N bench/baseline-cell.sh`, running
#       the same `claude -p` command per cell with the same settings file,
#       guard scripts, environment and stand-in model (a separate
#       `failopen standin serve`), judged only by whether notes.txt exists.
# and prints both wall times, their ratio, both CPU times, the runner's own
# CPU (failopen's utime+stime without its children, sampled from
# /proc/PID/stat) and its peak RSS (VmHWM).
#
# The baseline's settings files and guards are written by failopen itself: a
# preparation run with `--keep` and a 1 ms session timeout writes every
# cell's evidence/settings.json and the guard directory without running a
# session; the baseline uses those files as they are.
#
# Usage: bench/battery.sh [--jobs N[,N...]] [--arms SET] [--only GLOB]...
#                         [--claude VER|PATH] [--rounds R] [--order file|plan]
#                         [--baseline-args "ARGS"] [--baseline-env "K=V ..."]
#                         [--tsv FILE] [--keep]
#   --jobs      job counts to measure (default 2; repeatable or comma list)
#   --arms      arm set, as `failopen run --arms` (default: full)
#   --only      arm glob, as `failopen run --only` (repeatable; default the
#               28 cells '*/bare' '*/plain' '*/timed' '*/native'; use
#               --only '*' for the whole set)
#   --claude    Claude Code version or binary (default: failopen's pinned one)
#   --rounds    measure each job count R times (default 1)
#   --order     baseline cell order: `file` (the arm file's order, what a
#               plain loop does; default) or `plan` (failopen's order:
#               long-running cells first)
#   --baseline-args / --baseline-env
#               extra claude arguments / environment for the baseline only
#               (to give it the same per-session settings failopen uses)
#   --tsv       append one tab-separated line per measurement to FILE
#   --keep      keep the bench directory (CSVs, baseline outputs, logs)
# Environment: FAILOPEN=/path/to/failopen (default: build the release binary).
#
# Command-hook arms only: HTTP guards live in failopen's own guard server.
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
jobs_list=() only=() arms=full claude="" rounds=1 order=file tsv="" keep=0
export BENCH_ARGS="" BENCH_ENV=""
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
while [[ $# -gt 0 ]]; do
    case "$1" in
        --jobs|-j) IFS=, read -ra js <<<"$2"; jobs_list+=("${js[@]}"); shift 2 ;;
        --arms) arms="$2"; shift 2 ;;
        --only) only+=("$2"); shift 2 ;;
        --claude) claude="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --order) order="$2"; shift 2 ;;
        --baseline-args) BENCH_ARGS="$2"; shift 2 ;;
        --baseline-env) BENCH_ENV="$2"; shift 2 ;;
        --tsv) tsv="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        -h|--help) usage ;;
        *) echo "battery.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
[[ ${#jobs_list[@]} -gt 0 ]] || jobs_list=(2)
[[ ${#only[@]} -gt 0 ]] || only=('*/bare' '*/plain' '*/timed' '*/native')
[[ "$order" == file || "$order" == plan ]] || { echo "battery.sh: --order must be file or plan" >&2; exit 2; }
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "battery.sh: --rounds must be a positive integer" >&2; exit 2; }
for j in "${jobs_list[@]}"; do
    [[ "$j" =~ ^[1-9][0-9]*$ ]] || { echo "battery.sh: --jobs $j: expected a positive integer" >&2; exit 2; }
done

if [[ -z "${FAILOPEN:-}" ]]; then
    (cd "$here" && cargo build --release --quiet -p failopen)
    FAILOPEN="${CARGO_TARGET_DIR:-$here/target}/release/failopen"
fi
[[ -x "$FAILOPEN" ]] || { echo "battery.sh: no failopen binary at $FAILOPEN" >&2; exit 1; }
command -v /usr/bin/time >/dev/null || { echo "battery.sh: needs /usr/bin/time (GNU time)" >&2; exit 1; }

sel=(--arms "$arms")
for g in "${only[@]}"; do sel+=(--only "$g"); done
[[ -n "$claude" ]] && sel+=(--agent-version "$claude")
tck=$(getconf CLK_TCK)

bench="$(mktemp -d /tmp/failopen-bench-XXXXXX)"
standin_pid="" prep_root="" tags=()
cleanup() {
    [[ -n "$standin_pid" ]] && kill "$standin_pid" 2>/dev/null && wait "$standin_pid" 2>/dev/null || true
    for t in "${tags[@]}"; do sweep "$t"; done
    if [[ $keep == 1 ]]; then
        echo "kept: $bench (prep root $prep_root)" >&2
    else
        rm -rf "$bench"
        [[ -n "$prep_root" && -d "$prep_root" ]] && rm -rf "$prep_root"
    fi
}
# Kill, one by one by pid, the processes whose environment carries a
# baseline run's tag (guard children that left their process group).
sweep() {
    local p
    for p in /proc/[0-9]*; do
        if grep -qsz "^FAILOPEN_SESSION_TAG=$1\$" "$p/environ" 2>/dev/null; then
            kill -KILL "${p#/proc/}" 2>/dev/null || true
        fi
    done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# utime+stime (ticks) of one process, without its children.
self_ticks() { local s; s="$(cat "/proc/$1/stat" 2>/dev/null)" || return 1; s="${s##*) }"; set -- $s; echo $(( ${12} + ${13} )); }

# 1. The stand-in for the baseline.
"$FAILOPEN" standin serve --port 0 >"$bench/standin.url" 2>"$bench/standin.err" &
standin_pid=$!
for _ in $(seq 100); do [[ -s "$bench/standin.url" ]] && break; sleep 0.05; done
standin_url="$(head -n1 "$bench/standin.url")"
[[ "$standin_url" == http://* ]] || { echo "battery.sh: the stand-in did not start: $(cat "$bench/standin.err")" >&2; exit 1; }

# 2. Settings files and guards, written by failopen (no session runs: 1 ms timeout).
"$FAILOPEN" run "${sel[@]}" -j 1 --session-timeout 0.001 --keep --out "$bench/prep.csv" >"$bench/prep.log" 2>&1 || true
[[ -s "$bench/prep.csv" ]] || { echo "battery.sh: the preparation run wrote no rows:" >&2; cat "$bench/prep.log" >&2; exit 1; }
python3 - "$bench" "$here" "$arms" "$order" "${only[@]}" <<'EOF'
import csv, fnmatch, json, os, shutil, sys
bench, here, arms, order, globs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
rows = list(csv.DictReader(open(f"{bench}/prep.csv")))
versions = {r["agent_version"] for r in rows}
if len(versions) != 1:
    sys.exit(f"battery.sh: one Claude Code version at a time (got {sorted(versions)})")
kept = {}
for r in rows:
    path = next((f[5:] for f in r["flags"].split(";") if f.startswith("kept:")), None)
    if path is None:
        sys.exit(f"battery.sh: prep row for {r['arm']} has no kept root")
    kept[r["arm"]] = path
os.makedirs(f"{bench}/cells")
# Plan order = the prep CSV's order (-j 1: rows end in the order they start).
names = [r["arm"] for r in rows]
if order == "file":
    spec = f"{here}/arms/{arms}.json" if os.path.exists(f"{here}/arms/{arms}.json") else arms
    in_file = []
    for a in json.load(open(spec))["arms"]:
        name = a.get("name") or f"{a['guard']}/{a['wrapper']}"
        if any(fnmatch.fnmatchcase(name, g) for g in globs):
            in_file.append(name)
    if sorted(in_file) != sorted(names):
        sys.exit(f"battery.sh: arms in {spec} and in the prep run differ")
    names = in_file
with open(f"{bench}/cells.txt", "w") as out:
    for i, name in enumerate(names):
        settings = json.load(open(f"{kept[name]}/evidence/settings.json"))
        hooks = [h for m in settings["hooks"]["PreToolUse"] for h in m["hooks"]]
        if any(h["type"] != "command" for h in hooks):
            sys.exit(f"battery.sh: arm {name} is an HTTP hook; the shell baseline runs command hooks only")
        dst = f"{bench}/cells/{i}.json"
        shutil.copy(f"{kept[name]}/evidence/settings.json", dst)
        out.write(f"{i} {name} {dst}\n")
root = os.path.dirname(os.path.dirname(next(iter(kept.values()))))
open(f"{bench}/prep_root", "w").write(root)
open(f"{bench}/version", "w").write(versions.pop())
EOF
prep_root="$(cat "$bench/prep_root")"
version="$(cat "$bench/version")"
ncells=$(wc -l <"$bench/cells.txt")
if [[ -n "$claude" && -x "$claude" && ! -d "$claude" ]]; then
    claude_bin="$claude"
else
    claude_bin="${FAILOPEN_CACHE:-$HOME/.cache/failopen}/claude-code/$version/node_modules/.bin/claude"
fi
[[ -x "$claude_bin" ]] || { echo "battery.sh: no claude binary at $claude_bin" >&2; exit 1; }

echo "failopen: $FAILOPEN"
echo "claude:   $claude_bin ($version)"
echo "cells:    $ncells (--arms $arms ${only[*]/#/--only }); baseline order: $order"
[[ -n "$BENCH_ARGS$BENCH_ENV" ]] && echo "baseline extra: args [$BENCH_ARGS] env [$BENCH_ENV]"
echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine skews wall times)"
echo
printf '| cells | jobs | failopen wall s | baseline wall s | ratio | failopen CPU s | baseline CPU s | runner CPU s | runner CPU %% | runner RSS MB | verdicts agree |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|\n'

for jobs in "${jobs_list[@]}"; do
    for round in $(seq "$rounds"); do
        tag="bench$$-$jobs-$round"
        # (a) failopen, sampled every 50 ms for its own CPU and peak RSS.
        fo_csv="$bench/failopen-$jobs-$round.csv"
        /usr/bin/time -f "%e %U %S" -o "$bench/fo.time" \
            "$FAILOPEN" run "${sel[@]}" -j "$jobs" --out "$fo_csv" >"$bench/failopen-$jobs-$round.log" 2>&1 &
        tpid=$!
        fpid=""
        for _ in $(seq 200); do fpid="$(pgrep -P "$tpid" | head -n1)" && [[ -n "$fpid" ]] && break; sleep 0.01; done
        ticks=0 hwm=0
        while [[ -n "$fpid" ]] && t="$(self_ticks "$fpid")"; do
            ticks=$t
            h="$(awk '/^VmHWM:/ {print $2}' "/proc/$fpid/status" 2>/dev/null)" && [[ -n "$h" ]] && hwm=$h
            sleep 0.05
        done
        wait "$tpid" || echo "battery.sh: failopen run exited non-zero (see $bench/failopen-$jobs-$round.log)" >&2
        read -r fo_wall fo_u fo_s <"$bench/fo.time"

        # (b) the shell baseline (the stand-in's CPU is added to its total).
        s0="$(self_ticks "$standin_pid")"
        tags+=("$tag")
        BENCH_ROOT="$bench/base-$jobs-$round" BENCH_TAG="$tag" CLAUDE_BIN="$claude_bin" STANDIN_URL="$standin_url" \
            /usr/bin/time -f "%e %U %S" -o "$bench/base.time" \
            xargs -P "$jobs" -L 1 "$here/bench/baseline-cell.sh" <"$bench/cells.txt" >"$bench/baseline-$jobs-$round.txt"
        s1="$(self_ticks "$standin_pid")"
        sweep "$tag"
        read -r b_wall b_u b_s <"$bench/base.time"

        agree="$(python3 - "$fo_csv" "$bench/baseline-$jobs-$round.txt" <<'EOF'
import csv, sys
fo = {r["arm"]: r["verdict"] for r in csv.DictReader(open(sys.argv[1]))}
base = dict(line.split()[1:3] for line in open(sys.argv[2]) if line.strip())
same = [a for a in base if fo.get(a) == base[a]]
other = [f"{a} failopen={fo.get(a)} baseline={base[a]}" for a in base if fo.get(a) != base[a]]
print(f"{len(same)}/{len(base)}" + ("" if not other else " (" + "; ".join(other) + ")"))
EOF
)"
        read -r fo_cpu b_cpu self_s self_pct ratio hwm_mb < <(awk -v fw="$fo_wall" -v fu="$fo_u" -v fs="$fo_s" \
            -v bw="$b_wall" -v bu="$b_u" -v bs="$b_s" -v st="$(( s1 - s0 ))" -v ticks="$ticks" -v tck="$tck" -v hwm="$hwm" \
            'BEGIN { fc = fu + fs; bc = bu + bs + st / tck; self = ticks / tck;
                     printf "%.1f %.1f %.2f %.1f %.2f %.0f\n", fc, bc, self, 100 * self / fc, fw / bw, hwm / 1024 }')
        printf '| %s | %s | %.1f | %.1f | %s | %s | %s | %s | %s | %s | %s |\n' \
            "$ncells" "$jobs" "$fo_wall" "$b_wall" "$ratio" "$fo_cpu" "$b_cpu" "$self_s" "$self_pct" "$hwm_mb" "$agree"
        if [[ -n "$tsv" ]]; then
            printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$version" "$ncells" "$jobs" \
                "$fo_wall" "$b_wall" "$ratio" "$fo_cpu" "$b_cpu" "$self_s" "$self_pct" "$hwm_mb" "$agree" >>"$tsv"
        fi
    done
done
