//! Seal mode's last line of defence: a panic must end in a refusal (exit 2).
//!
//! Rust exits 101 after an uncaught panic, and Claude Code reads any exit
//! code other than 2 as "no objection". [`quiet_panics`] replaces the panic
//! hook with one that only records the message (the default hook would print
//! a backtrace hint that reads like a hook reason); [`catch`] turns a panic
//! into an `Err` with that message, and [`panic_refusal`] words the one line
//! seal prints for it.

use std::panic::{self, AssertUnwindSafe, PanicHookInfo};
use std::sync::Mutex;

/// The message and location of the last panic, as recorded by the quiet hook.
static LAST_PANIC: Mutex<Option<String>> = Mutex::new(None);

/// Replace the panic hook with one that records the panic instead of
/// printing it. Returns the previous hook, to put back with
/// `std::panic::set_hook` if the process turns out not to be seal.
pub fn quiet_panics() -> Box<dyn Fn(&PanicHookInfo<'_>) + Sync + Send + 'static> {
    let previous = panic::take_hook();
    panic::set_hook(Box::new(|info| {
        let text = describe(info);
        *LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some(text);
    }));
    previous
}

/// Run `f`; a panic inside it becomes `Err(message)` (the recorded message
/// when the quiet hook is installed, else the panic payload's text).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    panic::catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let recorded = LAST_PANIC.lock().unwrap_or_else(|e| e.into_inner()).take();
        recorded.unwrap_or_else(|| payload_text(payload.as_ref()))
    })
}

/// The refusal line for a panic inside seal (newline included).
pub fn panic_refusal(message: &str) -> String {
    let message = message.replace('\n', " ");
    format!("failopen seal: seal itself failed (panicked: {message}); refusing by default\n")
}

fn describe(info: &PanicHookInfo<'_>) -> String {
    let text = payload_text(info.payload());
    match info.location() {
        Some(at) => format!("{text} at {}:{}", at.file(), at.line()),
        None => text,
    }
}

fn payload_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_one_refusal_line() {
        let err = catch(|| -> i32 { panic!("boom {}", 42) }).unwrap_err();
        assert!(err.contains("boom 42"), "{err}");
        let line = panic_refusal(&err);
        assert!(line.starts_with("failopen seal: seal itself failed (panicked: boom 42"), "{line}");
        assert!(line.ends_with("; refusing by default\n"), "{line}");
        assert_eq!(line.matches('\n').count(), 1, "{line}");
        assert_eq!(catch(|| 2), Ok(2));
    }

    #[test]
    fn multi_line_messages_stay_on_one_line() {
        assert_eq!(panic_refusal("a\nb").matches('\n').count(), 1);
    }
}
