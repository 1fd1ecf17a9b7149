//! The robustness workload (issue 16, RFC 8456 §5.3): while the configured switches keep their
//! measured background load (the `Requests` workload, unchanged), one more emulated switch, the
//! attacker, plays one named case of `ofmutate` against the controller, `at_ms` after the
//! measured phase starts, for `observe_ms`. What the attacker saw is kept as an
//! [`Observation`] in the result (`robustness`); the background's per-loop answered counts are
//! in `loops`, so "before / during / after" is read from the same run.
//!
//! Layering: `ofmutate` (pure) says what bytes to send; `attacker.rs` owns the sockets and the
//! clock and answers the controller through the switch core (`ofswitch::Switch`) once a case
//! has done its handshake; verdicts are made in Python (`sdnbench/robustness/verdicts.py`)
//! from this observation, the loops and the controller process.
//!
//! Invariant: the attacker never outlives the run: it waits for the go at most as long as
//! the run lasts, stops at its deadline, and closes every socket it opened.

pub(crate) mod attacker;
pub(crate) mod syn;

use crate::config::robust::RobustSpec;

/// Range and name checks for `robustness` (one line each), used by `validate`.
pub(crate) fn check(c: &crate::config::Config) -> Vec<String> {
    let Some(r) = &c.robustness else { return vec![] };
    let mut e = Vec::new();
    match ofmutate::find(&r.case) {
        None => e.push(format!(
            "robustness.case: unknown case {:?}; known: {}",
            r.case,
            ofmutate::all().iter().map(|c| c.name).collect::<Vec<_>>().join(", ")
        )),
        Some(case) if !case.applies_to(version(c)) => {
            e.push(format!("robustness.case: {} needs OpenFlow 1.3 (versions offers only 1.0)", r.case))
        }
        Some(_) => {}
    }
    let floods = ofmutate::find(&r.case).is_some_and(|k| (k.script)(&ofmutate::Ctx::default()).first() == Some(&ofmutate::Step::SynFlood));
    match (&r.syn, floods) {
        (None, true) => e.push(format!("robustness.syn: {} needs it (the namespace the SYNs come from; sdnbench sets it up)", r.case)),
        (Some(_), false) => e.push(format!("robustness.syn: only for a SYN flood case, not {}", r.case)),
        (Some(s), true) if !(1..=1_000_000).contains(&s.rate) => {
            e.push(format!("robustness.syn.rate: {} is not in 1..=1000000 SYNs/s", s.rate))
        }
        (Some(s), true) if syn::Spoof::new(&s.src_net, 1).is_err() => {
            e.push(format!("robustness.syn.src_net: {:?} is not a.b.c.0/24", s.src_net))
        }
        _ => {}
    }
    if !Workload::of(c).sends_requests() || c.network.is_some() {
        e.push("robustness: needs a background load (mode throughput, latency or fixed-rate, no network)".into());
    }
    if r.observe_ms == 0 || r.at_ms + r.observe_ms > c.run_ms() {
        e.push(format!(
            "robustness: at_ms {} + observe_ms {} must end within the run ({} ms) and observe_ms be at least 1",
            r.at_ms,
            r.observe_ms,
            c.run_ms()
        ));
    }
    e
}

use crate::switch::workload::Workload;

/// The version the attacker speaks: the highest the config offers.
pub(crate) fn version(c: &crate::config::Config) -> u8 {
    c.versions.hello_version()
}

/// The attacker's context for `ofmutate`: the victim is background switch 0.
pub(crate) fn ctx(c: &crate::config::Config, r: &RobustSpec) -> ofmutate::Ctx {
    ofmutate::Ctx {
        version: version(c),
        dpid: if r.dpid != 0 { r.dpid } else { c.first_dpid + c.switches as u64 },
        victim_dpid: c.first_dpid,
        victim_index: 0,
        macs: c.macs,
        ports: c.ports,
        seed: r.seed,
        dress: c.profile().dress(),
    }
}

/// The case list as JSON (`sdnbench-engine robust-cases`): name, family, versions, what,
/// source, expect. The one list the CLI and the docs read.
pub fn catalogue() -> serde_json::Value {
    serde_json::Value::Array(
        ofmutate::all()
            .iter()
            .map(|c| {
                serde_json::json!({"name": c.name, "family": c.family, "of13_only": c.applies == ofmutate::Applies::Of13Only,
                                   "what": c.what, "source": c.source, "expect": c.expect})
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Config;

    fn cfg(case: &str) -> Config {
        Config {
            loops: 4,
            loop_ms: 1000,
            warmup: 1,
            robustness: Some(RobustSpec { case: case.into(), ..RobustSpec::default() }),
            ..Config::default()
        }
    }

    #[test]
    fn unknown_case_lists_the_known_ones() {
        let e = check(&cfg("nope"));
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].contains("length-zero") && e[0].contains("packet-in-flood"), "{e:?}");
        assert!(check(&cfg("length-zero")).is_empty());
    }

    #[test]
    fn window_must_fit_and_version_must_apply() {
        let mut c = cfg("garbage");
        c.robustness.as_mut().unwrap().at_ms = 4500;
        assert!(check(&c)[0].starts_with("robustness: at_ms"));
        let c = Config { versions: ofwire::Versions::OF10, ..cfg("oxm-bad-length") };
        assert!(check(&c)[0].contains("needs OpenFlow 1.3"));
        let c = Config { mode: crate::config::Mode::Capacity, ..cfg("garbage") };
        assert!(check(&c).iter().any(|l| l.contains("background load")));
    }

    #[test]
    fn syn_flood_needs_its_namespace_and_only_it() {
        assert!(check(&cfg("syn-flood"))[0].starts_with("robustness.syn: syn-flood needs it"));
        let spec = crate::config::robust::SynSpec {
            netns: "/run/netns/x".into(),
            ifname: "v".into(),
            dst_mac: "02:00:00:00:00:01".into(),
            src_net: "10.233.7.0/24".into(),
            rate: 100,
        };
        let mut c = cfg("syn-flood");
        c.robustness.as_mut().unwrap().syn = Some(spec.clone());
        assert!(check(&c).is_empty(), "{:?}", check(&c));
        c.robustness.as_mut().unwrap().syn = Some(crate::config::robust::SynSpec { rate: 0, ..spec.clone() });
        assert!(check(&c)[0].contains("syn.rate"));
        let mut g = cfg("garbage");
        g.robustness.as_mut().unwrap().syn = Some(spec);
        assert!(check(&g)[0].contains("only for a SYN flood case"));
    }

    #[test]
    fn attacker_is_one_past_the_background() {
        let c = Config { switches: 4, first_dpid: 10, ..cfg("garbage") };
        let x = ctx(&c, c.robustness.as_ref().unwrap());
        assert_eq!((x.dpid, x.victim_dpid, x.version), (14, 10, 4));
    }
}
