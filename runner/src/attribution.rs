//! Whose refusal is it? A write that came back refused counts for the hook
//! under test only when the refusal can be tied to that hook.
//!
//! Claude Code does not say which hook refused a call in its hook events
//! (`hook_response` carries the hook's name, `PreToolUse:Bash`, not its
//! command), so the refusal text is what ties it, with what failopen knows
//! about the hook it wrote:
//!
//! - an exit-code refusal (exit 2, or `onFailure: "block"`) is worded
//!   `PreToolUse:<Tool> hook error: [<command or URL>]: <reason>` on every
//!   version seen (2.1.240 and 2.1.328): the bracket names the hook, and it
//!   must be the hook under test's own command line or URL;
//! - a JSON decision is worded `PreToolUse:<Tool> hook error: <reason>`
//!   (2.1.328) or as the bare reason (2.1.240, and `ask` on both): the reason
//!   must be one the hook under test gives (the battery's guards are
//!   failopen's, so their reasons are known), or, when the hook under test
//!   is the session's only PreToolUse hook, a reason that the session's own
//!   hook events show a hook deciding with;
//! - anything else that refused the call is someone else: a permission rule
//!   (`Permission to use Bash with command ... has been denied.`), another
//!   hook (its own command in the bracket), or a managed policy.
//!
//! Agents that word every hook's refusal alike and name no hook (Codex CLI,
//! Gemini CLI, Droid CLI and others: [`RefusalWording::uniform_refusal`])
//! leave only the reason to go by. Such a refusal is the hook under test's
//! when its reason is
//!
//! - one of its JSON decisions' reasons ([`HookIdentity::reasons`]), or
//! - one of its exit-2 reasons, the line its script writes to stderr before
//!   `exit 2` ([`exit_reasons_in_script`]), kept in
//!   [`HookIdentity::exit_reasons`] only when no other hook of the session
//!   can give that same text ([`unshared_reasons`]): every other hook is one
//!   failopen wrote, and each is a command whose whole output is in its own
//!   text (only `cat`, `printf`, `echo`, `exit`, `true`, `false`, `sleep`;
//!   no file named, no `$`, glob, backslash escape or `%` format) that does
//!   not spell the reason out. A hook that runs a script (another deny
//!   guard, say), an HTTP or prompt hook, a hook from managed settings or a
//!   system layer, or one in a file failopen does not read, could give any
//!   text: the reason stays unattributed; or
//! - any reason at all, when the hook under test is the session's sole
//!   PreToolUse hook.
//!
//! A refusal without a reason is the hook under test's only when it is the
//! session's sole PreToolUse hook, the agent's words say a hook refused
//! (Droid's `Tool execution blocked by hook`, Auggie's `Tool execution
//! blocked by hook: <tool>`: [`RefusalWording::is_reasonless_hook_refusal`]),
//! and the guard's own trace shows it ran for that very call
//! ([`crate::evidence::classify`]); a blank reason never is.

use serde_json::Value;

use crate::agent::driver::Matching;
use crate::agent::wording::{HookEnding, RefusalWording};

/// What failopen knows about the hook under test, to recognise its refusals.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookIdentity {
    /// What Claude Code writes between the brackets of this hook's
    /// exit-code refusals: the command line of a command hook, the URL of an
    /// HTTP hook, exactly as the settings file gives it.
    pub label: String,
    /// The reasons this hook's JSON decisions carry (`permissionDecisionReason`).
    pub reasons: Vec<String>,
    /// Every PreToolUse hook of the session is this hook, so a JSON decision
    /// seen in the session's hook events is this hook's. False when another
    /// hook may run beside it (e.g. a managed policy's).
    pub sole_pretooluse_hook: bool,
    /// The hook entry's `matcher`, when it is not the battery's
    /// ([`crate::task::matcher`]): a write attempt counts as matched when
    /// this covers its tool ([`crate::matcher::covers`]).
    pub matcher: Option<String>,
    /// How the agent that runs the hook reads `matcher` (Claude Code's rule
    /// unless the session's driver says otherwise: Qwen Code's aliases,
    /// Gemini's regexes, a Copilot entry that has none and runs for every tool).
    pub matching: Matching,
    /// Other spellings of `label` that Claude Code may write between the
    /// brackets: a plugin's command is written as given
    /// (`${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh`) by 2.1.240 and with the
    /// plugin's directory put in (`/.../hooks/deny.sh`) by 2.1.328.
    pub aliases: Vec<String>,
    /// The reasons of this hook's exit-2 refusals (what its script writes to
    /// stderr before `exit 2`: [`exit_reasons_in_script`]) that no other hook
    /// of the session can give ([`unshared_reasons`]), and the agent's own
    /// words for an ending no other hook of the session can have
    /// ([`unshared_endings`]: Copilot CLI's `hook exited with code 2`). Read only from an
    /// agent's refusal that names no hook ([`RefusalWording::uniform_refusal`]);
    /// empty when failopen cannot tell every other hook apart.
    pub exit_reasons: Vec<String>,
}

