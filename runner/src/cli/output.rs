//! Writing results: stdout that tolerates a closed pipe, and `--out` paths
//! checked before any work.

use std::io::Write;
use std::path::Path;

use failopen::report::Page;

/// The file that marks a folder as one `write_folder` wrote, so that it may
/// be replaced whole next time (any other folder with files in it is refused).
pub const FOLDER_MARK: &str = ".failopen-site";

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

/// Write `pages` as the folder `out`, replacing it whole when it is one
/// this function wrote before ([`FOLDER_MARK`]); a folder with anything
/// else in it is refused, so nothing of the user's is lost. The pages are
/// written beside it first, then swapped in.
pub fn write_folder(out: &Path, pages: &[Page]) -> anyhow::Result<()> {
    let err = |what: String| anyhow::anyhow!("--out {}: {what}", out.display());
    if out.exists() {
        if !out.is_dir() {
            return Err(err("not a folder (the site is a folder of pages)".into()));
        }
        let empty = std::fs::read_dir(out).map_err(|e| err(e.to_string()))?.next().is_none();
        if !empty && !out.join(FOLDER_MARK).is_file() {
            return Err(err(format!(
                "has files failopen did not write (no {FOLDER_MARK}); give a new or empty folder"
            )));
        }
    }
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let fresh =
        tempfile::Builder::new().prefix(".failopen-site-new-").tempdir_in(parent).map_err(|e| err(e.to_string()))?;
    for page in pages {
        let rel = Path::new(&page.path);
        if rel.is_absolute() || rel.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(err(format!("page path {:?} leaves the folder", page.path)));
        }
        let file = fresh.path().join(rel);
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| err(format!("{}: {e}", dir.display())))?;
        }
        std::fs::write(&file, &page.text).map_err(|e| err(format!("{}: {e}", page.path)))?;
    }
    std::fs::write(
        fresh.path().join(FOLDER_MARK),
        "failopen report wrote this folder, and replaces it whole when it writes it again.\n",
    )
    .map_err(|e| err(e.to_string()))?;
    // A temp folder is private (0700); the site is for anyone to read.
    std::fs::set_permissions(fresh.path(), std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .map_err(|e| err(e.to_string()))?;
    let old =
        tempfile::Builder::new().prefix(".failopen-site-old-").tempdir_in(parent).map_err(|e| err(e.to_string()))?;
    let kept = old.path().join("site");
    if out.exists() {
        std::fs::rename(out, &kept).map_err(|e| err(format!("moving the old site aside: {e}")))?;
    }
    let fresh = fresh.keep();
    if let Err(e) = std::fs::rename(&fresh, out) {
        let _ = std::fs::remove_dir_all(&fresh);
        if kept.exists() {
            let _ = std::fs::rename(&kept, out);
        }
        return Err(err(format!("moving the new site in: {e}")));
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

    #[test]
    fn a_folder_is_replaced_whole_only_when_failopen_wrote_it() {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("site");
        let page = |path: &str, text: &str| Page { path: path.into(), text: text.into() };
        write_folder(&out, &[page("index.html", "one"), page("a/b.html", "b")]).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("a/b.html")).unwrap(), "b");
        write_folder(&out, &[page("index.html", "two")]).unwrap();
        assert_eq!(std::fs::read_to_string(out.join("index.html")).unwrap(), "two");
        assert!(!out.join("a").exists(), "a page that is gone goes");
        let names: Vec<_> = std::fs::read_dir(d.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names, ["site"], "no temp folder left beside it");

        let mine = d.path().join("mine");
        std::fs::create_dir(&mine).unwrap();
        std::fs::write(mine.join("notes.txt"), "keep").unwrap();
        let e = write_folder(&mine, &[page("index.html", "x")]).unwrap_err().to_string();
        assert!(e.contains("did not write"), "{e}");
        assert_eq!(std::fs::read_to_string(mine.join("notes.txt")).unwrap(), "keep");
        assert!(write_folder(&out, &[page("../x.html", "x")]).unwrap_err().to_string().contains("leaves the folder"));
        assert_eq!(std::fs::read_to_string(out.join("index.html")).unwrap(), "two", "a refused site changes nothing");
    }
}
