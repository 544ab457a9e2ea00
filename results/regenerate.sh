#!/usr/bin/env bash
# Regenerate the reports in results/ from the reference CSVs (the test
# runner/tests/integration/results.rs checks that the committed files match).
set -euo pipefail
cd "$(dirname "$0")/.."
fo=(cargo run --quiet --release --)
csvs=(results/claude-2.1.240.csv results/claude-2.1.328.csv)
"${fo[@]}" report "${csvs[@]}" --format md --out results/REPORT.md
"${fo[@]}" report "${csvs[@]}" --format svg --out results/grid.svg
"${fo[@]}" report "${csvs[@]}" --format html --out results/grid.html
"${fo[@]}" report "${csvs[@]}" --format json --out results/summary.json
# The agents side by side: Claude Code 2.1.328, Codex CLI, Gemini CLI and Copilot CLI (two versions each).
agents=(results/claude-2.1.328.csv results/codex-0.149.0.csv results/codex-0.171.0.csv results/gemini-0.45.2.csv results/gemini-0.61.0.csv results/copilot-1.0.73.csv results/copilot-1.0.102.csv)
"${fo[@]}" report "${agents[@]}" --format md --out results/agents.md
# The timeline over every version `failopen history` recorded, once it has.
if [[ -f results/history.csv ]]; then
  "${fo[@]}" report results/history.csv --format timeline-svg --out results/timeline.svg
  "${fo[@]}" report results/history.csv --format timeline-html --out results/timeline.html
  "${fo[@]}" report results/history.csv --format timeline-md --out results/TIMELINE.md
fi
# The TypeScript Agent SDK's timeline over the releases `failopen history --agent agent-sdk-ts` recorded.
if [[ -f results/agent-sdk-ts-history.csv ]]; then
  "${fo[@]}" report results/agent-sdk-ts-history.csv --format timeline-md --out results/AGENT-SDK-TS-TIMELINE.md
fi
# The Python Agent SDK's, over `failopen history --agent agent-sdk-py`.
if [[ -f results/agent-sdk-py-history.csv ]]; then
  "${fo[@]}" report results/agent-sdk-py-history.csv --format timeline-md --out results/AGENT-SDK-PY-TIMELINE.md
fi
# The findings as a static site: every reference CSV, the history and the bisects above.
"${fo[@]}" report results --format site --out results/site
