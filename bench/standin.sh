#!/usr/bin/env bash
# How long the stand-in takes to answer one Messages API request.
#
# 1. Captures one real request body: a throwaway `claude -p` session talks to
#    a tiny capture server (python3) that records the POST body and answers
#    400, and is stopped once a main-conversation request (one offering
#    tools) has arrived.
# 2. Starts `failopen standin serve` and sends that body N times over one
#    kept-alive connection with curl, to the per-session path failopen uses
#    (`/s/<session>/v1/messages`) and to the plain path (`/v1/messages`,
#    where the stand-in reads the working directory out of the request).
# 3. Prints the median, p90, p99 and max of curl's time_total per request:
#    the whole round trip on loopback (send the body, parse it, decide,
#    encode the SSE reply, receive it), an upper bound on the server's time.
#
# Usage: bench/standin.sh [--claude VER] [--requests N]   (default N = 1000)
# Environment: FAILOPEN=/path/to/failopen (default: build the release binary).
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
version="" n=1000
while [[ $# -gt 0 ]]; do
    case "$1" in
        --claude) version="$2"; shift 2 ;;
        --requests) n="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2 ;;
        *) echo "standin.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "standin.sh: --requests must be a positive integer" >&2; exit 2; }
if [[ -z "${FAILOPEN:-}" ]]; then
    (cd "$here" && cargo build --release --quiet -p failopen)
    FAILOPEN="${CARGO_TARGET_DIR:-$here/target}/release/failopen"
fi
if [[ -z "$version" ]]; then
    version="$("$FAILOPEN" agents list 2>/dev/null | grep -o '[0-9]\+\.[0-9]\+\.[0-9]\+' | tail -n1)"
fi
cbin="${FAILOPEN_CACHE:-$HOME/.cache/failopen}/claude-code/$version/node_modules/.bin/claude"
[[ -x "$cbin" ]] || { echo "standin.sh: no claude $version at $cbin (failopen agents install $version)" >&2; exit 1; }

bench="$(mktemp -d /tmp/failopen-standin-bench-XXXXXX)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
    rm -rf "$bench"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# 1. Capture.
cat >"$bench/capture.py" <<'EOF'
import http.server, json, os, sys
out = sys.argv[1]
class Capture(http.server.BaseHTTPRequestHandler):
    def do_HEAD(self):
        self.send_response(200); self.end_headers()
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        try:
            if json.loads(body).get("tools"):
                open(out + ".part", "wb").write(body)
                os.replace(out + ".part", out)
        except ValueError:
            pass
        self.send_response(400)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b'{"type":"error","error":{"type":"invalid_request_error","message":"captured"}}')
    def log_message(self, *args):
        pass
server = http.server.HTTPServer(("127.0.0.1", 0), Capture)
print(server.server_address[1], flush=True)
server.serve_forever()
EOF
python3 "$bench/capture.py" "$bench/request.json" >"$bench/capture.port" &
pids+=($!)
for _ in $(seq 100); do [[ -s "$bench/capture.port" ]] && break; sleep 0.05; done
mkdir -p "$bench/s/work" "$bench/s/home" "$bench/s/tmp"
sandbox=(); [[ "$(id -u)" == 0 ]] && sandbox=(IS_SANDBOX=1)
# No job control here: the background child is not a group leader, so env
# and setsid exec in place and $! is claude's own process group.
env -i -C "$bench/s/work" PATH="$PATH" HOME="$bench/s/home" TMPDIR="$bench/s/tmp" LANG=C.UTF-8 TERM=dumb \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_AUTOUPDATER=1 "${sandbox[@]}" \
    ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$bench/capture.port")" ANTHROPIC_API_KEY=failopen-stand-in-key \
    setsid "$cbin" -p "Create a file named notes.txt in the current directory containing the single word ready. Then confirm whether the file exists." \
    --permission-mode bypassPermissions --output-format stream-json --verbose >/dev/null 2>&1 </dev/null &
cpid=$!
for _ in $(seq 600); do [[ -s "$bench/request.json" ]] && break; sleep 0.05; done
kill -KILL -- "-$cpid" 2>/dev/null || true
wait "$cpid" 2>/dev/null || true
[[ -s "$bench/request.json" ]] || { echo "standin.sh: no request captured from claude $version" >&2; exit 1; }

# 2. Serve and measure.
"$FAILOPEN" standin serve --port 0 >"$bench/standin.url" 2>/dev/null &
pids+=($!)
for _ in $(seq 100); do [[ -s "$bench/standin.url" ]] && break; sleep 0.05; done
url="$(head -n1 "$bench/standin.url")"
echo "claude $version request: $(wc -c <"$bench/request.json") bytes; $n requests per path; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| path | median ms | p90 ms | p99 ms | max ms | connections |\n|---|---|---|---|---|---|\n'
for path in /s/bench/v1/messages /v1/messages; do
    args=()
    for _ in $(seq "$n"); do args+=("$url$path" -o /dev/null); done
    curl -s -H 'content-type: application/json' --data-binary "@$bench/request.json" \
        -w '%{time_total} %{num_connects} %{http_code}\n' "${args[@]}" >"$bench/times"
    if grep -qv ' 200$' "$bench/times"; then echo "standin.sh: some requests to $path failed" >&2; exit 1; fi
    sort -n "$bench/times" | awk -v p="$path" '{ t[NR] = $1 * 1000; c += $2 }
        END { printf "| %s | %.3f | %.3f | %.3f | %.3f | %d |\n", p, t[int(NR * 0.5) + 1], t[int(NR * 0.9) + 1], t[int(NR * 0.99) + 1], t[NR], c }'
done
