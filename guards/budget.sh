#!/usr/bin/env bash
# budget: a guard that allows a session N writes, counted in a state file it keeps in
# ~/.budget-guard/state.json ({"writes_left": N, "calls": M}). Each run reads the file, counts
# the call, writes the file back (through a temporary file and a rename), then allows the
# write while writes are left (exit 0) and refuses it once they are spent (exit 2). No lock:
# two runs at once can both read "one write left". Written as most such guards are, it
# trusts its state: a missing, truncated or unwritable file is a Python traceback (exit 1).
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
exec python3 - "$HOME/.budget-guard" <<'PY'
import json, os, sys
state = os.path.join(sys.argv[1], "state.json")
with open(state) as f:
    s = json.load(f)
left = s["writes_left"]
s["writes_left"] = max(left - 1, 0)
s["calls"] = s.get("calls", 0) + 1
with open(state + ".tmp", "w") as f:
    json.dump(s, f)
os.replace(state + ".tmp", state)
if left > 0:
    sys.exit(0)
print("this session's write budget is spent (failopen budget guard)", file=sys.stderr)
sys.exit(2)
PY
