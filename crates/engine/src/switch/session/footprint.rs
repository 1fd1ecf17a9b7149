//! The sizes of a session's futures (`switch/footprint.rs` prints them): a switch's task holds
//! the largest state any of its awaits needs, for as long as it lives.

use super::socket::open;
use super::Session;
use crate::switch::reconnect::Backoff;
use std::mem::size_of_val;

/// The size of a value (a future, made and dropped unpolled).
fn size<T>(t: T) -> usize {
    size_of_val(&t)
}

impl Session {
    /// (name, bytes) of each future a session awaits, as its own future (unboxed).
    pub(crate) fn future_sizes(&mut self) -> Vec<(&'static str, usize)> {
        let addr = "127.0.0.1:1".parse().unwrap();
        let mut backoff = Backoff::new(1000, 8000);
        let v = vec![
            ("open (connect)", size(open(&self.sh, addr, 0, 0))),
            ("start (handshake)", size(self.start(0))),
            ("wait_down", size(self.wait_down(0))),
            ("reconnect", size(self.reconnect(addr, &backoff))),
            ("serve_stream (serve)", size(self.serve_stream(Err(std::io::ErrorKind::Other.into()), &mut backoff))),
            ("run", size(self.run(Err(std::io::ErrorKind::Other.into()), addr))),
        ];
        v
    }
}
