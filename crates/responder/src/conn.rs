//! One controller-side connection: frame the stream, answer, no allocation per message.
//!
//! The bytes are read and written through ofwire: `frame_len` splits the stream, the header
//! view picks the message, the packet-in view gives its xid and buffer id, and the reply is a
//! flow-mod ofwire wrote once (a template) patched through the flow-mod view's setters.

use crate::gate::{now_ns, Due, Gate, Verdict};
use ofwire::{
    flow_mod, frame_len, packet_in, Action, Body, FlowMod, Header, Hello, Instruction, Match10, Message, MsgType, OxmMatch, Version,
};

// Codes 0..=14 are the same in 1.0 and 1.3 (tested in ofwire), so one constant serves both.
const HELLO: u8 = MsgType::Hello.code(Version::V13);
const ECHO_REQUEST: u8 = MsgType::EchoRequest.code(Version::V13);
const ECHO_REPLY: u8 = MsgType::EchoReply.code(Version::V13);
const PACKET_IN: u8 = MsgType::PacketIn.code(Version::V13);

/// The flow-mod answering every packet-in, buffer id and xid 0 (patched per reply): ADD,
/// priority 0x8000, everything wildcarded, output to port 1.
fn flow_mod(v: Version) -> Vec<u8> {
    let output = Action::Output { port: 1, max_len: if v == Version::V10 { 0 } else { 0xffff } };
    let mut fm = FlowMod { priority: 0x8000, ..Default::default() };
    match v {
        Version::V10 => {
            fm.match10 = Match10::all();
            fm.out_port = 0xffff; // OFPP_NONE
            fm.actions = vec![output];
        }
        Version::V13 => {
            fm.match_ = OxmMatch::default();
            fm.out_port = 0xffff_ffff; // OFPP_ANY
            fm.out_group = 0xffff_ffff; // OFPG_ANY
            fm.instructions = vec![Instruction::ApplyActions(vec![output])];
        }
    }
    Message::new(v, 0, Body::FlowMod(fm)).to_vec()
}

pub struct Conn {
    pub fd: i32,
    pub version: u8,
    pub rbuf: Vec<u8>,
    pub wbuf: Vec<u8>,
    /// The TLS session (`tls.rs`) when the responder runs over TLS: `wbuf` is then plaintext.
    pub tls: Option<rustls::ServerConnection>,
}

pub struct Templates {
    fm10: Vec<u8>,
    fm13: Vec<u8>,
}

impl Default for Templates {
    fn default() -> Templates {
        Templates::new()
    }
}

impl Templates {
    pub fn new() -> Templates {
        Templates { fm10: flow_mod(Version::V10), fm13: flow_mod(Version::V13) }
    }
}

impl Conn {
    pub fn new(fd: i32, version: u8) -> Conn {
        let mut c = Conn { fd, version, rbuf: Vec::new(), wbuf: Vec::new(), tls: None };
        c.hello();
        c
    }

    fn hello(&mut self) {
        // 1.3 and later advertise 1.0 and 1.3 in a version bitmap; 1.0's hello is bare.
        let hello = if self.version >= 4 { Hello::with_versions(&[1, 4]) } else { Hello::default() };
        Message { version: self.version.min(4), xid: 1, body: Body::Hello(hello) }.emit_append(&mut self.wbuf);
    }

    /// Handle whole messages in `buf`; returns bytes consumed. Err on a malformed stream.
    /// Append the flow-mod answering packet-in `xid` (its `buffer_id`) to the write buffer.
    pub fn answer(&mut self, xid: u32, buffer_id: u32, t: &Templates) {
        let tpl = if self.version == 1 { &t.fm10 } else { &t.fm13 };
        let s = self.wbuf.len();
        self.wbuf.extend_from_slice(tpl);
        let mut fm = flow_mod::Packet::new_unchecked(&mut self.wbuf[s..]);
        fm.set_xid(xid);
        fm.set_buffer_id(buffer_id);
    }

