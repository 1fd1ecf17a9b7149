//! What one engine run does. The same value travels to every worker (as JSON), so a worker on
//! another machine gets exactly what a local one gets.

pub(crate) mod limits;
pub(crate) mod network;
pub(crate) mod robust;
pub(crate) mod tls;

use crate::result::run::FailMode;
use ofwire::Versions;
use serde::{Deserialize, Serialize};

/// A fixed-rate switch never has more than this many requests in flight: past it the controller
/// is not keeping up, the requests count as lost once they time out, and memory stays bounded
/// (the pacer enforces it, `switch/pacer.rs`).
pub const MAX_IN_FLIGHT_OPEN_LOOP: u32 = 65_536;

/// cbench's `-t` (`fill_socket`) bounds its requests in flight by nothing but its 64 KiB output
/// buffer and the kernel's socket buffers: `fakeswitch_handle_write` refills whenever fewer than
/// `BUFLEN` bytes are queued, whatever is unanswered (mininet/oflops b6cbd02,
/// `cbench/fakeswitch.c` lines 486-490; `cbench.h` line 5: `BUFLEN` 65536). So this is not a
/// pacing limit, only a memory guard above what the buffers can hold: with Linux's largest
/// autotuned buffers (`tcp_wmem`/`tcp_rmem` max 16 MiB each, as here) about 410,000 82-byte
/// packet-ins fit between the two sockets, and the ring of send times then takes 4 MB per switch.
/// Issue 48: `MAX_IN_FLIGHT_OPEN_LOOP` (65,536) here held the engine's queue in front of
/// Floodlight to 5.0 MB where cbench's grew to 8-9 MB (`docs/engine-figures.md`).
pub const MAX_IN_FLIGHT_FILL_SOCKET: u32 = 1 << 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// RFC 8456 §5.1.3: keep the controller's input full (a window of requests per switch).
    Throughput,
    /// RFC 8456 §5.1.2: one request in flight per switch.
    Latency,
    /// Open loop at a fixed offered rate; latency from the scheduled send time.
    FixedRate,
    /// RFC 8456 §5.2.1: open sessions one by one until the controller refuses or drops one.
    Capacity,
    /// The emulated network only (`network`): switches send no requests; frames cross links,
    /// hosts send their traffic, scheduled events happen (see `network/`).
    Network,
}

