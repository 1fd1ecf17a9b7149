//! How the process ends (the same codes as `sdnbench-engine`'s `exit.rs`, docs/cli.md): 0 the
//! run finished (failed tests are marked in the document), 1 the user's input (refused before
//! the switch is waited for; usage errors too), 2 the switch under test failed the run (it never
//! connected, or its session broke), 3 an internal bug (a panic).
//!
//! stdout is written with [`print`], never `println!`, which panics when stdout cannot be
//! written: a reader that went away (a closed pipe) is silent, a full disk is one line, exit 1.

use std::io::{ErrorKind, Write};

pub const USER: i32 = 1;
pub const BUG: i32 = 3;

/// Write `text` to stdout; an error other than a closed pipe is one line and exit 1.
pub fn print(text: &str) {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::BrokenPipe => {}
        Err(e) => {
            eprintln!("sdnbench-switch: cannot write to stdout: {e}");
            std::process::exit(USER);
        }
    }
}

/// A panic anywhere ends the process with exit 3 and one line naming it a bug.
pub fn panic_is_a_bug() {
    std::panic::set_hook(Box::new(|info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let _ = writeln!(std::io::stderr(), "sdnbench-switch: internal error (a bug, please report it): {what}{at}");
        std::process::exit(BUG);
    }));
}
