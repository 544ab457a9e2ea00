# failopen's driver for one Claude Agent SDK (Python) session, written into
# the session's evidence directory beside `sdk-session.json`, which says
# which callback and options the arm asks for, and run by the interpreter of
# the SDK's venv. It runs one query() and prints every message the bundled
# CLI sends as a JSON line on stdout (the CLI's own stream-json, read as the
# SDK reads it), and one `{"type":"failopen_callback",...}` line each time
# the callback under test answers (what it returned or raised); the callback
# also appends the call it was asked about to $FAILOPEN_TRACE first.
import asyncio
import json
import os
import sys
from pathlib import Path

from claude_agent_sdk import (
    ClaudeAgentOptions,
    HookMatcher,
    PermissionResultAllow,
    PermissionResultDeny,
    query,
)
from claude_agent_sdk._internal.transport.subprocess_cli import SubprocessCLITransport
from sealed_callback import sealed_can_use_tool, sealed_hook  # failopen's, written beside this program

ask = json.loads((Path(__file__).parent / "sdk-session.json").read_text())
DENY_REASON = ask["deny_reason"]
BEHAVIOUR = ask["callback"]


def say(line):
    sys.stdout.write(json.dumps(line, default=repr) + "\n")
    sys.stdout.flush()


def trace(event, tool_use_id, tool_name, tool_input):
    path = os.environ.get("FAILOPEN_TRACE")
    if not path:
        return
    line = {
        "hook_event_name": event,
        "tool_use_id": tool_use_id,
        "tool_name": tool_name,
        "tool_input": tool_input,
        "failopen_callback": BEHAVIOUR,
    }
    with open(path, "a") as f:
        f.write(json.dumps(line) + "\n")


def describe(value):
    if isinstance(value, (PermissionResultAllow, PermissionResultDeny)):
        return f"{type(value).__name__}({json.dumps(value.__dict__, default=repr)})"
    return json.dumps(value, default=repr)


def answered(kind, tool_use_id, outcome, value):
    say({"type": "failopen_callback", "kind": kind, "behaviour": BEHAVIOUR,
         "tool_use_id": tool_use_id, "outcome": outcome, "value": value})


# Print each message the bundled CLI sends, as it arrives: the SDK turns
# them into dataclasses, and the verdict reads the CLI's own stream-json.
_read_messages = SubprocessCLITransport.read_messages


async def _teed(self):
    async for message in _read_messages(self):
        if not str(message.get("type", "")).startswith("control_"):
            say(message)
        yield message


SubprocessCLITransport.read_messages = _teed

HOOK_DENY = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                    "permissionDecisionReason": DENY_REASON}}


async def hook_answer(behaviour):
    """The PreToolUse hook callback's answer, by behaviour."""
    if behaviour == "allow":
        return {}
    if behaviour == "deny":
        return HOOK_DENY
    if behaviour == "string":
        return "deny"
    if behaviour == "number":
        return 2
    if behaviour == "null":
        return None
    if behaviour == "wrong-case":
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "Deny",
                                       "permissionDecisionReason": DENY_REASON}}
    if behaviour == "misspelt-key":
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permisionDecision": "deny",
                                       "permissionDecisionReason": DENY_REASON}}
    if behaviour == "hang":
        await asyncio.Event().wait()
    if behaviour == "late":
        await asyncio.sleep(ask["timeout_secs"] + 2)
        return HOOK_DENY
    raise RuntimeError(f"failopen: unknown callback behaviour {behaviour}")


