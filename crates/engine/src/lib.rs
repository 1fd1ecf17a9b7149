//! `sdnbench-engine` as a library: emulate OpenFlow switches and measure a controller.
//! `run(config)` drives a whole run in-process (Rust tests use it); the binary (`main.rs`) only
//! parses arguments and prints.

pub mod accounting;
pub mod agent;
pub mod agent_link;
pub mod agent_merge;
pub mod agents;
pub mod cbench;
pub mod cbench_switch;
pub mod cli;
pub mod clock;
pub mod coalesce;
pub mod config;
pub mod coordinator;
pub mod export;
pub mod hist;
pub mod k8s;
pub mod k8s_pod;
pub mod learning;
pub mod limits;
pub mod merge;
pub mod network;
pub mod output;
pub mod outstanding;
pub mod pacer;
pub mod pod_link;
pub mod protocol;
pub mod reconnect;
pub mod resources;
pub mod robust;
pub mod run;
pub mod session;
pub mod status;
pub mod validate;
pub mod worker;
pub mod workload;

pub use config::{Config, Mode};