impl Mode {
    pub fn parse(s: &str) -> Option<Mode> {
        Some(match s {
            "throughput" => Mode::Throughput,
            "latency" => Mode::Latency,
            "fixed-rate" | "rate" => Mode::FixedRate,
            "capacity" => Mode::Capacity,
            "network" => Mode::Network,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            Mode::Throughput => "throughput",
            Mode::Latency => "latency",
            Mode::FixedRate => "fixed-rate",
            Mode::Capacity => "capacity",
            Mode::Network => "network",
        }
    }
}

/// THE definition of every engine parameter: the JSON config file (`bench --config FILE`), the
/// worker protocol and the command-line flags all fill this one struct. Unknown fields are
/// refused; every range is checked in `front/validate.rs`.
#[derive(Clone, Debug, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    pub mode: Mode,
    /// Controller addresses, HOST:PORT (`controller`, a single string, is accepted too). Every
    /// switch connects to the first; the network part may give switches several.
    #[serde(alias = "controller", deserialize_with = "one_or_many")]
    pub controllers: Vec<String>,
    /// Traffic profile of the measured packet-ins: cbench | unique-pairs | new-flows.
    pub traffic: String,
    pub switches: u32,
    /// Datapath id of the first switch (the others follow).
    pub first_dpid: u64,
    /// Hosts (MAC addresses) per switch, as cbench's -M.
    pub macs: u32,
    pub ports: u32,
    pub loops: u32,
    pub loop_ms: u64,
    /// Leading loops that are run but left out of the summary (RFC 8456 warm-up).
    pub warmup: u32,
    /// Hello bitmap of the OpenFlow versions offered (bit 1 = 1.0, bit 4 = 1.3).
    #[serde(with = "versions_bits")]
    #[schemars(with = "u32")]
    pub versions: Versions,
    pub frame_size: usize,
    /// Requests in flight per switch in throughput mode.
    pub window: u32,
    /// Throughput as cbench's `-t` does it: no window; keep `FILL_SOCKET_BYTES` of requests
    /// queued in front of the socket whenever it takes more (in flight is bounded only by the
    /// socket buffers and `MAX_IN_FLIGHT_FILL_SOCKET` per switch). `controller cbench -t` sets it.
    pub fill_socket: bool,
    /// Behave as cbench itself does (`controller cbench` sets it): its `-L` packet-in leaves in
    /// the same write as the features reply, with no learning phase to drain; in latency mode
    /// the next probe leaves on any counted response (`cbench_switch.rs`).
    pub cbench_compat: bool,
    /// A pause after each loop, not part of it (`controller cbench`: 100, as cbench's
    /// `run_test` sleeps 100 ms after each loop, then reads and throws away whatever arrived:
    /// `cbench_switch.rs`). Switches neither send nor read during it. Loops still last
    /// `loop_ms`, and every per-second figure is per `loop_ms`.
    pub loop_gap_ms: u64,
    /// Never sleep on the sockets: poll them in a loop, as cbench does in latency mode (its
    /// `poll()` always asks for POLLOUT, so it returns at once and cbench spins a core). The
    /// round trip then holds no wake-up, at the price of a core: `controller cbench` sets it
    /// in latency mode, with one worker, as cbench is one thread.
    pub busy_poll: bool,
    /// Offered requests per second over all switches (fixed-rate mode).
    pub rate: f64,
    /// A request unanswered for this long is lost (with `adaptive_timeout`: at most this long).
    pub timeout_ms: u64,
    /// Loss timeout adapts to the observed latency: 10 × its recent high-water mark, between
    /// `timeout_floor_ms` and `timeout_ms`. Off: exactly `timeout_ms`.
    pub adaptive_timeout: bool,
    pub timeout_floor_ms: u64,
    /// Send a gratuitous ARP for every host before measuring, so a learning controller knows them.
    pub learn: bool,
    /// Time after the learning phase before the first measured request.
    pub settle_ms: u64,
    /// The learning ARPs go out this long after the last switch came up (`learning.rs`).
    pub learn_after_ms: u64,
    /// The learning phase ends when no learning reply came for this long (`learning.rs`).
    pub learn_quiet_ms: u64,
    /// ... or at the latest this long after the switches came up (with a warning).
    pub learn_deadline_ms: u64,
    /// Buffered packet-ins (buffer id = sequence number); otherwise NO_BUFFER + whole frame.
    pub buffered: bool,
    pub keep_flows: bool,
    /// Worker processes; None: as many as the file limit requires.
    pub workers: Option<u32>,
    /// Local addresses to connect from, spread round-robin over the switches.
    pub source_addrs: Vec<String>,
    /// End the whole run on the first malformed message or disconnect.
    pub strict: bool,
    pub connect_timeout_ms: u64,
    /// At most this many handshakes in progress at once (per worker).
    pub connect_parallel: u32,
    /// Keep-alive: an echo after this much silence from the controller (Open vSwitch's
    /// `inactivity_probe`, 5 s); 0 = off.
    pub echo_interval_ms: u64,
    /// Periodic keep-alive under load (issue 42; `src/switch/keepalive.rs`): every switch sends
    /// an echo request every this many ms during the measured phase, whatever else it sends or
    /// receives, staggered over the switches; counted in `load.keepalive` (sent, answered, lost
    /// after `timeout_ms`, late, latency). 0 = off. A lost one does not drop the session
    /// (`echo_interval_ms` decides that, as Open vSwitch's inactivity probe). Left out of a
    /// written config when 0 (results written before it existed read back unchanged).
    #[serde(skip_serializing_if = "is_zero")]
    pub echo_every_ms: u64,
    /// Reconnect as Open vSwitch does (lib/rconn.c; `reconnect.rs`) when an established session
    /// is lost (closed, reset, or the echo went unanswered): `true`/`"on"` or `false`/`"off"`
    /// (today's behaviour: a lost session stays lost). Capacity runs never reconnect: lost
    /// sessions are what they measure.
    #[serde(deserialize_with = "on_off")]
    pub reconnect: bool,
    /// The first wait before reconnecting (OVS: 1 s); it doubles for each session lost within
    /// its backoff, up to `max_backoff_ms`.
    pub reconnect_backoff_ms: u64,
    /// The longest wait (OVS `max_backoff`, 8 s).
    pub max_backoff_ms: u64,
    /// What a disconnected switch does with its traffic (OVS `fail_mode`): `secure` or
    /// `standalone` (`reconnect.rs`).
    pub fail_mode: FailMode,
    /// Keep a latency histogram per switch (memory: ~10 KiB each); off above 1024 switches.
    pub per_switch_histograms: bool,
    /// Capacity mode: how long to hold all sessions before counting the survivors.
    pub hold_ms: u64,
    /// PID of the controller, to sample its CPU and memory.
    pub controller_pid: Option<u32>,
    /// Links between emulated switches, (dpid, port, dpid, port): an LLDP packet-out on one end
    /// comes back as a packet-in on the other (RFC 8456 §5.1.1 topology discovery).
    pub links: Vec<(u64, u32, u64, u32)>,
    /// The emulated network (topology, hosts, link schedule): defined by the network part.
    #[serde(deserialize_with = "network::deserialize")]
    #[schemars(with = "Option<serde_json::Value>")]
    pub network: Option<network::NetworkSpec>,
    /// A robustness case played by one more switch during the run (`robust/`).
    pub robustness: Option<robust::RobustSpec>,
    /// RFC 8456 §5.3.1: after every this many requests, one invalid packet-in (0: none;
    /// 99 = 1%, 49 = 2% of packet-ins; `switch/exceptions.rs`).
    pub invalid_every: u32,
    /// Wake coalescing in throughput mode (`coalesce.rs`): before sleeping on its sockets, a
    /// worker waits at most this percent of the lowest latency it measured lately (≤ 1 ms; not
    /// at all below 50 µs), so one wake-up handles several answers. 0: off.
    pub coalesce_pct: f64,
    /// Agents (`agents.rs`, docs/scale-out.md): start the switches' slices through these instead
    /// of local workers: `local`, `netns:NAME`, `ssh:[USER@]HOST[:PORT]`; `k8s` alone writes a
    /// Kubernetes Indexed Job instead of running. Empty: one machine.
    pub agents: Vec<String>,
    /// Agents: refuse the run if an agent's clock is off the coordinator's by more than this.
    pub max_skew_ms: f64,
    /// Set by the coordinator for agents in network mode: each agent's HOST:PORT for the frames
    /// of links that cross agents (`network/transport.rs`, TCP). Empty: the local Unix mesh.
    pub net_peers: Vec<String>,
    /// OpenFlow over TLS to the controller (`config/tls.rs`); null: plain TCP.
    pub tls: Option<tls::Tls>,
}

