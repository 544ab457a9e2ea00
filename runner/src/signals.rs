//! Signals for the commands that run sessions (`run`, `audit`), and the
//! panic hook: nothing of ours outlives the process.

use failopen::run::LiveGroups;
use tokio_util::sync::CancellationToken;

/// Exit code after an interrupt (128 + SIGINT).
pub const EXIT_INTERRUPTED: i32 = 130;

/// First SIGINT/SIGTERM: stop launching, kill running sessions, keep rows.
/// Second: kill every running session's group and every process tagged as
/// this run's, remove the run's temp root (unless `keep`), and exit at once.
pub fn spawn_handler(cancel: CancellationToken, live: LiveGroups, keep: bool) {
    tokio::spawn(async move {
        let Ok(mut term) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) else { return };
        let mut count = 0;
        loop {
            tokio::select! {
                r = tokio::signal::ctrl_c() => { if r.is_err() { return; } }
                _ = term.recv() => {}
            }
            count += 1;
            if count == 1 {
                eprintln!("\nfailopen: interrupted; stopping sessions (again to quit at once)");
                cancel.cancel();
            } else {
                let groups: Vec<u32> = live.lock().unwrap_or_else(|p| p.into_inner()).iter().copied().collect();
                for g in groups {
                    failopen::reap::kill_group(g);
                }
                // Hooks run in their own process groups: find them by tag.
                failopen::reap::reap_prefix(&format!("{}-", std::process::id()));
                if !keep {
                    remove_run_roots();
                }
                std::process::exit(EXIT_INTERRUPTED);
            }
        }
    });
}

/// Remove this process's temp roots (`$TMPDIR/failopen-run-<pid>-*`, see
/// [`failopen::run::temp_root_prefix`]), for a hard stop that skips their
/// normal cleanup.
pub fn remove_run_roots() {
    let prefix = failopen::run::temp_root_prefix();
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else { return };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// On a panic of the main thread (the process is about to end), kill every
/// process tagged as one of this process's sessions, including what left
/// its group, and remove the temp roots; then report the panic as usual.
/// A panic inside one session's task unwinds that session alone, whose
/// process group is killed as it unwinds (`failopen::session`).
pub fn install_panic_reaper() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some("main") {
            failopen::reap::reap_prefix(&format!("{}-", std::process::id()));
            remove_run_roots();
        }
        default(info);
    }));
}
