//! The OpenFlow pipeline: a frame runs through the flow tables and comes out as outputs.
//!
//! OF1.0: one table, the entry's actions in order. OF1.3 (§5.1): starting at table 0, the
//! matched entry's instructions run in the spec's order whatever their order on the wire:
//! apply-actions (now, on the frame), clear-actions, write-actions (into the action set),
//! goto-table (only to a later table; anything else ends the pipeline). When no goto is left
//! the action set runs: its rewrites in the order written, then its output.
//!
//! Outputs are [`Out`]s with the port number as given (physical, FLOOD, ALL, IN_PORT,
//! CONTROLLER, TABLE ...); the switch resolves them against its ports. A meter instruction
//! runs first (a frame its meter drops goes no further); a group action sends a copy of the
//! frame through each bucket the group picks (`group`), its actions run in order, groups
//! chaining up to `group::MAX_CHAIN` deep. In an action set, a group takes precedence over
//! an output (§5.10). Actions the switch does not emulate never reach here: flow-mods and
//! packet-outs naming them are refused (`check`).

use crate::flow_match::FlowMatch;
use crate::flow_table::FlowTable;
use crate::frame_edit;
use crate::group::{flow_hash, Groups, MAX_CHAIN};
use crate::key::Key;
use crate::meter::{Admit, Meters};
use crate::ports::Ports;
use ofwire::packet_in::reason;
use ofwire::{Action, Instruction, Oxm, OxmField};
use std::borrow::Cow;

/// The reserved port number for CONTROLLER in both versions, as the pipeline uses them (1.0
/// port numbers are widened to the 1.3 ones by [`widen_port`]).
pub use ofwire::port::ports;

/// OFPP_TABLE and OFPP_NORMAL (1.3 numbering; ofwire does not name them).
pub const PORT_TABLE: u32 = 0xffff_fff9;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Out {
    /// Send `frame` out of `port` (a 1.3-width port number, reserved ports included).
    Port { port: u32, frame: Vec<u8> },
    /// A packet-in: `max_len` bytes of the frame at most (0xffff: all).
    Controller { frame: Vec<u8>, max_len: u16, reason: u8, table: u8, cookie: u64 },
}

/// 1.0 port numbers as 1.3 ones: the reserved range 0xff00.. moves to 0xffffff00.. .
#[inline]
pub fn widen_port(v10: bool, port: u32) -> u32 {
    if v10 && port >= ports::MAX10 as u32 {
        port | 0xffff_0000
    } else {
        port
    }
}

/// How a frame left the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An entry matched in every table visited.
    Matched,
    /// No entry matched in `table` (1.0: a packet-in; 1.3: drop).
    Miss { table: u8 },
}

pub struct Run<'a> {
    pub v10: bool,
    pub in_port: u32,
    pub now: u64,
    pub outs: &'a mut Vec<Out>,
    pub groups: &'a mut Groups,
    pub meters: &'a mut Meters,
    /// Port liveness, for fast-failover and select buckets.
    pub ports: &'a Ports,
    /// How many groups deep the current actions run.
    chain: usize,
    /// The packet's tunnel id: 0 as it comes in on a port, set by a set-field of it.
    tunnel_id: u64,
}