impl HookIdentity {
    /// A hook known by its label and the reasons its JSON decisions carry.
    pub fn new(label: impl Into<String>, reasons: Vec<String>) -> HookIdentity {
        HookIdentity {
            label: label.into(),
            reasons,
            sole_pretooluse_hook: false,
            matcher: None,
            matching: Matching::CLAUDE_CODE,
            aliases: Vec::new(),
            exit_reasons: Vec::new(),
        }
    }

    /// Whether `text` is Claude Code's generic JSON deny ([`GENERIC_HOOK_DENY`])
    /// that only this hook could have asked for: it is the session's sole
    /// PreToolUse hook and it decides in JSON.
    pub fn may_have_denied_generically(&self, text: &str) -> bool {
        self.sole_pretooluse_hook && !self.reasons.is_empty() && is_generic_hook_deny(text)
    }

    /// The spellings of this hook's command an agent may give: its label,
    /// then its aliases, none empty.
    pub fn spellings(&self) -> Vec<&str> {
        std::iter::once(self.label.as_str())
            .chain(self.aliases.iter().map(String::as_str))
            .filter(|s| !s.is_empty())
            .collect()
    }

    /// Whether this hook's matcher covers `tool`, read as the agent reads it
    /// (the battery's matcher, by Claude Code's rule, when none was set).
    pub fn covers(&self, tool: &str) -> bool {
        match &self.matcher {
            Some(m) => self.matching.covers(Some(m), tool),
            None => crate::matcher::covers(Some(&crate::task::matcher()), tool),
        }
    }
}

/// Who refused a tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refuser {
    /// The hook under test.
    HookUnderTest,
    /// Another hook, named by the command or URL in the refusal's brackets.
    OtherHook(String),
    /// A permission rule (settings `permissions.deny`, managed or not).
    PermissionRule,
    /// Claude Code itself, for want of anyone to grant a permission: in
    /// `claude -p`, a call that needs approval and that no hook decided is
    /// refused (`Claude requested permissions to write to ..., but you
    /// haven't granted it yet.`, `Output redirection to ... needs approval`).
    PermissionPrompt,
    /// Refused, but nothing ties the refusal to the hook under test.
    Unattributed,
}

impl Refuser {
    /// The CSV spelling in a row's flags: `hook:<label>`, `permission-rule`, `unattributed`.
    pub fn describe(&self) -> String {
        match self {
            Refuser::HookUnderTest => "hook-under-test".into(),
            Refuser::OtherHook(label) => format!("hook:{label}"),
            Refuser::PermissionRule => "permission-rule".into(),
            Refuser::PermissionPrompt => "permission-prompt".into(),
            Refuser::Unattributed => "unattributed".into(),
        }
    }
}

/// The marker Claude Code puts before a PreToolUse hook's refusal reason.
const HOOK_ERROR: &str = " hook error: ";

/// The refusal without the `<tool_use_error>...</tool_use_error>` wrapper
/// Claude Code sometimes puts around it (seen when a managed hook refused).
fn unwrapped(text: &str) -> &str {
    let t = text.trim();
    let t = t.strip_prefix("<tool_use_error>").unwrap_or(t);
    let t = t.strip_suffix("</tool_use_error>").unwrap_or(t);
    t.trim()
}

/// The reason part of a refusal text: after `PreToolUse:<Tool> hook error: `
/// when present, else the whole text; surrounding whitespace trimmed.
fn reason_part(text: &str) -> &str {
    let text = unwrapped(text);
    match text.find(HOOK_ERROR) {
        Some(i) if text[..i].starts_with("PreToolUse") => text[i + HOOK_ERROR.len()..].trim(),
        _ => text.trim(),
    }
}

