//! Reading a user's files without trusting what they are.
//!
//! A hook's script, a settings file or a skill may be a FIFO, a device or a
//! huge file: everything audit reads goes through [`crate::file_read`],
//! which opens without blocking, reads only a regular file, and to a bound.

use std::path::Path;

use crate::file_read::read_head;
pub use crate::file_read::read_text;

/// The most audit reads of one settings file, skill or hook config.
pub const MAX_CONFIG_BYTES: u64 = 64 << 20;

/// The program a script's `#!` line runs (`/usr/bin/env X` → `X`).
pub fn shebang_interpreter(path: &Path) -> Option<String> {
    let head = read_head(path, 256)?;
    let text = String::from_utf8_lossy(&head);
    let line = text.strip_prefix("#!")?.lines().next()?.trim().to_string();
    let mut words = line.split_whitespace();
    let first = words.next()?.to_string();
    if first.ends_with("/env") {
        return words.find(|w| !w.starts_with('-') && !super::command::is_assignment(w)).map(str::to_string);
    }
    Some(first)
}
