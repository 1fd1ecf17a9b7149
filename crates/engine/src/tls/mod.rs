//! OpenFlow over TLS (issue 51): the switches' TLS client (`client.rs`: the files, the rustls
//! config, the controller's name) and the connection every session reads and writes
//! (`conn.rs`: plain TCP, or TCP + a rustls client connection driven over the same
//! non-blocking socket). Provider: rustls's `ring` (no cmake or clang to build).

pub mod client;
pub mod conn;
mod open;

pub use client::Client;
pub use conn::{Conn, TlsFailure};
pub use open::{connect, Tls};
