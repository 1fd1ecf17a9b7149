//! What cbench's emulated switch (`fakeswitch.c`, mininet/oflops) does differently from a
//! switch, for `controller cbench` (`Config::cbench_compat`): which controller messages it counts
//! as responses, its canned replies, and its latency-mode pacing.
//!
//! cbench keeps one counter per switch, `probe_state`: +1 for every packet-in it sends, −1 for
//! every *counted response* (a non-LLDP packet-out, or a flow-mod ADD / MODIFY_STRICT:
//! `cbench::counts_as_response`), never below 0. In latency mode it sends one packet-in whenever
//! the counter is 0 and the socket is writable. So a controller that answers one packet-in with
//! a flow-mod *and* a packet-out gets the next probe on the flow-mod, and another on the
//! packet-out: two probes in flight, not one. The counter is also reset to 0
//! - at the end of every loop (`fakeswitch_get_count`), which unsticks a probe the controller
//!   ignored (cbench has no loss timeout);
//! - when it is 1 and the controller asks for the config or the description stats ("some
//!   controllers block on config", fakeswitch.c), so the next probe leaves at once.

use ofwire::error_names::{bad_request, error_type};
use ofwire::flow_mod::command;
use ofwire::frame::{ETHERTYPE_LLDP, ETHERTYPE_VLAN};
use ofwire::stats::kind;
use ofwire::{flow_mod, packet_out, stats, MsgType, Version, HEADER_LEN, OFP10};

/// The layout and kind of `msg` by its first two bytes (a 1.0 or 1.3 version byte only).
#[inline]
fn kind_of(msg: &[u8]) -> Option<(Version, MsgType)> {
    let (&wire, &code) = (msg.first()?, msg.get(1)?);
    let v = Version::from_wire(wire)?;
    Some((v, MsgType::of(v, code)))
}

/// Whether cbench would count this controller message as a response (its fakeswitch.c): every
/// packet-out whose frame is not LLDP, and every flow-mod whose command is ADD or MODIFY_STRICT.
/// A flow-mod and a packet-out answering one packet-in are two responses; `answered` counts
/// the request once, and `controller cbench` prints both.
pub fn counts_as_response(msg: &[u8]) -> bool {
    match kind_of(msg) {
        Some((v, MsgType::FlowMod)) => matches!(flow_mod::command_of(msg, v), Some(command::ADD | command::MODIFY_STRICT)),
        Some((v, MsgType::PacketOut)) => !frame_is_lldp(msg, packet_out::data_at(msg, v)),
        _ => false,
    }
}

/// Whether `msg` is a 1.0 description stats request.
#[inline]
fn is_desc_request10(msg: &[u8]) -> bool {
    kind_of(msg) == Some((Version::V10, MsgType::StatsRequest)) && stats::kind_of(msg) == Some(kind::DESC)
}

/// Whether cbench would reset its latency probe on this message (fakeswitch.c): a get-config
/// request, or a description stats request ("some controllers block on config"), in 1.0.
pub fn asks_config(msg: &[u8]) -> bool {
    kind_of(msg) == Some((Version::V10, MsgType::GetConfigRequest)) || is_desc_request10(msg)
}

/// cbench's `packet_out_is_lldp`, quirk included: for a VLAN-tagged frame it steps the
/// `struct ether_header *` by 4 (4 × 14 bytes, not 4 bytes) before reading the inner type.
fn frame_is_lldp(msg: &[u8], data_at: Option<usize>) -> bool {
    let ethertype = |at: usize| msg.get(at..at + 2).map(|b| u16::from_be_bytes([b[0], b[1]]));
    let Some(d) = data_at else { return false };
    match ethertype(d + 12) {
        Some(ETHERTYPE_VLAN) => ethertype(d + 4 * 14 + 12) == Some(ETHERTYPE_LLDP),
        t => t == Some(ETHERTYPE_LLDP),
    }
}

/// The body of cbench's features reply after the datapath id (`make_features_reply`, "stolen
/// from wireshark"): 256 buffers, 2 tables, capabilities 0, actions 0x7ff, and four ports
/// 1..4 named veth1, veth3, veth5, veth7. cbench copies it and sets only the xid and dpid.
const FEATURES_BODY: [u8; 208] = [
    0x00, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0xff, 0x00, 0x01, 0x1a, 0xc1, 0x51, 0xff,
    0xef, 0x8a, 0x76, 0x65, 0x74, 0x68, 0x31, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
    0xce, 0x2f, 0xa2, 0x87, 0xf6, 0x70, 0x76, 0x65, 0x74, 0x68, 0x33, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x03, 0xca, 0x8a, 0x1e, 0xf3, 0x77, 0xef, 0x76, 0x65, 0x74, 0x68, 0x35, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04, 0xfa, 0xbc, 0x77, 0x8d, 0x7e, 0x0b, 0x76, 0x65, 0x74, 0x68, 0x37, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xc0, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
];

