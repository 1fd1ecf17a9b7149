//! Text output: a live line per loop (overwritten on a TTY), then a hyperfine-style summary and
//! cbench's `RESULT:` line. Everything here only formats values computed elsewhere: the summary
//! reads the typed result (`result/`), never its JSON.

use crate::config::Config;
use crate::coordinator::figures::mean_sd;
use crate::coordinator::LoopTotal;
use crate::export::EngineResult;
use crate::result::Totals;
use crate::switch::protocol::Ready;
use std::io::{IsTerminal, Write};

pub fn thousands(n: f64) -> String {
    let s = format!("{:.0}", n);
    let (sign, digits) = if let Some(d) = s.strip_prefix('-') { ("-", d) } else { ("", s.as_str()) };
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    format!("{sign}{out}")
}

pub struct Live {
    tty: bool,
    quiet: bool,
    total_loops: u32,
    warmup: u32,
    loop_ms: u64,
    switches: u32,
}

impl Live {
    pub fn new(quiet: bool, total_loops: u32, warmup: u32, loop_ms: u64, switches: u32) -> Live {
        Live { tty: std::io::stderr().is_terminal(), quiet, total_loops, warmup, loop_ms, switches }
    }

    pub fn ready(&self, r: &[Ready]) {
        if self.quiet {
            return;
        }
        let up: u32 = r.iter().map(|x| x.up).sum();
        let t = r.iter().map(|x| x.handshake_s).fold(0.0, f64::max);
        let mut line = format!("handshake: {up}/{} sessions up in {t:.3} s", self.switches);
        if t > 0.0 && up > 0 {
            line += &format!(" ({}/s)", thousands(up as f64 / t));
        }
        if r.len() > 1 {
            line += &format!(" over {} workers", r.len());
        }
        eprintln!("{line}");
    }

    pub fn on_loop(&self, l: &LoopTotal) {
        if self.quiet {
            return;
        }
        let secs = self.loop_ms as f64 / 1000.0;
        let tag = if l.k <= self.warmup { " (warm-up)" } else { "" };
        let mut line = format!(
            "loop {:>3}/{}  answered {:>12}/s  sent {:>12}/s  lost {:>8}  up {}/{}{tag}",
            l.k,
            self.total_loops,
            thousands(l.answered as f64 / secs),
            thousands(l.sent as f64 / secs),
            l.lost,
            l.up,
            self.switches
        );
        if l.net_links > 0 {
            // discovery progress (RFC 8456 §5.1.1): who connected, which links carried probes
            line += &format!(
                "  connected {}/{}  link directions probed {}/{}",
                l.net_connected,
                self.switches,
                l.net_dirs_seen,
                2 * l.net_links
            );
        }
        if self.tty {
            eprint!("\r\x1b[2K{line}");
            if l.k == self.total_loops {
                eprintln!();
            }
        } else {
            eprintln!("{line}");
        }
        let _ = std::io::stderr().flush();
    }
}

/// cbench's result line: min/max/avg/stdev over the measured loops, in responses (here: answered
/// requests) per second.
pub fn result_line(switches: u32, rps: &[f64]) -> String {
    let (mean, sd, min, max) = mean_sd(rps);
    format!("RESULT: {switches} switches {} tests min/max/avg/stdev = {min:.2}/{max:.2}/{mean:.2}/{sd:.2} responses/s", rps.len())
}