async def hook_callback(input_data, tool_use_id, context):
    tool_use_id = tool_use_id or (input_data or {}).get("tool_use_id")
    trace("PreToolUse", tool_use_id, (input_data or {}).get("tool_name"), (input_data or {}).get("tool_input"))
    if BEHAVIOUR == "throw":
        answered("callback", tool_use_id, "threw", "failopen: the callback raised")
        raise RuntimeError("failopen: the callback raised")
    if BEHAVIOUR == "reject":
        await asyncio.sleep(0)
        answered("callback", tool_use_id, "rejected", "failopen: the callback raised after an await")
        raise RuntimeError("failopen: the callback raised after an await")
    if BEHAVIOUR == "undefined":
        answered("callback", tool_use_id, "returned", "nothing (no return statement)")
        return  # a hook that forgets its return: Python's nearest to undefined
    value = await hook_answer(BEHAVIOUR)
    answered("callback", tool_use_id, "returned", describe(value))
    return value


def def_hook_callback(input_data, tool_use_id, context):
    """The Python mistake: a plain `def` (not `async def`) returning a correct deny."""
    trace("PreToolUse", tool_use_id, (input_data or {}).get("tool_name"), (input_data or {}).get("tool_input"))
    answered("callback", tool_use_id, "returned", "plain def: " + describe(HOOK_DENY))
    return HOOK_DENY


async def permission_answer(behaviour, tool_input):
    """The can_use_tool callback's answer, by behaviour."""
    if behaviour == "allow":
        return PermissionResultAllow(updated_input=tool_input)
    if behaviour == "deny":
        return PermissionResultDeny(message=DENY_REASON)
    if behaviour == "garbage":
        return "deny"
    if behaviour == "null":
        return None
    if behaviour == "hang":
        await asyncio.Event().wait()
    raise RuntimeError(f"failopen: unknown can_use_tool behaviour {behaviour}")


async def can_use_tool(tool_name, tool_input, context):
    tool_use_id = getattr(context, "tool_use_id", None)
    trace("PermissionRequest", tool_use_id, tool_name, tool_input)
    if BEHAVIOUR == "throw":
        answered("can-use-tool", tool_use_id, "threw", "failopen: can_use_tool raised")
        raise RuntimeError("failopen: can_use_tool raised")
    if BEHAVIOUR == "reject":
        await asyncio.sleep(0)
        answered("can-use-tool", tool_use_id, "rejected", "failopen: can_use_tool raised after an await")
        raise RuntimeError("failopen: can_use_tool raised after an await")
    value = await permission_answer(BEHAVIOUR, tool_input)
    answered("can-use-tool", tool_use_id, "returned", describe(value))
    return value


def sealing(kind):
    """The `sealed` wrapper's options: the arm's deadline, failopen's reason,
    and each refusal it makes reported as a `sealed-denied` line."""
    return dict(deadline=ask["sealed_deadline_secs"], reason=ask["sealed_reason"],
                log=lambda why: answered(kind, None, "sealed-denied", why))


def options():
    sealed = ask["sealed_deadline_secs"] is not None
    opts = dict(
        cwd=ask["cwd"],
        setting_sources=[],
        max_turns=ask["max_turns"],
        stderr=lambda line: (sys.stderr.write(line.rstrip("\n") + "\n"), sys.stderr.flush()),
    )
    if ask["kind"] == "can-use-tool":
        callback = sealed_can_use_tool(can_use_tool, **sealing("can-use-tool")) if sealed else can_use_tool
        opts.update(permission_mode="default", can_use_tool=callback)
    else:
        callback = def_hook_callback if BEHAVIOUR == "def-deny" else hook_callback
        matcher = dict(matcher=ask["matcher"], hooks=[sealed_hook(callback, **sealing("callback")) if sealed else callback])
        if ask["timeout_secs"] is not None:
            matcher["timeout"] = ask["timeout_secs"]
        if ask["on_failure_block"]:
            matcher["on_failure"] = "block"
        opts.update(permission_mode="bypassPermissions", hooks={"PreToolUse": [HookMatcher(**matcher)]})
    return ClaudeAgentOptions(**opts)


async def main():
    async for _ in query(prompt=ask["prompt"], options=options()):
        pass


try:
    asyncio.run(main())
except BaseException as error:  # the SDK's own failure, as the TS program reports it
    say({"type": "failopen_sdk_error", "message": f"{type(error).__name__}: {error}"})
    sys.exit(1)
