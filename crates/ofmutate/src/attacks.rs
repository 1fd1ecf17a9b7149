//! Network-level cases: the southbound attacks an emulated switch can mount. Sources: DELTA
//! (Lee et al., "DELTA: A Security Assessment Framework for Software-Defined Networks",
//! NDSS 2017: switch identification spoofing, handshake manipulation, control-message
//! flooding), TopoGuard (Hong et al., "Poisoning Network Visibility in Software-Defined
//! Networks", NDSS 2015: link fabrication with forged LLDP, host location hijacking),
//! AVANT-GUARD (Shin et al., CCS 2013: data-to-control-plane saturation) and RFC 8456 §5.3.2.

use crate::bytes::{emit, packet_in};
use crate::case::{Applies, Case, Ctx, Step};
use ofwire::frame::lldp::Lldp;
use ofwire::{Body, Hello};

/// Source MAC of LLDP frames the attacker forges (locally administered).
pub const FORGED_LLDP_SRC: [u8; 6] = [0x02, 0xbd, 0x11, 0xd9, 0, 1];

/// The connection flood grows, one idle connection after another, until the controller refuses
/// one (refused, reset, or not accepted within 1 s: its accept queue is full), the window ends,
/// the engine runs out of files (its open-files limit less what it keeps), or this cap: 16,384
/// connections, 4,096 times a network of 4 switches, past the 1,024 open files a controller
/// process gets by default (so a controller that leaves that default shows it), and a bound on
/// what one case takes from a shared machine (docs/robustness.md).
pub const IDLE_CONNECTIONS: u32 = 16_384;

/// Settle time after the handshake before a view attack (the controller registers ports first).
pub const SETTLE_MS: u64 = 500;

fn hello(ctx: &Ctx) -> Vec<u8> {
    emit(ctx.version, 0x0bad_0100, Body::Hello(Hello::with_versions(&[ctx.version])))
}

/// An LLDP packet-in claiming it came from the victim, received on the attacker's port: in the
/// format the controller itself sends. os-ken's (chassis `dpid:%016x`, the victim's port 1 on
/// our port 1) for every controller but Faucet; against Faucet (its packet-in dress, `Ctx::dress`)
/// Faucet's own beacon (`faucet_lldp`), which it reads on stack ports only: the victim's stack
/// port towards the next datapath (`ports + 2`, UP) on our stack port (`ports + 1`, whose
/// configured peer is the datapath before us), raised as Faucet's stack LLDP flow raises it
/// (its cookie, reason ACTION, table 0). The victim is not our configured peer: Faucet's
/// cabling check (`verify_lldp`) is what is tested.
pub fn forged_lldp(ctx: &Ctx) -> Vec<u8> {
    if ctx.dress == ofswitch::Dress::FAUCET {
        let frame = crate::faucet_lldp::beacon(ctx.victim_dpid, ctx.ports + 2, crate::faucet_lldp::STACK_UP);
        let table0 = Ctx { dress: ofswitch::Dress { table_id: 0, ..ctx.dress }, ..ctx.clone() };
        return packet_in(&table0, 0x0bad_0101, ctx.ports + 1, frame);
    }
    let frame = ofwire::frame::build::lldp_frame(FORGED_LLDP_SRC, &Lldp::for_port(ctx.victim_dpid, 1));
    packet_in(ctx, 0x0bad_0101, 1, frame)
}

/// The victim host: host 1 of the victim switch (the engine's learning phase announces hosts
/// 1..=n, so the controller has seen it at the victim first; host 0's MAC would be all zeros).
pub const VICTIM_HOST: u32 = 1;

/// A gratuitous ARP from the victim switch's host 1 (its MAC and IP), seen on our port 1.
pub fn hijacking_arp(ctx: &Ctx) -> Vec<u8> {
    let mac = ofswitch::frames::host_mac(ctx.victim_index, VICTIM_HOST);
    let ip = ofswitch::frames::host_ip(ctx.victim_index, VICTIM_HOST, ctx.macs);
    packet_in(ctx, 0x0bad_0102, 1, ofwire::frame::build::gratuitous_arp(mac, ip))
}

