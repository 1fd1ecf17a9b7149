//! The command line of `sdnbench-switch`.

use std::time::Duration;

use crate::bench::Opts;
use crate::packet::IfSpec;

pub const USAGE: &str = "\
sdnbench-switch: sdnbench as the controller and the traffic, measuring one OpenFlow switch

usage: sdnbench-switch --if [NETNS:]IF --if [NETNS:]IF --test LIST [options]

  --listen ADDR          listen here for the switch (default 127.0.0.1:6653; port 0 = any)
  --of 1.0|1.3|any       OpenFlow version(s) to offer (default 1.3)
  --if [NETNS:]IF        a data port's local interface; the first sends probes, the second
                         captures them (repeat; at least two)
  --test LIST            insertion,barrier,packet-in,packet-out,capacity,stats,first-packet,pipeline
  --flows LIST           flow counts for insertion/barrier (default 1,100); stats uses the largest,
                         pipeline the first
  --barrier              insertion also with a barrier after every flow-mod
  --tables N|A..B        pipeline depths 1..N or A..B (default 1..4)
  --reps N               samples per latency figure (default 100)
  --duration S           seconds per throughput phase (default 2)
  --batch N              capacity: flows per barrier (default 1000)
  --max-flows N          capacity: stop here if the switch never refuses (default 100000)
  --probe-pps N          insertion probe rate, 0 = as fast as possible (default 20000)
  --stats-interval-ms N  stats: least time between polls under load (default 0)
  --timeout S            longest wait for a reply or a flow to forward (default 10)
  --accept-timeout S     how long to wait for the switch to connect (default 30)
  --frame-size N         bytes per probe frame, 60 to 1514 (default 60)
  --json FILE            write the JSON document here (default stdout), rewritten after every test
  --version              print the version
";

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

pub const TESTS: [&str; 8] = ["insertion", "barrier", "packet-in", "packet-out", "capacity", "stats", "first-packet", "pipeline"];

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{flag}: not a number: {v:?}"))
}

fn list(flag: &str, v: &str) -> Result<Vec<u32>, String> {
    let xs = v.split(',').map(|x| num::<u32>(flag, x.trim())).collect::<Result<Vec<_>, _>>()?;
    if xs.is_empty() || xs.contains(&0) || xs.iter().any(|&x| x > 1 << 24) {
        return Err(format!("{flag}: want positive counts up to 16777216, got {v:?}"));
    }
    Ok(xs)
}

pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Cli, String> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut c = Cli {
        listen: "127.0.0.1:6653".into(),
        versions: vec![ofwire::OFP13],
        ifs: vec![],
        tests: vec![],
        opts: Opts {
            flows: vec![1, 100],
            barrier: false,
            tables_from: 1,
            tables: 4,
            reps: 100,
            duration: Duration::from_secs(2),
            batch: 1000,
            max_flows: 100_000,
            probe_pps: 20_000,
            timeout: Duration::from_secs(10),
            stats_interval: Duration::ZERO,
        },
        accept_timeout: Duration::from_secs(30),
        json: None,
        frame_size: crate::probe::LEN,
    };
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        let flag = match &arg {
            Long(f) => format!("--{f}"),
            Short(f) => format!("-{f}"),
            Value(v) => return Err(format!("unexpected argument {v:?}")),
        };
        if flag == "--barrier" {
            c.opts.barrier = true;
            continue;
        }
        if flag == "--version" {
            println!("sdnbench-switch {}", env!("CARGO_PKG_VERSION"));
            std::process::exit(0);
        }
        if flag == "--help" || flag == "-h" {
            print!("{USAGE}");
            std::process::exit(0);
        }
        let v: String = p.value().map_err(|e| e.to_string())?.string().map_err(|_| format!("{flag}: not UTF-8"))?;
        match flag.as_str() {
            "--listen" => c.listen = v,
            "--of" => {
                c.versions = match v.as_str() {
                    "1.0" => vec![ofwire::OFP10],
                    "1.3" => vec![ofwire::OFP13],
                    "any" => vec![ofwire::OFP10, ofwire::OFP13],
                    _ => return Err(format!("--of: want 1.0, 1.3 or any, got {v:?}")),
                }
            }
            "--if" => c.ifs.push(IfSpec::parse(&v)?),
            "--test" => {
                for t in v.split(',') {
                    if !TESTS.contains(&t) {
                        return Err(format!("--test: unknown test {t:?} (known: {})", TESTS.join(",")));
                    }
                    c.tests.push(t.into());
                }
            }
            "--flows" => c.opts.flows = list(&flag, &v)?,
            "--tables" => {
                let (a, b) = v.split_once("..").unwrap_or(("1", v.as_str()));
                c.opts.tables_from = num(&flag, a)?;
                c.opts.tables = num(&flag, b)?;
            }
            "--reps" => c.opts.reps = num(&flag, &v)?,
            "--duration" => c.opts.duration = Duration::from_secs_f64(num(&flag, &v)?),
            "--batch" => c.opts.batch = num(&flag, &v)?,
            "--max-flows" => c.opts.max_flows = num(&flag, &v)?,
            "--probe-pps" => c.opts.probe_pps = num(&flag, &v)?,
            "--stats-interval-ms" => c.opts.stats_interval = Duration::from_millis(num(&flag, &v)?),
            "--timeout" => c.opts.timeout = Duration::from_secs_f64(num(&flag, &v)?),
            "--accept-timeout" => c.accept_timeout = Duration::from_secs_f64(num(&flag, &v)?),
            "--json" => c.json = Some(v),
            "--frame-size" => c.frame_size = num(&flag, &v)?,
            _ => return Err(format!("unknown option {flag} (see --help)")),
        }
    }
    if c.ifs.len() < 2 {
        return Err("give at least two data ports: --if [NETNS:]IF --if [NETNS:]IF".into());
    }
    if c.tests.is_empty() {
        return Err(format!("give --test with one or more of {}", TESTS.join(",")));
    }
    if !(1..=254).contains(&c.opts.tables) || !(1..=c.opts.tables).contains(&c.opts.tables_from) {
        return Err("--tables: want N or A..B with 1 <= A <= B <= 254".into());
    }
    if !(crate::probe::LEN..=crate::probe::MAX_LEN).contains(&c.frame_size) {
        return Err(format!("--frame-size: want {} to {} bytes", crate::probe::LEN, crate::probe::MAX_LEN));
    }
    if c.opts.reps == 0 || c.opts.max_flows == 0 || c.opts.max_flows > 1 << 24 {
        return Err("--reps and --max-flows must be positive (--max-flows at most 16777216)".into());
    }
    Ok(c)
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
    }

    #[test]
    fn bad_input_is_one_clear_message() {
        assert!(parse(args("--if a --test insertion")).unwrap_err().contains("two data ports"));
        assert!(parse(args("--if a --if b --test warp")).unwrap_err().contains("unknown test"));
        assert!(parse(args("--if a --if b --test stats --flows 1,0")).unwrap_err().contains("--flows"));
        assert!(parse(args("--if a --if b --test stats --of 2.0")).unwrap_err().contains("--of"));
        assert!(parse(args("--if a --if b --test pipeline --tables 0")).unwrap_err().contains("--tables"));
        assert!(parse(args("--if a --if b --test pipeline --tables 3..2")).unwrap_err().contains("--tables"));
        let c = parse(args("--if a --if b --test pipeline --tables 2..5")).unwrap();
        assert_eq!((c.opts.tables_from, c.opts.tables), (2, 5));
    }
}
