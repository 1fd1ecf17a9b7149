//! The machine's limits on sessions, and how a run is planned around them.
//!
//! - Open files: a process may hold at most its hard RLIMIT_NOFILE (20,000 here, and not even root
//!   can raise it), so the engine raises its soft limit to the hard one and shards sessions over
//!   worker processes.
//! - Ephemeral ports: one source address gives one connection per local port to a given
//!   controller address and port (`ip_local_port_range`, 32768–60999 here: 28,232). Past that
//!   the sessions are spread over several source addresses; on loopback any 127/8 address works,
//!   so they are chosen automatically.

use crate::config::Config;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

/// Files a worker keeps for itself (stdio, runtime, /proc reads, slack).
const RESERVED_FDS: u64 = 64;
/// Use at most this share of a source address's ephemeral ports: connect() searches the range for
/// a free port, and that search (done inside the syscall, stalling the worker) grows long as the
/// range fills up — measured here: 25,000 per address handshook at ~350/s, 10,000 at ~8,000/s.
const PORT_SHARE: u64 = 3;
/// Keep-alive echoes per second past which a run is told what they cost: every session that is
/// up sends one per `echo_interval_ms` of silence (Open vSwitch's inactivity probe). Measured on
/// loopback here (2 cores, docs/engine-figures.md, Scale): about 13 µs of CPU per echo round trip
/// for both sides, so 500,000 sessions at the default 5 s (100,000/s) take more than the machine
/// has beside the handshakes, and the handshake rate falls as sessions come up.
const ECHO_NOTE_PER_S: u64 = 20_000;

pub fn resolve(addr: &str) -> Result<SocketAddr, String> {
    addr.to_socket_addrs()
        .map_err(|e| format!("cannot resolve controller address {addr:?}: {e}"))?
        .next()
        .ok_or_else(|| format!("controller address {addr:?} resolves to nothing"))
}

/// Raise the soft open-files limit to the hard one; returns (soft, hard) after.
pub fn raise_nofile() -> (u64, u64) {
    unsafe {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) != 0 {
            return (1024, 1024);
        }
        if r.rlim_cur < r.rlim_max {
            let want = libc::rlimit { rlim_cur: r.rlim_max, rlim_max: r.rlim_max };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &want) == 0 {
                r.rlim_cur = r.rlim_max;
            }
        }
        (r.rlim_cur, r.rlim_max)
    }
}

pub fn ephemeral_ports() -> u64 {
    std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|s| {
            let v: Vec<u64> = s.split_whitespace().filter_map(|x| x.parse().ok()).collect();
            (v.len() == 2 && v[1] >= v[0]).then(|| v[1] - v[0] + 1)
        })
        .unwrap_or(28_232)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub workers: u32,
    pub source_addrs: Vec<String>,
    pub notes: Vec<String>,
}

/// Decide workers and source addresses for `cfg`, or explain why the run cannot be done.
pub fn plan(cfg: &Config, nofile_hard: u64, ports: u64) -> Result<Plan, String> {
    let n = cfg.switches as u64;
    let per_worker = nofile_hard.saturating_sub(RESERVED_FDS).max(1);
    let needed = n.div_ceil(per_worker).max(1);
    let workers = cfg.workers.map_or(needed, |w| w.max(1) as u64);
    if workers < needed {
        return Err(format!(
            "{n} switches over {workers} worker(s) is {} sessions per process, but a process may open only \
             {nofile_hard} files here (the hard limit; not even root can raise it): use --workers {needed} or more",
            n.div_ceil(workers)
        ));
    }
    let mut notes = vec![];
    if workers > 1 && cfg.workers.is_none() {
        notes.push(format!("{n} switches need {workers} worker processes (at most {per_worker} sessions each)"));
    }
    let per_addr = (ports / PORT_SHARE).max(1);
    let addrs_needed = n.div_ceil(per_addr).max(1);
    let mut source_addrs = cfg.source_addrs.clone();
    let target = resolve(cfg.controller())?;
    if source_addrs.is_empty() && addrs_needed > 1 {
        if !target.ip().is_loopback() {
            return Err(format!(
                "{n} sessions to one controller address need at least {addrs_needed} local source addresses \
                 (at most {per_addr} sessions each, a third of the {ports} ephemeral ports): give them with --source-addrs A,B,..."
            ));
        }
        source_addrs = (0..addrs_needed).map(|i| format!("127.1.{}.{}", i / 250, 1 + i % 250)).collect();
        notes.push(format!("spreading sessions over {addrs_needed} loopback source addresses"));
    } else if !source_addrs.is_empty() && (source_addrs.len() as u64) < addrs_needed {
        return Err(format!(
            "{n} sessions need at least {addrs_needed} source addresses ({ports} ephemeral ports each); \
             --source-addrs gives {} (at most {per_addr} sessions per address)",
            source_addrs.len()
        ));
    }
    for a in &source_addrs {
        let ip: IpAddr = a.parse().map_err(|_| format!("--source-addrs: {a:?} is not an IP address"))?;
        if ip.is_ipv4() != target.is_ipv4() {
            return Err(format!("--source-addrs: {a} and the controller {target} are not the same IP family"));
        }
    }
    if let Some(note) = keepalive_note(n, cfg.echo_interval_ms) {
        notes.push(note);
    }
    Ok(Plan { workers: workers.min(n.max(1)) as u32, source_addrs, notes })
}

