// failopen's driver for one Claude Agent SDK (TypeScript) session, written
// into the session's evidence directory beside `sdk-session.json`, which
// says which SDK, callback and options the arm asks for. It runs one
// query() and prints every SDK message as a JSON line on stdout, and one
// `{"type":"failopen_callback",...}` line each time the callback under test
// answers (what it returned, threw or rejected with); the callback also
// appends the call it was asked about to $FAILOPEN_TRACE before answering.
import { appendFileSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const ask = JSON.parse(readFileSync(new URL("./sdk-session.json", import.meta.url), "utf8"));
const { query } = await import(pathToFileURL(ask.sdk).href);
// failopen's sealed callback (guards/sdk/sealed_callback.mjs), written beside this program.
const { sealedHook, sealedCanUseTool } = await import(new URL("./sealed_callback.mjs", import.meta.url).href);

const DENY_REASON = ask.deny_reason;
const say = (line) => process.stdout.write(JSON.stringify(line) + "\n");
const trace = (event, tool_use_id, tool_name, tool_input) => {
  if (!process.env.FAILOPEN_TRACE) return;
  const line = { hook_event_name: event, tool_use_id, tool_name, tool_input, failopen_callback: ask.callback };
  appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify(line) + "\n");
};
const describe = (value) => (value === undefined ? "undefined" : JSON.stringify(value));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
// Report what the callback did, then do it: return, throw or reject.
const answered = (kind, tool_use_id, outcome, value) => {
  say({ type: "failopen_callback", kind, behaviour: ask.callback, tool_use_id, outcome, value: describe(value) });
};
const hookDeny = {
  hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: DENY_REASON },
};

// The PreToolUse hook callback under test, by behaviour.
async function hookAnswer(behaviour) {
  switch (behaviour) {
    case "allow": return {};
    case "deny": return hookDeny;
    case "string": return "deny";
    case "number": return 2;
    case "null": return null;
    case "undefined": return undefined;
    case "wrong-case":
      return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "Deny", permissionDecisionReason: DENY_REASON } };
    case "misspelt-key":
      return { hookSpecificOutput: { hookEventName: "PreToolUse", permisionDecision: "deny", permissionDecisionReason: DENY_REASON } };
    case "hang": return new Promise(() => {});
    case "late": await sleep((ask.timeout_secs + 2) * 1000); return hookDeny;
    default: throw new Error(`failopen: unknown callback behaviour ${behaviour}`);
  }
}

function hookCallback(input, toolUseID) {
  const id = toolUseID ?? input?.tool_use_id;
  trace("PreToolUse", id, input?.tool_name, input?.tool_input);
  if (ask.callback === "throw") {
    const error = new Error("failopen: the callback threw");
    answered("callback", id, "threw", error.message);
    throw error;
  }
  if (ask.callback === "reject") {
    answered("callback", id, "rejected", "failopen: the callback rejected");
    return Promise.reject(new Error("failopen: the callback rejected"));
  }
  return hookAnswer(ask.callback).then((value) => {
    answered("callback", id, "returned", value);
    return value;
  });
}

// The canUseTool callback under test, by behaviour.
async function permissionAnswer(behaviour, input) {
  switch (behaviour) {
    case "allow": return { behavior: "allow", updatedInput: input };
    case "deny": return { behavior: "deny", message: DENY_REASON };
    case "garbage": return "deny";
    case "null": return null;
    case "hang": return new Promise(() => {});
    default: throw new Error(`failopen: unknown canUseTool behaviour ${behaviour}`);
  }
}

function canUseTool(toolName, input, options) {
  const id = options?.toolUseID;
  trace("PermissionRequest", id, toolName, input);
  if (ask.callback === "throw") {
    const error = new Error("failopen: canUseTool threw");
    answered("can-use-tool", id, "threw", error.message);
    throw error;
  }
  if (ask.callback === "reject") {
    answered("can-use-tool", id, "rejected", "failopen: canUseTool rejected");
    return Promise.reject(new Error("failopen: canUseTool rejected"));
  }
  return permissionAnswer(ask.callback, input).then((value) => {
    answered("can-use-tool", id, "returned", value);
    return value;
  });
}

const options = {
  cwd: ask.cwd,
  settingSources: [],
  maxTurns: ask.max_turns,
  env: process.env,
  stderr: (data) => process.stderr.write(data),
};
// The `sealed` wrapper: the callback inside failopen's sealed callback, which
// reports each refusal it makes as a `sealed-denied` line.
const sealing = (kind) => ({
  deadlineMs: ask.sealed_deadline_secs * 1000,
  reason: ask.sealed_reason,
  log: (why) => answered(kind, null, "sealed-denied", why),
});
const sealed = ask.sealed_deadline_secs !== null;
if (ask.kind === "can-use-tool") {
  options.permissionMode = "default";
  options.canUseTool = sealed ? sealedCanUseTool(canUseTool, sealing("can-use-tool")) : canUseTool;
} else {
  options.permissionMode = "bypassPermissions";
  options.allowDangerouslySkipPermissions = true;
  const matcher = { matcher: ask.matcher, hooks: [sealed ? sealedHook(hookCallback, sealing("callback")) : hookCallback] };
  if (ask.timeout_secs !== null) matcher.timeout = ask.timeout_secs;
  if (ask.on_failure_block) matcher.onFailure = "block";
  options.hooks = { PreToolUse: [matcher] };
}

try {
  for await (const message of query({ prompt: ask.prompt, options })) say(message);
} catch (error) {
  say({ type: "failopen_sdk_error", message: String(error?.stack ?? error) });
  process.exitCode = 1;
}
