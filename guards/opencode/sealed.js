// failopen's sealed plugin: loads the guard under test from
// .opencode/failopen-guard/guard.js (outside plugins/, so OpenCode does not
// load it itself) and turns what OpenCode would let through into a refusal:
// a guard that fails to load (syntax error, missing dependency, a factory that
// throws, an export that is no plugin), one with no tool.execute.before, one
// that answers after DEADLINE_MS, and one that returns a value (OpenCode
// ignores return values; only a throw refuses). Each refusal of its own is
// appended to $FAILOPEN_TRACE (the call's input and the message it threw),
// so that a refusal of a guard that never loaded still has its evidence.
// failopen writes the arm's deadline in place of DEADLINE_MS's 3000.
import { appendFileSync } from "node:fs";
const GUARD = new URL("../failopen-guard/guard.js", import.meta.url).href;
const DEADLINE_MS = 3000;

async function loadBefores(ctx) {
  const mod = await import(GUARD);
  const befores = [];
  for (const exported of new Set(Object.values(mod))) {
    const factory = typeof exported === "function" ? exported : exported?.server;
    if (typeof factory !== "function") throw new Error("an export is not a plugin function");
    const hooks = await factory(ctx);
    if (typeof hooks?.["tool.execute.before"] === "function") befores.push(hooks["tool.execute.before"]);
  }
  if (befores.length === 0) throw new Error("it has no tool.execute.before hook");
  return befores;
}

function refuse(input, message) {
  if (process.env.FAILOPEN_TRACE) appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify({ what: "seal", input, threw: message }) + "\n");
  throw new Error(message);
}

class Late extends Error {}

function withinDeadline(promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Late(`the guard did not answer within ${DEADLINE_MS} ms`)), DEADLINE_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export const FailopenSeal = async (ctx) => {
  let befores = [];
  let broken = null;
  try {
    befores = await withinDeadline(loadBefores(ctx));
  } catch (e) {
    broken = e instanceof Error ? e.message : String(e);
  }
  return {
    "tool.execute.before": async (input, output) => {
      if (broken !== null) refuse(input, `failopen seal: refusing ${input.tool}: the guard did not load (${broken})`);
      for (const before of befores) {
        const answer = await withinDeadline(Promise.resolve().then(() => before(input, output))).catch((e) => {
          // The guard's own refusal passes as it is; the deadline's is the seal's.
          if (e instanceof Late) refuse(input, `failopen seal: refusing ${input.tool}: ${e.message}`);
          throw e;
        });
        if (answer !== undefined) refuse(input, `failopen seal: refusing ${input.tool}: the guard returned a value OpenCode ignores (${JSON.stringify(answer)?.slice(0, 200)})`);
      }
    },
  };
};