/// The text summary of a result: it reads the result only (and the run's `Config` for the
/// labels), so a run and a merge print alike.
pub fn summary(c: &Config, j: &EngineResult) -> String {
    let mut s = String::new();
    let rps = &j.throughput.per_loop;
    let t = &j.totals;
    if let Some(cap) = &j.capacity {
        s += &format!(
            "Capacity:    {} sessions held ({} established, {} attempted) in {:.2} s; ",
            cap.held, cap.established, cap.attempted, cap.establish_s
        );
        s += &format!("stopped by: {}\n", cap.first_failure.as_deref().unwrap_or("the requested number was reached"));
    } else {
        let th = &j.throughput;
        s += &format!(
            "Throughput (mean ± σ):  {} ± {} answered requests/s   [{} switches, {} loops of {} ms, {} warm-up]\n",
            thousands(th.mean),
            thousands(th.stdev),
            c.switches,
            rps.len(),
            c.loop_ms,
            c.warmup
        );
        s += &format!("Range (min … max):      {} … {}\n", thousands(th.min), thousands(th.max));
        s += &requests(t);
        let l = &j.latency;
        if l.count > 0 {
            s += &format!(
                "Latency:    p50 {:.1} µs  p90 {:.1} µs  p99 {:.1} µs  p99.9 {:.1} µs  max {:.1} µs  (n = {})\n",
                l.p50,
                l.p90,
                l.p99,
                l.p99_9,
                l.max,
                thousands(l.count as f64)
            );
        }
    }
    s += &sessions(j);
    let e = &j.efficiency;
    if e.engine_cpu_s > 0.0 && c.mode != crate::config::Mode::Capacity {
        s += &format!(
            "Engine:     {:.2} CPU-s for {} answered ({} answered per engine CPU-second)\n",
            e.engine_cpu_s,
            thousands(e.measured_answered as f64),
            thousands(e.answered_per_engine_cpu_s)
        );
    }
    if let Some(ctl) = j.resources.processes.iter().find(|x| x.label == "controller") {
        let (cpu, ..) = mean_sd(&ctl.cpu_percent.iter().skip(c.warmup as usize).cloned().collect::<Vec<_>>());
        let rss = ctl.rss_bytes.iter().max().cloned().unwrap_or(0);
        s += &format!("Controller: {cpu:.0}% CPU, {:.1} MiB RSS (peak)\n", rss as f64 / 1048576.0);
    }
    if c.mode != crate::config::Mode::Capacity {
        s += &result_line(c.switches, rps);
        s += "\n";
    }
    for w in &j.warnings {
        s += &format!("Warning: {w}\n");
    }
    s
}

/// The requests and replies lines.
fn requests(t: &Totals) -> String {
    let sent = t.requests_sent.max(1);
    let mut s = format!(
        "Requests:   sent {}  answered {} ({:.2}%)  lost {}  extra replies {} ({:.2} per answered)  errors {}\n",
        thousands(sent as f64),
        thousands(t.requests_answered as f64),
        t.requests_answered as f64 * 100.0 / sent as f64,
        thousands(t.requests_lost as f64),
        thousands(t.extra_replies as f64),
        t.extra_per_answered,
        t.errors
    );
    let replies: Vec<String> = t
        .replies_by_type
        .iter()
        .filter(|(k, _)| *k == "flow_mod" || *k == "packet_out")
        .map(|(k, v)| format!("{k} {}", thousands(*v as f64)))
        .collect();
    s += &format!("Replies:    {}\n", if replies.is_empty() { "none".into() } else { replies.join("  ") });
    s
}

/// The sessions line, reconnections and the first lost sessions.
fn sessions(j: &EngineResult) -> String {
    let (h, r) = (&j.handshake, &j.totals.reconnect);
    let mut s = format!(
        "Sessions:   {} up, {} failed, {} disconnected; handshake {:.3} s ({}/s)\n",
        h.sessions_up,
        h.sessions_failed,
        j.disconnects.len(),
        h.duration_s,
        thousands(h.rate_per_s)
    );
    if r.sessions_lost > 0 {
        s += &format!(
            "Reconnect:  {} sessions lost, {} re-established ({} attempts failed), {:.2} s disconnected, {} requests not sent\n",
            r.sessions_lost,
            r.reconnects,
            r.reconnect_failures,
            r.disconnected_ms / 1000.0,
            r.requests_not_sent_disconnected
        );
    }
    for d in j.disconnects.iter().take(10) {
        s += &format!("  lost:     switch {} (dpid {}) at {:.2} s: {}\n", d.index, d.dpid, d.t_s, d.reason);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0.0), "0");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1234567.4), "1,234,567");
        assert_eq!(thousands(-1000.0), "-1,000");
    }

    /// The summary from the typed result is the one the engine printed at 825aa58, from its
    /// `Outcome` and the re-parsed JSON, for the same runs (`tests/golden/`).
    #[test]
    fn the_summary_of_a_golden_result_is_the_one_printed_then() {
        for name in ["throughput", "latency", "capacity", "network", "agents_local", "failed"] {
            let text = std::fs::read_to_string(crate::export::tests::golden(&format!("{name}.json"))).unwrap();
            let r: EngineResult = serde_json::from_str(&text).unwrap();
            let printed = std::fs::read_to_string(crate::export::tests::golden(&format!("{name}.summary.txt"))).unwrap();
            assert_eq!(summary(&r.params, &r), printed, "{name}");
        }
    }

    #[test]
    fn cbench_result_line_format() {
        assert_eq!(
            result_line(16, &[1000.0, 3000.0]),
            "RESULT: 16 switches 2 tests min/max/avg/stdev = 1000.00/3000.00/2000.00/1414.21 responses/s"
        );
    }
}
