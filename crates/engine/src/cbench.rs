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

fn n<T: std::str::FromStr>(p: &mut lexopt::Parser, flag: &str) -> Result<T, String> {
    let v = val(p)?;
    v.parse().map_err(|_| format!("cbench: {flag}: not a number: {v:?}"))
}

pub fn parse(args: Vec<String>) -> Result<CbenchArgs, String> {
    let mut c = Config { mode: Mode::Latency, versions: 1 << 1, traffic: "cbench".into(), switches: 16, loops: 16, warmup: 1, macs: 100_000, ..Config::default() };
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
                c.fill_socket = true; // cbench keeps its socket full, it has no window
                // and no loss timeout: every answer counts, however deep the queue it waited in
                c.adaptive_timeout = false;
                c.timeout_ms = 60_000;
                // and it reads whenever a byte is there: no wake coalescing (`coalesce.rs`). On a
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
            Short('L') | Long("learn-dst-macs") => c.learn = true,
            Short('d') | Long("debug") => {}
            Short('h') | Long("help") => return Err(USAGE.into()),
            _ => return Err(format!("cbench: {}", arg.unexpected())),
        }
    }
    if c.loops <= c.warmup + cooldown {
        return Err(format!("cbench: -l {} leaves no test loop after -w {} and -C {cooldown}", c.loops, c.warmup));
    }
    c.loops -= c.warmup;
    c.macs = c.macs.clamp(1, 65_535);
    let host = if host == "localhost" { "127.0.0.1".to_string() } else { host };
    c.controllers = vec![format!("{host}:{port}")];
    crate::cli::validate(&c)?;
    Ok(CbenchArgs { cfg: c, cooldown })
}

pub const USAGE: &str = "usage: sdnbench-engine cbench [-c host] [-p port] [-m ms-per-test] [-l loops] [-s switches] \
[-M macs] [-t] [-w warmup] [-C cooldown] [-i ms] [-I group] [-D ms] [-o dpid-offset]";

pub fn banner(c: &Config, cooldown: u32) -> String {
    format!(
        "cbench (sdnbench-engine {}): controller benchmarking tool\n   running in mode '{}'\n   connecting to controller at {}\n   \
         faking {} switches offset {} :: {} tests each; {} ms per test\n   with {} unique source MACs per switch\n   \
         ignoring first {} \"warmup\" and last {cooldown} \"cooldown\" loops\n   counting answered requests (one per packet-in), not reply messages",
        env!("CARGO_PKG_VERSION"), c.mode.name(), c.controller(), c.switches, c.first_dpid,
        c.loops + c.warmup, c.loop_ms, c.macs, c.warmup
    )
}

/// cbench's per-loop line: per-switch counts per second, then the total per ms.
/// Whether cbench would count this controller message as a response (its fakeswitch.c): every
/// packet-out whose frame is not LLDP, and every flow-mod whose command is ADD or MODIFY_STRICT.
/// A flow-mod and a packet-out answering one packet-in are two responses; `answered` counts
/// the request once, and `controller cbench` prints both.
pub fn counts_as_response(msg: &[u8]) -> bool {
    const OFPFC_ADD: u16 = 0;
    const OFPFC_MODIFY_STRICT: u16 = 2;
    let be16 = |at: usize| msg.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let (version, ty) = match msg {
        [v, t, ..] => (*v, *t),
        _ => return false,
    };
    match (version, ty) {
        // OF1.0 flow-mod: header 8, match 40, cookie 8, command u16
        (1, 14) => matches!(be16(56), Some(OFPFC_ADD | OFPFC_MODIFY_STRICT)),
        // OF1.3 flow-mod: header 8, cookie 8, cookie mask 8, table id 1, command u8
        (4, 14) => matches!(msg.get(25).map(|&c| u16::from(c)), Some(OFPFC_ADD | OFPFC_MODIFY_STRICT)),
        // packet-out: the frame after the actions (1.0: at 16 + actions_len; 1.3: 24 + it)
        (1, 13) => !frame_is_lldp(msg, be16(14).map(|n| 16 + n as usize)),
        (4, 13) => !frame_is_lldp(msg, be16(16).map(|n| 24 + n as usize)),
        _ => false,
    }
}

fn frame_is_lldp(msg: &[u8], data_at: Option<usize>) -> bool {
    let ethertype = |at: usize| msg.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let Some(d) = data_at else { return false };
    match ethertype(d + 12) {
        Some(0x8100) => ethertype(d + 16) == Some(0x88cc),
        t => t == Some(0x88cc),
    }
}

pub fn loop_line(switches: u32, per_switch: &[u64], loop_ms: u64) -> String {
    let secs = loop_ms as f64 / 1000.0;
    let mut s = format!("{switches:<3} switches: flows/sec:  ");
    for c in per_switch {
        s += &format!("{:.0}   ", *c as f64 / secs);
    }
    let total: u64 = per_switch.iter().sum();
    s += &format!("total = {:.6} per ms", total as f64 / loop_ms as f64);
    s
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
        assert_eq!(a.cfg.versions, 2, "OpenFlow 1.0 like cbench");
        assert_eq!(p("").unwrap().cfg.mode, Mode::Latency, "cbench's default mode");
    }

    #[test]
    fn bad_flags_are_one_line() {
        assert!(p("-l 1 -w 1").is_err());
        assert!(p("-x").is_err());
        assert!(p("-s many").unwrap_err().contains("-s"));
    }

    #[test]
    fn responses_are_counted_as_cbench_counts_them() {
        let mut fm10 = vec![0u8; 72];
        fm10[..2].copy_from_slice(&[1, 14]);
        assert!(counts_as_response(&fm10), "OF1.0 flow-mod ADD");
        fm10[57] = 3; // DELETE
        assert!(!counts_as_response(&fm10));
        fm10[57] = 2; // MODIFY_STRICT
        assert!(counts_as_response(&fm10));
        let mut fm13 = vec![0u8; 56];
        fm13[..2].copy_from_slice(&[4, 14]);
        assert!(counts_as_response(&fm13));
        fm13[25] = 1; // MODIFY
        assert!(!counts_as_response(&fm13));
        // OF1.0 packet-out, one 8-byte output action, then a frame
        let mut po = vec![1, 13, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 1, 0, 8];
        po.extend_from_slice(&[0, 0, 0, 8, 0xff, 0xfb, 0, 0]);
        let mut frame = vec![0u8; 60];
        frame[12..14].copy_from_slice(&[0x08, 0x00]);
        assert!(counts_as_response(&[po.clone(), frame.clone()].concat()));
        frame[12..14].copy_from_slice(&[0x88, 0xcc]);
        assert!(!counts_as_response(&[po.clone(), frame].concat()), "LLDP is not a response");
        assert!(counts_as_response(&po), "a buffered packet-out (no frame) counts");
        assert!(!counts_as_response(&[1, 2, 0, 8]), "an echo request does not");
    }

    #[test]
    fn loop_line_matches_cbench() {
        assert_eq!(loop_line(2, &[1000, 3000], 1000), "2   switches: flows/sec:  1000   3000   total = 4.000000 per ms");
    }
}
