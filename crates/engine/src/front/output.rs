//! Text output: a live line per loop (overwritten on a TTY), then a hyperfine-style summary and
//! cbench's `RESULT:` line. Everything here only formats values computed elsewhere.

use crate::coordinator::figures::{mean_sd, measured_rps};
use crate::coordinator::{LoopTotal, Outcome};
use crate::switch::protocol::Ready;
use serde_json::Value;
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

pub fn summary(o: &Outcome, j: &Value) -> String {
    let mut s = String::new();
    let c = &o.cfg;
    let rps = measured_rps(o);
    let t = &j["totals"];
    let u = |v: &Value| v.as_u64().unwrap_or(0);
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    if let Some(cap) = j["capacity"].as_object() {
        s += &format!(
            "Capacity:    {} sessions held ({} established, {} attempted) in {:.2} s; ",
            cap["held"],
            cap["established"],
            cap["attempted"],
            f(&cap["establish_s"])
        );
        s += &format!("stopped by: {}\n", cap["first_failure"].as_str().unwrap_or("the requested number was reached"));
    } else {
        let (mean, sd, min, max) = mean_sd(&rps);
        s += &format!(
            "Throughput (mean ± σ):  {} ± {} answered requests/s   [{} switches, {} loops of {} ms, {} warm-up]\n",
            thousands(mean),
            thousands(sd),
            c.switches,
            rps.len(),
            c.loop_ms,
            c.warmup
        );
        s += &format!("Range (min … max):      {} … {}\n", thousands(min), thousands(max));
        let answered = u(&t["requests_answered"]);
        let sent = u(&t["requests_sent"]).max(1);
        s += &format!(
            "Requests:   sent {}  answered {} ({:.2}%)  lost {}  extra replies {} ({:.2} per answered)  errors {}\n",
            thousands(sent as f64),
            thousands(answered as f64),
            answered as f64 * 100.0 / sent as f64,
            thousands(u(&t["requests_lost"]) as f64),
            thousands(u(&t["extra_replies"]) as f64),
            f(&t["extra_per_answered"]),
            u(&t["errors"])
        );
        let replies: Vec<String> = t["replies_by_type"]
            .as_object()
            .map(|m| {
                m.iter().filter(|(k, _)| *k == "flow_mod" || *k == "packet_out").map(|(k, v)| format!("{k} {}", thousands(f(v)))).collect()
            })
            .unwrap_or_default();
        s += &format!("Replies:    {}\n", if replies.is_empty() { "none".into() } else { replies.join("  ") });
        let l = &j["latency"];
        if u(&l["count"]) > 0 {
            s += &format!(
                "Latency:    p50 {:.1} µs  p90 {:.1} µs  p99 {:.1} µs  p99.9 {:.1} µs  max {:.1} µs  (n = {})\n",
                f(&l["p50"]),
                f(&l["p90"]),
                f(&l["p99"]),
                f(&l["p99_9"]),
                f(&l["max"]),
                thousands(f(&l["count"]))
            );
        }
    }
    let h = &j["handshake"];
    s += &format!(
        "Sessions:   {} up, {} failed, {} disconnected; handshake {:.3} s ({}/s)\n",
        u(&h["sessions_up"]),
        u(&h["sessions_failed"]),
        j["disconnects"].as_array().map_or(0, |a| a.len()),
        f(&h["duration_s"]),
        thousands(f(&h["rate_per_s"]))
    );
    let t = &j["totals"];
    if u(&t["sessions_lost"]) > 0 {
        s += &format!(
            "Reconnect:  {} sessions lost, {} re-established ({} attempts failed), {:.2} s disconnected, {} requests not sent\n",
            u(&t["sessions_lost"]),
            u(&t["reconnects"]),
            u(&t["reconnect_failures"]),
            f(&t["disconnected_ms"]) / 1000.0,
            u(&t["requests_not_sent_disconnected"])
        );
    }
    for d in j["disconnects"].as_array().into_iter().flatten().take(10) {
        s += &format!(
            "  lost:     switch {} (dpid {}) at {:.2} s: {}\n",
            d["index"],
            d["dpid"],
            f(&d["t_s"]),
            d["reason"].as_str().unwrap_or("")
        );
    }
    let e = &j["efficiency"];
    if f(&e["engine_cpu_s"]) > 0.0 && c.mode != crate::config::Mode::Capacity {
        s += &format!(
            "Engine:     {:.2} CPU-s for {} answered ({} answered per engine CPU-second)\n",
            f(&e["engine_cpu_s"]),
            thousands(f(&e["measured_answered"])),
            thousands(f(&e["answered_per_engine_cpu_s"]))
        );
    }
    if let Some(ctl) = o.sampler.series.iter().find(|x| x.label == "controller") {
        let (cpu, ..) = mean_sd(&ctl.cpu_percent.iter().skip(c.warmup as usize).cloned().collect::<Vec<_>>());
        let rss = ctl.rss_bytes.iter().max().cloned().unwrap_or(0);
        s += &format!("Controller: {cpu:.0}% CPU, {:.1} MiB RSS (peak)\n", rss as f64 / 1048576.0);
    }
    if c.mode != crate::config::Mode::Capacity {
        s += &result_line(c.switches, &rps);
        s += "\n";
    }
    for w in &o.warnings {
        s += &format!("Warning: {w}\n");
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

    #[test]
    fn cbench_result_line_format() {
        assert_eq!(
            result_line(16, &[1000.0, 3000.0]),
            "RESULT: 16 switches 2 tests min/max/avg/stdev = 1000.00/3000.00/2000.00/1414.21 responses/s"
        );
    }
}