/// Whether a refusal's reason part is `given`: the same text, or the text
/// after Claude Code's own preamble (an agent hook's refusal reads `Agent
/// hook condition was not met: <reason>` on 2.1.328). An empty reason is
/// never one.
fn is_reason(reason: &str, given: &str) -> bool {
    let given = given.trim();
    !given.is_empty() && (reason == given || reason.strip_suffix(given).is_some_and(|pre| pre.ends_with(": ")))
}

/// Whether a refusal's whole text (without Claude Code's
/// `<tool_use_error>` wrapper) is exactly `reason`; an empty reason never is.
pub fn is_exactly(text: &str, reason: &str) -> bool {
    let reason = reason.trim();
    !reason.is_empty() && unwrapped(text) == reason
}

/// The label between the brackets of `... hook error: [LABEL]: ...` (a
/// PreToolUse refusal), or of `[LABEL]: ...` opening the text (a
/// PermissionRequest hook's refusal under `onFailure: "block"`, 2.1.328):
/// `Ok` when it is one of `ours`, else the label.
fn bracket_label<'a>(text: &'a str, ours: &[&str]) -> Option<Result<(), &'a str>> {
    let text = unwrapped(text);
    let rest = match text.find(HOOK_ERROR) {
        Some(i) if text[..i].starts_with("PreToolUse") => text[i + HOOK_ERROR.len()..].strip_prefix('[')?,
        _ => text.strip_prefix('[')?,
    };
    if ours.iter().any(|o| !o.is_empty() && rest.strip_prefix(o).is_some_and(|r| r.starts_with("]:"))) {
        return Some(Ok(()));
    }
    let end = rest.find("]: ").or_else(|| rest.find("]:"))?;
    Some(Err(&rest[..end]))
}

/// The header of Claude Code 1.0's PreToolUse refusal (seen on 1.0.61):
/// `<Tool> operation blocked by hook:` then one `- ` item per refusing hook,
/// `- [<command>]: <reason>` for an exit-2 refusal, `- <reason>` for a JSON
/// deny. Later releases say `PreToolUse:<Tool> hook error: ...` instead.
const BLOCKED_BY_HOOK: &str = " operation blocked by hook:";

/// The items of a refusal in Claude Code 1.0's wording, if `text` is one:
/// its first line is `<Tool> operation blocked by hook:` (a tool's name:
/// letters, digits, `_`, `-`), and each item opens a line with `- ` (a multi-line reason
/// stays in its item).
pub fn blocked_by_hook_items(text: &str) -> Option<Vec<&str>> {
    let text = unwrapped(text);
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    let tool = first.trim_end().strip_suffix(BLOCKED_BY_HOOK)?;
    if tool.is_empty() || !tool.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return None;
    }
    let rest = rest.trim();
    if rest.is_empty() {
        return Some(Vec::new());
    }
    let items = rest.strip_prefix("- ")?;
    Some(items.split("\n- ").map(str::trim).collect())
}

/// Claude Code's wording of a JSON deny on some 2.0 releases (seen on
/// 2.0.20): no reason and no hook named, so it can be the hook under test's
/// only when that is the session's sole PreToolUse hook.
pub const GENERIC_HOOK_DENY: &str = "Hook requested permission behavior: deny";

/// Whether a refusal is one of Claude Code's reasonless wordings of a JSON
/// deny: [`GENERIC_HOOK_DENY`] (2.0.20), or `Hook PreToolUse:<Tool> denied
/// this tool` (2.1.240, for a deny without `permissionDecisionReason`).
/// Neither names the hook or the guard's reason.
pub fn is_generic_hook_deny(text: &str) -> bool {
    let t = unwrapped(text);
    t == GENERIC_HOOK_DENY
        || t.strip_prefix("Hook PreToolUse:")
            .and_then(|rest| rest.strip_suffix(" denied this tool"))
            .is_some_and(|tool| !tool.is_empty() && !tool.contains(char::is_whitespace))
}