/// cbench's description stats (`make_stats_desc_reply`): manufacturer, hardware, software,
/// serial number and datapath descriptions. The software field names this engine, where
/// cbench's says "version 0.01" (the one difference allowed by the capture test).
fn desc_body() -> [u8; 1056] {
    let mut b = [0u8; 1056];
    let fields: [(usize, &str); 5] = [
        (0, "Cbench - controller I/O benchmark"),
        (256, "this is actually software..."),
        (512, concat!("sdnbench-engine ", env!("CARGO_PKG_VERSION"), " (cbench workload)")),
        (768, "none"),
        (800, "none"),
    ];
    for (at, text) in fields {
        b[at..at + text.len()].copy_from_slice(text.as_bytes());
    }
    b
}

/// Where cbench answers with bytes of its own, put them in place of the switch's reply to
/// `msg` (OpenFlow 1.0; the switch appended its reply at `out[mark..]`): the features reply,
/// the description stats, an echo reply without the request's payload, and a BAD_VENDOR
/// error without the offending message. Other messages keep the switch's reply.
pub fn own_reply(msg: &[u8], dpid: u64, out: &mut Vec<u8>, mark: usize) {
    let kind = match kind_of(msg) {
        Some((Version::V10, k)) => k,
        _ => return,
    };
    let asked = match kind {
        MsgType::FeaturesRequest | MsgType::EchoRequest | MsgType::Experimenter => kind,
        MsgType::StatsRequest if is_desc_request10(msg) => kind,
        _ => return,
    };
    out.truncate(mark);
    let at = out.len();
    let header = |out: &mut Vec<u8>, reply: MsgType| {
        out.extend_from_slice(&[OFP10, reply.code(Version::V10), 0, 0]);
        out.extend_from_slice(msg.get(4..HEADER_LEN).unwrap_or(&[0; 4]));
    };
    match asked {
        MsgType::FeaturesRequest => {
            header(out, MsgType::FeaturesReply);
            out.extend_from_slice(&dpid.to_be_bytes());
            out.extend_from_slice(&FEATURES_BODY);
        }
        MsgType::StatsRequest => {
            header(out, MsgType::StatsReply);
            out.extend_from_slice(&kind::DESC.to_be_bytes());
            out.extend_from_slice(&[0, 0]); // flags
            out.extend_from_slice(&desc_body());
        }
        MsgType::EchoRequest => header(out, MsgType::EchoReply),
        _ => {
            header(out, MsgType::Error);
            out.extend_from_slice(&error_type::BAD_REQUEST.to_be_bytes());
            out.extend_from_slice(&bad_request::BAD_EXPERIMENTER.to_be_bytes());
        }
    }
    let len = (out.len() - at) as u16;
    ofwire::Header::new_unchecked(&mut out[at..]).set_length(len);
}

/// The request a flow-mod or packet-out names by buffer id (none for other messages, or
/// unbuffered ones).
pub fn answered_buffer_id(msg: &[u8], wire: Version) -> Option<u32> {
    let ty = *msg.get(1)?;
    let id = if ty == MsgType::FlowMod.code(wire) {
        flow_mod::buffer_id_of(msg, wire)?
    } else if ty == MsgType::PacketOut.code(wire) {
        packet_out::buffer_id_of(msg)?
    } else {
        return None;
    };
    (id != ofwire::packet_in::NO_BUFFER).then_some(id)
}

/// One switch's `probe_state`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProbeState {
    in_flight: u32,
    loop_index: u64,
}

impl ProbeState {
    /// How many probes may be sent now: 1 when nothing is counted as in flight, else 0.
    #[inline]
    pub fn may_send(&self) -> u32 {
        u32::from(self.in_flight == 0)
    }

    #[inline]
    pub fn sent(&mut self, n: u32) {
        self.in_flight += n;
    }

    /// A counted response arrived (cbench decrements whatever it answers, and clamps at 0).
    #[inline]
    pub fn response(&mut self) {
        self.in_flight = self.in_flight.saturating_sub(1);
    }

