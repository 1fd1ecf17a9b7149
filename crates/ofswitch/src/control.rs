//! The controller's state-changing requests: flow-mod, packet-out, port-mod, role request and
//! async configuration.

use crate::check;
use crate::emit;
use crate::flow_match::FlowMatch;
use crate::flow_table::{Applied, Entry, FlowModReq};
use crate::frames;
use crate::pipeline::{widen_port, Out, Run};
use crate::switch::{codec, fixed, Event, Switch, SwitchError};
use ofwire::action::parse_actions;
use ofwire::config::role;
use ofwire::error_names::{bad_match, error_type, flow_mod_failed, port_mod_failed, role_request_failed};
use ofwire::flow_mod::command;
use ofwire::packet_in::reason;
use ofwire::port::ports as pn;
use ofwire::version::Version;
use ofwire::HEADER_LEN;
use ofwire::OFP10;
use ofwire::{flow_mod, packet_out, Action, AsyncConfig, Body, FlowMod, MsgType, PortMod, Role};

impl Switch {
    pub(crate) fn on_flow_mod(&mut self, now: u64, ch: usize, msg: &[u8], outs: &mut [Vec<u8>]) -> Result<Event, SwitchError> {
        let p = flow_mod::Packet::new_checked(msg).map_err(|e| codec("flow_mod", e))?;
        let buffer_id = p.buffer_id();
        if !self.cfg.keep_flows {
            return Ok(Event::FlowMod { buffer_id, applied: None });
        }
        let (v, xid) = (p.version(), p.xid());
        let f = FlowMod::parse(v, &msg[HEADER_LEN..]).map_err(|e| codec("flow_mod", e))?;
        let wire = self.channels[ch].version;
        let req = match flow_mod_req(v, &f) {
            Ok(r) => r,
            Err(_field) => {
                // 1.0 matches always convert; this is a 1.3 OXM field the switch cannot match
                emit::error(&mut outs[ch], wire, xid, error_type::v13::BAD_MATCH, bad_match::BAD_FIELD, msg);
                return Ok(Event::Refused { kind: MsgType::FlowMod, ty: error_type::v13::BAD_MATCH, code: bad_match::BAD_FIELD });
            }
        };
        if let Err((ty, code)) = self.runs(v, &f) {
            emit::error(&mut outs[ch], wire, xid, ty, code, msg);
            return Ok(Event::Refused { kind: MsgType::FlowMod, ty, code });
        }
        let mut removed = Vec::new();
        let applied = self.flows.apply(req, now, &mut removed);
        for (e, reason) in removed {
            self.flow_removed(now, &e, reason, outs);
        }
        if let Some((ty, code)) = flow_mod_error(v, applied) {
            emit::error(&mut outs[ch], wire, xid, ty, code, msg);
            return Ok(Event::Refused { kind: MsgType::FlowMod, ty, code });
        }
        Ok(Event::FlowMod { buffer_id, applied: Some(applied) })
    }

