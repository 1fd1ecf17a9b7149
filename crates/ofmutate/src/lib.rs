//! Named robustness cases for an OpenFlow controller: malformed messages and southbound
//! attacks, as scripts of [`Step`]s that one emulated switch plays against the controller.
//! Pure: the engine (`crates/engine/src/robust.rs`) owns the socket, the clock and the
//! handshake (through the switch core); this crate only says what bytes go out, in what order.
//!
//! # Shape
//! - [`bytes`]: mutations over emitted bytes. `ofwire`'s `emit` refuses a lying header, so
//!   every malformed message starts as a valid one and is broken on the bytes.
//! - [`cases`]: the message-level catalogue (hcprobe-style tests, the OpenFlow 1.3.5 error
//!   cases, ours); [`attacks`]: the network-level ones (DELTA / TopoGuard style).
//! - [`all`] / [`find`]: the one list of case names (the CLI and the docs read it through
//!   `sdnbench-engine robust-cases`).
//!
//! # Invariants
//! - `Case::script` never panics, for either version, and is deterministic (seeded garbage).
//! - Every case has a unique kebab-case name, a source and an expected behaviour.

pub mod attacks;
pub mod bytes;
pub mod cases;
pub mod faucet_lldp;

/// What the attacking switch knows when it builds its script.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// Wire version the session speaks (0x01 or 0x04).
    pub version: u8,
    /// The attacker's own datapath id.
    pub dpid: u64,
    /// A background switch that is up during the case: its dpid and engine index.
    pub victim_dpid: u64,
    pub victim_index: u32,
    /// Hosts per background switch (the engine's `macs`), for host addresses.
    pub macs: u32,
    /// Ports per switch that carry load traffic (the engine's `ports`); `faucet:auto`'s stack
    /// ports are the two after them (`faucet_lldp`).
    pub ports: u32,
    pub seed: u64,
    /// How its packet-ins are dressed: the background's traffic profile's
    /// (`ofswitch::Profile::dress`), so an attack against Faucet sends packet-ins Faucet takes
    /// (its cookie, reason ACTION, its VLAN) and the case tests what it claims to test.
    pub dress: ofswitch::Dress,
}

impl Default for Ctx {
    fn default() -> Ctx {
        Ctx {
            version: 4,
            dpid: 0xbad0_0001,
            victim_dpid: 1,
            victim_index: 0,
            macs: 1000,
            ports: 4,
            seed: 1,
            dress: ofswitch::Dress::TABLE_MISS,
        }
    }
}

/// One thing the attacking switch does, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Finish the OpenFlow handshake as a switch with this datapath id (the engine's switch
    /// core says HELLO and answers the controller's requests, and keeps answering afterwards).
    Handshake { dpid: u64 },
    /// Send these bytes in one write.
    Send(Vec<u8>),
    /// Send these bytes one at a time, `gap_ms` apart.
    Dribble { bytes: Vec<u8>, gap_ms: u64 },
    /// Send [`flood_message`]s back to back for the rest of the observation window.
    Flood,
    /// Keep the session going (answering the controller) for this long: lets the controller
    /// finish registering the switch (port descriptions, topology) before an attack.
    Wait { ms: u64 },
    /// Open up to this many more TCP connections to the controller, one after another, and
    /// never send on them; stop growing at the first one the controller does not take, when
    /// the engine's open files run out, or at the window's end.
    IdleConnections { n: u32 },
    /// Start sending TCP SYNs from spoofed addresses to the controller's port, at a set rate,
    /// for the rest of the window, from a network namespace (the engine's `robust/syn.rs`;
    /// the namespace is the caller's). Only as a case's first step: the case's own connection
    /// is made after it, `SYN_HEAD_START_MS` into the flood, as a new switch would.
    SynFlood,
}

/// How long a SYN flood runs before the case's own switch connects.
pub const SYN_HEAD_START_MS: u64 = 500;

/// Which OpenFlow versions a case applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Both,
    Of13Only,
}

/// A named case: what it sends, where it comes from, what a robust controller should do.
pub struct Case {
    pub name: &'static str,
    /// `message` (one malformed message or sequence) or `network` (a southbound attack).
    pub family: &'static str,
    pub what: &'static str,
    pub source: &'static str,
    pub expect: &'static str,
    pub applies: Applies,
    pub script: fn(&Ctx) -> Vec<Step>,
}

impl Case {
    pub fn applies_to(&self, version: u8) -> bool {
        self.applies == Applies::Both || version == ofwire::version::OFP13
    }
}

/// Every case, message-level first.
pub fn all() -> Vec<&'static Case> {
    cases::CASES.iter().chain(attacks::ATTACKS.iter()).collect()
}

pub fn find(name: &str) -> Option<&'static Case> {
    all().into_iter().find(|c| c.name == name)
}

/// The `i`-th packet-in of a flood: a new source MAC each time (so a learning controller
/// decides, and installs, one more flow per message), on port 1 of the attacker.
pub fn flood_message(ctx: &Ctx, i: u32) -> Vec<u8> {
    let src = [0x02, 0xf1, (i >> 24) as u8, (i >> 16) as u8, (i >> 8) as u8, i as u8];
    let frame = ofwire::frame::build::udp_frame(&ofwire::frame::build::UdpFrameSpec {
        src_mac: src,
        dst_mac: [0x02, 0xf2, 0, 0, 0, 1],
        src_ip: [10, 250, (i >> 8) as u8, i as u8],
        dst_ip: [10, 251, 0, 1],
        src_port: 1024,
        dst_port: 9,
        frame_len: 64,
    });
    bytes::packet_in(ctx, 0x0f00_0000 | (i & 0xff_ffff), 1, frame)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_documented() {
        let all = all();
        assert!(all.len() >= 20, "{} cases", all.len());
        let mut names = std::collections::BTreeSet::new();
        for c in &all {
            assert!(names.insert(c.name), "duplicate {}", c.name);
            assert!(c.name.chars().all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-'), "{}", c.name);
            assert!(!c.what.is_empty() && !c.source.is_empty() && !c.expect.is_empty(), "{}", c.name);
            assert!(c.family == "message" || c.family == "network");
        }
        assert!(find("length-zero").is_some());
        assert!(find("no-such-case").is_none());
    }

    #[test]
    fn every_script_builds_for_both_versions_and_is_deterministic() {
        for v in [1u8, 4] {
            let ctx = Ctx { version: v, ..Ctx::default() };
            for c in all().into_iter().filter(|c| c.applies_to(v)) {
                let a = (c.script)(&ctx);
                assert!(!a.is_empty(), "{}", c.name);
                assert_eq!(a, (c.script)(&ctx), "{}", c.name);
            }
        }
    }

    #[test]
    fn flood_messages_are_valid_and_distinct() {
        let ctx = Ctx::default();
        let a = flood_message(&ctx, 1);
        let b = flood_message(&ctx, 2);
        assert_ne!(a, b);
        assert!(ofwire::Message::parse(&a).is_ok());
    }
}
