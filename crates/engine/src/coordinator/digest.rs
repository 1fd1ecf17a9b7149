//! What the run's figures need of the per-switch records, folded one record at a time as each
//! worker's report arrives (`Outcome::add_report`), so the records themselves can leave as they
//! come (`records.rs`: to the columnar file) instead of being held until the result is built.
//! At 200,000 switches the typed records were a few hundred MB at the end of the run; this is a
//! few numbers per switch (the three connect-time samples) and the lost switches.
//!
//! Every figure is what the records gave: integer sums (order-free), counts, the samples of the
//! percentiles (sorted when read), the TLS versions and suites counted, and the lost switches
//! kept per worker in arrival order, read in worker order (the order the records had once the
//! reports were sorted by worker). `export/tests.rs` holds the summary to the one the records
//! made before (`the_summary_of_the_records_is_the_one_written_before`).

use crate::config::Config;
use crate::result::switches::{RequestCounts, SwitchReport};
use crate::result::totals::Disconnect;
use std::collections::BTreeMap;

/// A switch whose session was lost (its first loss), and whether it had come up.
#[derive(Clone, Debug)]
pub struct Loss {
    pub at: Disconnect,
    /// The switch's handshake was done (`of_version` set): lost after it came up.
    pub up: bool,
}

/// The per-switch counters summed over every switch.
#[derive(Clone, Debug, Default)]
pub struct Sums {
    pub requests: RequestCounts,
    pub late_ns_sum: u64,
    /// The largest, not the sum.
    pub late_ns_max: u64,
    pub learning_replies: u64,
    pub learning_late_replies: u64,
    /// Invalid packet-ins sent (`switch/exceptions.rs`), each switch's own count summed.
    pub invalid_sent: u64,
    pub errors: BTreeMap<String, u64>,
    pub replies_by_type: BTreeMap<String, u64>,
    pub keepalive: crate::result::switches::KeepaliveCounts,
    pub sessions_lost: u64,
    pub reconnect_attempts: u64,
    pub reconnects: u64,
    pub reconnect_failures: u64,
    pub disconnected_ns: u64,
    pub not_sent_disconnected: u64,
}

/// Counts of switches.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    /// Handshake done (`of_version` set).
    pub up: u32,
    /// Handshake done and an echo answered (what `up` means for a workload that waits for one).
    pub up_echoed: u32,
    pub hello_fallbacks: u32,
    /// Lost after coming up, and not down at the stop (back by the end).
    pub back: u32,
    /// Reconnected at least once.
    pub reconnected: u32,
    pub down_at_stop: u32,
    pub reconnecting_at_stop: u32,
}

/// The run's switches, folded.
#[derive(Clone, Debug, Default)]
pub struct Digest {
    pub records: u64,
    pub sums: Sums,
    pub counts: Counts,
    /// The samples of the per-switch timings (µs) of the first session that came up.
    pub tcp_connect_us: Vec<f64>,
    pub tls_handshake_us: Vec<f64>,
    pub openflow_handshake_us: Vec<f64>,
    /// Switches over TLS, and how many agreed each version and each cipher suite.
    pub tls_sessions: u32,
    pub tls_versions: BTreeMap<String, u32>,
    pub tls_suites: BTreeMap<String, u32>,
    /// Switches up, by the worker (or agent) that reported them.
    up_by_worker: BTreeMap<u32, u64>,
    /// Lost switches by worker, in the order each worker reported them.
    losses: BTreeMap<u32, Vec<Loss>>,
}

