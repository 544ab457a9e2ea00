//! The session pool: where the sessions of a run or an audit wait for a
//! slot, what stops them, and what a hard stop kills and removes.
//!
//! - [`Interrupt`] is made first (the command line hands it to its signal
//!   handler): [`Interrupt::stop`] on the first signal cancels every session,
//!   [`Interrupt::hard_stop`] on the second kills every registered process
//!   group and every process tagged as this process's, and removes the temp
//!   roots.
//! - [`Pool`] holds the `jobs` slots, the extra slots for long, mostly idle
//!   sessions (hangs), and the temp root (`$TMPDIR/failopen-run-<pid>-*`)
//!   that sessions live under.
//! - Session ids start with `<pid>-` ([`session_id`]), and every process of
//!   a session carries its id in [`crate::reap::TAG_VAR`], so a hard stop
//!   finds even processes that left their group.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::reap;

/// Long, mostly idle sessions (hangs, sleeps: see
/// [`crate::guards::Guard::long_running`]) allowed per `--jobs` slot.
pub const LONG_SLOTS_PER_JOB: usize = 4;

/// The process groups of the sessions running now.
#[derive(Debug, Clone, Default)]
pub struct GroupRegistry(Arc<Mutex<HashSet<u32>>>);

impl GroupRegistry {
    /// A session's group started.
    pub fn insert(&self, pgid: u32) {
        self.lock().insert(pgid);
    }

    /// A session's group was killed and reaped.
    pub fn remove(&self, pgid: u32) {
        self.lock().remove(&pgid);
    }

    /// How many groups are registered.
    pub fn count(&self) -> usize {
        self.lock().len()
    }

