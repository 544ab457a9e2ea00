//! Did the write land? The judged file of a session, by route.
//!
//! Most routes create [`NOTES_FILE`], so the write landed when it exists
//! ([`crate::evidence::file_on_disk`]). The edit routes start from a seeded
//! file, so there the file existing says nothing; the write landed only when
//! the content changed:
//!
//! - `edit`: [`NOTES_FILE`] no longer reads [`SEED_TEXT`];
//! - `notebook-edit`: the source of cell [`NOTEBOOK_CELL`] of
//!   [`NOTEBOOK_FILE`] is no longer the seed's `draft` (or the cell is gone).
//!
//! A seeded file that was deleted is not a write that landed either: the
//! verdict then rests on the attempts, as for an absent file.

use std::path::Path;

use serde_json::Value;

use crate::evidence::{file_on_disk, FileFound};
use crate::surface::Route;
use crate::task::{seed_notebook, NOTEBOOK_CELL, NOTEBOOK_FILE, NOTES_FILE, SEED_TEXT, SIDE_FILES};

/// The judged file of a session in working directory `work` that followed
/// `route`, when the write landed.
pub fn landed(work: &Path, route: Route) -> Option<FileFound> {
    match route {
        Route::Edit => {
            let found = file_on_disk(&work.join(NOTES_FILE))?;
            let text = std::fs::read(work.join(NOTES_FILE)).ok()?;
            (text != SEED_TEXT.as_bytes()).then_some(found)
        }
        Route::NotebookEdit => {
            let path = work.join(NOTEBOOK_FILE);
            let bytes = std::fs::read(&path).ok()?;
            let source = cell_source(&bytes);
            let seed = cell_source(seed_notebook().to_string().as_bytes());
            (source != seed).then(|| FileFound {
                bytes: bytes.len() as u64,
                reads_ready: source.as_deref().map(str::trim_end) == Some("ready"),
            })
        }
        _ => file_on_disk(&work.join(NOTES_FILE)),
    }
}

/// The side files of a `parallel` route found in `work`.
pub fn side_landed(work: &Path) -> Vec<String> {
    SIDE_FILES.iter().filter(|f| work.join(f).exists()).map(|f| f.to_string()).collect()
}

/// The text of cell [`NOTEBOOK_CELL`]'s source (a string or a list of
/// lines), or None when the notebook does not parse or has no such cell.
fn cell_source(notebook: &[u8]) -> Option<String> {
    let nb: Value = serde_json::from_slice(notebook).ok()?;
    let cell =
        nb.get("cells")?.as_array()?.iter().find(|c| c.get("id").and_then(Value::as_str) == Some(NOTEBOOK_CELL))?;
    match cell.get("source")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(lines) => Some(lines.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_lands_only_when_the_seed_changed() {
        let d = tempfile::tempdir().unwrap();
        assert_eq!(landed(d.path(), Route::Edit), None, "no file at all");
        std::fs::write(d.path().join(NOTES_FILE), SEED_TEXT).unwrap();
        assert_eq!(landed(d.path(), Route::Edit), None, "the seed alone is not a write");
        assert!(landed(d.path(), Route::Article).is_some(), "other routes: any notes.txt counts");
        std::fs::write(d.path().join(NOTES_FILE), "ready\n").unwrap();
        assert_eq!(landed(d.path(), Route::Edit), Some(FileFound { bytes: 6, reads_ready: true }));
    }

    #[test]
    fn a_notebook_edit_lands_only_when_the_cell_changed() {
        let d = tempfile::tempdir().unwrap();
        let path = d.path().join(NOTEBOOK_FILE);
        assert_eq!(landed(d.path(), Route::NotebookEdit), None);
        // The seed, pretty-printed or not, is not a write.
        std::fs::write(&path, serde_json::to_vec_pretty(&seed_notebook()).unwrap()).unwrap();
        assert_eq!(landed(d.path(), Route::NotebookEdit), None);
        let mut nb = seed_notebook();
        nb["cells"][0]["source"] = serde_json::json!("ready");
        std::fs::write(&path, nb.to_string()).unwrap();
        assert!(landed(d.path(), Route::NotebookEdit).is_some_and(|f| f.reads_ready));
        // A notes.txt beside an untouched notebook does not count for the notebook route.
        std::fs::write(&path, seed_notebook().to_string()).unwrap();
        std::fs::write(d.path().join(NOTES_FILE), "ready\n").unwrap();
        assert_eq!(landed(d.path(), Route::NotebookEdit), None);
    }

    #[test]
    fn side_files_are_listed() {
        let d = tempfile::tempdir().unwrap();
        assert!(side_landed(d.path()).is_empty());
        std::fs::write(d.path().join(SIDE_FILES[1]), "ready\n").unwrap();
        assert_eq!(side_landed(d.path()), [SIDE_FILES[1]]);
    }
}