impl Digest {
    /// Fold one switch's record, reported by `worker`.
    pub fn add(&mut self, cfg: &Config, worker: u32, s: &SwitchReport) {
        self.records += 1;
        self.add_sums(cfg, s);
        let c = &mut self.counts;
        let up = s.of_version.is_some();
        c.up += up as u32;
        c.up_echoed += (up && !s.echo_rtt_us.is_empty()) as u32;
        c.hello_fallbacks += s.hello_fallback as u32;
        c.back += (up && s.disconnect.is_some() && !s.reconnect.down_at_stop) as u32;
        c.reconnected += (s.reconnect.reconnects > 0) as u32;
        c.down_at_stop += s.reconnect.down_at_stop as u32;
        c.reconnecting_at_stop += s.reconnect.reconnecting_at_stop as u32;
        *self.up_by_worker.entry(worker).or_insert(0) += up as u64;
        self.tcp_connect_us.extend(s.tcp_connect_us);
        self.tls_handshake_us.extend(s.tls_handshake_us);
        self.openflow_handshake_us.extend(s.openflow_handshake_us);
        if let Some(v) = &s.tls_version {
            self.tls_sessions += 1;
            *self.tls_versions.entry(v.clone()).or_insert(0) += 1;
            if let Some(c) = &s.tls_cipher_suite {
                *self.tls_suites.entry(c.clone()).or_insert(0) += 1;
            }
        }
        if let Some(d) = &s.disconnect {
            let at = Disconnect { index: s.index, dpid: s.dpid, t_s: d.t_s, kind: d.kind.clone(), reason: d.reason.clone() };
            self.losses.entry(worker).or_default().push(Loss { at, up });
        }
    }

    fn add_sums(&mut self, cfg: &Config, s: &SwitchReport) {
        let t = &mut self.sums;
        t.requests.add(&s.requests);
        t.late_ns_sum += s.late_ns_sum;
        t.late_ns_max = t.late_ns_max.max(s.late_ns_max);
        t.learning_replies += s.learning_replies;
        t.learning_late_replies += s.learning_late_replies;
        t.invalid_sent += crate::switch::exceptions::invalid_sent(cfg, s.requests.sent);
        for (k, v) in &s.errors {
            *t.errors.entry(k.clone()).or_insert(0) += v;
        }
        for (k, v) in &s.replies_by_type {
            *t.replies_by_type.entry(k.clone()).or_insert(0) += v;
        }
        t.keepalive.add(&s.keepalive);
        let r = &s.reconnect;
        t.sessions_lost += r.sessions_lost;
        t.reconnect_attempts += r.attempts;
        t.reconnects += r.reconnects;
        t.reconnect_failures += r.failures;
        t.disconnected_ns += r.disconnected_ns;
        t.not_sent_disconnected += r.not_sent_disconnected;
    }

    /// The lost switches in switch order (workers in order, each in the order it reported).
    pub fn losses(&self) -> impl Iterator<Item = &Loss> {
        self.losses.values().flatten()
    }

    /// Switches up that `worker` reported.
    pub fn up_of(&self, worker: u32) -> u64 {
        self.up_by_worker.get(&worker).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::result::switches::Disconnect as Lost;

    fn switch(index: u32, up: bool, lost: bool) -> SwitchReport {
        SwitchReport {
            index,
            dpid: index as u64 + 1,
            of_version: up.then(|| "1.3".into()),
            requests: RequestCounts { sent: 10 + index as u64, ..Default::default() },
            late_ns_max: index as u64,
            disconnect: lost.then(|| Lost { t_s: 1.0, kind: "closed".into(), reason: format!("r{index}") }),
            ..Default::default()
        }
    }

    #[test]
    fn losses_read_in_worker_order_whatever_order_the_reports_came_in() {
        let (cfg, mut d) = (Config::default(), Digest::default());
        // worker 1 reports before worker 0
        d.add(&cfg, 1, &switch(3, true, true));
        d.add(&cfg, 1, &switch(4, false, true));
        d.add(&cfg, 0, &switch(0, true, false));
        d.add(&cfg, 0, &switch(1, true, true));
        let order: Vec<u32> = d.losses().map(|l| l.at.index).collect();
        assert_eq!(order, vec![1, 3, 4]);
        assert_eq!(d.losses().filter(|l| !l.up).count(), 1);
        assert_eq!((d.records, d.counts.up, d.counts.back, d.up_of(0), d.up_of(1), d.up_of(2)), (4, 3, 2, 2, 1, 0));
        assert_eq!((d.sums.requests.sent, d.sums.late_ns_max), (13 + 14 + 10 + 11, 4));
    }
}
