// OpenCode guard plugin (docs/opencode.md): a correct deny guard importing a package that is not installed.
// Appends its input and args to $FAILOPEN_TRACE before it acts.
import { check } from "failopen-guard-policy-missing";
import { appendFileSync } from "node:fs";
const trace = (input, output, what) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what, input, args: output?.args }) + "\n"); };
export const Guard = async () => ({
  "tool.execute.before": async (input, output) => { trace(input, output, "missing-dependency"); if (!check(input)) throw new Error("failopen guard: refused"); },
});
