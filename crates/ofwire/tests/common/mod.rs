//! Helpers shared by the integration tests.
#![allow(dead_code)]

pub mod describe;
pub mod describe_stats;
pub mod pcap;
pub mod subset;
