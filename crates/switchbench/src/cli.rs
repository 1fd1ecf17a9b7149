//! The command line of `sdnbench-switch`, derived by clap from [`Args`]: each flag, its help
//! and its default are written once, the defaults taken from [`Opts::default`].

use std::time::Duration;

use clap::error::ErrorKind;
use clap::Parser;

use crate::bench::Opts;
use crate::packet::IfSpec;

pub const TESTS: [&str; 8] = ["insertion", "barrier", "packet-in", "packet-out", "capacity", "stats", "first-packet", "pipeline"];

/// What `run` needs: the flags, parsed and checked.
#[derive(Debug)]
pub struct Cli {
    pub listen: String,
    pub versions: Vec<u8>,
    pub ifs: Vec<IfSpec>,
    pub tests: Vec<String>,
    pub opts: Opts,
    pub accept_timeout: Duration,
    pub json: Option<String>,
    pub frame_size: usize,
}

/// sdnbench-switch: sdnbench as the controller and the traffic, measuring one OpenFlow switch
#[derive(Parser, Debug)]
#[command(
    name = "sdnbench-switch",
    version,
    allow_negative_numbers = true,
    override_usage = "sdnbench-switch --if [NETNS:]IF --if [NETNS:]IF --test LIST [options]"
)]
struct Args {
    /// Listen here for the switch (port 0 = any)
    #[arg(long, default_value = "127.0.0.1:6653", value_name = "ADDR")]
    listen: String,
    /// OpenFlow version(s) to offer
    #[arg(long = "of", default_value = "1.3", value_parser = ["1.0", "1.3", "any"])]
    of: String,
    /// A data port's local interface; the first sends probes, the second captures them (repeat; at least two)
    #[arg(long = "if", value_name = "[NETNS:]IF", value_parser = IfSpec::parse, required = true)]
    ifs: Vec<IfSpec>,
    /// Tests to run, comma-separated
    #[arg(long = "test", value_name = "LIST", value_delimiter = ',', value_parser = TESTS, required = true)]
    tests: Vec<String>,
    /// Flow counts for insertion/barrier; stats uses the largest, pipeline the first
    #[arg(long, value_name = "LIST", value_delimiter = ',', value_parser = flow_count, default_values_t = Opts::default().flows)]
    flows: Vec<u32>,
    /// Insertion also with a barrier after every flow-mod
    #[arg(long)]
    barrier: bool,
    /// Pipeline depths 1..N or A..B
    #[arg(long, value_name = "N|A..B", value_parser = tables, default_value_t = Tables::default())]
    tables: Tables,
    /// Samples per latency figure
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), default_value_t = Opts::default().reps)]
    reps: u32,
    /// Seconds per throughput phase
    #[arg(long, value_name = "S", value_parser = seconds, default_value_t = Opts::default().duration.as_secs_f64())]
    duration: f64,
    /// Capacity: flows per barrier
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..), default_value_t = Opts::default().batch)]
    batch: u32,
    /// Capacity: stop here if the switch never refuses
    #[arg(long, value_name = "N", value_parser = flow_count, default_value_t = Opts::default().max_flows)]
    max_flows: u32,
    /// Insertion probe rate, 0 = as fast as possible
    #[arg(long, value_name = "N", value_parser = whole, default_value_t = Opts::default().probe_pps)]
    probe_pps: u64,
    /// Stats: least time between polls under load
    #[arg(long, value_name = "N", value_parser = whole, default_value_t = Opts::default().stats_interval.as_millis() as u64)]
    stats_interval_ms: u64,
    /// Longest wait for a reply or a flow to forward (seconds)
    #[arg(long, value_name = "S", value_parser = seconds, default_value_t = Opts::default().timeout.as_secs_f64())]
    timeout: f64,
    /// How long to wait for the switch to connect (seconds)
    #[arg(long, value_name = "S", value_parser = seconds, default_value_t = 30.0)]
    accept_timeout: f64,
    /// Bytes per probe frame
    #[arg(long, value_name = "N", value_parser = frame_size, default_value_t = crate::probe::LEN)]
    frame_size: usize,
    /// Write the JSON document here (default stdout), rewritten after every test
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
}

/// Pipeline depths `from..=to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Tables {
    from: u8,
    to: u8,
}

impl Default for Tables {
    fn default() -> Tables {
        Tables { from: Opts::default().tables_from, to: Opts::default().tables }
    }
}

impl std::fmt::Display for Tables {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "{}..{}", self.from, self.to)
    }
}

fn tables(v: &str) -> Result<Tables, String> {
    let (a, b) = v.split_once("..").unwrap_or(("1", v));
    let bad = || "want N or A..B with 1 <= A <= B <= 254".to_string();
    let (from, to): (u8, u8) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if !(1..=254).contains(&to) || !(1..=to).contains(&from) {
        return Err(bad());
    }
    Ok(Tables { from, to })
}

fn flow_count(v: &str) -> Result<u32, String> {
    match v.trim().parse::<u32>() {
        Ok(n) if (1..=1 << 24).contains(&n) => Ok(n),
        _ => Err("want a positive count up to 16777216".into()),
    }
}

/// A whole number, 0 or more, with a reason a user can act on (not "invalid digit found").
fn whole(v: &str) -> Result<u64, String> {
    let t = v.trim();
    if t.starts_with('-') {
        return Err("negative: want a whole number, 0 or more".into());
    }
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err("not a whole number".into());
    }
    t.parse().map_err(|_| format!("too large (at most {})", u64::MAX))
}

