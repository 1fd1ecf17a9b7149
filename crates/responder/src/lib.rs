//! What the responder's binaries share: their command lines (`cli.rs`). The binaries are
//! `sdnbench-responder` (`main.rs`) and `sdnbench-pingpong` (`pingpong.rs`).

pub mod cli;
