//! Signals for the subcommands that run sessions (`run`, `audit`), and the
//! panic hook: nothing of ours outlives the process.

use failopen::pool::Interrupt;

use super::ExitCode;

/// First SIGINT/SIGTERM: [`Interrupt::stop`] (stop launching, end the
/// running sessions, keep the rows). Second: [`Interrupt::hard_stop`] (kill
/// every session's group and every tagged process, remove the temp roots
/// unless `keep`) and exit at once. `after`: what the first message adds
/// (how to go on from where the command stopped), if anything.
pub fn spawn_handler(interrupt: Interrupt, keep: bool, after: Option<String>) {
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
                let after = after.as_deref().map(|a| format!("; {a}")).unwrap_or_default();
                eprintln!("\nfailopen: interrupted; stopping sessions (again to quit at once){after}");
                interrupt.stop();
            } else {
                interrupt.hard_stop(keep);
                std::process::exit(ExitCode::Interrupted.code());
            }
        }
    });
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
            Interrupt::new().hard_stop(false);
        }
        default(info);
    }));
}
