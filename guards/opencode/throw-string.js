// OpenCode guard plugin (docs/opencode.md): throws a string, not an Error.
// Appends its input and args to $FAILOPEN_TRACE before it acts.
import { appendFileSync } from "node:fs";
const trace = (input, output, what) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what, input, args: output?.args }) + "\n"); };
export const Guard = async () => ({
  "tool.execute.before": async (input, output) => { trace(input, output, "throw-string"); throw "failopen guard: refused (a string)"; },
});
