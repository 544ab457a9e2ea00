// OpenCode guard plugin (docs/opencode.md): exports the hooks object instead of a plugin function.
// Appends its input and args to $FAILOPEN_TRACE before it acts.
import { appendFileSync } from "node:fs";
const trace = (input, output, what) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what, input, args: output?.args }) + "\n"); };
export const Guard = { "tool.execute.before": async (input, output) => { trace(input, output, "not-a-plugin"); throw new Error("failopen guard: refused"); } };
