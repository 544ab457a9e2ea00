// failopen's sealed callback for the GitHub Copilot SDK (TypeScript): wrap
// an onPreToolUse hook so that every failure of it is a deny. The SDK itself
// turns a throw or a rejection into "no decision" and the tool runs, reads
// any answer it does not know as no decision too, and waits for ever for a
// callback that never answers (docs/copilot-sdk.md). Here a throw, a
// rejection, an answer that is not a well-formed PreToolUseHookOutput (a
// string, a number, null, undefined, "Deny", a misspelt key), or no answer
// within `deadlineMs` all refuse the call; a well-formed answer, `{}`
// included (no decision), passes through unchanged. Copy this file as it is.
//
//   hooks: { onPreToolUse: sealedPreToolUse(myGuard, { deadlineMs: 2000 }) }

const REASON = "sealed callback: the guard failed, so the call is refused";
const KEYS = new Set(["permissionDecision", "permissionDecisionReason", "modifiedArgs", "additionalContext", "suppressOutput"]);
const DECISIONS = new Set(["allow", "deny", "ask"]);

const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);

// Run `inner`, bounded by `deadlineMs`: its answer, or an Error saying why there is none.
async function bounded(inner, args, deadlineMs) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(() => inner(...args)), late]);
  } finally {
    clearTimeout(timer);
  }
}

// An answer read as the SDK documents PreToolUseHookOutput: an object of
// known keys only, a lower-case decision, a string reason and context, a
// boolean suppressOutput.
function wellFormed(a) {
  if (!isObject(a) || !Object.keys(a).every((k) => KEYS.has(k))) return false;
  if ("permissionDecision" in a && !DECISIONS.has(a.permissionDecision)) return false;
  if ("permissionDecisionReason" in a && typeof a.permissionDecisionReason !== "string") return false;
  if ("additionalContext" in a && typeof a.additionalContext !== "string") return false;
  return !("suppressOutput" in a) || typeof a.suppressOutput === "boolean";
}

export function sealedPreToolUse(inner, { deadlineMs = 2000, reason = REASON, log = console.error } = {}) {
  const deny = { permissionDecision: "deny", permissionDecisionReason: reason };
  return async (...args) => {
    try {
      const answer = await bounded(inner, args, deadlineMs);
      if (wellFormed(answer)) return answer;
      log(`sealed callback: refused an unreadable answer: ${answer === undefined ? "undefined" : JSON.stringify(answer)}`);
    } catch (error) {
      log(`sealed callback: refused a failure: ${error?.message ?? error}`);
    }
    return deny;
  };
}