impl<'a> Run<'a> {
    pub fn new(
        v10: bool,
        in_port: u32,
        now: u64,
        outs: &'a mut Vec<Out>,
        groups: &'a mut Groups,
        meters: &'a mut Meters,
        ports: &'a Ports,
    ) -> Run<'a> {
        Run { v10, in_port, now, outs, groups, meters, ports, chain: 0, tunnel_id: 0 }
    }

    /// Run `frame` from table `table`.
    pub fn frame(&mut self, ft: &mut FlowTable, frame: &[u8], table: u8) -> Verdict {
        // copied only when an action rewrites it
        let mut frame = Cow::Borrowed(frame);
        let mut key = Key::of_frame(self.in_port, &frame);
        // the metadata register: 0 at table 0, written by write-metadata, read by the next table
        let mut metadata = 0u64;
        self.tunnel_id = 0;
        let mut set: Vec<Action> = Vec::new();
        let mut table = table;
        loop {
            let Some(slot) = ft.lookup(table, &key, self.now, frame.len()) else {
                return Verdict::Miss { table };
            };
            let e = ft.get(slot);
            // table-miss entry (priority 0, match all): its packet-ins say NO_MATCH (1.3 §6.4)
            let reason = if e.priority == 0 && e.m == FlowMatch::all() { reason::NO_MATCH } else { reason::ACTION };
            let ctx = (table, e.cookie, reason);
            if self.v10 {
                self.actions(&mut frame, &e.actions, ctx);
                return Verdict::Matched;
            }
            let ins = &e.instructions;
            for i in ins {
                if let Instruction::Meter(id) = i {
                    match self.meters.admit(*id, self.now, frame.len()) {
                        Admit::Drop => return Verdict::Matched,
                        Admit::Remark(prec) => {
                            frame_edit::remark_dscp(frame.to_mut(), prec);
                        }
                        Admit::Pass => {}
                    }
                }
            }
            let mut goto = None;
            let mut changed = false;
            for i in ins {
                if let Instruction::ApplyActions(a) = i {
                    changed |= self.actions(&mut frame, a, ctx);
                }
            }
            for i in ins {
                match i {
                    Instruction::ClearActions => set.clear(),
                    Instruction::GotoTable(t) => goto = Some(*t),
                    Instruction::WriteMetadata { metadata: v, mask } => metadata = (metadata & !mask) | (v & mask),
                    _ => {}
                }
            }
            for i in ins {
                if let Instruction::WriteActions(a) = i {
                    for x in a {
                        write_action(&mut set, x);
                    }
                }
            }
            match goto {
                Some(t) if t > table && (t as usize) < ft.n_tables() as usize => {
                    table = t;
                    if changed {
                        key = Key::of_frame(self.in_port, &frame);
                    }
                    key.set_metadata(metadata);
                    key.set_tunnel_id(self.tunnel_id);
                }
                _ => {
                    let (mut outs, rest): (Vec<Action>, Vec<Action>) =
                        set.into_iter().partition(|a| matches!(a, Action::Output { .. } | Action::Group(_)));
                    self.actions(&mut frame, &rest, ctx);
                    if outs.iter().any(|a| matches!(a, Action::Group(_))) {
                        // a group in the action set takes precedence over an output (§5.10)
                        outs.retain(|a| matches!(a, Action::Group(_)));
                    }
                    self.actions(&mut frame, &outs, ctx);
                    return Verdict::Matched;
                }
            }
        }
    }

    /// Run an action list on `frame`; returns whether a rewrite changed it.
    pub fn actions(&mut self, frame: &mut Cow<'_, [u8]>, actions: &[Action], ctx: (u8, u64, u8)) -> bool {
        let mut changed = false;
        for a in actions {
            match a {
                Action::Output { port, max_len } => self.output(frame, widen_port(self.v10, *port), *max_len, ctx),
                Action::Enqueue { port, .. } => self.output(frame, widen_port(self.v10, *port as u32), 0, ctx),
                Action::Group(id) => self.group(frame, *id, ctx),
                Action::SetField(Oxm::Basic { field: OxmField::TunnelId, value, .. }) => {
                    self.tunnel_id = u64::from_be_bytes(value.as_slice().try_into().expect("8 bytes: checked at decode"));
                }
                a if frame_edit::rewrites(a) => changed |= frame_edit::apply(frame.to_mut(), a),
                _ => {}
            }
        }
        changed
    }

    /// A copy of `frame` through each bucket group `id` picks; the group and the buckets count it.
    fn group(&mut self, frame: &[u8], id: u32, ctx: (u8, u64, u8)) {
        if self.chain >= MAX_CHAIN {
            return;
        }
        let ports = self.ports;
        let live = |p: u32| ports.get(p).is_some_and(|x| x.is_up());
        let is_select = self.groups.map.get(&id).is_some_and(|g| g.typ == ofwire::group_stats::GT_SELECT);
        let hash = if is_select { flow_hash(&Key::of_frame(self.in_port, frame), frame) } else { 0 };
        let picked = self.groups.buckets_for(id, hash, &live);
        self.groups.count(id, &picked, frame.len());
        let Some(g) = self.groups.map.get(&id) else { return };
        let lists: Vec<Vec<Action>> = picked.iter().map(|&b| g.buckets[b].actions.clone()).collect();
        self.chain += 1;
        for a in &lists {
            let mut copy = Cow::Borrowed(frame);
            self.actions(&mut copy, a, ctx);
        }
        self.chain -= 1;
    }

    fn output(&mut self, frame: &[u8], port: u32, max_len: u16, (table, cookie, reason): (u8, u64, u8)) {
        if port == ports::CONTROLLER13 {
            self.outs.push(Out::Controller { frame: frame.to_vec(), max_len, reason, table, cookie });
        } else {
            self.outs.push(Out::Port { port, frame: frame.to_vec() });
        }
    }
}

/// Write-actions into the action set: one action of each kind (set-field: of each field),
/// the newest replacing the older (OF1.3 §5.10).
fn write_action(set: &mut Vec<Action>, a: &Action) {
    let same = |x: &Action| match (x, a) {
        (Action::SetField(p), Action::SetField(q)) => p.field() == q.field(),
        _ => std::mem::discriminant(x) == std::mem::discriminant(a),
    };
    match set.iter_mut().find(|x| same(x)) {
        Some(x) => *x = a.clone(),
        None => set.push(a.clone()),
    }
}
