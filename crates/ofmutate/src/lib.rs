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
mod case;
pub mod cases;
pub mod faucet_lldp;

pub use case::{Applies, Case, Ctx, Step, SYN_HEAD_START_MS};

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
