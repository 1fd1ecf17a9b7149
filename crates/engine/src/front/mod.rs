//! The commands of `sdnbench-engine`: they parse arguments, check the config, run, and print.

pub(crate) mod cbench;
pub mod check;
pub(crate) mod cli;
pub mod hello;
pub use cli::command;
pub mod commands;
pub use commands::commands;
pub(crate) mod listeners;
pub(crate) mod output;
pub(crate) mod preflight;
pub mod run;
pub(crate) mod validate;
pub(crate) mod values;
