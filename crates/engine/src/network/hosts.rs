//! Hosts on edge ports: frames a workload injects at a host, and frames the network delivers to
//! a host, counted and timestamped per flow (source host → destination host).
//!
//! A frame delivered to host H counts as delivered for the flow (source, H), where the source is
//! the host owning the frame's source MAC (`u32::MAX` when no host has it, e.g. LLDP or a frame
//! the controller made up). Flows are kept in a map: at most hosts² entries, as many as were used.

use super::model::Model;
use crate::result::network::frames::HostCounters;
use ofwire::frame::build::MIN_FRAME;
use ofwire::frame::{udp_frame_carrying, UdpFrameSpec};

pub const NO_HOST: u32 = u32::MAX;

fn key(src: u32, dst: u32) -> String {
    if src == NO_HOST {
        format!("?->{dst}")
    } else {
        format!("{src}->{dst}")
    }
}

impl HostCounters {
    /// Host `src` sends `frame` towards host `dst` (destination as the workload meant it). Returns
    /// where the frame enters the network: (switch index, port).
    pub fn inject(&mut self, model: &Model, now_ns: u64, src: u32, dst: u32) -> (u32, u32) {
        self.injected += 1;
        let f = self.flows.entry(key(src, dst)).or_default();
        f.injected += 1;
        if f.first_injected_ns == 0 {
            f.first_injected_ns = now_ns.max(1);
        }
        let h = &model.hosts[src as usize];
        (h.index, h.port)
    }

    /// The network delivered `frame` to host `host`.
    pub fn deliver(&mut self, model: &Model, now_ns: u64, host: u32, frame: &[u8]) {
        self.delivered += 1;
        if frame.len() < 12 {
            return;
        }
        if frame[0..6] != model.hosts[host as usize].mac {
            self.delivered_foreign += 1;
            return;
        }
        let src = model.host_by_mac(&frame[6..12]).unwrap_or(NO_HOST);
        let f = self.flows.entry(key(src, host)).or_default();
        f.delivered += 1;
        if f.first_delivered_ns == 0 {
            f.first_delivered_ns = now_ns.max(1);
        }
    }

    pub fn merge(&mut self, o: &HostCounters) {
        self.injected += o.injected;
        self.delivered += o.delivered;
        self.delivered_foreign += o.delivered_foreign;
        for (k, f) in &o.flows {
            let m = self.flows.entry(k.clone()).or_default();
            m.injected += f.injected;
            m.delivered += f.delivered;
            for (a, b) in [(&mut m.first_injected_ns, f.first_injected_ns), (&mut m.first_delivered_ns, f.first_delivered_ns)] {
                if b != 0 && (*a == 0 || b < *a) {
                    *a = b;
                }
            }
        }
    }
}

/// A UDP frame from host `src` to host `dst` (IPv4, `size` bytes, at least 60), with `seq` in
/// its payload: what the `hosts` workload sends.
pub fn host_frame(model: &Model, src: u32, dst: u32, seq: u32, size: usize) -> Vec<u8> {
    udp_between(model, src, dst, HOSTS_UDP_PORT, size, &seq.to_be_bytes())
}

/// The UDP port of the `hosts` workload's frames (both ends).
const HOSTS_UDP_PORT: u16 = 5001;

/// A UDP frame from host `src` to host `dst` with their own addresses, `port` at both ends and
/// `data` first in its payload, `size` bytes (at least 60): every frame an emulated host sends.
pub fn udp_between(model: &Model, src: u32, dst: u32, port: u16, size: usize, data: &[u8]) -> Vec<u8> {
    let (s, d) = (&model.hosts[src as usize], &model.hosts[dst as usize]);
    let spec = UdpFrameSpec {
        src_mac: s.mac,
        dst_mac: d.mac,
        src_ip: s.ip,
        dst_ip: d.ip,
        src_port: port,
        dst_port: port,
        frame_len: size.max(MIN_FRAME),
    };
    udp_frame_carrying(&spec, data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::model::tests::ring;

    #[test]
    fn injected_and_delivered_are_counted_per_flow() {
        let m = Model::new(&ring(3), 1);
        let mut c = HostCounters::default();
        assert_eq!(c.inject(&m, 10, 0, 2), (0, 3));
        c.inject(&m, 20, 0, 2);
        let f = host_frame(&m, 0, 2, 1, 60);
        c.deliver(&m, 30, 2, &f);
        c.deliver(&m, 40, 1, &f); // a flooded copy reaching another host
        c.deliver(&m, 50, 2, &f);
        let fl = &c.flows["0->2"];
        assert_eq!((fl.injected, fl.delivered, fl.first_injected_ns, fl.first_delivered_ns), (2, 2, 10, 30));
        assert_eq!((c.injected, c.delivered, c.delivered_foreign), (2, 3, 1));
        let mut total = HostCounters::default();
        total.merge(&c);
        total.merge(&c);
        assert_eq!(total.flows["0->2"].delivered, 4);
        assert_eq!(total.flows["0->2"].first_delivered_ns, 30);
    }

    #[test]
    fn host_frames_are_valid_ipv4_udp() {
        let m = Model::new(&ring(3), 1);
        let f = host_frame(&m, 1, 2, 7, 20);
        assert_eq!(f.len(), 60);
        assert_eq!(ofwire::frame::internet_checksum(&f[14..34]), 0, "a correct header sums to 0");
        assert_eq!(&f[26..30], &m.hosts[1].ip);
        assert_eq!(&f[42..46], &7u32.to_be_bytes());
    }
}
