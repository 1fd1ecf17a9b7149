//! Command-line parsing for `sdnbench-engine [bench] OPTIONS`. Errors are one line.

use crate::config::{Config, Mode};

use lexopt::prelude::*;
use std::path::PathBuf;

pub const USAGE: &str = "\
sdnbench-engine: emulate OpenFlow switches and measure a controller

usage: sdnbench-engine [bench] [--config FILE|-] [OPTIONS]
       sdnbench-engine check --config FILE|-   (validate a JSON config: one line per error, exit 1)
       sdnbench-engine cbench [cbench flags: -c -p -m -l -s -M -t -w -C -i -I -D -o]
       sdnbench-engine worker          (a worker process: JSON lines on stdin/stdout)
       sdnbench-engine agent           (one machine's part of a run over agents: the worker
                                        protocol on stdin/stdout, local workers of its own)
       sdnbench-engine k8s-agent --config FILE [--coordinator HOST:PORT] [--serve ADDR:PORT]
                                        (a pod of the Indexed Job of --agents k8s)
       sdnbench-engine merge FILE... [--json OUT]   (one result from parts' results)
       sdnbench-engine --version

options (each sets the config field of the same name, with - for _; flags after --config
override the file):
  --config FILE|-          the run as one JSON object (fields of crates/engine/SCHEMA.md, `params`)
  --controller HOST:PORT   controller to load (127.0.0.1:6653); a comma list sets `controllers`
  --traffic PROFILE        cbench | unique-pairs | new-flows | faucet (unique-pairs)
  --mode MODE              throughput | latency | fixed-rate | capacity | network (throughput)
  --switches N             emulated switches (16)
  --macs N                 hosts (MAC addresses) per switch (1000)
  --ports N                ports per switch (4)
  --loops N                measured loops (10)
  --loop-ms MS             loop length (1000)
  --warmup N               leading loops left out of the summary (1)
  --of VERSIONS            OpenFlow versions offered: 1.0, 1.3 or 1.0,1.3 (1.0,1.3)
  --frame-size BYTES       frame size in packet-ins; RFC 8456 uses 128, 512, 1508 (128)
  --window N               requests in flight per switch, throughput mode (256)
  --rate R                 offered requests/s over all switches, fixed-rate mode (10000)
  --timeout-ms MS          a request unanswered this long is lost; adaptive below it (2000)
  --fixed-timeout          the loss timeout is exactly --timeout-ms (not 10 x recent latency)
  --coalesce-pct P         throughput mode: wait up to P% of the lowest recent latency before
                           sleeping on the sockets (at most 1 ms; 0 = off) (1)
  --no-learn               skip the gratuitous-ARP learning phase
  --settle-ms MS           pause between learning and measuring (200)
  --unbuffered             packet-ins without buffer id (the whole frame; matched by marker)
  --keep-flows             keep flow-mods in each switch's flow table
  --workers N              worker processes (auto: as the file limit requires)
  --source-addrs A,B,...   local addresses to connect from (auto on loopback)
  --strict                 end the run on the first malformed message or lost session
  --connect-timeout-ms MS  per-session connect + handshake limit (10000)
  --connect-parallel N     handshakes in progress at once per worker (256)
  --echo-interval-ms MS    keep-alive echo after this much silence; 0 = off (5000)
  --reconnect on|off       re-establish a lost session with Open vSwitch's backoff (on)
  --reconnect-backoff-ms MS  reconnect: the first wait, doubling while lost at once (1000)
  --max-backoff-ms MS      reconnect: the longest wait (OVS max_backoff) (8000)
  --fail-mode MODE         what a disconnected switch does: secure or standalone (secure)
  --hold-ms MS             capacity mode: hold all sessions this long, then count (2000)
  --first-dpid N           datapath id of the first switch (1)
  --controller-pid PID     sample this process's CPU and memory
  --network FILE           the emulated network (JSON: switches, links, hosts, events; sets --switches)
  --links LAYOUT           links between the switches for LLDP: linear (port 2 -> next's port 1)
  --agents A,B,...         run the switches' slices on agents: local, netns:NAME,
                           ssh:[USER@]HOST[:PORT], pods:N@ADDR:PORT (N pods dial in); or
                           k8s[:PODS][@pod0[:PORT]|@IP:PORT|@none] alone: print a Kubernetes
                           Indexed Job and Service (JSON; image from $SDNBENCH_IMAGE), run nothing
  --max-skew-ms MS         agents: refuse clocks further off than this (50)
  --json FILE              write the full result (schema sdnbench.engine/1)
  --quiet                  no live or summary text
";

#[derive(Debug)]
pub struct Args {
    pub cfg: Config,
    pub json: Option<PathBuf>,
    pub quiet: bool,
}

fn num<T: std::str::FromStr>(p: &mut lexopt::Parser, name: &str) -> Result<T, String> {
    let v = p.value().map_err(|e| e.to_string())?;
    let s = v.to_string_lossy().to_string();
    s.parse().map_err(|_| format!("{name}: not a valid number: {s:?}"))
}

pub fn versions(s: &str) -> Result<u32, String> {
    let mut bits = 0;
    for v in s.split(',') {
        bits |= match v.trim() {
            "1.0" | "10" | "OpenFlow10" => 1 << 1,
            "1.3" | "13" | "OpenFlow13" => 1 << 4,
            other => return Err(format!("--of: unsupported OpenFlow version {other:?} (1.0 or 1.3)")),
        };
    }
    Ok(bits)
}

pub fn parse(args: Vec<String>) -> Result<Args, String> {
    let mut c = Config::default();
    let mut json = None;
    let mut quiet = false;
    let mut links = None;
    let mut p = lexopt::Parser::from_args(args);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("config") => {
                let f = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c = crate::config::load(&f).map_err(|e| e.join("; "))?;
            }
            Long("controller") | Long("controllers") => {
                let v = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c.controllers = v.split(',').filter(|s| !s.is_empty()).map(String::from).collect();
            }
            Long("traffic") => c.traffic = p.value().map_err(|e| e.to_string())?.to_string_lossy().into(),
            Long("mode") => {
                let m = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c.mode =
                    Mode::parse(&m).ok_or(format!("--mode: unknown mode {m:?} (throughput, latency, fixed-rate, capacity, network)"))?;
            }
            Long("switches") => c.switches = num(&mut p, "--switches")?,
            Long("macs") => c.macs = num(&mut p, "--macs")?,
            Long("ports") => c.ports = num(&mut p, "--ports")?,
            Long("loops") => c.loops = num(&mut p, "--loops")?,
            Long("loop-ms") => c.loop_ms = num(&mut p, "--loop-ms")?,
            Long("warmup") => c.warmup = num(&mut p, "--warmup")?,
            Long("of") => c.versions = versions(&p.value().map_err(|e| e.to_string())?.to_string_lossy())?,
            Long("frame-size") => c.frame_size = num(&mut p, "--frame-size")?,
            Long("window") => c.window = num(&mut p, "--window")?,
            Long("rate") => c.rate = num(&mut p, "--rate")?,
            Long("timeout-ms") => c.timeout_ms = num(&mut p, "--timeout-ms")?,
            Long("fixed-timeout") => c.adaptive_timeout = false,
            Long("coalesce-pct") => c.coalesce_pct = num(&mut p, "--coalesce-pct")?,
            Long("no-learn") => c.learn = false,
            Long("settle-ms") => c.settle_ms = num(&mut p, "--settle-ms")?,
            Long("unbuffered") => c.buffered = false,
            Long("keep-flows") => c.keep_flows = true,
            Long("workers") => c.workers = Some(num(&mut p, "--workers")?),
            Long("source-addrs") => {
                let v = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c.source_addrs = v.split(',').filter(|s| !s.is_empty()).map(String::from).collect();
            }
            Long("strict") => c.strict = true,
            Long("connect-timeout-ms") => c.connect_timeout_ms = num(&mut p, "--connect-timeout-ms")?,
            Long("connect-parallel") => c.connect_parallel = num(&mut p, "--connect-parallel")?,
            Long("echo-interval-ms") => c.echo_interval_ms = num(&mut p, "--echo-interval-ms")?,
            Long("reconnect") => {
                let v = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c.reconnect = match v.as_str() {
                    "on" => true,
                    "off" => false,
                    other => return Err(format!("--reconnect: {other:?} is neither on nor off")),
                };
            }
            Long("reconnect-backoff-ms") => c.reconnect_backoff_ms = num(&mut p, "--reconnect-backoff-ms")?,
            Long("max-backoff-ms") => c.max_backoff_ms = num(&mut p, "--max-backoff-ms")?,
            Long("fail-mode") => {
                let v = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c.fail_mode = serde_json::from_value(serde_json::Value::String(v.clone()))
                    .map_err(|_| format!("--fail-mode: {v:?} is neither secure nor standalone"))?;
            }
            Long("hold-ms") => c.hold_ms = num(&mut p, "--hold-ms")?,
            Long("first-dpid") => c.first_dpid = num(&mut p, "--first-dpid")?,
            Long("controller-pid") => c.controller_pid = Some(num(&mut p, "--controller-pid")?),
            Long("network") => crate::network::load_into(&mut c, &p.value().map_err(|e| e.to_string())?.to_string_lossy())?,
            Long("links") => links = Some(p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string()),
            Long("agents") => {
                let v = p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string();
                c.agents = v.split(',').filter(|s| !s.is_empty()).map(String::from).collect();
            }
            Long("max-skew-ms") => c.max_skew_ms = num(&mut p, "--max-skew-ms")?,
            Long("json") => json = Some(PathBuf::from(p.value().map_err(|e| e.to_string())?)),
            Long("quiet") | Short('q') => quiet = true,
            Long("help") | Short('h') => return Err(USAGE.into()),
            _ => return Err(arg.unexpected().to_string()),
        }
    }
    if let Some(l) = links {
        c.links = crate::config::links_for(&l, c.switches, c.first_dpid)?;
    }
    validate(&c)?;
    Ok(Args { cfg: c, json, quiet })
}