fn on_off<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OnOff {
        Bool(bool),
        Word(String),
    }
    match OnOff::deserialize(d)? {
        OnOff::Bool(b) => Ok(b),
        OnOff::Word(w) => match w.as_str() {
            "on" => Ok(true),
            "off" => Ok(false),
            _ => Err(serde::de::Error::custom(format!("{w:?} is neither on nor off"))),
        },
    }
}

/// `Versions` in JSON: the bitmap's number (`"versions": 18` offers 1.0 and 1.3).
mod versions_bits {
    use ofwire::Versions;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Versions, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(v.bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Versions, D::Error> {
        u32::deserialize(d).map(Versions::from_bits)
    }
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

impl Default for Config {
    fn default() -> Config {
        Config {
            mode: Mode::Throughput,
            controllers: vec!["127.0.0.1:6653".into()],
            traffic: ofswitch::Profile::default().name().into(),
            switches: 16,
            first_dpid: 1,
            macs: 1000,
            ports: 4,
            loops: 10,
            loop_ms: 1000,
            warmup: 1,
            versions: Versions::BOTH,
            frame_size: 128,
            window: 256,
            fill_socket: false,
            cbench_compat: false,
            loop_gap_ms: 0,
            busy_poll: false,
            rate: 10_000.0,
            timeout_ms: 2000,
            adaptive_timeout: true,
            timeout_floor_ms: 100,
            learn: true,
            settle_ms: 200,
            learn_after_ms: 200,
            learn_quiet_ms: 1000,
            learn_deadline_ms: 30_000,
            buffered: true,
            keep_flows: false,
            workers: None,
            source_addrs: Vec::new(),
            strict: false,
            connect_timeout_ms: 10_000,
            connect_parallel: 256,
            echo_interval_ms: 5000,
            echo_every_ms: 0,
            reconnect: true,
            reconnect_backoff_ms: 1000,
            max_backoff_ms: 8000,
            fail_mode: FailMode::Secure,
            per_switch_histograms: true,
            hold_ms: 2000,
            controller_pid: None,
            links: Vec::new(),
            network: None,
            robustness: None,
            invalid_every: 0,
            coalesce_pct: 1.0,
            agents: Vec::new(),
            max_skew_ms: 50.0,
            net_peers: Vec::new(),
            tls: None,
        }
    }
}

/// Read a JSON config from FILE, or stdin for "-"; errors are one line.
pub fn load(path: &str) -> Result<Config, Vec<String>> {
    let text = if path == "-" {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut s).map_err(|e| vec![format!("--config: cannot read stdin: {e}")])?;
        s
    } else {
        std::fs::read_to_string(path).map_err(|e| vec![format!("--config: cannot read {path}: {e}")])?
    };
    Config::parse_json(&text)
}

impl Config {
    /// The controller every switch connects to (the first address).
    pub fn controller(&self) -> &str {
        self.controllers.first().map(String::as_str).unwrap_or("")
    }