    /// Handle whole messages in `buf`; returns bytes consumed. Err on a malformed stream.
    /// Packet-ins are answered now, later (queued in `gate`) or never, as `gate` decides.
    /// (`Err(())`: the caller closes the connection; there is nothing more to say.)
    #[allow(clippy::result_unit_err)]
    pub fn process(&mut self, buf: &[u8], t: &Templates, gate: &mut Gate) -> Result<usize, ()> {
        let mut at = 0;
        while let Some(n) = frame_len(&buf[at..]).map_err(|_| ())? {
            if buf.len() - at < n {
                break;
            }
            let m = &buf[at..at + n];
            match Header::new_unchecked(m).msg_type() {
                HELLO => {
                    // agree on the lower version, then ask for features
                    self.version = self.version.min(m[0]);
                    Message { version: self.version, xid: 2, body: Body::FeaturesRequest }.emit_append(&mut self.wbuf);
                }
                ECHO_REQUEST if gate.drop_echo() => {}
                ECHO_REQUEST => {
                    let s = self.wbuf.len();
                    self.wbuf.extend_from_slice(m);
                    Header::new_unchecked(&mut self.wbuf[s..]).set_msg_type(ECHO_REPLY);
                }
                PACKET_IN => {
                    // A packet-in ofwire refuses gets no answer, as a real controller's would not.
                    if let Ok(pi) = packet_in::Packet::new_checked(m) {
                        let (xid, buffer_id) = (pi.xid(), pi.buffer_id());
                        if gate.is_open() {
                            self.answer(xid, buffer_id, t);
                        } else {
                            match gate.decide(now_ns()) {
                                Verdict::Now => self.answer(xid, buffer_id, t),
                                Verdict::At(at_ns) => gate.queue.push_back(Due { at_ns, fd: self.fd, xid, buffer_id }),
                                Verdict::Drop => {}
                            }
                        }
                    }
                }
                _ => {}
            }
            at += n;
        }
        Ok(at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ofwire::PacketInRef;

    #[test]
    fn one_flow_mod_per_packet_in_with_its_buffer_id() {
        let t = Templates::new();
        for v in [Version::V10, Version::V13] {
            let mut c = Conn::new(3, v.wire());
            c.wbuf.clear();
            let frame = [7u8; 20];
            let pi = PacketInRef { buffer_id: 42, ..PacketInRef::miss(1, &frame) };
            let mut two = vec![];
            pi.emit_append(v, 9, &mut two);
            let one = two.len();
            pi.emit_append(v, 10, &mut two);
            two.extend_from_within(..5);
            assert_eq!(c.process(&two, &t, &mut Gate::new(Default::default())), Ok(2 * one));
            assert_eq!(c.wbuf.len(), 160);
            for (i, xid) in [(0, 9), (80, 10)] {
                let fm = flow_mod::Packet::new_checked(&c.wbuf[i..i + 80]).unwrap();
                assert_eq!((fm.version(), fm.xid(), fm.buffer_id(), fm.priority()), (v, xid, 42, 0x8000));
            }
        }
    }

    #[test]
    fn echo_hello_and_bad_length() {
        let t = Templates::new();
        let mut c = Conn::new(3, 4);
        assert_eq!(c.wbuf, [4, 0, 0, 16, 0, 0, 0, 1, 0, 1, 0, 8, 0, 0, 0, 0x12]);
        c.wbuf.clear();
        assert_eq!(c.process(&[4, 2, 0, 10, 0, 0, 0, 5, 7, 7], &t, &mut Gate::new(Default::default())), Ok(10));
        assert_eq!(c.wbuf, vec![4, 3, 0, 10, 0, 0, 0, 5, 7, 7]);
        c.wbuf.clear();
        assert_eq!(c.process(&[1, 0, 0, 8, 0, 0, 0, 1], &t, &mut Gate::new(Default::default())), Ok(8));
        assert_eq!((c.version, &c.wbuf[..]), (1, &[1, 5, 0, 8, 0, 0, 0, 2][..]));
        assert!(c.process(&[4, 2, 0, 3, 0, 0, 0, 5], &t, &mut Gate::new(Default::default())).is_err());
        assert_eq!(Conn::new(3, 1).wbuf, [1, 0, 0, 8, 0, 0, 0, 1]);
    }

    /// ofwire writes exactly the flow-mods this responder used to write by hand.
    #[test]
    fn templates_equal_the_former_hand_written_bytes() {
        let mut fm10 = vec![0x01, 14, 0, 80, 0, 0, 0, 0, 0x00, 0x3f, 0xff, 0xff];
        fm10.resize(8 + 40, 0);
        fm10.extend_from_slice(&[0; 8]);
        fm10.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0]);
        fm10.extend_from_slice(&[0, 0, 0, 8, 0, 1, 0, 0]);
        assert_eq!(flow_mod(Version::V10), fm10);
        let mut fm13 = vec![0x04, 14, 0, 80, 0, 0, 0, 0];
        fm13.extend_from_slice(&[0; 16]);
        fm13.extend_from_slice(&[0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0]);
        fm13.extend_from_slice(&[0xff; 8]);
        fm13.extend_from_slice(&[0, 0, 0, 0, 0, 1, 0, 4, 0, 0, 0, 0, 0, 4, 0, 24, 0, 0, 0, 0]);
        fm13.extend_from_slice(&[0, 0, 0, 16, 0, 0, 0, 1, 0xff, 0xff, 0, 0, 0, 0, 0, 0]);
        assert_eq!(flow_mod(Version::V13), fm13);
    }
}