/// Who refused a call whose error result reads `text`, in the `wording` of
/// the agent that ran (no other agent's words count).
///
/// `decided_reasons` are the reasons of the JSON decisions (deny or ask)
/// seen in the session's PreToolUse hook events; they count only when the
/// hook under test is the session's sole PreToolUse hook.
///
/// Codex CLI words every PreToolUse hook's refusal alike, `Command blocked
/// by PreToolUse hook: <reason>. Command: <command>`, naming no hook and
/// reporting no hook events: such a refusal is the hook under test's when
/// its reason is one of its JSON reasons, or one of its exit-2 reasons that
/// no other hook of the session can give ([`HookIdentity::exit_reasons`]),
/// or when the hook under test is the only PreToolUse hook Codex loads
/// (failopen wrote the session's `CODEX_HOME`, the project holds no
/// `.codex/`, and no system layer in `/etc/codex` has hooks: see
/// `agent::codex::config::system_layers_with_hooks`).
pub fn refuser(text: &str, hook: &HookIdentity, decided_reasons: &[String], wording: &dyn RefusalWording) -> Refuser {
    // Gemini CLI words a BeforeTool hook's refusal alike for every hook
    // too (`Tool execution blocked: <reason>`): the same rule.
    if let Some(reason) = wording.uniform_refusal(text) {
        return match reason {
            Some(reason) if hook.reasons.iter().any(|r| is_reason(reason, r)) => Refuser::HookUnderTest,
            Some(reason) if hook.exit_reasons.iter().any(|r| is_reason(reason, r)) => Refuser::HookUnderTest,
            Some(_) if hook.sole_pretooluse_hook => Refuser::HookUnderTest,
            None if hook.sole_pretooluse_hook && wording.is_reasonless_hook_refusal(text) => Refuser::HookUnderTest,
            _ => Refuser::Unattributed,
        };
    }
    if !wording.names_refusing_hook() {
        return Refuser::Unattributed;
    }
    if let Some(items) = blocked_by_hook_items(text) {
        // Every refusing hook has its item: the hook under test's alone, or it is someone else's.
        let mut by = items.iter().map(|item| refuser(item, hook, decided_reasons, wording));
        return match by.find(|r| *r != Refuser::HookUnderTest) {
            Some(other) => other,
            None if items.is_empty() => Refuser::Unattributed,
            None => Refuser::HookUnderTest,
        };
    }
    let labels: Vec<&str> =
        std::iter::once(hook.label.as_str()).chain(hook.aliases.iter().map(String::as_str)).collect();
    match bracket_label(text, &labels) {
        Some(Ok(())) => return Refuser::HookUnderTest,
        Some(Err(label)) => return Refuser::OtherHook(label.to_string()),
        None => {}
    }
    let reason = reason_part(text);
    if hook.reasons.iter().any(|r| is_reason(reason, r)) {
        return Refuser::HookUnderTest;
    }
    if hook.sole_pretooluse_hook && decided_reasons.iter().any(|r| is_reason(reason, r)) {
        return Refuser::HookUnderTest;
    }
    // Claude Code's own words for a JSON deny, with no reason to tie it: only
    // a hook that gives JSON denies, and only when no other hook could have.
    if hook.may_have_denied_generically(text) {
        return Refuser::HookUnderTest;
    }
    // Before the rules: the don't-ask refusal is worded like a rule's.
    if is_permission_prompt_text(text) {
        return Refuser::PermissionPrompt;
    }
    if is_permission_rule_text(text) {
        return Refuser::PermissionRule;
    }
    Refuser::Unattributed
}

/// Whether a tool result is Claude Code's own refusal of a call that needed
/// approval nobody gave (`claude -p` has no one to ask): `Claude requested
/// permissions to ... but you haven't granted it yet.`, `Output redirection
/// to ... needs approval` (2.1.328) or `... was blocked.` (2.1.240), and the
/// `don't ask mode` refusal.
pub fn is_permission_prompt_text(text: &str) -> bool {
    let t = unwrapped(text);
    (t.starts_with("Claude requested permissions to ") && t.contains("haven't granted it yet"))
        || (t.starts_with("Output redirection to ") && (t.contains("needs approval") || t.contains("was blocked")))
        || (t.starts_with("Permission to use ") && t.contains("don't ask mode"))
}

/// Whether a tool result is Claude Code's wording for a call a permission
/// rule denied: `Permission to use Bash with command ... has been denied.`
/// (a command rule) or `File is in a directory that is denied by your
/// permission settings.` (a path rule on Write or Edit; 2.1.240 gives it no
/// non-execution mark).
pub fn is_permission_rule_text(text: &str) -> bool {
    let t = unwrapped(text);
    (t.starts_with("Permission to use ") && t.contains("has been denied"))
        || t.contains("denied by your permission settings")
}

