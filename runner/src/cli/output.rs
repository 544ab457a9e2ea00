//! Writing results: stdout that tolerates a closed pipe, and `--out` paths
//! checked before any work.

use std::io::Write;
use std::path::Path;

/// Write `text` to stdout; a closed pipe (`failopen report x.csv | head`)
/// is not an error.
pub fn emit(text: &str) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(anyhow::anyhow!("writing to stdout: {e}")),
        _ => Ok(()),
    }
}

/// [`emit`] with a newline.
pub fn emit_line(text: &str) -> anyhow::Result<()> {
    emit(&format!("{text}\n"))
}

/// Refuse an `--out` path that is not a file path, or whose directory is
/// missing or not writable, before any work. `create_dir`: make the
/// directory first (for `run`'s default `results/`).
pub fn check_out(out: &Path, create_dir: bool) -> anyhow::Result<()> {
    if out.file_name().is_none() {
        anyhow::bail!("--out {}: not a file path", out.display());
    }
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.exists() {
        if !create_dir {
            anyhow::bail!("--out {}: directory {} does not exist", out.display(), dir.display());
        }
        std::fs::create_dir_all(dir)
            .map_err(|e| anyhow::anyhow!("--out {}: creating {}: {e}", out.display(), dir.display()))?;
    }
    if let Err(e) = tempfile::Builder::new().prefix(".failopen-write-probe").tempfile_in(dir) {
        anyhow::bail!("--out {}: directory {} is not writable: {e}", out.display(), dir.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_paths_are_checked_before_work() {
        let d = tempfile::tempdir().unwrap();
        assert!(check_out(&d.path().join("x.csv"), false).is_ok());
        let missing = d.path().join("no/such/x.csv");
        let err = check_out(&missing, false).unwrap_err().to_string();
        assert!(err.contains("--out") && err.contains("does not exist"), "{err}");
        assert!(check_out(&missing, true).is_ok());
        assert!(d.path().join("no/such").is_dir());
        assert!(check_out(Path::new("/"), false).is_err());
    }
}
