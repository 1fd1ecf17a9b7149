//! `sdnbench-engine check --config FILE|-`: the engine's reading of a config, done once. On
//! stdout either the config **resolved** (every field, each default filled in: what a run of it
//! uses; one JSON object, exit 0) or one line per bad field (exit 1). The Python driver checks a
//! run's parameters with it before anything starts, and runs and records what it printed
//! (`sdnbench/engine/params.py`). Flags derived by clap, errors one line.

use crate::config::Config;
use crate::exit;
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser};

/// Validate a JSON config; print it resolved (every default filled in), or one line per error
#[derive(Parser, Debug)]
#[command(name = "sdnbench-engine check", override_usage = "sdnbench-engine check --config FILE|-")]
struct CheckFlags {
    /// The config as one JSON object (fields of crates/engine/SCHEMA.md, `params`); `-` reads stdin
    #[arg(long, value_name = "FILE|-")]
    config: String,
}

/// What `check` found: the resolved config, or every problem (one line each).
pub fn resolve(path: &str) -> Result<Config, Vec<String>> {
    let c = crate::config::load(path)?;
    match super::validate::check(&c) {
        e if e.is_empty() => Ok(c),
        e => Err(e),
    }
}

/// The command: exit 0 with the resolved config on stdout, 1 with the problems on stdout (a usage
/// error on stderr).
pub fn main(args: Vec<String>) -> i32 {
    let argv = std::iter::once("sdnbench-engine check".to_string()).chain(args);
    let m = match CheckFlags::command().try_get_matches_from(argv) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            exit::print(&e.render().to_string());
            return exit::MEASURED;
        }
        Err(e) => {
            eprintln!("sdnbench-engine check: {}", super::cli::one_line(&e));
            return exit::USER;
        }
    };
    let f = match CheckFlags::from_arg_matches(&m) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("sdnbench-engine check: {}", super::cli::one_line(&e));
            return exit::USER;
        }
    };
    match resolve(&f.config) {
        Ok(c) => {
            exit::line(serde_json::to_string(&c).expect("a config serializes"));
            exit::MEASURED
        }
        Err(errs) => {
            for e in errs {
                exit::line(e);
            }
            exit::USER
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, text: &str) -> std::path::PathBuf {
        let p = std::env::temp_dir().join(format!("sdnbench-check-{}-{name}.json", std::process::id()));
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn a_partial_config_comes_back_with_every_default_filled_in() {
        let p = file("partial", r#"{"switches": 3, "window": 7}"#);
        let c = resolve(p.to_str().unwrap()).unwrap();
        std::fs::remove_file(&p).unwrap();
        let (got, d) = (serde_json::to_value(&c).unwrap(), serde_json::to_value(Config::default()).unwrap());
        assert_eq!((got["switches"].as_u64(), got["window"].as_u64()), (Some(3), Some(7)));
        for k in ["frame_size", "timeout_ms", "versions", "loop_ms", "macs", "traffic", "learn"] {
            assert_eq!(got[k], d[k], "{k}: the default, filled in");
        }
        // what it prints reads back as the same config: a run of it uses exactly these values
        let again: Config = serde_json::from_value(got.clone()).unwrap();
        assert_eq!(serde_json::to_value(&again).unwrap(), got);
    }

    #[test]
    fn every_bad_field_is_one_line() {
        let p = file("bad", r#"{"switches": 0, "frame_size": 10}"#);
        let e = resolve(p.to_str().unwrap()).unwrap_err();
        std::fs::remove_file(&p).unwrap();
        assert!(e.iter().any(|l| l.starts_with("switches: 0")) && e.iter().any(|l| l.starts_with("frame_size: 10")), "{e:?}");
    }

    #[test]
    fn its_flags_are_clap_s() {
        let bad = CheckFlags::command().try_get_matches_from(["check", "--bogus"]).unwrap_err();
        assert!(super::super::cli::one_line(&bad).contains("--bogus"));
        assert!(CheckFlags::command().try_get_matches_from(["check"]).is_err(), "--config is required");
        let m = CheckFlags::command().try_get_matches_from(["check", "--config", "-"]).unwrap();
        assert_eq!(CheckFlags::from_arg_matches(&m).unwrap().config, "-");
    }
}
