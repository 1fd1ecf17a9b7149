//! The network as the engine runs it: switches by index (position in `switches`), per port what
//! it leads to, the hosts, and which worker owns which switch.
//!
//! Built once from a validated `NetworkSpec`; every worker builds the same model from the same
//! config, so a worker knows where any frame goes without asking anyone. Switch `i` is owned by
//! the worker whose slice (`config::slices`, as for unconnected switches) holds `i`.

use crate::config::network::{parse_mac, LinkSpec, NetworkSpec};
use std::collections::HashMap;

/// What a port leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Peer {
    /// Nothing: frames sent there are dropped (counted).
    None,
    /// Port `port` of switch `index`, over link `link`; `dir` is 0 when this end is the link's
    /// first end (a → b), 1 otherwise.
    Switch {
        index: u32,
        port: u32,
        link: u32,
        dir: u8,
    },
    Host(u32),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Host {
    pub index: u32,
    pub port: u32,
    pub mac: [u8; 6],
    pub ip: [u8; 4],
}

#[derive(Clone, Debug)]
pub struct Model {
    pub dpids: Vec<u64>,
    index_of: HashMap<u64, u32>,
    /// `peers[i][p - 1]`: what port p of switch i leads to.
    peers: Vec<Vec<Peer>>,
    /// Links by index, as (switch a, port a, switch b, port b).
    pub links: Vec<(u32, u32, u32, u32)>,
    pub hosts: Vec<Host>,
    host_by_mac: HashMap<[u8; 6], u32>,
    /// Owning worker of each switch.
    owner: Vec<u32>,
    pub link_delay_ns: u64,
}

impl Model {
    /// From a spec that passed `spec::validate` (panics otherwise: that is a bug, not bad input).
    pub fn new(n: &NetworkSpec, workers: u32) -> Model {
        let dpids: Vec<u64> = n.switches.iter().map(|s| s.dpid).collect();
        let index_of: HashMap<u64, u32> = dpids.iter().enumerate().map(|(i, &d)| (d, i as u32)).collect();
        let mut peers: Vec<Vec<Peer>> = n.switches.iter().map(|s| vec![Peer::None; s.ports as usize]).collect();
        let mut links = Vec::with_capacity(n.links.len());
        for (l, &(a, pa, b, pb)) in n.links.iter().enumerate() {
            let (ia, ib) = (index_of[&a], index_of[&b]);
            peers[ia as usize][pa as usize - 1] = Peer::Switch { index: ib, port: pb, link: l as u32, dir: 0 };
            peers[ib as usize][pb as usize - 1] = Peer::Switch { index: ia, port: pa, link: l as u32, dir: 1 };
            links.push((ia, pa, ib, pb));
        }
        let mut hosts = Vec::with_capacity(n.hosts.len());
        let mut host_by_mac = HashMap::with_capacity(n.hosts.len());
        for (h, hs) in n.hosts.iter().enumerate() {
            let index = index_of[&hs.dpid];
            peers[index as usize][hs.port as usize - 1] = Peer::Host(h as u32);
            let mac = parse_mac(&hs.mac).expect("validated");
            let ip = hs.ip.parse::<std::net::Ipv4Addr>().expect("validated").octets();
            host_by_mac.insert(mac, h as u32);
            hosts.push(Host { index, port: hs.port, mac, ip });
        }
        let mut owner = vec![0; dpids.len()];
        for s in crate::config::slices(dpids.len() as u32, workers) {
            owner[s.lo as usize..s.hi as usize].fill(s.worker);
        }
        Model { dpids, index_of, peers, links, hosts, host_by_mac, owner, link_delay_ns: n.link_delay_us * 1000 }
    }

    pub fn len(&self) -> usize {
        self.dpids.len()
    }

    pub fn index_of(&self, dpid: u64) -> Option<u32> {
        self.index_of.get(&dpid).copied()
    }

    pub fn ports(&self, index: u32) -> u32 {
        self.peers[index as usize].len() as u32
    }

    /// What port `port` of switch `index` leads to (`None` for a port that does not exist too).
    pub fn peer(&self, index: u32, port: u32) -> Peer {
        self.peers.get(index as usize).and_then(|p| p.get((port as usize).wrapping_sub(1))).copied().unwrap_or(Peer::None)
    }

    pub fn owner(&self, index: u32) -> u32 {
        self.owner[index as usize]
    }

    pub fn host_by_mac(&self, mac: &[u8]) -> Option<u32> {
        let m: [u8; 6] = mac.try_into().ok()?;
        self.host_by_mac.get(&m).copied()
    }

    /// The link index of a link given by dpids in either orientation.
    pub fn link_of(&self, l: LinkSpec) -> Option<u32> {
        let (a, pa) = (self.index_of(l.0)?, l.1);
        match self.peer(a, pa) {
            Peer::Switch { index, port, link, .. } if self.dpids[index as usize] == l.2 && port == l.3 => Some(link),
            _ => None,
        }
    }

    /// Links with ends in two different workers.
    #[cfg(test)]
    pub fn cross_worker_links(&self) -> usize {
        self.links.iter().filter(|&&(a, _, b, _)| self.owner(a) != self.owner(b)).count()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::config::network::{validate, HostSpec, SwitchSpec};

    /// ring,n: port 2 of switch d to port 1 of the next; a host on port 3 of every switch.
    pub fn ring(n: u64) -> NetworkSpec {
        NetworkSpec {
            spec: format!("ring,{n}"),
            switches: (1..=n).map(|d| SwitchSpec { dpid: d, ports: 3 }).collect(),
            links: (1..=n).map(|d| (d, 2, d % n + 1, 1)).collect(),
            hosts: (1..=n)
                .map(|d| HostSpec {
                    dpid: d,
                    port: 3,
                    mac: format!("02:00:00:00:{:02x}:{:02x}", d >> 8, d & 0xff),
                    ip: format!("10.0.{}.{}", d >> 8, d & 0xff),
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn every_port_knows_its_peer_both_ways() {
        let n = ring(4);
        validate(&n).unwrap();
        let m = Model::new(&n, 2);
        assert_eq!(m.peer(0, 2), Peer::Switch { index: 1, port: 1, link: 0, dir: 0 });
        assert_eq!(m.peer(1, 1), Peer::Switch { index: 0, port: 2, link: 0, dir: 1 });
        assert_eq!(m.peer(3, 2), Peer::Switch { index: 0, port: 1, link: 3, dir: 0 });
        assert_eq!(m.peer(2, 3), Peer::Host(2));
        assert_eq!(m.peer(2, 4), Peer::None);
        assert_eq!(m.peer(2, 0), Peer::None);
        assert_eq!(m.peer(9, 1), Peer::None);
        assert_eq!(m.host_by_mac(&[2, 0, 0, 0, 0, 3]), Some(2));
        assert_eq!(m.link_of((2, 1, 1, 2)), Some(0));
        assert_eq!(m.link_of((1, 2, 2, 1)), Some(0));
        assert_eq!(m.link_of((1, 2, 3, 1)), None);
    }

    #[test]
    fn owners_follow_the_worker_slices() {
        let m = Model::new(&ring(10), 4);
        let owners: Vec<u32> = (0..10).map(|i| m.owner(i)).collect();
        assert_eq!(owners, [0, 0, 1, 1, 1, 2, 2, 3, 3, 3]);
        // a ring over 4 contiguous slices crosses a worker boundary 4 times
        assert_eq!(m.cross_worker_links(), 4);
        assert_eq!(Model::new(&ring(10), 1).cross_worker_links(), 0);
    }
}
