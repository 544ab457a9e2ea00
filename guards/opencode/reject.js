// OpenCode guard plugin (docs/opencode.md): a non-async hook that returns a rejected promise.
// Appends its input and args to $FAILOPEN_TRACE before it acts.
import { appendFileSync } from "node:fs";
const trace = (input, output, what) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what, input, args: output?.args }) + "\n"); };
export const Guard = async () => ({
  "tool.execute.before": (input, output) => { trace(input, output, "reject"); return Promise.reject(new Error("failopen guard: rejected " + input.tool)); },
});
