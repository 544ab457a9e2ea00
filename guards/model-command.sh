#!/usr/bin/env bash
# model-command: a command guard that asks a model itself, the recipe for a model-judged guard that
# seal can wrap. It sends the hook's input to the Messages API at $FAILOPEN_STANDIN_URL (failopen's
# stand-in, which every agent's session gets), else $ANTHROPIC_BASE_URL, as a hook evaluation (answer: {"ok": bool, "reason": "..."}), exits 2 with the reason when the model says no,
# 0 when it says yes, and 1 when it gets no usable answer (an HTTP error, a cut stream, garbage).
# Bare, that exit 1 fails open; under seal (or an honoured onFailure) it is a refusal.
payload="$(cat)"
[ -n "${FAILOPEN_TRACE:-}" ] && printf '%s\n' "$payload" >> "$FAILOPEN_TRACE"
exec python3 -c '
import json, os, sys, urllib.request
rule = "Refuse any tool call that creates or changes a file named notes.txt; allow anything else. The tool call: "
request = {
    "model": os.environ.get("ANTHROPIC_MODEL", "claude-haiku-4-5"),
    "max_tokens": 256,
    "system": "You are evaluating a hook in Claude Code. Answer with a JSON object {\"ok\": bool, \"reason\": string}.",
    "messages": [{"role": "user", "content": rule + sys.argv[1]}],
    "output_config": {"format": {"type": "json_schema", "schema": {"type": "object",
        "properties": {"ok": {"type": "boolean"}, "reason": {"type": "string"}}, "required": ["ok", "reason"]}}},
}
base = (os.environ.get("FAILOPEN_STANDIN_URL") or os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com").rstrip("/")
req = urllib.request.Request(base + "/v1/messages", data=json.dumps(request).encode(), method="POST", headers={
    "content-type": "application/json", "anthropic-version": "2023-06-01",
    "x-api-key": os.environ.get("ANTHROPIC_API_KEY", "")})
try:
    answer = json.loads(urllib.request.urlopen(req, timeout=60).read())
    verdict = json.loads(answer["content"][0]["text"])
    ok, reason = verdict["ok"], verdict.get("reason", "")
except Exception as e:
    print("model-command guard: no usable answer from the model: %s" % e, file=sys.stderr)
    sys.exit(1)
if ok is True:
    sys.exit(0)
if ok is False:
    print(reason, file=sys.stderr)
    sys.exit(2)
print("model-command guard: the model answered %r, not a verdict" % (verdict,), file=sys.stderr)
sys.exit(1)
' "$payload"
