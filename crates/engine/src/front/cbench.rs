//! cbench-compatible front end: cbench's flags and its output lines, so a script can switch by
//! changing the binary name (`sdnbench-engine cbench ...`, or a `cbench` symlink to the engine).
//!
//! Differences, on purpose: the per-loop counts are *answered requests* (a flow-mod plus a
//! packet-out for one packet-in counts once), and the engine speaks OpenFlow 1.0 here as cbench
//! does. `-l` counts all loops including warm-up, as in cbench; `-C` cool-down loops are run and
//! left out of RESULT. `-i` (delay between connection groups) is accepted and ignored: the engine
//! paces handshakes with `-I` in-flight handshakes instead.

use crate::config::{Config, Mode};
use lexopt::prelude::*;

#[derive(Debug)]
pub struct CbenchArgs {
    pub cfg: Config,
    pub cooldown: u32,
}

fn val(p: &mut lexopt::Parser) -> Result<String, String> {
    Ok(p.value().map_err(|e| e.to_string())?.to_string_lossy().to_string())
}

fn n<T: crate::front::values::Whole>(p: &mut lexopt::Parser, flag: &str) -> Result<T, String> {
    let v = val(p)?;
    crate::front::values::whole(&v).map_err(|why| format!("cbench: {flag} {v:?}: {why}"))
}

/// The config fields cbench's flags set, by flag: a config check's line in cbench's words.
const FLAGS: [(&str, &str); 9] = [
    ("controllers", "-c/-p"),
    ("loop_ms", "-m"),
    ("loops", "-l"),
    ("switches", "-s"),
    ("macs", "-M"),
    ("warmup", "-w"),
    ("connect_parallel", "-I"),
    ("settle_ms", "-D"),
    ("first_dpid", "-o"),
];

fn as_flag(e: String) -> String {
    match e.split_once(": ").and_then(|(field, rest)| FLAGS.iter().find(|(f, _)| *f == field).map(|(_, flag)| (flag, rest))) {
        Some((flag, rest)) => format!("cbench: {flag}: {rest}"),
        None => format!("cbench: {e}"),
    }
}

/// cbench's `run_test` sleeps this long after each loop ("to let packets queue"), then
/// `fakeswitch_get_count` reads every socket empty and throws the messages away.
pub const LOOP_GAP_MS: u64 = 100;

pub fn parse(args: Vec<String>) -> Result<CbenchArgs, String> {
    // cbench's defaults (cbench.c `my_options`): latency mode, 16 switches, 16 loops, 1 warm-up,
    // 100,000 MACs, `-L` on, `-D` 0
    let mut c = Config {
        mode: Mode::Latency,
        versions: ofwire::Versions::OF10,
        traffic: "cbench".into(),
        switches: 16,
        loops: 16,
        warmup: 1,
        macs: 100_000,
        settle_ms: 0,
        cbench_compat: true,
        loop_gap_ms: LOOP_GAP_MS,
        // cbench has no loss timeout: every answer counts, however deep the queue it waited in
        adaptive_timeout: false,
        timeout_ms: 60_000,
        // and no reconnection: a closed session ends cbench ("... exiting")
        reconnect: false,
        ..Config::default()
    };
    let (mut host, mut port) = ("localhost".to_string(), 6633u16);
    let mut cooldown = 0;
    let mut p = lexopt::Parser::from_args(args);
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Short('c') | Long("controller") => host = val(&mut p)?,
            Short('p') | Long("port") => port = n(&mut p, "-p")?,
            Short('m') | Long("ms-per-test") => c.loop_ms = n(&mut p, "-m")?,
            Short('l') | Long("loops") => c.loops = n(&mut p, "-l")?,
            Short('s') | Long("switches") => c.switches = n(&mut p, "-s")?,
            Short('M') | Long("mac-addresses") => c.macs = n(&mut p, "-M")?,
            Short('t') | Long("throughput") => {
                c.mode = Mode::Throughput;
                c.fill_socket = true; // cbench keeps its socket full, it has no window;
                                      // it reads whenever a byte is there: no wake coalescing (`coalesce.rs`). On a
                                      // machine where the controller shares cores with the load generator, the CPU a
                                      // generator spends is the controller's loss, and published cbench numbers carry
                                      // cbench's share: measured against ovs-testcontroller (1 switch) coalescing
                                      // gave the controller CPU enough to read 2x cbench.
                c.coalesce_pct = 0.0;
            }
            Short('w') | Long("warmup") => c.warmup = n(&mut p, "-w")?,
            Short('C') | Long("cooldown") => cooldown = n(&mut p, "-C")?,
            Short('i') | Long("connect-delay") => {
                let _: u64 = n(&mut p, "-i")?;
            }
            Short('I') | Long("connect-group-size") => c.connect_parallel = n(&mut p, "-I")?,
            Short('D') | Long("delay") => c.settle_ms = n(&mut p, "-D")?,
            Short('o') | Long("dpid-offset") => c.first_dpid = n(&mut p, "-o")?,
            Short('L') => c.learn = true,
            // cbench: `--learn-dst-macs[=true|on|1]`, anything else turns learning off
            Long("learn-dst-macs") => {
                c.learn = match p.optional_value() {
                    Some(v) => matches!(v.to_string_lossy().to_ascii_lowercase().as_str(), "true" | "on" | "1"),
                    None => true,
                }
            }
            Short('d') | Long("debug") => {}
            Short('h') | Long("help") => return Err(USAGE.into()),
            _ => return Err(format!("cbench: {}", arg.unexpected())),
        }
    }
    if c.loops <= c.warmup + cooldown {
        return Err(format!("cbench: -l {} leaves no test loop after -w {} and -C {cooldown}", c.loops, c.warmup));
    }
    c.loops -= c.warmup;
    if c.mode == Mode::Latency {
        // cbench spins in latency mode (`Config::busy_poll`), on its one thread
        c.busy_poll = true;
        c.workers = Some(1);
    }
    let host = if host == "localhost" { "127.0.0.1".to_string() } else { host };
    c.controllers = vec![format!("{host}:{port}")];
    crate::front::cli::validate(&c).map_err(as_flag)?;
    Ok(CbenchArgs { cfg: c, cooldown })
}

