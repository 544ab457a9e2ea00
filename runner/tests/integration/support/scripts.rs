//! Writing executable scripts from a multi-threaded test process.
//!
//! A file this process opened for writing can be inherited, for an instant,
//! by a child another test thread is forking; executing the file then fails
//! with ETXTBSY. So the bytes are written by a short-lived `sh` child (this
//! process never holds the file open for writing), and the mode is set by
//! path.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Write `text` to `path` with `mode`; returns the path.
pub fn write_mode(path: &Path, text: &[u8], mode: u32) -> PathBuf {
    let mut child = Command::new("sh")
        .args(["-c", "cat > \"$1\"", "sh"])
        .arg(path)
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawning sh to write a script");
    child.stdin.take().unwrap().write_all(text).unwrap();
    assert!(child.wait().unwrap().success(), "writing {}", path.display());
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    path.to_path_buf()
}

/// Write an executable (0755) script.
pub fn write(path: &Path, text: &str) -> PathBuf {
    write_mode(path, text.as_bytes(), 0o755)
}
