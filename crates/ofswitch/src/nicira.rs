//! Vendor (1.0) / experimenter (1.3) messages: the Nicira extensions controllers send an
//! Open vSwitch when they connect, answered as Open vSwitch answers them
//! (`ofproto/ofproto.c`):
//!
//! - NXT_ROLE_REQUEST (subtype 10): the channel takes the role (OTHER = equal, MASTER demotes
//!   the other masters, SLAVE) and the answer is an NXT_ROLE_REPLY (subtype 11) with it. A
//!   slave gets port-status but no packet-in or flow-removed, in 1.0 too.
//! - NXT_SET_FLOW_FORMAT (12): the OpenFlow 1.0 format is taken; NXM, which this switch does
//!   not speak, and unknown formats → BAD_REQUEST / EPERM (Open vSwitch's answer to a format
//!   it does not know).
//! - NXT_SET_PACKET_IN_FORMAT (16): the standard format is taken; the Nicira ones →
//!   BAD_REQUEST / EPERM.
//! - Any other Nicira subtype → BAD_REQUEST / BAD_SUBTYPE (1.3: BAD_EXP_TYPE); another
//!   vendor → BAD_REQUEST / BAD_VENDOR (BAD_EXPERIMENTER); a body too short for the vendor
//!   header → BAD_REQUEST / BAD_LEN.

use crate::emit;
use crate::switch::{Event, Switch};
use ofwire::config::role;
use ofwire::error_names::{bad_request, error_type};
use ofwire::nicira as nx;
use ofwire::HEADER_LEN;
use ofwire::OFP10;
use ofwire::{Body, Experimenter, MsgType};

impl Switch {
    pub(crate) fn on_experimenter(&mut self, ch: usize, xid: u32, msg: &[u8], out: &mut Vec<u8>) -> Event {
        let v = self.channels[ch].version;
        let refuse = |out: &mut Vec<u8>, code| {
            emit::error(out, v, xid, error_type::BAD_REQUEST, code, msg);
            Event::Refused { kind: MsgType::Experimenter, ty: error_type::BAD_REQUEST, code }
        };
        let Ok((vendor, subtype, rest)) = nx::parse(&msg[HEADER_LEN..]) else { return refuse(out, bad_request::BAD_LEN) };
        if vendor != nx::VENDOR {
            return refuse(out, bad_request::BAD_EXPERIMENTER);
        }
        let arg = nx::parse_u32(rest);
        match (subtype, arg) {
            (nx::ROLE_REQUEST, Ok(role)) => {
                let Some(r) = of_role(role) else { return refuse(out, bad_request::EPERM) };
                self.take_role(ch, r);
                let reply = nx_role(self.channels[ch].role);
                emit::push(out, v, xid, Body::Experimenter(reply_body(v, reply)));
                Event::Control(MsgType::Experimenter)
            }
            (nx::SET_FLOW_FORMAT, Ok(nx::FLOW_FORMAT_OPENFLOW10)) => Event::Control(MsgType::Experimenter),
            (nx::SET_PACKET_IN_FORMAT, Ok(nx::PACKET_IN_FORMAT_STANDARD)) => Event::Control(MsgType::Experimenter),
            (nx::SET_FLOW_FORMAT | nx::SET_PACKET_IN_FORMAT, Ok(_)) => refuse(out, bad_request::EPERM),
            (nx::ROLE_REQUEST | nx::SET_FLOW_FORMAT | nx::SET_PACKET_IN_FORMAT, Err(_)) => refuse(out, bad_request::BAD_LEN),
            _ => refuse(out, bad_request::BAD_SUBTYPE),
        }
    }

    /// Channel `ch` takes `role` (an OFPCR_ROLE_*); a new master demotes the others to slaves.
    pub(crate) fn take_role(&mut self, ch: usize, role: u32) {
        if role == role::MASTER {
            for (i, c) in self.channels.iter_mut().enumerate() {
                if i != ch && c.role == role::MASTER {
                    c.role = role::SLAVE;
                }
            }
        }
        self.channels[ch].role = role;
    }
}

/// The OpenFlow role of an NX role; `None` for a value NX does not define.
fn of_role(nx_role: u32) -> Option<u32> {
    match nx_role {
        nx::ROLE_OTHER => Some(role::EQUAL),
        nx::ROLE_MASTER => Some(role::MASTER),
        nx::ROLE_SLAVE => Some(role::SLAVE),
        _ => None,
    }
}

fn nx_role(of_role: u32) -> u32 {
    match of_role {
        role::MASTER => nx::ROLE_MASTER,
        role::SLAVE => nx::ROLE_SLAVE,
        _ => nx::ROLE_OTHER,
    }
}

/// The NXT_ROLE_REPLY body as ofwire's experimenter value of version `v` (the Nicira header
/// is the same bytes in both: in 1.3 the subtype is the experimenter type).
fn reply_body(v: u8, role: u32) -> Experimenter {
    let b = nx::role_reply(role);
    if v == OFP10 {
        Experimenter { experimenter: nx::VENDOR, exp_type: 0, data: b[4..].to_vec() }
    } else {
        Experimenter { experimenter: nx::VENDOR, exp_type: nx::ROLE_REPLY, data: b[8..].to_vec() }
    }
}
