// OpenCode guard plugin (docs/opencode.md): returns Claude Code's deny shape, which OpenCode discards (only a throw refuses).
// Appends its input and args to $FAILOPEN_TRACE before it acts.
import { appendFileSync } from "node:fs";
const trace = (input, output, what) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what, input, args: output?.args }) + "\n"); };
export const Guard = async () => ({
  "tool.execute.before": async (input, output) => { trace(input, output, "wrong-shape"); return { permissionDecision: "deny", reason: "failopen guard: refused" }; },
});