    /// The traffic profile (checked by `validate`; the default if the name is unknown).
    pub fn profile(&self) -> ofswitch::Profile {
        self.traffic.parse().unwrap_or_default()
    }

    /// Parse a JSON config (range and consistency checks are `front/validate.rs`'s); errors
    /// name the field and the bad value, one line each. serde's own error does not name the field of a wrong type,
    /// so on failure each field is parsed alone to say which ones are bad, and with what.
    pub fn parse_json(text: &str) -> Result<Config, Vec<String>> {
        let whole = match serde_json::from_str::<Config>(text) {
            Ok(c) => return Ok(c),
            Err(e) => e,
        };
        let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(text) else {
            return Err(vec![format!("config: not a JSON object: {whole}")]);
        };
        let mut errs = Vec::new();
        for (k, v) in map {
            let one = serde_json::Value::Object([(k.clone(), v.clone())].into_iter().collect());
            if let Err(e) = serde_json::from_value::<Config>(one) {
                let why = e.to_string();
                if why.starts_with(&format!("{k}: ")) {
                    errs.push(why.lines().next().unwrap_or_default().to_string());
                // names itself
                } else if why.starts_with("unknown field") {
                    errs.push(format!("{k}: unknown field (see crates/engine/SCHEMA.md, `params`)"));
                } else {
                    errs.push(format!("{k}: bad value {v}: {why}"));
                }
            }
        }
        if errs.is_empty() {
            errs.push(format!("config: {whole}"));
        }
        Err(errs)
    }

