//! The responder's code, shared by its binaries `sdnbench-responder` (`main.rs`: the process
//! setup and the loop) and `sdnbench-pingpong` (`pingpong.rs`): command lines (`cli.rs`), one
//! connection's state machine (`conn.rs`), the answer gate (`gate.rs`), the epoll loop (`poll.rs`),
//! its TLS mode (`tls.rs`).

pub mod cli;
pub mod conn;
pub mod gate;
pub mod poll;
pub mod tls;
