#!/usr/bin/env bash
# Regenerate arms/all.json from its parts, in order, keeping its description
# (arms::tests::all_is_its_parts_joined checks that it is their arms joined).
set -euo pipefail
cd "$(dirname "$0")"
python3 - full extended http model surface sdk <<'PY'
import json, sys
all_ = json.load(open("all.json"))
all_["arms"] = [arm for part in sys.argv[1:] for arm in json.load(open(f"{part}.json"))["arms"]]
open("all.json", "w").write(json.dumps(all_, indent=2) + "\n")
PY