/// What holding `n` sessions with a keep-alive every `interval_ms` costs, when it is a lot.
pub fn keepalive_note(n: u64, interval_ms: u64) -> Option<String> {
    let per_s = (n * 1000).checked_div(interval_ms).unwrap_or(0);
    (per_s > ECHO_NOTE_PER_S).then(|| {
        format!(
            "{n} sessions with a keep-alive echo every {interval_ms} ms are {per_s} echo round trips/s once up \
             (about {:.1} cores on loopback at 13 us each); for handshakes at scale raise --echo-interval-ms",
            per_s as f64 * 13e-6
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(switches: u32) -> Config {
        Config { switches, controllers: vec!["127.0.0.1:6653".into()], ..Config::default() }
    }

    #[test]
    fn small_runs_need_one_worker_and_no_extra_addresses() {
        let p = plan(&cfg(100), 20_000, 28_232).unwrap();
        assert_eq!((p.workers, p.source_addrs.len()), (1, 0));
    }

    #[test]
    fn hundred_thousand_switches_shard_and_spread() {
        let p = plan(&cfg(100_000), 20_000, 28_232).unwrap();
        assert_eq!(p.workers, 6);
        assert_eq!(p.source_addrs.len(), 11);
        assert_eq!(p.source_addrs[0], "127.1.0.1");
    }

    #[test]
    fn too_few_workers_is_explained() {
        let c = Config { workers: Some(2), ..cfg(100_000) };
        let e = plan(&c, 20_000, 28_232).unwrap_err();
        assert!(e.contains("--workers 6"), "{e}");
    }

    #[test]
    fn non_loopback_needs_explicit_addresses() {
        let c = Config { controllers: vec!["192.0.2.1:6653".into()], ..cfg(15_000) };
        assert!(plan(&c, 20_000, 28_232).unwrap_err().contains("--source-addrs"));
        let c = Config { source_addrs: vec!["192.0.2.9".into()], ..c };
        assert!(plan(&c, 20_000, 28_232).unwrap_err().contains("gives 1"));
    }

    #[test]
    fn keepalive_cost_is_told_only_when_it_is_large() {
        assert_eq!(keepalive_note(100_000, 5000), None); // 20,000/s: not past the line
        let n = keepalive_note(500_000, 5000).unwrap();
        assert!(n.contains("100000 echo round trips/s") && n.contains("1.3 cores"), "{n}");
        assert_eq!(keepalive_note(1_000_000, 60_000), None);
        assert_eq!(keepalive_note(1_000_000, 0), None); // keep-alive off
        assert!(plan(&cfg(500_000), 20_000, 28_232).unwrap().notes.iter().any(|x| x.contains("keep-alive")));
    }

    #[test]
    fn raising_the_soft_limit_reaches_the_hard_one() {
        let (soft, hard) = raise_nofile();
        assert_eq!(soft, hard);
    }
}