/// The reason of a JSON decision that refuses (`deny` or `ask`) in a hook's
/// stdout, if it holds one.
pub fn decision_reason(stdout: &str) -> Option<String> {
    let v: Value = serde_json::from_str(stdout.trim()).ok()?;
    let specific = v.get("hookSpecificOutput")?;
    // A PermissionRequest hook decides with `decision: {behavior, message}`.
    if let Some(decision) = specific.get("decision").filter(|d| d.is_object()) {
        return (decision.get("behavior")?.as_str()? == "deny")
            .then(|| decision.get("message").and_then(Value::as_str).unwrap_or_default().to_string());
    }
    let decision = specific.get("permissionDecision")?.as_str()?;
    if !matches!(decision, "deny" | "ask") {
        return None;
    }
    Some(specific.get("permissionDecisionReason").and_then(Value::as_str).unwrap_or_default().to_string())
}

/// Every reason string in a guard script's text: the reasons its JSON
/// decisions can carry (`permissionDecisionReason` of a PreToolUse decision,
/// `message` of a PermissionRequest `decision`, `reason` of a
/// UserPromptSubmit `decision: "block"`).
pub fn reasons_in_script(body: &str) -> Vec<String> {
    const KEYS: [&str; 3] = ["\"permissionDecisionReason\":\"", "\"message\":\"", "\"reason\":\""];
    let mut out = Vec::new();
    for key in KEYS {
        let mut rest = body;
        while let Some(i) = rest.find(key) {
            rest = &rest[i + key.len()..];
            if let Some(end) = rest.find('"') {
                out.push(rest[..end].to_string());
                rest = &rest[end..];
            }
        }
    }
    out
}

/// The reasons of a guard script's exit-2 refusals: the text of each line
/// `printf '<reason>\n' >&2` that the line `exit 2` follows. Read
/// conservatively: a reason with a quote, a backslash or a `%` in it (which
/// `printf` would rewrite) is left out, as is one written any other way.
pub fn exit_reasons_in_script(body: &str) -> Vec<String> {
    let lines: Vec<&str> = body.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    lines
        .windows(2)
        .filter(|pair| pair[1] == "exit 2")
        .filter_map(|pair| pair[0].strip_prefix("printf '")?.strip_suffix("\\n' >&2"))
        .filter(|reason| !reason.trim().is_empty() && !reason.contains(['\'', '\\', '%']))
        .map(str::to_string)
        .collect()
}

/// The programs a hook command may run for failopen to know everything it
/// can print: none reads a file or prints more than its arguments (`cat`
/// its standard input, which is the hook's payload).
const SELF_CONTAINED_PROGRAMS: [&str; 8] = ["cat", "printf", "echo", "exit", "true", "false", "sleep", ":"];

/// The simple commands of a shell command line, split at `;`, `&`, `|`,
/// newlines, parentheses and braces outside quotes (`>&2` and `>&1` are
/// redirections, not splits); `None` when a quote is left open.
fn simple_commands(command: &str) -> Option<Vec<String>> {
    let command = command.replace(">&2", "> ").replace(">&1", "> ");
    let mut out = vec![String::new()];
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, ';' | '&' | '|' | '\n' | '(' | ')' | '{' | '}') => {
                out.push(String::new());
                continue;
            }
            (None, _) => {}
        }
        if let Some(last) = out.last_mut() {
            last.push(c);
        }
    }
    quote.is_none().then_some(out)
}

/// Whether everything a hook command can print is in its own text: it
/// expands nothing (no `$`, backquote, glob, `~`, `<`), writes no escape
/// but `\n` and no `printf` format, and each of its simple commands runs one
/// of [`SELF_CONTAINED_PROGRAMS`] (`cat` with no file, only redirections).
fn is_self_contained(command: &str) -> bool {
    !command.contains('%') && ends_as_written(command)
}

/// Whether a hook command's exit status and output are fixed by its own
/// text: as [`is_self_contained`], but a `printf` format of `%s` and `%%`
/// alone (which cannot fail) is allowed.
fn ends_as_written(command: &str) -> bool {
    if command.contains(['$', '`', '*', '?', '[', '~', '<']) {
        return false;
    }
    if command.match_indices('%').any(|(i, _)| !matches!(command.as_bytes().get(i + 1), Some(b's' | b'%'))) {
        return false;
    }
    if command.match_indices('\\').any(|(i, _)| !command[i + 1..].starts_with('n')) {
        return false;
    }
    let Some(commands) = simple_commands(command) else { return false };
    commands.iter().all(|c| {
        let mut words = c.split_whitespace();
        match words.next() {
            None => true,
            Some("cat") => words.all(|w| w.starts_with('>') || w.starts_with("1>") || w.starts_with("2>")),
            Some(program) => SELF_CONTAINED_PROGRAMS.contains(&program),
        }
    })
}

