# failopen's sealed callback for the Claude Agent SDK (Python): wrap a
# PreToolUse hook callback, or a can_use_tool callback, so that every failure
# of it is a deny. A raise, an answer that is not a well-formed allow or deny
# (a string, a number, None, 'Deny', a misspelt key), or no answer within
# `deadline` seconds all refuse the call; a well-formed answer passes through
# unchanged. A plain `def` is called and its answer read like an `async def`'s
# (but a plain def that blocks cannot be bounded: keep guards async). Runs on
# asyncio, as the SDK's query() does by default. Copy this file as it is
# (docs/agent-sdk.md).
#
#   HookMatcher(matcher="Bash|Write|Edit|MultiEdit|NotebookEdit",
#               hooks=[sealed_hook(my_guard, deadline=2)], timeout=3, on_failure="block")
#   ClaudeAgentOptions(can_use_tool=sealed_can_use_tool(my_permission, deadline=2), ...)
import asyncio
import inspect
import sys

from claude_agent_sdk import PermissionResultAllow, PermissionResultDeny

REASON = "sealed callback: the guard failed, so the call is refused"
HOOK_KEYS = {"hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"}
DECISIONS = {"allow", "deny", "ask"}


def _log(line):
    print(line, file=sys.stderr, flush=True)


async def _bounded(inner, args, deadline):
    answer = inner(*args)
    if inspect.isawaitable(answer):
        answer = await asyncio.wait_for(answer, deadline)
    return answer


def _well_formed_hook_answer(a):
    """{} (no decision), or only hookSpecificOutput (and systemMessage) with
    known keys, the PreToolUse event, a lower-case decision, a str reason."""
    if type(a) is not dict:
        return False
    if not a:
        return True
    if not set(a) <= {"hookSpecificOutput", "systemMessage"}:
        return False
    if "systemMessage" in a and not isinstance(a["systemMessage"], str):
        return False
    h = a.get("hookSpecificOutput")
    if type(h) is not dict or not set(h) <= HOOK_KEYS or h.get("hookEventName") != "PreToolUse":
        return False
    if "permissionDecision" in h and h["permissionDecision"] not in DECISIONS:
        return False
    return "permissionDecisionReason" not in h or isinstance(h["permissionDecisionReason"], str)


def sealed_hook(inner, deadline=2.0, reason=REASON, log=_log):
    deny = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                                   "permissionDecisionReason": reason}}

    async def hook(input_data, tool_use_id, context):
        try:
            answer = await _bounded(inner, (input_data, tool_use_id, context), deadline)
            if _well_formed_hook_answer(answer):
                return answer
            log(f"sealed callback: refused an unreadable answer: {answer!r}")
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # noqa: BLE001 - every failure is a deny
            log(f"sealed callback: refused a failure: {type(error).__name__}: {error}")
        return deny

    return hook


def sealed_can_use_tool(inner, deadline=2.0, reason=REASON, log=_log):
    async def can_use_tool(tool_name, tool_input, context):
        try:
            answer = await _bounded(inner, (tool_name, tool_input, context), deadline)
            if isinstance(answer, (PermissionResultAllow, PermissionResultDeny)):
                return answer
            log(f"sealed callback: refused an unreadable answer: {answer!r}")
        except asyncio.CancelledError:
            raise
        except BaseException as error:  # noqa: BLE001 - every failure is a deny
            log(f"sealed callback: refused a failure: {type(error).__name__}: {error}")
        return PermissionResultDeny(message=reason)

    return can_use_tool
