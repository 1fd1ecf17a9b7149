//! The switch among others: LLDP between linked switches, the channels to a network run's other
//! controllers, and the emulated network's frames and port changes (`crate::network`).

use super::stats_mut;
use super::Session;

impl Session {
    /// LLDP between linked switches: raise what neighbours sent us as packet-ins, and hand what
    /// our controller sent out of a linked port to the neighbour.
    pub(super) fn links(&mut self, now: u64) {
        if !self.sw.is_up() {
            return;
        }
        if let Some(inbox) = &self.inbox {
            let frames = std::mem::take(&mut *inbox.frames.borrow_mut());
            let mut st = stats_mut(&self.sh, &self.stats, self.pos);
            for (port, frame) in frames {
                self.sw.frame_from_link(now, port, &frame, &mut self.wbuf);
                st.rare_mut().lldp_in += 1;
            }
        }
        if self.sw.link_out.is_empty() {
            return;
        }
        let out = std::mem::take(&mut self.sw.link_out);
        stats_mut(&self.sh, &self.stats, self.pos).rare_mut().lldp_out += out.len() as u64;
        let boxes = self.sh.inboxes.borrow();
        for (dpid, port, frame) in out {
            if let Some(b) = boxes.get(&dpid) {
                b.frames.borrow_mut().push((port, frame));
                b.notify.notify_one();
            }
        }
    }

    /// Frames from a link or a host wait to be run through this switch. Open vSwitch runs all
    /// its bridges in one thread: each turn of its main loop (`bridge_run__`) first polls the
    /// userspace datapath's ports (`ofproto_type_run` → `dpif_run`), then runs each bridge's
    /// connections (`ofproto_run` → `connmgr_run`). A frame one bridge sends (a packet-out) is
    /// received at the earliest in the next turn, after every bridge has read what its
    /// controller had sent. Here each switch is its own task, woken by its socket or its inbox,
    /// whichever `select!` picks (at random when both are ready): so before running frames the
    /// session reads its socket, or a flow-mod waiting there could come after the frame
    /// (Ryu rest_topology at 1.0: docs/conformance.md, "#8 on Ryu at 1.0").
    pub(super) fn frames_waiting(&self) -> bool {
        self.inbox.as_ref().is_some_and(|b| !b.frames.borrow().is_empty())
            || self.net.as_ref().is_some_and(|(_, b)| !b.frames.borrow().is_empty())
    }

    /// Network runs with several controllers: connect to the others too (one channel each).
    pub(super) async fn connect_channels(&mut self, now: u64) {
        let addrs = &self.sh.cfg.controllers;
        if self.net.is_none() || addrs.len() < 2 {
            return;
        }
        let tls = |a: &str| self.sh.tls.as_ref().map(|t| t.as_ref().map_err(Clone::clone).and_then(|c| c.for_controller(a)));
        let resolved: Vec<_> = addrs[1..].iter().filter_map(|a| crate::config::limits::resolve(a).ok().map(|s| (s, tls(a)))).collect();
        let limit = std::time::Duration::from_millis(self.sh.cfg.connect_timeout_ms);
        match crate::network::channels::Channels::connect(&resolved, limit).await {
            Ok(mut c) => {
                c.start(&mut self.sw, now);
                c.flush();
                self.chans = Some(Box::new(c));
            }
            Err(_) => self.chans.get_or_insert_with(Default::default).errors += 1,
        }
    }

    /// The emulated network: apply scheduled port changes, run the frames that arrived through
    /// the switch, and hand what it transmitted (packet-outs, forwarding) to the network.
    pub(super) fn network(&mut self, now: u64) {
        let Some((node, inbox)) = self.net.as_ref() else { return };
        let (sw, chans) = (&mut self.sw, self.chans.get_or_insert_with(Default::default));
        if !chans.is_empty() {
            chans.turn(sw, now, &mut self.wbuf);
        }
        let ports = std::mem::take(&mut *inbox.ports.borrow_mut());
        let frames = std::mem::take(&mut *inbox.frames.borrow_mut());
        chans.with_outs(&mut self.wbuf, |outs| {
            for (port, up, end) in ports {
                // as Mininet's link down/up and Open vSwitch's reports of it (ofswitch::link_change)
                sw.set_link_end(now, port, up, end, outs);
            }
            for f in &frames {
                if node.arrive(f) {
                    let before = sw.counters.packet_ins;
                    sw.receive_frame(now, f.port, &f.data, outs);
                    if sw.counters.packet_ins != before {
                        node.raised(f);
                    }
                }
            }
        });
        chans.flush();
        node.transmit(self.index, &mut self.sw.tx);
        let c = &self.sw.counters;
        node.switch_state(self.index, [c.dropped_out_down, c.dropped_out_no_port, c.dropped_in], self.sw.flows.len() as u64);
    }
}