/// `text` without quotes, `\n` read as a space, and every run of
/// whitespace made one space: what a self-contained command's output can
/// be compared in.
fn flattened(text: &str) -> String {
    let text = text.replace(['\'', '"'], "").replace("\\n", " ");
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Keys of a hook entry that change what it runs or how (arguments, its
/// environment, its shell or directory, or another agent's per-platform
/// command): an entry with any of them may give any text.
const RUN_KEYS: [&str; 9] = ["args", "env", "shell", "cwd", "bash", "powershell", "windows", "linux", "osx"];

/// The command line of a hook entry that runs it as written: a `command`
/// hook with none of the [`RUN_KEYS`] some agent reads to run something
/// else than `command`, or to run it differently. `None` for any other
/// entry, which may print or end in any way.
fn plain_command(entry: &Value) -> Option<&str> {
    let command = match (entry.get("type").and_then(Value::as_str), entry.get("command").and_then(Value::as_str)) {
        (Some("command"), Some(command)) => command,
        _ => return None,
    };
    (!RUN_KEYS.iter().any(|k| entry.get(*k).is_some())).then_some(command)
}

/// Whether another hook of the session, its entry in the settings, may
/// give `reason`: any hook but a self-contained command ([`is_self_contained`])
/// may; such a command may when its text spells the reason out.
pub fn may_give(entry: &Value, reason: &str) -> bool {
    let Some(command) = plain_command(entry) else { return true };
    let reason = flattened(reason);
    !is_self_contained(command) || reason.is_empty() || flattened(command).contains(&reason)
}

/// Of the hook under test's exit-2 reasons `own`, those that none of
/// `others` may give ([`may_give`]): `others` are the entries of every other
/// hook the session loads, all of them written by failopen; `None` when
/// the session may load a hook failopen did not write (managed settings, a
/// system layer, a file it does not read), and then no reason is kept.
pub fn unshared_reasons(own: Vec<String>, others: Option<&[Value]>) -> Vec<String> {
    let Some(others) = others else { return Vec::new() };
    own.into_iter().filter(|r| !others.iter().any(|o| may_give(o, r))).collect()
}

/// Whether another hook of the session, its entry in the settings, may end
/// `ending`, or give the agent's `words` for it as its own answer: any hook
/// but a command whose exit status and output its own text fix
/// ([`ends_as_written`]) may. Such a command exits 2 only through an
/// `exit 2` of its own; fails only through another `exit <n>`, a `false`,
/// or a `sleep` that may outlive its timeout (`cat` with no file, `printf`
/// and `echo` exit 0); and gives the words only when its text spells them out.
pub fn may_end(entry: &Value, ending: HookEnding, words: &str) -> bool {
    let Some(command) = plain_command(entry).filter(|c| ends_as_written(c)) else { return true };
    let Some(commands) = simple_commands(command) else { return true };
    let ends_so = commands.iter().any(|c| {
        let words: Vec<&str> = c.split_whitespace().collect();
        match (ending, words.as_slice()) {
            (HookEnding::Exit2, ["exit", code, ..]) => code.trim_matches(['\'', '"']) == "2",
            (HookEnding::Failed, ["exit", code, ..]) => !matches!(code.trim_matches(['\'', '"']), "0" | "2"),
            (HookEnding::Failed, ["false", ..] | ["sleep", ..]) => true,
            _ => false,
        }
    });
    ends_so || flattened(command).contains(&flattened(words))
}

/// The agent's own words for the hook under test's endings
/// ([`RefusalWording::ending_reason`]: Copilot CLI's `hook exited with code
/// 2`, `hook errored`) that none of `others` may end with ([`may_end`]):
/// such words, which name no hook, can then only be the hook under test's,
/// as an exit-2 reason no other hook can give ([`unshared_reasons`]).
/// `others` as for [`unshared_reasons`]: `None` keeps nothing.
pub fn unshared_endings(wording: &dyn RefusalWording, others: Option<&[Value]>) -> Vec<String> {
    let Some(others) = others else { return Vec::new() };
    [HookEnding::Exit2, HookEnding::Failed]
        .into_iter()
        .filter_map(|ending| wording.ending_reason(ending).map(|words| (ending, words)))
        .filter(|(ending, words)| !others.iter().any(|o| may_end(o, *ending, words)))
        .map(|(_, words)| words.to_string())
        .collect()
}

#[cfg(test)]
mod tests;