    /// SIGKILL every registered group.
    pub fn kill_all(&self) {
        let groups: Vec<u32> = self.lock().iter().copied().collect();
        for g in groups {
            reap::kill_group(g);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<u32>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// How a run or an audit is stopped: a cancellation token for the first
/// signal, and the registry a hard stop kills.
#[derive(Debug, Clone, Default)]
pub struct Interrupt {
    cancel: CancellationToken,
    groups: GroupRegistry,
}

impl Interrupt {
    /// A fresh interrupt: nothing stopped, no group registered.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Stop launching sessions and end the running ones (their rows are not written).
    pub fn stop(&self) {
        self.cancel.cancel();
    }

    /// Whether [`Interrupt::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Resolves when [`Interrupt::stop`] is called.
    pub async fn stopped(&self) {
        self.cancel.cancelled().await
    }

    /// The groups of the sessions running now.
    pub fn groups(&self) -> &GroupRegistry {
        &self.groups
    }

    /// Kill every session's group and every process tagged as this
    /// process's (hooks run in groups of their own), and remove this
    /// process's temp roots unless `keep`. For a second signal, right
    /// before the process exits.
    pub fn hard_stop(&self, keep: bool) {
        // From here on no pool makes a temp root, so none appears between
        // the removal below and the exit that follows.
        let mut hard_stopped = ROOTS.lock().unwrap_or_else(|p| p.into_inner());
        *hard_stopped = true;
        self.stop();
        self.groups.kill_all();
        reap::reap_prefix(&session_id(""));
        if !keep {
            remove_temp_roots_until_gone(&std::env::temp_dir(), REMOVAL_GRACE);
        }
    }
}

/// A session id (and process tag) of this process: `<pid>-<name>`.
pub fn session_id(name: &str) -> String {
    format!("{}-{name}", std::process::id())
}

/// The name prefix of this process's temp roots, `failopen-run-<pid>-`.
pub fn temp_root_prefix() -> String {
    format!("failopen-run-{}-", std::process::id())
}

/// Whether a hard stop happened (no temp root may be made after it), behind
/// the lock that making a root and the hard stop's removal both take.
static ROOTS: Mutex<bool> = Mutex::new(false);

/// How long a hard stop keeps removing temp roots that are still being
/// written to (a session's task or the stand-in may add a file while
/// `remove_dir_all` walks the tree, which then fails with "not empty").
const REMOVAL_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

/// Remove this process's temp roots under `tmp` (a hard stop skips their
/// normal cleanup). Returns how many are still there.
pub fn remove_temp_roots(tmp: &Path) -> usize {
    let prefix = temp_root_prefix();
    let Ok(entries) = std::fs::read_dir(tmp) else { return 0 };
    let mut left = 0;
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix)
            && std::fs::remove_dir_all(entry.path()).is_err()
            && entry.path().exists()
        {
            left += 1;
        }
    }
    left
}

/// [`remove_temp_roots`] again until none is left or `grace` has passed.
fn remove_temp_roots_until_gone(tmp: &Path, grace: std::time::Duration) {
    let until = std::time::Instant::now() + grace;
    while remove_temp_roots(tmp) > 0 && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Slots for sessions, the interrupt that stops them, and their temp root.
#[derive(Debug)]
pub struct Pool {
    jobs: Arc<Semaphore>,
    long: Option<Arc<Semaphore>>,
    interrupt: Interrupt,
    root: tempfile::TempDir,
    counter: AtomicU64,
}

impl Pool {
    /// `jobs` sessions at once, and, with `long_slots`, that many long
    /// sessions beside them (a hang waits for seconds on almost no CPU, so
    /// holding a `jobs` slot would leave a core idle). Creates the temp root.
    /// Fails once a hard stop has begun.
    pub fn new(jobs: usize, long_slots: Option<usize>, interrupt: Interrupt) -> std::io::Result<Pool> {
        let hard_stopped = ROOTS.lock().unwrap_or_else(|p| p.into_inner());
        if *hard_stopped {
            return Err(std::io::Error::new(std::io::ErrorKind::Interrupted, "stopped at once by a second signal"));
        }
        let root = tempfile::Builder::new().prefix(&temp_root_prefix()).tempdir()?;
        drop(hard_stopped);
        std::fs::create_dir_all(root.path().join("sessions"))?;
        Ok(Pool {
            jobs: Arc::new(Semaphore::new(jobs.max(1))),
            long: long_slots.map(|n| Arc::new(Semaphore::new(n.max(1)))),
            interrupt,
            root,
            counter: AtomicU64::new(0),
        })
    }

    /// The temp root (guard scripts and other per-run files go here).
    pub fn root(&self) -> &Path {
        self.root.path()
    }

    /// Where a run writes each cell's own copy of the guard scripts
    /// (`cell-N/`): bound writable into that cell's sandbox, as it is
    /// writable outside ([`crate::sandbox::Contain::own`]).
    pub fn guards_dir(&self) -> PathBuf {
        self.root.path().join("guards")
    }

    /// Where session temp roots are made.
    pub fn sessions_dir(&self) -> PathBuf {
        self.root.path().join("sessions")
    }

    /// The interrupt that stops this pool's sessions.
    pub fn interrupt(&self) -> &Interrupt {
        &self.interrupt
    }

    /// Wait for a slot: a long one for a `long` session when the pool has
    /// them, else a `jobs` one. `None` once the pool is stopped.
    pub async fn slot(&self, long: bool) -> Option<OwnedSemaphorePermit> {
        let semaphore = match (&self.long, long) {
            (Some(l), true) => l.clone(),
            _ => self.jobs.clone(),
        };
        let permit = tokio::select! {
            p = semaphore.acquire_owned() => p.ok(),
            _ = self.interrupt.stopped() => None,
        };
        permit.filter(|_| !self.interrupt.is_stopped())
    }

    /// A fresh session id of this process: `<pid>-<name>-<n>`.
    pub fn next_id(&self, name: &str) -> String {
        session_id(&format!("{name}-{}", self.counter.fetch_add(1, Ordering::Relaxed)))
    }

    /// Keep the temp root on disk and return where it is.
    pub fn keep(self) -> PathBuf {
        self.root.keep()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn long_sessions_wait_beside_the_jobs() {
        let pool = Pool::new(1, Some(2), Interrupt::new()).unwrap();
        let job = pool.slot(false).await.unwrap();
        // The one job slot is taken; long slots are still free.
        let a = pool.slot(true).await.unwrap();
        let b = pool.slot(true).await.unwrap();
        assert_eq!(pool.jobs.available_permits(), 0);
        drop((job, a, b));
        // Without long slots, a long session takes a job slot.
        let pool = Pool::new(1, None, Interrupt::new()).unwrap();
        let _a = pool.slot(true).await.unwrap();
        assert_eq!(pool.jobs.available_permits(), 0);
    }

    #[tokio::test]
    async fn a_stopped_pool_gives_no_slot_even_to_a_waiter() {
        let pool = Arc::new(Pool::new(1, None, Interrupt::new()).unwrap());
        let held = pool.slot(false).await.unwrap();
        let waiter = {
            let pool = pool.clone();
            tokio::spawn(async move { pool.slot(false).await.is_some() })
        };
        pool.interrupt().stop();
        assert!(!waiter.await.unwrap(), "a waiter gets nothing after a stop");
        drop(held);
        assert!(pool.slot(false).await.is_none());
    }

    #[test]
    fn ids_and_roots_carry_the_process_id() {
        let pid = std::process::id();
        assert_eq!(session_id("x"), format!("{pid}-x"));
        let pool = Pool::new(1, None, Interrupt::new()).unwrap();
        assert_eq!(pool.next_id("cell"), format!("{pid}-cell-0"));
        assert_eq!(pool.next_id("cell"), format!("{pid}-cell-1"));
        let name = pool.root().file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with(&format!("failopen-run-{pid}-")), "{name}");
        assert!(pool.sessions_dir().is_dir());
    }

    #[test]
    fn remove_temp_roots_takes_only_this_process_roots() {
        let tmp = tempfile::tempdir().unwrap();
        let mine = tmp.path().join(format!("{}abc", temp_root_prefix()));
        let other = tmp.path().join("failopen-run-1-abc");
        std::fs::create_dir_all(mine.join("x")).unwrap();
        std::fs::create_dir_all(&other).unwrap();
        remove_temp_roots(tmp.path());
        assert!(!mine.exists());
        assert!(other.exists());
    }

    #[test]
    fn a_root_still_written_to_is_removed_once_its_writer_stops() {
        let tmp = tempfile::tempdir().unwrap();
        let mine = tmp.path().join(format!("{}busy", temp_root_prefix()));
        let busy = mine.join("sessions").join("s");
        std::fs::create_dir_all(&busy).unwrap();
        let writer = {
            let busy = busy.clone();
            std::thread::spawn(move || {
                let until = std::time::Instant::now() + std::time::Duration::from_millis(300);
                let mut n = 0u64;
                while std::time::Instant::now() < until {
                    let _ = std::fs::write(busy.join(format!("f{n}")), b"x");
                    n += 1;
                }
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(20));
        remove_temp_roots_until_gone(tmp.path(), REMOVAL_GRACE);
        writer.join().unwrap();
        assert!(!mine.exists(), "left: {:?}", std::fs::read_dir(&busy).map(|d| d.count()));
    }
}
