// failopen's sealed callback for the Claude Agent SDK (TypeScript): wrap a
// PreToolUse hook callback, or a canUseTool callback, so that every failure
// of it is a deny. A throw, a rejection, an answer that is not a well-formed
// allow or deny (a string, a number, null, undefined, 'Deny', a misspelt
// key), or no answer within `deadlineMs` all refuse the call; a well-formed
// answer passes through unchanged. Copy this file as it is (docs/agent-sdk.md).
//
//   hooks: { PreToolUse: [{ matcher: "Bash|Write|Edit|MultiEdit|NotebookEdit",
//     hooks: [sealedHook(myGuard, { deadlineMs: 2000 })], timeout: 3, onFailure: "block" }] }
//   canUseTool: sealedCanUseTool(myPermission, { deadlineMs: 2000 })

const REASON = "sealed callback: the guard failed, so the call is refused";
const HOOK_KEYS = new Set(["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"]);
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

// A PreToolUse answer read as the SDK documents it: `{}` (no decision), or
// only `hookSpecificOutput` (and `systemMessage`) with known keys, the
// PreToolUse event, a lower-case decision and a string reason.
function wellFormedHookAnswer(a) {
  if (!isObject(a)) return false;
  const keys = Object.keys(a);
  if (keys.length === 0) return true;
  if (!keys.every((k) => k === "hookSpecificOutput" || k === "systemMessage")) return false;
  if ("systemMessage" in a && typeof a.systemMessage !== "string") return false;
  const h = a.hookSpecificOutput;
  if (!isObject(h) || !Object.keys(h).every((k) => HOOK_KEYS.has(k)) || h.hookEventName !== "PreToolUse") return false;
  if ("permissionDecision" in h && !DECISIONS.has(h.permissionDecision)) return false;
  return !("permissionDecisionReason" in h) || typeof h.permissionDecisionReason === "string";
}

export function sealedHook(inner, { deadlineMs = 2000, reason = REASON, log = console.error } = {}) {
  const deny = { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } };
  return async (...args) => {
    try {
      const answer = await bounded(inner, args, deadlineMs);
      if (wellFormedHookAnswer(answer)) return answer;
      log(`sealed callback: refused an unreadable answer: ${answer === undefined ? "undefined" : JSON.stringify(answer)}`);
    } catch (error) {
      log(`sealed callback: refused a failure: ${error?.message ?? error}`);
    }
    return deny;
  };
}

// A canUseTool answer: an allow (with an object updatedInput, or none: the
// call's own input) or a deny with a string message.
export function sealedCanUseTool(inner, { deadlineMs = 2000, reason = REASON, log = console.error } = {}) {
  return async (toolName, input, options) => {
    try {
      const a = await bounded(inner, [toolName, input, options], deadlineMs);
      if (isObject(a) && a.behavior === "allow" && (a.updatedInput === undefined || isObject(a.updatedInput))) {
        return { ...a, updatedInput: a.updatedInput ?? input };
      }
      if (isObject(a) && a.behavior === "deny" && typeof a.message === "string") return a;
      log(`sealed callback: refused an unreadable answer: ${a === undefined ? "undefined" : JSON.stringify(a)}`);
    } catch (error) {
      log(`sealed callback: refused a failure: ${error?.message ?? error}`);
    }
    return { behavior: "deny", message: reason };
  };
}