fn seconds(v: &str) -> Result<f64, String> {
    match v.parse::<f64>() {
        Ok(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err("want a number of seconds, 0 or more".into()),
    }
}

fn frame_size(v: &str) -> Result<usize, String> {
    let (lo, hi) = (crate::probe::LEN, crate::probe::MAX_LEN);
    match v.parse::<usize>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(format!("want {lo} to {hi} bytes")),
    }
}

/// The command line, checked. `--help` and `--version` print and exit 0; anything else wrong
/// is one line (clap's first, without its "error: ").
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    let a = match Args::try_parse_from(std::iter::once("sdnbench-switch".to_string()).chain(args)) {
        Ok(a) => a,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            crate::exit::print(&e.render().to_string());
            std::process::exit(0);
        }
        Err(e) => return Err(one_line(&e)),
    };
    if a.ifs.len() < 2 {
        return Err("give at least two data ports: --if [NETNS:]IF --if [NETNS:]IF".into());
    }
    let versions = match a.of.as_str() {
        "1.0" => vec![ofwire::OFP10],
        "1.3" => vec![ofwire::OFP13],
        _ => vec![ofwire::OFP10, ofwire::OFP13],
    };
    let opts = Opts {
        flows: a.flows,
        barrier: a.barrier,
        tables_from: a.tables.from,
        tables: a.tables.to,
        reps: a.reps,
        duration: Duration::from_secs_f64(a.duration),
        batch: a.batch,
        max_flows: a.max_flows,
        probe_pps: a.probe_pps,
        timeout: Duration::from_secs_f64(a.timeout),
        stats_interval: Duration::from_millis(a.stats_interval_ms),
    };
    Ok(Cli {
        listen: a.listen,
        versions,
        ifs: a.ifs,
        tests: a.tests,
        opts,
        accept_timeout: Duration::from_secs_f64(a.accept_timeout),
        json: a.json,
        frame_size: a.frame_size,
    })
}

/// clap's error as one line: its first paragraph ("invalid value 'x' for '--flows <LIST>': want
/// a positive count ...", or the missing flags after "...were not provided:").
fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let head: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
    format!("{} (see --help)", head.join(" ").trim_start_matches("error: "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn a_full_command_line_parses() {
        let c = parse(args("--if a:x --if y --test insertion,pipeline --flows 1,100,10000 --barrier --of any --tables 3")).unwrap();
        assert_eq!(c.ifs.len(), 2);
        assert_eq!(c.opts.flows, vec![1, 100, 10000]);
        assert!(c.opts.barrier);
        assert_eq!(c.versions, vec![ofwire::OFP10, ofwire::OFP13]);
        assert_eq!(c.tests, vec!["insertion", "pipeline"]);
        assert_eq!((c.opts.tables_from, c.opts.tables), (1, 3));
    }

    #[test]
    fn defaults_are_opts_default() {
        let c = parse(args("--if a --if b --test stats")).unwrap();
        let d = Opts::default();
        assert_eq!((c.opts.flows, c.opts.reps, c.opts.batch, c.opts.max_flows), (d.flows, d.reps, d.batch, d.max_flows));
        assert_eq!((c.opts.duration, c.opts.timeout, c.opts.probe_pps), (d.duration, d.timeout, d.probe_pps));
        assert_eq!((c.opts.tables_from, c.opts.tables, c.frame_size), (d.tables_from, d.tables, crate::probe::LEN));
        assert_eq!(
            (c.listen.as_str(), c.versions.clone(), c.accept_timeout),
            ("127.0.0.1:6653", vec![ofwire::OFP13], Duration::from_secs(30))
        );
    }

    #[test]
    fn help_shows_the_defaults_of_opts() {
        use clap::CommandFactory;
        let help = Args::command().render_long_help().to_string();
        for want in ["[default: 1 100]", "[default: 1..4]", "[default: 100]", "[default: 2]", "[default: 100000]", "[default: 20000]"] {
            assert!(help.contains(want), "{want} not in --help:\n{help}");
        }
    }

    #[test]
    fn bad_input_is_one_clear_line() {
        let err = |s: &str| {
            let e = parse(args(s)).unwrap_err();
            assert!(!e.contains('\n'), "{e:?} is more than one line");
            e
        };
        assert!(err("--if a --test insertion").contains("two data ports"));
        assert!(err("--if a --if b --test warp").contains("'warp'"));
        assert!(err("--if a --if b --test stats --flows 1,0").contains("--flows"));
        assert!(err("--if a --if b --test stats --of 2.0").contains("--of"));
        assert!(err("--if a --if b --test pipeline --tables 0").contains("--tables"));
        assert!(err("--if a --if b --test pipeline --tables 3..2").contains("--tables"));
        assert!(err("--if a --if b --test capacity --batch 0").contains("--batch"));
        assert!(err("--if a --if b --test stats --reps 0").contains("--reps"));
        assert!(err("--if a --if b --test stats --frame-size 59").contains("--frame-size"));
        assert!(err("--if a --if b --test stats --duration -1").contains("--duration"));
        assert!(err("--if a --if b --test stats --warp").contains("--warp"));
        assert!(err("--if a --if b").contains("--test"));
        assert!(err("--if a --if b --test stats --probe-pps -5").contains("'-5' for '--probe-pps <N>': negative"));
        assert!(err("--if a --if b --test stats --stats-interval-ms x").contains("--stats-interval-ms"));
        let c = parse(args("--if a --if b --test pipeline --tables 2..5")).unwrap();
        assert_eq!((c.opts.tables_from, c.opts.tables), (2, 5));
    }
}
