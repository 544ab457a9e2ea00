// OpenCode guard plugin (docs/opencode.md): the plugin function itself throws (its policy could not be read).
// Appends its input and args to $FAILOPEN_TRACE before it acts.
import { appendFileSync } from "node:fs";
const trace = (input, output, what) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what, input, args: output?.args }) + "\n"); };
export const Guard = async () => { throw new Error("failopen guard: could not read its policy"); };
