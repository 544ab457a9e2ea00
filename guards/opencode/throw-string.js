// OpenCode guard plugin (docs/opencode.md): throws a string, not an Error.
// failopen's trace, not the guard's logic: each call's input and args go to $FAILOPEN_TRACE before
// the hook acts, and what it threw, if it threw, after.
import { appendFileSync } from "node:fs";
const record = (line) => { if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify(line) + "\n"); };
const traced = (what, hook) => (input, output) => {
  record({ what, input, args: output?.args });
  const threw = (e) => { record({ what, input, threw: e instanceof Error ? e.message : String(e) }); throw e; };
  let answer;
  try { answer = hook(input, output); } catch (e) { threw(e); }
  return answer instanceof Promise ? answer.catch(threw) : answer;
};
export const Guard = async () => ({
  "tool.execute.before": traced("throw-string", async (input, output) => { throw "failopen guard: refused (a string)"; }),
});
