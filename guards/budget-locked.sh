#!/usr/bin/env bash
# budget-locked: the budget guard (guards/budget.sh) with a lock: before it reads its state it
# takes ~/.budget-guard/state.lock (a directory, made atomically, holding its pid) and waits
# while another run holds it; it removes the lock when done. A run killed while holding it
# (by a hook timeout, a reboot) leaves the lock behind, and nothing breaks a lock whose
# owner is gone: every later run waits for it.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
exec python3 - "$HOME/.budget-guard" <<'PY'
import json, os, sys, time
state = os.path.join(sys.argv[1], "state.json")
lock = os.path.join(sys.argv[1], "state.lock")
while True:
    try:
        os.mkdir(lock)
        break
    except FileExistsError:
        time.sleep(0.1)
with open(os.path.join(lock, "pid"), "w") as f:
    f.write(str(os.getpid()))
try:
    with open(state) as f:
        s = json.load(f)
    left = s["writes_left"]
    s["writes_left"] = max(left - 1, 0)
    s["calls"] = s.get("calls", 0) + 1
    with open(state + ".tmp", "w") as f:
        json.dump(s, f)
    os.replace(state + ".tmp", state)
finally:
    os.remove(os.path.join(lock, "pid"))
    os.rmdir(lock)
if left > 0:
    sys.exit(0)
print("this session's write budget is spent (failopen budget guard)", file=sys.stderr)
sys.exit(2)
PY