/// The config's checks, as flags: the first bad field, one line (`check` lists them all).
pub fn validate(c: &Config) -> Result<(), String> {
    match super::validate::check(c).into_iter().next() {
        None => Ok(()),
        Some(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Result<Args, String> {
        parse(s.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn parses_options() {
        let a = args("--mode latency --switches 4 --of 1.0 --json out.json --source-addrs 127.0.0.2,127.0.0.3").unwrap();
        assert_eq!(a.cfg.mode, Mode::Latency);
        assert_eq!(a.cfg.switches, 4);
        assert_eq!(a.cfg.versions, 2);
        assert_eq!(a.cfg.source_addrs.len(), 2);
        assert_eq!(a.json.unwrap().to_str(), Some("out.json"));
        let a = args("--reconnect off --max-backoff-ms 2000 --fail-mode standalone").unwrap();
        assert!(!a.cfg.reconnect);
        assert_eq!((a.cfg.max_backoff_ms, a.cfg.fail_mode), (2000, crate::config::FailMode::Standalone));
    }

    #[test]
    fn bad_input_is_one_line() {
        for bad in [
            "--switches x",
            "--mode fast",
            "--of 1.5",
            "--switches 0",
            "--frame-size 10",
            "--bogus",
            "--controller nohost",
            "--workers 0",
            "--traffic x",
            "--config /nonexistent",
            "--reconnect maybe",
            "--fail-mode open",
            "--max-backoff-ms 1",
        ] {
            let e = args(bad).err().unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(!e.trim().contains('\n'), "{bad}: {e}");
        }
    }
}