    /// Whether wake coalescing applies (`coalesce.rs`): throughput mode, `coalesce_pct` > 0,
    /// no emulated network.
    pub fn coalescing(&self) -> bool {
        self.mode == Mode::Throughput && self.coalesce_pct > 0.0 && self.network.is_none()
    }

    /// Total run time of the measured phase (warm-up and gaps included).
    pub fn run_ms(&self) -> u64 {
        (self.warmup as u64 + self.loops as u64) * (self.loop_ms + self.loop_gap_ms)
    }

    /// From one loop's start to the next's: `loop_ms` plus the gap after it.
    pub fn loop_period_ns(&self) -> u64 {
        (self.loop_ms + self.loop_gap_ms) * 1_000_000
    }

    /// Whether a lost session is re-established (`reconnect.rs`): never in capacity runs.
    pub fn reconnects(&self) -> bool {
        self.reconnect && self.mode != Mode::Capacity
    }

    pub fn window_per_switch(&self) -> u32 {
        match self.mode {
            // cbench's latency mode paces by its probe counter, not by unanswered requests
            // (`cbench_switch.rs`): a request may stay unanswered while the next one goes
            Mode::Latency if self.cbench_compat => 64,
            Mode::Latency => 1,
            Mode::Throughput if self.fill_socket => MAX_IN_FLIGHT_FILL_SOCKET,
            _ => self.window.max(1),
        }
    }
}

/// Named link layouts. `linear` numbers ports as `linear,N` does in the Python topologies
/// (`sdnbench/net/topology.py`: each switch's port 1 is its host, then its links in the order
/// they are made): switch 1's port 2 to switch 2's port 2, then switch i's port 3 to switch
/// i+1's port 2 (1:2-2:2, 2:3-3:2, 3:3-4:2, ...).
pub fn links_for(spec: &str, switches: u32, first_dpid: u64, ports: u32) -> Result<Vec<(u64, u32, u64, u32)>, String> {
    match spec {
        "none" => Ok(vec![]),
        "linear" => {
            let need = match switches {
                0 | 1 => 0,
                2 => 2,
                _ => 3,
            };
            if ports < need {
                return Err(format!("--links linear: {switches} switches need {need} ports each, --ports gives {ports}"));
            }
            let out_port = |i: u64| if i == 0 { 2 } else { 3 };
            Ok((0..switches.saturating_sub(1) as u64).map(|i| (first_dpid + i, out_port(i), first_dpid + i + 1, 2)).collect())
        }
        other => Err(format!("--links: unknown layout {other:?} (linear or none)")),
    }
}

/// The part of the switches one worker runs: global indexes `lo..hi`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slice {
    pub worker: u32,
    pub lo: u32,
    pub hi: u32,
}

/// Split `n` switches over `workers` as evenly as possible.
pub fn slices(n: u32, workers: u32) -> Vec<Slice> {
    let w = workers.max(1).min(n.max(1));
    (0..w)
        .map(|i| Slice { worker: i, lo: (n as u64 * i as u64 / w as u64) as u32, hi: (n as u64 * (i as u64 + 1) / w as u64) as u32 })
        .collect()
}

#[cfg(test)]
mod tests {

    #[test]
    fn linear_numbers_ports_as_the_python_topology_does() {
        // sdnbench/net/test_topology_kinds.py checks the same list for network_for("linear,4")
        assert_eq!(links_for("linear", 4, 1, 4).unwrap(), vec![(1, 2, 2, 2), (2, 3, 3, 2), (3, 3, 4, 2)]);
        assert_eq!(links_for("linear", 2, 7, 2).unwrap(), vec![(7, 2, 8, 2)]);
        assert!(links_for("linear", 3, 1, 2).unwrap_err().contains("need 3 ports each"));
        assert!(links_for("none", 3, 1, 1).unwrap().is_empty());
    }

    use super::*;