    /// A packet-out's actions run on its frame (with `forward`; OFPP_TABLE runs the pipeline).
    /// One that names a buffer and carries no frame sends nothing: the switch keeps no packet
    /// buffers (its own packet-ins are unbuffered; the engine's buffered load packet-ins are
    /// accounted by buffer id, not forwarded).
    pub(crate) fn on_packet_out(&mut self, now: u64, ch: usize, msg: &[u8], outs: &mut [Vec<u8>]) -> Result<Event, SwitchError> {
        let p = packet_out::Packet::new_checked(msg).map_err(|e| codec("packet_out", e))?;
        let data = p.data();
        let (buffer_id, marker) = (p.buffer_id(), frames::marker(data));
        let lldp_link = frames::ethertype(data) == Some(ofwire::frame::ETHERTYPE_LLDP) && !self.cfg.links.is_empty();
        if !lldp_link && !self.cfg.forward {
            // the load engine's hot path: the packet-out is only accounted
            return Ok(Event::PacketOut { buffer_id, marker, lldp_sent: 0, sent: 0 });
        }
        // actions ofwire cannot read send the frame nowhere, as before: not a session error
        let actions = parse_actions(p.version(), p.actions()).unwrap_or_default();
        let mut lldp_sent = 0;
        if lldp_link {
            for a in &actions {
                if let Action::Output { port, .. } = a {
                    for &(lp, nd, np) in &self.cfg.links {
                        if lp == *port {
                            self.link_out.push((nd, np, data.to_vec()));
                            lldp_sent += 1;
                        }
                    }
                }
            }
        }
        if self.cfg.forward {
            if let Err((ty, code)) = check::actions(&actions, &self.groups) {
                let xid = p.xid();
                emit::error(&mut outs[ch], self.channels[ch].version, xid, ty, code, msg);
                return Ok(Event::Refused { kind: MsgType::PacketOut, ty, code });
            }
        }
        let mut sent = 0;
        if self.cfg.forward && lldp_sent == 0 && !data.is_empty() {
            let v10 = p.version() == Version::V10;
            let in_port = widen_port(v10, p.in_port());
            let mut o = Vec::new();
            let mut frame = std::borrow::Cow::Borrowed(data);
            Run::new(v10, in_port, now, &mut o, &mut self.groups, &mut self.meters, &self.ports).actions(
                &mut frame,
                &actions,
                (0, 0, reason::ACTION),
            );
            let before = self.counters.frames_out;
            for out in o {
                match out {
                    Out::Port { port, frame } if port == crate::pipeline::PORT_TABLE => {
                        self.pipeline(now, in_port, &frame, outs);
                    }
                    out => self.resolve(in_port, out, outs),
                }
            }
            sent = (self.counters.frames_out - before) as usize;
        }
        Ok(Event::PacketOut { buffer_id, marker, lldp_sent, sent })
    }

    pub(crate) fn on_port_mod(&mut self, now: u64, ch: usize, msg: &[u8], outs: &mut [Vec<u8>]) -> Result<Event, SwitchError> {
        let v = self.channels[ch].version;
        let pm = PortMod::parse(Version::layout(v), &msg[HEADER_LEN..]).map_err(|e| codec("port_mod", e))?;
        let xid = ofwire::Header::new_unchecked(msg).xid();
        let Some(port) = self.ports.get_mut(pm.port_no) else {
            let ty = if v == OFP10 { error_type::v10::PORT_MOD_FAILED } else { error_type::v13::PORT_MOD_FAILED };
            emit::error(&mut outs[ch], v, xid, ty, port_mod_failed::BAD_PORT, msg);
            return Ok(Event::Refused { kind: MsgType::PortMod, ty, code: port_mod_failed::BAD_PORT });
        };
        let old = port.config;
        port.config = (port.config & !pm.mask) | (pm.config & pm.mask);
        if port.config != old {
            self.port_status(now, pm.port_no, outs);
        }
        Ok(Event::Control(MsgType::PortMod))
    }

    /// OF1.3 §6.3.5: EQUAL, MASTER (demotes the current master), SLAVE; MASTER and SLAVE carry a
    /// generation id, refused as STALE when older than the last one seen.
    pub(crate) fn on_role_request(&mut self, ch: usize, xid: u32, msg: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        let v = self.channels[ch].version;
        let r = Role::parse(fixed(&msg[HEADER_LEN..], Role::LEN)).map_err(|e| codec("role_request", e))?;
        let refuse = |out: &mut Vec<u8>, code| {
            emit::error(out, v, xid, error_type::v13::ROLE_REQUEST_FAILED, code, msg);
            Ok(Event::Refused { kind: MsgType::RoleRequest, ty: error_type::v13::ROLE_REQUEST_FAILED, code })
        };
        match r.role {
            role::NOCHANGE | role::EQUAL => {}
            role::MASTER | role::SLAVE => {
                if let Some(g) = self.generation_id {
                    // distance as a signed number, as the spec defines it (wraps)
                    if (r.generation_id.wrapping_sub(g) as i64) < 0 {
                        return refuse(out, role_request_failed::STALE);
                    }
                }
                self.generation_id = Some(r.generation_id);
            }
            _ => return refuse(out, role_request_failed::BAD_ROLE),
        }
        if r.role == role::MASTER {
            for (i, c) in self.channels.iter_mut().enumerate() {
                if i != ch && c.role == role::MASTER {
                    c.role = role::SLAVE;
                }
            }
        }
        if r.role != role::NOCHANGE {
            self.channels[ch].role = r.role;
        }
        let role = self.channels[ch].role;
        emit::role_reply(out, v, xid, role, self.generation_id.unwrap_or(0));
        Ok(Event::Control(MsgType::RoleRequest))
    }

