//! `sdnbench-engine` as a library: emulate OpenFlow switches and measure a controller.
//! The binary (`main.rs`) only picks a command; the commands are `front::run`'s.
//!
//! # Layers
//! Each top-level module imports only the ones below it (`tests/layers.rs` checks this), and
//! inside one no two files use each other, directly or round a loop (`tests/cycles.rs`):
//!
//! | module         | what it holds                                                            |
//! |----------------|--------------------------------------------------------------------------|
//! | `front`        | the commands: argument parsing, `check`, the cbench front end, text output |
//! | `distributed`  | a run over several agents or pods, both sides; `k8s`; `merge`             |
//! | `export`       | fills the result of a run from its outcome, and writes it                 |
//! | `coordinator`  | one process's run: plans, starts and drives its workers, judges it        |
//! | `robust`       | the robustness attacker (RFC 8456 §5.3), an extra switch on its own thread |
//! | `switch`       | one worker's emulated switches: sessions, pacing, workloads, its protocol  |
//! | `network`      | the emulated network between switches                                    |
//! | `tls`          | OpenFlow over TLS: the switches' rustls client and the connection sessions use |
//! | `hist`         | latency histograms                                                       |
//! | `config`       | what one run does (`Config`), and the machine's limits                     |
//! | `exit`         | exit codes, stdout written without a panic, a panic as exit 3             |
//! | `children`     | the processes this one starts die with it, however it ends                |
//! | `trim`         | freed memory given back to the system when a phase ends                   |
//! | `arena`        | one malloc arena for the process: a worker thread's heap grows in steps   |
//! | `result`       | the result's records (schema `sdnbench.engine/1`, generated): a leaf, it names no other module |

pub mod arena;
pub mod children;
pub(crate) mod config;
pub(crate) mod coordinator;
pub mod distributed;
pub mod exit;
pub(crate) mod export;
pub mod front;
pub(crate) mod hist;
pub(crate) mod network;
pub(crate) mod result;
pub mod robust;
pub(crate) mod switch;
pub mod tls;
pub(crate) mod trim;