    #[test]
    fn slices_cover_everything_once() {
        let s = slices(100_001, 7);
        assert_eq!(s.len(), 7);
        assert_eq!(s[0].lo, 0);
        assert_eq!(s[6].hi, 100_001);
        for w in s.windows(2) {
            assert_eq!(w[0].hi, w[1].lo);
        }
        assert_eq!(slices(2, 8).len(), 2);
    }

    #[test]
    fn config_round_trips_as_json() {
        let c = Config { mode: Mode::FixedRate, rate: 5.5, ..Config::default() };
        let j = serde_json::to_string(&c).unwrap();
        let d: Config = serde_json::from_str(&j).unwrap();
        assert_eq!(d.mode, Mode::FixedRate);
        assert!(j.contains("\"fixed-rate\""));
    }

    #[test]
    fn versions_are_the_bitmap_number_in_json() {
        let c = Config::parse_json(r#"{"versions": 16}"#).unwrap();
        assert_eq!(c.versions, Versions::OF13);
        let j = serde_json::to_value(Config::default()).unwrap();
        assert_eq!(j["versions"], 18, "1.0 and 1.3: bits 1 and 4");
    }

    #[test]
    fn the_network_is_parsed_with_the_config_and_a_bad_one_named_in_one_line() {
        let c = Config::parse_json(r#"{"network": {"spec": "one", "switches": [{"dpid": 1, "ports": 2}]}}"#).unwrap();
        assert_eq!(c.network.as_ref().map(|n| (n.spec.as_str(), n.switches.len())), Some(("one", 1)));
        assert!(Config::parse_json(r#"{"network": null}"#).unwrap().network.is_none());
        let e = Config::parse_json(r#"{"switches": 2, "network": {"switches": [], "bogus": 1}}"#).unwrap_err();
        assert_eq!(e.len(), 1, "{e:?}");
        assert!(e[0].starts_with("network: unknown field `bogus`") && !e[0].contains('\n'), "{e:?}");
    }

    #[test]
    fn controller_is_an_alias_of_controllers() {
        let c = Config::parse_json(r#"{"controller": "127.0.0.1:1"}"#).unwrap();
        assert_eq!(c.controllers, vec!["127.0.0.1:1".to_string()]);
        let c = Config::parse_json(r#"{"controllers": ["127.0.0.1:1", "127.0.0.1:2"]}"#).unwrap();
        assert_eq!(c.controller(), "127.0.0.1:1");
    }

    #[test]
    fn reconnect_is_on_or_off() {
        assert!(Config::default().reconnect, "OVS reconnects");
        for (j, want) in [(r#"{"reconnect": "off"}"#, false), (r#"{"reconnect": false}"#, false), (r#"{"reconnect": "on"}"#, true)] {
            assert_eq!(Config::parse_json(j).unwrap().reconnect, want, "{j}");
        }
        let e = Config::parse_json(r#"{"reconnect": "sometimes"}"#).unwrap_err();
        assert!(e[0].starts_with("reconnect: bad value"), "{e:?}");
        let c = Config::parse_json(r#"{"fail_mode": "standalone", "mode": "capacity"}"#).unwrap();
        assert_eq!(c.fail_mode, FailMode::Standalone);
        assert!(!c.reconnects(), "capacity never reconnects");
        assert!(Config::parse_json(r#"{"fail_mode": "open"}"#).is_err());
    }

    #[test]
    fn unknown_fields_and_bad_values_are_named() {
        let e = Config::parse_json(r#"{"switchs": 4}"#).unwrap_err();
        assert!(e[0].starts_with("switchs: unknown field"), "{e:?}");
        let e = Config::parse_json(r#"{"switches": "many", "loops": -1, "macs": 4}"#).unwrap_err();
        assert_eq!(e.len(), 2, "{e:?}");
        assert!(e[0].starts_with("loops: bad value -1") || e[1].starts_with("loops: bad value -1"), "{e:?}");
        assert!(e.iter().any(|l| l.starts_with("switches: bad value \"many\"")), "{e:?}");
    }
}
