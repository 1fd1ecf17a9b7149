//! Helpers shared by the integration tests: a switch brought up on N channels, messages built
//! with ofwire's values, and the messages a buffer holds, decoded by ofwire.
#![allow(dead_code)]

use ofswitch::{Switch, SwitchConfig};
use ofwire::{Body, FlowMod, Message};

pub const V10: u8 = ofwire::OFP10;
pub const V13: u8 = ofwire::OFP13;

pub fn message(version: u8, xid: u32, body: Body) -> Vec<u8> {
    let mut out = Vec::new();
    Message { version, xid, body }.emit_append(&mut out);
    out
}

/// Every message in `buf`, decoded.
pub fn decode(buf: &[u8]) -> Vec<Message> {
    let mut v = Vec::new();
    let mut at = 0;
    while at < buf.len() {
        let n = u16::from_be_bytes([buf[at + 2], buf[at + 3]]) as usize;
        v.push(Message::parse(&buf[at..at + n]).expect("the switch writes valid messages"));
        at += n;
    }
    v
}

/// A switch with `channels` controller channels, each through hello + features at `version`,
/// forwarding on, flows kept.
pub fn switch(version: u8, channels: usize, ports: u32, f: impl FnOnce(&mut SwitchConfig)) -> (Switch, Vec<Vec<u8>>) {
    let mut cfg = SwitchConfig::new(7);
    cfg.ports = ports;
    cfg.keep_flows = true;
    cfg.forward = true;
    cfg.n_tables = 4;
    f(&mut cfg);
    let mut s = Switch::new(cfg);
    let mut outs = vec![Vec::new(); channels];
    for ch in 0..channels {
        if ch > 0 {
            assert_eq!(s.add_channel(), ch);
        }
        s.start_channel(0, ch, &mut outs[ch]);
        s.on_message_from(0, ch, &message(version, 1, Body::Hello(Default::default())), &mut outs).unwrap();
        s.on_message_from(0, ch, &message(version, 2, Body::FeaturesRequest), &mut outs).unwrap();
        assert!(s.channels[ch].is_up());
    }
    for o in &mut outs {
        o.clear();
    }
    (s, outs)
}

pub fn flow_mod(version: u8, fm: FlowMod) -> Vec<u8> {
    message(version, 30, Body::FlowMod(fm))
}

/// A 1.3 flow-mod ADD with out_port/out_group ANY.
pub fn add13(table: u8, priority: u16, m: ofwire::OxmMatch, ins: Vec<ofwire::Instruction>) -> FlowMod {
    FlowMod {
        table_id: table,
        priority,
        out_port: 0xffff_ffff,
        out_group: 0xffff_ffff,
        buffer_id: 0xffff_ffff,
        match_: m,
        instructions: ins,
        ..Default::default()
    }
}

/// A 1.0 flow-mod ADD with out_port NONE.
pub fn add10(priority: u16, m: ofwire::Match10, actions: Vec<ofwire::Action>) -> FlowMod {
    FlowMod { priority, out_port: 0xffff, buffer_id: 0xffff_ffff, match10: m, actions, ..Default::default() }
}

pub fn output(port: u32) -> ofwire::Action {
    ofwire::Action::Output { port, max_len: 0xffff }
}

/// The packet-ins in `buf`: (in_port, reason, frame).
pub fn packet_ins(buf: &[u8]) -> Vec<(u32, u8, Vec<u8>)> {
    decode(buf)
        .into_iter()
        .filter_map(|m| {
            let v = m.layout_version();
            match m.body {
                Body::PacketIn(p) => Some((p.port(v).unwrap_or(0), p.reason, p.data)),
                _ => None,
            }
        })
        .collect()
}

/// The (type, code) of every error message in `buf`.
pub fn errors(buf: &[u8]) -> Vec<(u16, u16)> {
    decode(buf)
        .into_iter()
        .filter_map(|m| match m.body {
            Body::Error(e) => Some((e.typ, e.code)),
            _ => None,
        })
        .collect()
}

/// Send one message on channel 0; the errors it got.
pub fn send(s: &mut ofswitch::Switch, outs: &mut [Vec<u8>], msg: &[u8]) -> Vec<(u16, u16)> {
    outs[0].clear();
    s.on_message_from(0, 0, msg, outs).unwrap();
    errors(&outs[0])
}