    /// Whether the switch runs what an ADD or MODIFY flow-mod names (`check`); other commands
    /// carry nothing to run.
    fn runs(&self, v: Version, f: &FlowMod) -> Result<(), (u16, u16)> {
        if !matches!(f.command, command::ADD | command::MODIFY | command::MODIFY_STRICT) {
            return Ok(());
        }
        match v {
            Version::V10 => check::actions(&f.actions, &self.groups),
            Version::V13 => check::instructions(&f.instructions, f.table_id, self.cfg.n_tables, &self.groups, &self.meters),
        }
    }

    pub(crate) fn on_async(&mut self, ch: usize, kind: MsgType, xid: u32, body: &[u8], out: &mut Vec<u8>) -> Result<Event, SwitchError> {
        let c = &mut self.channels[ch];
        if kind == MsgType::SetAsync {
            c.async_config = AsyncConfig::parse(fixed(body, AsyncConfig::LEN)).map_err(|e| codec("set_async", e))?;
        } else {
            emit::push(out, c.version, xid, Body::GetAsyncReply(c.async_config));
        }
        Ok(Event::Control(kind))
    }
}

/// The table's view of a flow-mod; `Err(field)` for an OXM field the switch cannot match.
fn flow_mod_req(v: Version, f: &FlowMod) -> Result<FlowModReq, u8> {
    let v10 = v == Version::V10;
    let m = if v10 { FlowMatch::from_match10(&f.match10) } else { FlowMatch::from_oxm(&f.match_).map_err(|u| u.0)? };
    let out_port = match v {
        Version::V10 => (f.out_port != pn::NONE10 as u32).then_some(f.out_port),
        Version::V13 => (f.out_port != pn::ANY13).then_some(f.out_port),
    };
    let entry = Entry {
        table: if v10 { 0 } else { f.table_id },
        priority: exact10_priority(v10, f),
        cookie: f.cookie,
        idle_timeout: f.idle_timeout,
        hard_timeout: f.hard_timeout,
        flags: f.flags,
        m,
        actions: if v10 { f.actions.clone() } else { Vec::new() },
        instructions: if v10 { Vec::new() } else { f.instructions.clone() },
        ..Default::default()
    };
    Ok(FlowModReq { command: f.command, table: entry.table, cookie_mask: if v10 { 0 } else { f.cookie_mask }, out_port, v10, entry })
}

/// OF1.0 §3.4: an exact-match entry (no wildcard) has the highest priority whatever the
/// flow-mod says; Open vSwitch stores and reports it as 65535 (`ofputil_decode_flow_mod`).
fn exact10_priority(v10: bool, f: &FlowMod) -> u16 {
    if v10 && f.match10.wildcards & ofwire::match10::wildcards::ALL == 0 {
        u16::MAX
    } else {
        f.priority
    }
}

/// The OpenFlow error a refused flow-mod is answered with.
fn flow_mod_error(v: Version, a: Applied) -> Option<(u16, u16)> {
    // (1.0 code, 1.3 code); 1.0 has no table ids, so a bad one is a bad command there
    let (c10, c13) = match a {
        Applied::TableFull => (flow_mod_failed::v10::ALL_TABLES_FULL, flow_mod_failed::v13::TABLE_FULL),
        Applied::Overlap => (flow_mod_failed::v10::OVERLAP, flow_mod_failed::v13::OVERLAP),
        Applied::BadTable => (flow_mod_failed::v10::BAD_COMMAND, flow_mod_failed::v13::BAD_TABLE_ID),
        Applied::BadCommand => (flow_mod_failed::v10::BAD_COMMAND, flow_mod_failed::v13::BAD_COMMAND),
        _ => return None,
    };
    Some(if v == Version::V10 { (error_type::v10::FLOW_MOD_FAILED, c10) } else { (error_type::v13::FLOW_MOD_FAILED, c13) })
}
