//! Scheduled port and link changes, and the record of when each one really happened (the
//! result's `Applied`, `result/network/events.rs`, filled in `node.rs`).
//!
//! Every worker holds the whole schedule: it changes its router's link state for every link (so
//! it drops frames arriving over a link that is down), and sets the port state of the ends it
//! owns (`Switch::set_port_state`, which sends PORT_STATUS to the controllers). Each worker records
//! the instant it applied an event; a link with ends in two workers has two records.

use super::model::Model;
use crate::config::network::NetworkSpec;
use crate::result::network::events::LinkState;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Link(u32),
    /// (switch index, port)
    Port(u32, u32),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Due {
    pub event: u32,
    pub at_ms: u64,
    pub target: Target,
    pub up: bool,
}

pub struct Schedule {
    /// (at_ns, due), sorted by time (stable: same-time events keep their order).
    items: Vec<(u64, Due)>,
    next: usize,
}

impl Schedule {
    pub fn new(spec: &NetworkSpec, model: &Model) -> Schedule {
        let mut items: Vec<(u64, Due)> = spec
            .events
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let target = match (e.link, e.port) {
                    (Some(l), _) => Target::Link(model.link_of(l).expect("validated")),
                    (None, Some((d, p))) => Target::Port(model.index_of(d).expect("validated"), p),
                    (None, None) => unreachable!("validated"),
                };
                (e.at_ms * 1_000_000, Due { event: i as u32, at_ms: e.at_ms, target, up: e.state == LinkState::Up })
            })
            .collect();
        items.sort_by_key(|(t, _)| *t);
        Schedule { items, next: 0 }
    }

    /// Time (ns since go) of the next event, `u64::MAX` when none is left.
    pub fn next_ns(&self) -> u64 {
        self.items.get(self.next).map_or(u64::MAX, |(t, _)| *t)
    }

    /// The events due at `since_go_ns`, in schedule order.
    pub fn due(&mut self, since_go_ns: u64) -> Vec<Due> {
        let mut out = vec![];
        while let Some(&(t, d)) = self.items.get(self.next) {
            if t > since_go_ns {
                break;
            }
            out.push(d);
            self.next += 1;
        }
        out
    }
}

/// Which end of `target` the port (switch index `i`, `port`) is, in the order Mininet takes a
/// link's interfaces down and up (the link's first end, then its second); a port event is the
/// one interface.
pub fn end_of(model: &Model, target: Target, i: u32, port: u32) -> ofswitch::LinkEnd {
    match target {
        Target::Link(l) if model.links[l as usize].0 == i && model.links[l as usize].1 == port => ofswitch::LinkEnd::First,
        Target::Link(_) => ofswitch::LinkEnd::Second,
        Target::Port(..) => ofswitch::LinkEnd::Only,
    }
}

/// The switch ports `worker` must set for `target`: (switch index, port).
pub fn local_ends(model: &Model, target: Target, worker: u32) -> Vec<(u32, u32)> {
    let ends = match target {
        Target::Link(l) => {
            let (a, pa, b, pb) = model.links[l as usize];
            vec![(a, pa), (b, pb)]
        }
        Target::Port(i, p) => vec![(i, p)],
    };
    ends.into_iter().filter(|&(i, _)| model.owner(i) == worker).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::network::EventSpec;
    use crate::network::model::tests::ring;

    #[test]
    fn events_come_due_in_time_order_each_once() {
        let mut s = ring(4);
        let ev = |at_ms, link, state| EventSpec { at_ms, link: Some(link), port: None, state };
        s.events = vec![ev(500, (2, 1, 1, 2), LinkState::Up), ev(100, (1, 2, 2, 1), LinkState::Down)];
        s.events.push(EventSpec { at_ms: 100, link: None, port: Some((3, 3)), state: LinkState::Down });
        let m = Model::new(&s, 2);
        let mut sch = Schedule::new(&s, &m);
        assert_eq!(sch.next_ns(), 100_000_000);
        assert!(sch.due(99_999_999).is_empty());
        let d = sch.due(100_000_000);
        assert_eq!(
            d,
            [
                Due { event: 1, at_ms: 100, target: Target::Link(0), up: false },
                Due { event: 2, at_ms: 100, target: Target::Port(2, 3), up: false }
            ]
        );
        assert!(sch.due(200_000_000).is_empty());
        assert_eq!(sch.due(u64::MAX)[0], Due { event: 0, at_ms: 500, target: Target::Link(0), up: true });
        assert_eq!(sch.next_ns(), u64::MAX);
    }

    #[test]
    fn each_worker_sets_only_the_ends_it_owns() {
        let m = Model::new(&ring(4), 2); // switches 0,1 in worker 0; 2,3 in worker 1
        assert_eq!(local_ends(&m, Target::Link(0), 0), [(0, 2), (1, 1)]);
        assert!(local_ends(&m, Target::Link(0), 1).is_empty());
        use ofswitch::LinkEnd::*;
        assert_eq!(
            [end_of(&m, Target::Link(0), 0, 2), end_of(&m, Target::Link(0), 1, 1), end_of(&m, Target::Port(1, 1), 1, 1)],
            [First, Second, Only]
        );
        assert_eq!(local_ends(&m, Target::Link(1), 0), [(1, 2)]);
        assert_eq!(local_ends(&m, Target::Link(1), 1), [(2, 1)]);
        assert_eq!(local_ends(&m, Target::Port(3, 3), 1), [(3, 3)]);
    }
}
