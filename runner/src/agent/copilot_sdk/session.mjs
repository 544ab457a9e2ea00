// failopen's driver for one GitHub Copilot SDK (TypeScript) session, written
// into the session's evidence directory beside `sdk-session.json`, which
// says which SDK, callback and options the arm asks for. It starts one
// offline client and session against the stand-in (the provider named in
// COPILOT_PROVIDER_* of its environment), sends the prompt and waits, and
// prints every session event as a JSON line on stdout, and one
// `{"type":"failopen_callback",...}` line each time the onPreToolUse
// callback under test answers (what it returned, threw or rejected with);
// the callback also appends the call it was asked about to $FAILOPEN_TRACE
// before answering. The SDK has no timeout of its own for a callback:
// failopen's session timeout bounds a session whose callback never answers.
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ask = JSON.parse(readFileSync(new URL("./sdk-session.json", import.meta.url), "utf8"));
const { CopilotClient, approveAll } = await import(pathToFileURL(ask.sdk).href);
// failopen's sealed callback (guards/sdk/copilot_sealed_callback.mjs), written beside this program.
const { sealedPreToolUse } = await import(new URL("./copilot_sealed_callback.mjs", import.meta.url).href);

const DENY_REASON = ask.deny_reason;
const say = (line) => process.stdout.write(JSON.stringify(line) + "\n");
const describe = (value) => (value === undefined ? "undefined" : JSON.stringify(value));
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const answered = (outcome, value) => {
  say({ type: "failopen_callback", kind: "callback", behaviour: ask.callback, outcome, value: describe(value) });
};
// The SDK gives the callback no call id: the trace names the call by its tool and arguments.
const trace = (input) => {
  if (!process.env.FAILOPEN_TRACE) return;
  const line = { hook_event_name: "PreToolUse", tool_name: input?.toolName, tool_input: input?.toolArgs, failopen_callback: ask.callback };
  appendFileSync(process.env.FAILOPEN_TRACE, JSON.stringify(line) + "\n");
};
const deny = { permissionDecision: "deny", permissionDecisionReason: DENY_REASON };

// The onPreToolUse answer under test, by behaviour (the SDK's PreToolUseHookOutput).
async function answer(behaviour) {
  switch (behaviour) {
    case "allow": return {};
    case "deny": return deny;
    case "string": return "deny";
    case "number": return 2;
    case "null": return null;
    case "undefined": return undefined;
    case "wrong-case": return { permissionDecision: "Deny", permissionDecisionReason: DENY_REASON };
    case "misspelt-key": return { permisionDecision: "deny", permissionDecisionReason: DENY_REASON };
    case "hang": return new Promise(() => {});
    case "late": await sleep(((ask.timeout_secs ?? 3) + 2) * 1000); return deny;
    default: throw new Error(`failopen: unknown callback behaviour ${behaviour}`);
  }
}

function onPreToolUse(input) {
  trace(input);
  if (ask.callback === "throw") {
    const error = new Error("failopen: the callback threw");
    answered("threw", error.message);
    throw error;
  }
  if (ask.callback === "reject") {
    answered("rejected", "failopen: the callback rejected");
    return Promise.reject(new Error("failopen: the callback rejected"));
  }
  return answer(ask.callback).then((value) => {
    answered("returned", value);
    return value;
  });
}

// The `sealed` wrapper: the callback inside failopen's sealed callback, which
// reports each refusal it makes as a `sealed-denied` line.
const hook = ask.sealed_deadline_secs === null
  ? onPreToolUse
  : sealedPreToolUse(onPreToolUse, {
      deadlineMs: ask.sealed_deadline_secs * 1000,
      reason: ask.sealed_reason,
      log: (why) => answered("sealed-denied", why),
    });

const env = process.env;
const client = new CopilotClient({
  baseDirectory: env.COPILOT_HOME ?? join(env.HOME, ".copilot"),
  workingDirectory: ask.cwd,
  env: { ...env, COPILOT_OFFLINE: "true" },
});
try {
  const session = await client.createSession({
    model: env.COPILOT_MODEL,
    provider: { type: env.COPILOT_PROVIDER_TYPE, baseUrl: env.COPILOT_PROVIDER_BASE_URL, apiKey: env.COPILOT_PROVIDER_API_KEY },
    onPermissionRequest: approveAll,
    workingDirectory: ask.cwd,
    hooks: { onPreToolUse: hook },
  });
  session.on((event) => say(event));
  // No deadline of its own (a day): failopen's session timeout is the bound.
  await session.sendAndWait({ prompt: ask.prompt }, 24 * 3600 * 1000);
} catch (error) {
  say({ type: "failopen_sdk_error", message: String(error?.stack ?? error) });
  process.exitCode = 1;
} finally {
  await client.stop();
}
