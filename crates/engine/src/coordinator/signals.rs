//! Stopping a run: a `Stop` handle, made at the top (the command, the agent) and passed down to
//! whoever waits: the run loop (`gather.rs`), the waits of `distributed/pod_link.rs` (accepting
//! pods, dialling the coordinator), a test's fault (`fault.rs`). An interrupted run is still
//! written, marked "interrupted".
//!
//! Ctrl-C and SIGTERM: a C signal handler can only write a static, so the one static of the
//! engine's stopping lives here, private. `install_signal_handlers` returns a handle that also
//! reads it; a handle made with `Stop::new` never does, so a test can stop one run (or leave it
//! running) without touching process-global state.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Set by the handlers only; read only by the handles `install_signal_handlers` returned.
static SIGNALLED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
}

/// Whether (and how) a run is asked to stop. Clones share the request.
#[derive(Clone, Debug, Default)]
pub struct Stop {
    flag: Arc<AtomicBool>,
    /// Also stopped by SIGINT and SIGTERM (`install_signal_handlers`).
    signals: bool,
}

impl Stop {
    /// A handle of its own: only `request` (on it or a clone) stops it.
    pub fn new() -> Stop {
        Stop::default()
    }

    /// Whether a stop was requested (or, for the signals' handle, a signal came).
    pub fn requested(&self) -> bool {
        self.flag.load(Ordering::SeqCst) || (self.signals && SIGNALLED.load(Ordering::SeqCst))
    }

    /// Stop the run as a signal would (an agent whose coordinator said stop, or went away).
    pub fn request(&self) {
        self.flag.store(true, Ordering::SeqCst);
    }
}

/// Catch SIGINT and SIGTERM: they stop the returned handle (and its clones) instead of ending the
/// process. Called once, at the top of a command.
pub fn install_signal_handlers() -> Stop {
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
    Stop { flag: Arc::default(), signals: true }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_handles_are_independent_and_clones_share() {
        let (a, b) = (Stop::new(), Stop::new());
        let a2 = a.clone();
        assert!(!a.requested() && !b.requested());
        a2.request();
        assert!(a.requested(), "a clone's request stops the handle");
        assert!(!b.requested(), "another handle is not stopped");
    }

    #[test]
    fn a_signal_stops_only_the_signals_handle() {
        let mine = Stop::new();
        let fed = Stop { flag: Arc::default(), signals: true };
        // the handler as the kernel would call it (no real signal: this test process keeps its
        // default handlers)
        on_signal(libc::SIGTERM);
        assert!(fed.requested(), "the handle fed by the signals sees the signal");
        assert!(!mine.requested(), "a handle made by Stop::new does not");
    }
}
