// failopen's sealed plugin (spike): loads the guard under test from
// .opencode/failopen-guard/guard.js (outside plugins/, so OpenCode does not
// load it itself) and turns what OpenCode would let through into a refusal:
// a guard that fails to load (syntax error, missing dependency, a factory that
// throws, an export that is no plugin), one with no tool.execute.before, one
// that answers after DEADLINE_MS, and one that returns a value (OpenCode
// ignores return values; only a throw refuses).
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

function withinDeadline(promise) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`failopen seal: the guard did not answer within ${DEADLINE_MS} ms`)), DEADLINE_MS);
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
      if (broken !== null) throw new Error(`failopen seal: refusing ${input.tool}: the guard did not load (${broken})`);
      for (const before of befores) {
        const answer = await withinDeadline(Promise.resolve().then(() => before(input, output)));
        if (answer !== undefined) throw new Error(`failopen seal: refusing ${input.tool}: the guard returned a value OpenCode ignores (${JSON.stringify(answer)?.slice(0, 200)})`);
      }
    },
  };
};
