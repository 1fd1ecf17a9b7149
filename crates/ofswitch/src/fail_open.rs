//! Open vSwitch's fail-open (`ofproto/fail-open.c`), for fail mode `standalone`: once every
//! controller has been gone for 3 × the inactivity probe, OVS adds a hidden flow above every
//! OpenFlow entry, `actions=NORMAL`, and forwards as an L2 learning switch until a controller
//! session is up again. Here: while `fail_open` is set, a frame that arrives is learned (source
//! MAC -> in port) and forwarded to the learned port of its destination, or flooded; the flow
//! tables are kept and bypassed (`forward.rs`). The engine decides when
//! (`crates/engine/src/switch/session/`).

use std::collections::HashMap;

/// The learning table of a switch in fail-open.
#[derive(Clone, Debug, Default)]
pub struct FailOpen {
    macs: HashMap<[u8; 6], u32>,
}

/// Where NORMAL sends a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Normal {
    /// Not an Ethernet frame, or its destination is on the port it came in on (its own segment).
    Drop,
    Port(u32),
    /// Every up port but the in port (OFPP_FLOOD).
    Flood,
}

fn mac(frame: &[u8], at: usize) -> Option<[u8; 6]> {
    frame.get(at..at + 6).map(|m| m.try_into().unwrap())
}

impl FailOpen {
    /// A frame arrives on `in_port`: learn its (unicast) source, and find its destination.
    pub fn normal(&mut self, in_port: u32, frame: &[u8]) -> Normal {
        let (Some(dst), Some(src)) = (mac(frame, 0), mac(frame, 6)) else { return Normal::Drop };
        if src[0] & 1 == 0 {
            self.macs.insert(src, in_port);
        }
        match if dst[0] & 1 == 0 { self.macs.get(&dst).copied() } else { None } {
            Some(p) if p == in_port => Normal::Drop,
            Some(p) => Normal::Port(p),
            None => Normal::Flood,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::{Switch, SwitchConfig};

    fn frame(dst: u8, src: u8) -> Vec<u8> {
        let mut f = vec![0, 0, 0, 0, 0, dst, 0, 0, 0, 0, 0, src, 0x08, 0x00];
        f.resize(60, 0);
        f
    }

    #[test]
    fn fail_open_floods_the_unknown_learns_and_then_forwards_to_one_port() {
        let mut cfg = SwitchConfig::new(1);
        cfg.ports = 3;
        cfg.forward = true;
        let mut s = Switch::new(cfg);
        let mut outs = [vec![]];
        // secure (not fail-open), no controller: a 1.3 miss is dropped, nothing goes out
        s.receive_frame(0, 1, &frame(2, 1), &mut outs);
        assert!(s.tx.is_empty());
        s.set_fail_open(true);
        s.receive_frame(0, 1, &frame(2, 1), &mut outs);
        let mut ports: Vec<u32> = s.tx.drain(..).map(|(p, _)| p).collect();
        ports.sort();
        assert_eq!(ports, [2, 3], "unknown destination: flooded");
        s.receive_frame(0, 2, &frame(1, 2), &mut outs);
        assert_eq!(s.tx.drain(..).map(|(p, _)| p).collect::<Vec<_>>(), [1], "learned: host 1 is on port 1");
        assert_eq!(s.counters.fail_open_frames, 2);
        assert!(outs[0].is_empty(), "no packet-in");
        s.receive_frame(0, 1, &frame(1, 3), &mut outs);
        assert!(s.tx.is_empty(), "host 1 is on port 1, where the frame came in: not sent back");
        assert_eq!(s.counters.fail_open_frames, 2, "forwarded frames only");
        s.set_fail_open(false);
        s.receive_frame(0, 2, &frame(1, 2), &mut outs);
        assert!(s.tx.is_empty(), "back to the flow tables (empty: a 1.3 miss drops)");
    }
}