    /// The controller asked for the config or the description stats.
    pub fn config_asked(&mut self) {
        if self.in_flight == 1 {
            self.in_flight = 0;
        }
    }

    /// Called with the current loop's index: a new loop resets the counter, as cbench does
    /// when it reads each loop's count.
    #[inline]
    pub fn at_loop(&mut self, loop_index: u64) {
        if loop_index != self.loop_index {
            self.loop_index = loop_index;
            self.in_flight = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn own_replies_are_cbench_s_bytes() {
        let ask = |msg: &[u8]| {
            let mut out = vec![0xee; 3];
            own_reply(msg, 0x0102_0304_0506_0708, &mut out, 3);
            out.split_off(3)
        };
        let features = ask(&[1, 5, 0, 8, 0, 0, 0, 7]);
        assert_eq!((features.len(), &features[..8]), (224, &[1, 6, 0, 224, 0, 0, 0, 7][..]));
        assert_eq!(&features[8..16], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(&features[16..], &FEATURES_BODY[..]);
        let desc = ask(&[1, 16, 0, 12, 0, 0, 0, 8, 0, 0, 0, 0]);
        assert_eq!((desc.len(), &desc[..12]), (1068, &[1, 17, 4, 44, 0, 0, 0, 8, 0, 0, 0, 0][..]));
        assert!(desc[12..].starts_with(b"Cbench - controller I/O benchmark"));
        assert_eq!(ask(&[1, 2, 0, 12, 0, 0, 0, 9, 1, 2, 3, 4]), [1, 3, 0, 8, 0, 0, 0, 9], "echo reply without the payload");
        assert_eq!(ask(&[1, 4, 0, 16, 0, 0, 0, 10, 0, 0, 0x23, 0x20, 0, 0, 0, 1]), [1, 1, 0, 12, 0, 0, 0, 10, 0, 1, 0, 3], "BAD_VENDOR");
        assert_eq!(ask(&[1, 16, 0, 12, 0, 0, 0, 8, 0, 1, 0, 0]), [0xee; 0], "flow stats keep the switch's reply");
        assert_eq!(ask(&[4, 5, 0, 8, 0, 0, 0, 7]), [0xee; 0], "1.3 keeps the switch's reply");
        assert!(asks_config(&[1, 7, 0, 8, 0, 0, 0, 1]) && asks_config(&[1, 16, 0, 12, 0, 0, 0, 1, 0, 0, 0, 0]));
        assert!(!asks_config(&[4, 7, 0, 8, 0, 0, 0, 1]) && !asks_config(&[1, 16, 0, 12, 0, 0, 0, 1, 0, 1, 0, 0]));
    }

    #[test]
    fn one_response_per_probe_keeps_one_in_flight() {
        let mut p = ProbeState::default();
        assert_eq!(p.may_send(), 1);
        p.sent(1);
        assert_eq!(p.may_send(), 0);
        p.response();
        assert_eq!(p.may_send(), 1);
    }

    #[test]
    fn flow_mod_and_packet_out_put_two_probes_in_flight() {
        let mut p = ProbeState::default();
        p.sent(p.may_send()); // probe 1
        assert_eq!(p.may_send(), 0, "one probe at a time while nothing was answered");
        p.response(); // flow-mod for probe 1
        assert_eq!(p.may_send(), 1, "the next probe leaves on the flow-mod");
        p.sent(1); // probe 2
        p.response(); // packet-out for probe 1
        assert_eq!(p.may_send(), 1, "and another on the packet-out: probes 2 and 3 in flight");
    }

    #[test]
    fn extra_responses_never_go_below_zero() {
        let mut p = ProbeState::default();
        p.response();
        p.response();
        p.sent(1);
        assert_eq!(p.may_send(), 0, "a surplus response is not a credit");
    }

    #[test]
    fn a_new_loop_and_a_config_request_unstick_a_probe() {
        let mut p = ProbeState::default();
        p.at_loop(0);
        p.sent(1);
        p.at_loop(0);
        assert_eq!(p.may_send(), 0);
        p.at_loop(1);
        assert_eq!(p.may_send(), 1, "cbench resets probe_state at each loop's end");
        p.sent(1);
        p.config_asked();
        assert_eq!(p.may_send(), 1);
        p.sent(1);
        p.sent(1);
        p.config_asked();
        assert_eq!(p.may_send(), 0, "only a state of exactly 1 is reset");
    }
}
