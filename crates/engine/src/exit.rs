//! How the process ends: its exit codes, stdout written without a panic, and a panic as exit 3.
//!
//! Exit codes (the same in every sdnbench binary, docs/cli.md):
//! [`MEASURED`] 0, [`USER`] 1 (the user's input, refused before anything starts; usage errors
//! too), [`FAILED`] 2 (the system under test failed the run), [`BUG`] 3 (an internal bug: a
//! panic).
//!
//! `println!` panics when stdout cannot be written (`sdnbench-engine schema >/dev/full`, or a
//! reader that went away, `| head -c 10`): everything this binary prints on stdout goes through
//! [`print`] instead, which keeps the first error and skips the later writes, and [`finish`]
//! turns it into the exit code: a closed pipe is silent (the reader asked for no more), any
//! other error is one line and exit 1.

use std::io::{ErrorKind, Write};
use std::sync::Mutex;

pub const MEASURED: i32 = 0;
pub const USER: i32 = 1;
pub const FAILED: i32 = 2;
pub const BUG: i32 = 3;

/// The first error writing stdout.
static STDOUT_ERROR: Mutex<Option<std::io::Error>> = Mutex::new(None);

/// Write `text` to stdout and flush; after a first error, nothing more is written.
pub fn print(text: &str) {
    let mut err = STDOUT_ERROR.lock().unwrap_or_else(|p| p.into_inner());
    if err.is_some() {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        *err = Some(e);
    }
}

/// [`print`] with a newline.
pub fn line(text: impl std::fmt::Display) {
    print(&format!("{text}\n"));
}

/// The exit code of a command that returned `code`, given what happened to stdout: a closed
/// pipe keeps `code`; another error (a full disk) is one line on stderr and at least exit 1.
pub fn finish(program: &str, code: i32) -> i32 {
    let err = STDOUT_ERROR.lock().unwrap_or_else(|p| p.into_inner());
    match err.as_ref() {
        None => code,
        Some(e) if e.kind() == ErrorKind::BrokenPipe => code,
        Some(e) => {
            eprintln!("{program}: cannot write to stdout: {e}");
            code.max(USER)
        }
    }
}

/// A panic anywhere (any thread) ends the process with exit 3 and one line naming it a bug,
/// and ends the processes it started first (`children.rs`).
pub fn panic_is_a_bug(program: &'static str) {
    std::panic::set_hook(Box::new(move |info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let _ = writeln!(std::io::stderr(), "{program}: internal error (a bug, please report it): {what}{at}");
        crate::children::kill_all();
        std::process::exit(BUG);
    }));
}
