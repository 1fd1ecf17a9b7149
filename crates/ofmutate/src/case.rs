//! What a robustness case is: the context a script is built for ([`Ctx`]), the steps it
//! plays ([`Step`]) and the case itself ([`Case`]). The catalogues (`cases`, `attacks`) and the
//! byte mutations (`bytes`) build on these; the crate root re-exports them.

/// What the attacking switch knows when it builds its script.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// Wire version the session speaks (0x01 or 0x04).
    pub version: u8,
    /// The attacker's own datapath id.
    pub dpid: u64,
    /// A background switch that is up during the case: its dpid and engine index.
    pub victim_dpid: u64,
    pub victim_index: u32,
    /// Hosts per background switch (the engine's `macs`), for host addresses.
    pub macs: u32,
    /// Ports per switch that carry load traffic (the engine's `ports`); `faucet:auto`'s stack
    /// ports are the two after them (`faucet_lldp`).
    pub ports: u32,
    pub seed: u64,
    /// How its packet-ins are dressed: the background's traffic profile's
    /// (`ofswitch::Profile::dress`), so an attack against Faucet sends packet-ins Faucet takes
    /// (its cookie, reason ACTION, its VLAN) and the case tests what it claims to test.
    pub dress: ofswitch::Dress,
}

impl Default for Ctx {
    fn default() -> Ctx {
        Ctx {
            version: 4,
            dpid: 0xbad0_0001,
            victim_dpid: 1,
            victim_index: 0,
            macs: 1000,
            ports: 4,
            seed: 1,
            dress: ofswitch::Dress::TABLE_MISS,
        }
    }
}

/// One thing the attacking switch does, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Finish the OpenFlow handshake as a switch with this datapath id (the engine's switch
    /// core says HELLO and answers the controller's requests, and keeps answering afterwards).
    Handshake { dpid: u64 },
    /// Send these bytes in one write.
    Send(Vec<u8>),
    /// Send these bytes one at a time, `gap_ms` apart.
    Dribble { bytes: Vec<u8>, gap_ms: u64 },
    /// Send [`crate::flood_message`]s back to back for the rest of the observation window.
    Flood,
    /// Keep the session going (answering the controller) for this long: lets the controller
    /// finish registering the switch (port descriptions, topology) before an attack.
    Wait { ms: u64 },
    /// Open up to this many more TCP connections to the controller, one after another, and
    /// never send on them; stop growing at the first one the controller does not take, when
    /// the engine's open files run out, or at the window's end.
    IdleConnections { n: u32 },
    /// Start sending TCP SYNs from spoofed addresses to the controller's port, at a set rate,
    /// for the rest of the window, from a network namespace (the engine's `robust/syn.rs`;
    /// the namespace is the caller's). Only as a case's first step: the case's own connection
    /// is made after it, `SYN_HEAD_START_MS` into the flood, as a new switch would.
    SynFlood,
}

/// How long a SYN flood runs before the case's own switch connects.
pub const SYN_HEAD_START_MS: u64 = 500;

/// Which OpenFlow versions a case applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Applies {
    Both,
    Of13Only,
}

/// A named case: what it sends, where it comes from, what a robust controller should do.
pub struct Case {
    pub name: &'static str,
    /// `message` (one malformed message or sequence) or `network` (a southbound attack).
    pub family: &'static str,
    pub what: &'static str,
    pub source: &'static str,
    pub expect: &'static str,
    pub applies: Applies,
    pub script: fn(&Ctx) -> Vec<Step>,
}

impl Case {
    pub fn applies_to(&self, version: u8) -> bool {
        self.applies == Applies::Both || version == ofwire::version::OFP13
    }
}
