//! One run: open the data ports (refusing missing or down interfaces before listening),
//! accept the switch, read its identity (DESC stats), find its port numbers, run each test,
//! and write the document after every test so a later failure loses nothing.

use std::net::TcpListener;
use std::sync::Arc;

use ofcontroller::build::{self, StatsKind};
use ofcontroller::Event;
use ofwire::{Body, StatsReplyBody, Version};
use serde_json::{json, Value};

use crate::bench::{self, Bench, DataPort, TestOut};
use crate::cli::Cli;
use crate::clock::now_ns;
use crate::packet::{IfSpec, PacketSocket};
use crate::session;

pub const SCHEMA: &str = "sdnbench.switch/1";

fn interface_up(spec: &IfSpec) -> Result<(), String> {
    let base = match &spec.netns {
        // A namespace's sysfs is not ours; the socket open below proves it exists there.
        Some(_) => return Ok(()),
        None => format!("/sys/class/net/{}", spec.name),
    };
    let state = std::fs::read_to_string(format!("{base}/operstate")).map_err(|_| format!("interface {spec} does not exist"))?;
    let flags = std::fs::read_to_string(format!("{base}/flags")).unwrap_or_default();
    let up = u32::from_str_radix(flags.trim().trim_start_matches("0x"), 16).map(|f| f & 1 == 1).unwrap_or(false);
    if !up || state.trim() == "down" {
        return Err(format!("interface {spec} is down (operstate {}); bring it up first", state.trim()));
    }
    Ok(())
}

fn describe(b: &mut Bench) -> Result<Value, String> {
    let (xid, _) = b.s.send(build::stats(b.v(), StatsKind::Desc))?;
    let desc = match b.s.reply(xid, b.opts.timeout)? {
        Event::Reply { parts, .. } => match parts.last() {
            Some(Body::StatsReply(r)) => match &r.body {
                StatsReplyBody::Desc(d) => json!({"manufacturer": d.mfr_desc, "hardware": d.hw_desc,
                    "software": d.sw_desc, "serial": d.serial_num, "datapath": d.dp_desc}),
                _ => Value::Null,
            },
            _ => Value::Null,
        },
        _ => Value::Null,
    };
    let f = &b.s.features;
    Ok(json!({"datapath_id": format!("{:016x}", f.datapath_id), "n_tables": f.n_tables,
              "n_buffers": f.n_buffers, "desc": desc}))
}

fn write(c: &Cli, doc: &Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(doc).expect("JSON values serialize");
    match &c.json {
        Some(path) => {
            let tmp = format!("{path}.tmp");
            std::fs::write(&tmp, text + "\n").map_err(|e| format!("{tmp}: {e}"))?;
            std::fs::rename(&tmp, path).map_err(|e| format!("{path}: {e}"))
        }
        None => Ok(()),
    }
}

fn run_test(b: &mut Bench, name: &str) -> Result<Vec<TestOut>, String> {
    match name {
        "insertion" => bench::insertion::run(b, false),
        "barrier" => bench::insertion::run(b, true),
        "packet-in" => bench::packet_io::packet_in(b),
        "packet-out" => bench::packet_io::packet_out(b),
        "capacity" => bench::capacity::run(b),
        "stats" => bench::stats::run(b),
        "first-packet" => bench::first_packet::run(b),
        "pipeline" => bench::pipeline::run(b),
        _ => unreachable!("cli checks test names"),
    }
}

/// Why a run stopped: the user's input, found before the switch was waited for (exit 1), or the
/// switch under test (exit 2).
pub enum Stop {
    Input(String),
    Switch(String),
}

/// Can a file be written at `path`? A file made only to check is removed again.
fn writable(path: &str) -> Result<(), String> {
    let p = std::path::Path::new(path);
    if path.is_empty() || p.is_dir() {
        return Err(format!("--json {path:?}: name a file to write"));
    }
    let existed = p.exists();
    std::fs::OpenOptions::new().append(true).create(true).open(p).map_err(|e| format!("--json {path}: cannot write there ({e})"))?;
    if !existed {
        let _ = std::fs::remove_file(p);
    }
    Ok(())
}

pub fn run(c: &Cli) -> Result<(), Stop> {
    if let Some(path) = &c.json {
        writable(path).map_err(Stop::Input)?;
    }
    for spec in &c.ifs {
        interface_up(spec).map_err(Stop::Input)?;
    }
    let socks = c.ifs.iter().map(PacketSocket::open).collect::<Result<Vec<_>, _>>().map_err(Stop::Input)?;
    let listener = TcpListener::bind(&c.listen).map_err(|e| Stop::Input(format!("--listen {}: cannot listen there ({e})", c.listen)))?;
    let addr = listener.local_addr().map_err(|e| Stop::Input(e.to_string()))?;
    eprintln!("sdnbench-switch: listening on {addr}");
    measure(c, socks, listener).map_err(Stop::Switch)
}

/// The switch connected (or not, in time): everything from here is the switch's doing.
fn measure(c: &Cli, socks: Vec<PacketSocket>, listener: TcpListener) -> Result<(), String> {
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let s = session::accept(&listener, &c.versions, c.accept_timeout)?;
    let ports = socks
        .into_iter()
        .enumerate()
        .map(|(i, s)| DataPort { sock: Arc::new(s), port_no: 0, tag: i as u8 + 1, frame_size: c.frame_size })
        .collect();
    let mut b = Bench { s, ports, opts: c.opts.clone() };
    let of = if b.v() == Version::V10 { "1.0" } else { "1.3" };
    let mut doc = json!({"schema": SCHEMA, "listen": addr.to_string(), "of_version": of, "frame_size": c.frame_size,
        "started_ns": now_ns(), "switch": describe(&mut b)?, "ports": [], "tests": []});
    b.discover_ports()?;
    doc["ports"] = b.ports.iter().map(|p| json!({"if": p.sock.spec.to_string(), "port_no": p.port_no})).collect();
    write(c, &doc)?;
    for name in &c.tests {
        let entries = match run_test(&mut b, name) {
            Ok(outs) => outs.iter().map(TestOut::to_json).collect(),
            Err(e) => vec![json!({"test": name, "error": e})],
        };
        doc["tests"].as_array_mut().expect("tests is an array").extend(entries);
        doc["finished_ns"] = json!(now_ns());
        doc["tx_stamp_fallbacks"] = json!(crate::packet::TX_STAMP_FALLBACKS.load(std::sync::atomic::Ordering::Relaxed));
        write(c, &doc)?;
    }
    if c.json.is_none() {
        crate::exit::print(&(serde_json::to_string_pretty(&doc).expect("JSON values serialize") + "\n"));
    }
    Ok(())
}
