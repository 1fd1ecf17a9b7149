//! Ctrl-C and SIGTERM as a flag: the handlers only set it; the run loop (`gather.rs`) and the
//! waits of `distributed/pod_link.rs` (accepting pods, dialling the coordinator) read it and stop cleanly,
//! so an interrupted run is still written, marked "interrupted".

use std::sync::atomic::{AtomicBool, Ordering};

static SIGNALLED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    SIGNALLED.store(true, Ordering::SeqCst);
}

/// Catch SIGINT and SIGTERM: they set the flag instead of ending the process.
pub fn install_signal_handlers() {
    unsafe {
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
    }
}

/// Whether a signal (or `request_stop`) asked the run to stop.
pub fn interrupted() -> bool {
    SIGNALLED.load(Ordering::SeqCst)
}

/// Stop the run as a signal would (an agent whose coordinator said stop, or went away).
pub fn request_stop() {
    SIGNALLED.store(true, Ordering::SeqCst);
}
