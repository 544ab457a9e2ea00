//! Reading a file failopen does not trust to be what it seems: a user's
//! settings, skill or hook script (audit), or a file an agent under test
//! wrote in its session (its log, its transcript, a hooks file it names).
//!
//! Any of them may be a FIFO, a device or a huge file. `std::fs::read_to_string`
//! would block forever in `open()` on a FIFO with no writer (and SIGTERM
//! would not end the run), or read a device without end. The file is opened
//! without blocking, must be a regular file by `fstat` of the opened
//! descriptor (so no swap between check and open), and is read to a bound.

use std::fs::File;
use std::io::{self, Read};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// The most failopen reads of a file an agent under test wrote in its
/// session (its log, its transcript); a guard's stderr may be kept in one.
pub const MAX_AGENT_FILE_BYTES: u64 = 64 << 20;

/// Open `path` for reading without blocking, and only if it is a regular file.
fn open_regular(path: &Path) -> io::Result<File> {
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(nix::libc::O_NONBLOCK | nix::libc::O_NOCTTY).open(path)?;
    let kind = file.metadata()?.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    let what = if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    };
    Err(io::Error::new(io::ErrorKind::InvalidInput, format!("it is {what}, not a regular file")))
}

/// The whole of a regular file as UTF-8, refused when larger than `limit`.
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    let mut text = String::new();
    open_regular(path)?.take(limit + 1).read_to_string(&mut text)?;
    if text.len() as u64 > limit {
        return Err(io::Error::new(io::ErrorKind::InvalidData, format!("it is larger than {limit} bytes")));
    }
    Ok(text)
}

/// Up to `n` bytes from the start of a regular file; `None` when it is not
/// one or cannot be read.
pub fn read_head(path: &Path, n: usize) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(n);
    open_regular(path).ok()?.take(n as u64).read_to_end(&mut head).ok()?;
    Some(head)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fifo(dir: &Path) -> std::path::PathBuf {
        let p = dir.join("fifo");
        nix::unistd::mkfifo(&p, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        p
    }

    #[test]
    fn a_fifo_is_refused_without_blocking() {
        let d = tempfile::tempdir().unwrap();
        let p = fifo(d.path());
        // A blocking open would hang this test (no writer ever comes).
        let err = read_text(&p, 1 << 20).unwrap_err();
        assert!(err.to_string().contains("a FIFO"), "{err}");
        assert_eq!(read_head(&p, 256), None);
    }

    #[test]
    fn a_directory_and_a_device_are_refused() {
        let d = tempfile::tempdir().unwrap();
        assert!(read_text(d.path(), 10).unwrap_err().to_string().contains("directory"));
        assert!(read_text(Path::new("/dev/zero"), 10).unwrap_err().to_string().contains("device"));
    }

    #[test]
    fn a_regular_file_is_read_up_to_its_bound() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        std::fs::write(&p, "#!/bin/sh\necho hi\n").unwrap();
        assert_eq!(read_text(&p, 100).unwrap(), "#!/bin/sh\necho hi\n");
        assert_eq!(read_head(&p, 4).unwrap(), b"#!/b");
        let err = read_text(&p, 5).unwrap_err();
        assert!(err.to_string().contains("larger than 5 bytes"), "{err}");
    }
}