pub const USAGE: &str = "usage: sdnbench-engine cbench [-c host] [-p port] [-m ms-per-test] [-l loops] [-s switches] \
[-M macs] [-t] [-w warmup] [-C cooldown] [-i ms] [-I group] [-D ms] [-o dpid-offset]";

pub fn banner(c: &Config, cooldown: u32) -> String {
    format!(
        "cbench (sdnbench-engine {}): controller benchmarking tool\n   running in mode '{}'\n   connecting to controller at {}\n   \
         faking {} switches offset {} :: {} tests each; {} ms per test\n   with {} unique source MACs per switch\n   \
         ignoring first {} \"warmup\" and last {cooldown} \"cooldown\" loops\n   counting responses as cbench does (flow-mods ADD/MODIFY_STRICT and non-LLDP packet-outs); answered requests on the last line",
        env!("CARGO_PKG_VERSION"), c.mode.name(), c.controller(), c.switches, c.first_dpid,
        c.loops + c.warmup, c.loop_ms, c.macs, c.warmup
    )
}

/// cbench's per-loop line, byte for byte (cbench.c `run_test`): the local time, then each
/// switch's responses in the loop (a count, although the label says flows/sec), then the
/// total per ms.
pub fn loop_line(clock: &str, switches: u32, per_switch: &[u64], loop_ms: u64) -> String {
    let mut s = format!("{clock} {switches:<3} switches: flows/sec:  ");
    for c in per_switch {
        s += &format!("{c}  ");
    }
    let total: u64 = per_switch.iter().sum();
    s += &format!(" total = {:.6} per ms ", total as f64 / loop_ms as f64);
    s
}

/// The local time of day as cbench prints it: `HH:MM:SS.mmm`.
pub fn clock_now() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs() as libc::time_t;
    // SAFETY: localtime_r writes only into `tm`, which lives on this stack frame.
    let tm = unsafe {
        let mut tm: libc::tm = std::mem::zeroed();
        libc::localtime_r(&secs, &mut tm);
        tm
    };
    format!("{:02}:{:02}:{:02}.{:03}", tm.tm_hour, tm.tm_min, tm.tm_sec, now.subsec_millis())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<CbenchArgs, String> {
        parse(s.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn cbench_flags_map_to_config() {
        let a = p("-c localhost -p 6653 -m 100 -l 5 -s 4 -M 10 -t -w 1 -C 1 -i 0 -I 2").unwrap();
        assert_eq!(a.cfg.controller(), "127.0.0.1:6653");
        assert_eq!(a.cfg.traffic, "cbench", "cbench's own frames");
        assert_eq!((a.cfg.loop_ms, a.cfg.loops, a.cfg.warmup, a.cooldown), (100, 4, 1, 1));
        assert_eq!((a.cfg.switches, a.cfg.macs, a.cfg.connect_parallel), (4, 10, 2));
        assert_eq!(a.cfg.mode, Mode::Throughput);
        assert_eq!(a.cfg.versions, ofwire::Versions::OF10, "OpenFlow 1.0 like cbench");
        assert_eq!(p("").unwrap().cfg.mode, Mode::Latency, "cbench's default mode");
        let d = p("").unwrap().cfg;
        assert_eq!((d.switches, d.loops + d.warmup, d.macs, d.settle_ms), (16, 16, 100_000, 0), "cbench's defaults");
        assert!(d.learn && d.cbench_compat);
        assert!(d.busy_poll && d.workers == Some(1), "latency mode spins on one thread, as cbench");
        let t = p("-t").unwrap().cfg;
        assert!(!t.busy_poll && t.workers.is_none(), "-t: cbench blocks on its full socket");
        assert!(!p("--learn-dst-macs=false").unwrap().cfg.learn);
        assert!(p("--learn-dst-macs=ON").unwrap().cfg.learn);
        assert!(p("-L").unwrap().cfg.learn);
    }

    #[test]
    fn bad_flags_are_one_line() {
        assert!(p("-l 1 -w 1").is_err());
        assert!(p("-x").is_err());
        assert!(p("-s many").unwrap_err().contains("-s"));
    }

    #[test]
    fn loop_line_matches_cbench() {
        // cbench 's own line from a run here: "14:59:11.093 2   switches: flows/sec:  22  22   total = 0.087974 per ms "
        assert_eq!(
            loop_line("14:59:11.093", 2, &[22, 22], 500),
            "14:59:11.093 2   switches: flows/sec:  22  22   total = 0.088000 per ms "
        );
        assert_eq!(clock_now().len(), 12);
    }
}
