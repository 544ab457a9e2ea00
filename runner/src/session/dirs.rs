//! A session's temp root: `work/`, `home/`, `tmp/`, `evidence/`.

use std::path::{Path, PathBuf};

use super::{SessionDir, SessionFile};

/// The directories of a session's temp root.
pub(crate) struct Dirs {
    pub(crate) work: PathBuf,
    pub(crate) home: PathBuf,
    pub(crate) tmp: PathBuf,
    pub(crate) evidence: PathBuf,
}

impl Dirs {
    /// Write `file` under its directory, refusing paths that leave it.
    pub(crate) fn place(&self, file: &SessionFile) -> std::io::Result<()> {
        use std::path::Component;
        if !file.path.components().all(|c| matches!(c, Component::Normal(_))) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("session file {}: must be a relative path inside the session", file.path.display()),
            ));
        }
        let base = match file.dir {
            SessionDir::Work => &self.work,
            SessionDir::Home => &self.home,
            SessionDir::Evidence => &self.evidence,
        };
        let path = base.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, &file.contents)
    }

    pub(crate) fn create(root: &Path) -> std::io::Result<Dirs> {
        let d = Dirs {
            work: root.join("work"),
            home: root.join("home"),
            tmp: root.join("tmp"),
            evidence: root.join("evidence"),
        };
        for p in [&d.work, &d.home, &d.tmp, &d.evidence] {
            std::fs::create_dir_all(p)?;
        }
        Ok(d)
    }
}