pub static ATTACKS: &[Case] = &[
    Case { name: "duplicate-dpid", family: "network", applies: Applies::Both,
        what: "a second switch completes the handshake with the datapath id of a background switch that is up",
        source: "DELTA (NDSS 2017) switch identification spoofing",
        expect: "one of the two sessions refused or closed, or both kept; the victim's service must go on",
        script: |c| vec![Step::Handshake { dpid: c.victim_dpid }] },
    Case { name: "fabricated-lldp", family: "network", applies: Applies::Both,
        what: "an LLDP packet-in, forged to say it left the victim's port 1, arriving on the attacker's port 1 (a link that does not exist); repeated 3 times. Against Faucet, in Faucet's own beacon format: the victim's stack port on the attacker's stack port",
        source: "TopoGuard (NDSS 2015) link fabrication",
        expect: "no link in the controller's topology view (judged from the topology view where the controller has one)",
        script: |c| vec![Step::Handshake { dpid: c.dpid }, Step::Wait { ms: SETTLE_MS }, Step::Send(forged_lldp(c)), Step::Send(forged_lldp(c)), Step::Send(forged_lldp(c))] },
    Case { name: "host-hijack", family: "network", applies: Applies::Both,
        what: "a gratuitous ARP with a background switch's host MAC and IP, arriving on the attacker's port 1 (the host seems to move)",
        source: "TopoGuard (NDSS 2015) host location hijacking",
        expect: "the move refused or verified; traffic to that host must not follow the attacker (judged from flows/host view)",
        script: |c| vec![Step::Handshake { dpid: c.dpid }, Step::Wait { ms: SETTLE_MS }, Step::Send(hijacking_arp(c))] },
    Case { name: "handshake-never-finished", family: "network", applies: Applies::Both,
        what: "HELLO, then never a features reply nor an echo reply",
        source: "DELTA (NDSS 2017) handshake manipulation",
        expect: "the session closed after a timeout; nobody else notices",
        script: |c| vec![Step::Send(hello(c))] },
    Case { name: "no-hello", family: "network", applies: Applies::Both,
        what: "a TCP connection that never sends a byte",
        source: "RFC 8456 §5.3.2 (sessions that never start)",
        expect: "the session closed after a timeout, or held idle; nobody else notices",
        script: |_| vec![Step::IdleConnections { n: 1 }] },
    Case { name: "connection-flood", family: "network", applies: Applies::Both,
        what: "TCP connections that never send HELLO, opened one after another and held, growing until the controller refuses one, the engine's open files run out or 16,384",
        source: "RFC 8456 §5.3.2 (denial of service); DELTA control-channel flooding",
        expect: "the legitimate switches keep their service",
        script: |_| vec![Step::IdleConnections { n: IDLE_CONNECTIONS }] },
    Case { name: "syn-flood", family: "network", applies: Applies::Both,
        what: "TCP SYNs at a set rate (5,000/s by default) from random addresses and ports of a private /24, sent from a network namespace through a veth to the controller's port for the whole window; 500 ms in, a new switch connects and shakes hands",
        source: "RFC 8456 §5.3.2 (denial of service: TCP SYN flood); AVANT-GUARD (CCS 2013) TCP SYN flooding",
        expect: "the connected switches keep their service and a new switch can still connect (SYN cookies or a large enough SYN queue)",
        script: |c| vec![Step::SynFlood, Step::Handshake { dpid: c.dpid }] },
    Case { name: "packet-in-flood", family: "network", applies: Applies::Both,
        what: "after the handshake, packet-ins with a new source MAC each, back to back for the whole observation window",
        source: "AVANT-GUARD (CCS 2013) control-plane saturation; DELTA flow-rule flooding; RFC 8456 §5.3.2",
        expect: "the other switches' service degrades gracefully, not to zero",
        script: |c| vec![Step::Handshake { dpid: c.dpid }, Step::Flood] },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forged_lldp_names_the_victim() {
        let c = Ctx { victim_dpid: 0x42, ..Ctx::default() };
        let m = ofwire::Message::parse(&forged_lldp(&c)).unwrap();
        let Body::PacketIn(p) = m.body else { panic!() };
        let f = ofwire::frame::parse(&p.data).unwrap();
        let text = format!("{f:?}");
        assert!(text.to_lowercase().contains("lldp"), "{text}");
        let l = Lldp::parse(&p.data[14..]).unwrap();
        assert_eq!((l.dpid(), l.port_no()), (Some(0x42), Some(1)));
    }

    #[test]
    fn against_faucet_the_forged_lldp_is_faucets_beacon_on_a_stack_port() {
        let c = Ctx { victim_dpid: 1, ports: 4, dress: ofswitch::Dress::FAUCET, ..Ctx::default() };
        let m = ofwire::Message::parse(&forged_lldp(&c)).unwrap();
        let Body::PacketIn(p) = m.body else { panic!() };
        assert_eq!((p.reason, p.cookie, p.table_id), (1, ofswitch::faucet::COOKIE, 0), "as Faucet's stack LLDP flow raises it");
        assert_eq!(p.port(ofwire::version::Version::V13), Some(5), "the attacker's stack port");
        assert_eq!(p.data, crate::faucet_lldp::beacon(1, 6, crate::faucet_lldp::STACK_UP), "untagged, the victim's port 6");
        // any other controller: os-ken's format on port 1, as before
        let l = Lldp::parse(&forged_lldp(&Ctx::default())[18 + 24..][14..]).map(|l| (l.dpid(), l.port_no()));
        assert_eq!(l, Ok((Some(1), Some(1))));
    }

    #[test]
    fn hijacking_arp_uses_the_victims_host() {
        let c = Ctx { victim_index: 3, ..Ctx::default() };
        let m = ofwire::Message::parse(&hijacking_arp(&c)).unwrap();
        let Body::PacketIn(p) = m.body else { panic!() };
        assert_eq!(&p.data[6..12], &ofswitch::frames::host_mac(3, 1));
        assert_eq!(&p.data[6..12], &[0, 0, 0, 3, 0, 1]);
        assert_eq!(p.port(ofwire::version::Version::V13), Some(1));
    }

    #[test]
    fn duplicate_dpid_handshakes_as_the_victim() {
        let c = Ctx { victim_dpid: 7, ..Ctx::default() };
        assert_eq!((crate::find("duplicate-dpid").unwrap().script)(&c), vec![Step::Handshake { dpid: 7 }]);
    }
}
