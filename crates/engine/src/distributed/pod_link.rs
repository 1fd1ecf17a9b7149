//! Agents that dial in (`pods:N@ADDR:PORT`, docs/scale-out.md): the transport of Kubernetes pods.
//!
//! A pod cannot be started by the coordinator (the Job starts it), so it comes to the coordinator:
//! it connects to ADDR:PORT (through the Job's headless Service), writes one hello line
//! `{"pod": I, "pods": N}` (I = its `JOB_COMPLETION_INDEX`, N = the Job's pod count), and from then
//! on the connection is its stdin/stdout: the same JSON-lines agent protocol as over ssh
//! (`agent.rs`, `protocol.rs`). The coordinator gives pod I agent slot I (its position in the
//! whole agent list), so a pod's slice of the switches follows its index.
//!
//! Name resolution: the pod resolves the coordinator's host name itself (the cluster's DNS);
//! `SDNBENCH_RESOLVE=NAME=IP[,NAME=IP]` maps names to addresses first (curl's `--resolve`), so a
//! test can point the Service's name at loopback without touching /etc/hosts.

use crate::coordinator::Stop;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

pub const RESOLVE_ENV: &str = "SDNBENCH_RESOLVE";
pub const WAIT_ENV: &str = "SDNBENCH_POD_WAIT_S";
/// How long pods may take to come (scheduling and image pulls on a real cluster).
pub const DEFAULT_WAIT_S: u64 = 600;

/// A pod's first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub pod: u32,
    pub pods: u32,
}

/// How long to wait for pods (coordinator) or for the coordinator (pod).
pub fn wait() -> Duration {
    Duration::from_secs(std::env::var(WAIT_ENV).ok().and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_WAIT_S))
}

/// A pod connected and past its hello.
pub struct Dialled {
    pub stream: TcpStream,
    pub reader: BufReader<TcpStream>,
}

/// The coordinator's listening sockets, one per distinct address, with the slots each serves.
pub struct Listeners {
    socks: Vec<(TcpListener, SocketAddr, Vec<u32>)>,
}

impl Listeners {
    /// Bind every address of `slots` (slot, address); an address that cannot be bound is one line.
    pub fn bind(slots: &[(u32, SocketAddr)]) -> Result<Listeners, String> {
        let mut socks: Vec<(TcpListener, SocketAddr, Vec<u32>)> = Vec::new();
        for &(slot, addr) in slots {
            if let Some(s) = socks.iter_mut().find(|s| s.1 == addr) {
                s.2.push(slot);
                continue;
            }
            let l = TcpListener::bind(addr).map_err(|e| format!("agents: cannot listen for pods on {addr}: {e}"))?;
            l.set_nonblocking(true).map_err(|e| format!("agents: {addr}: {e}"))?;
            socks.push((l, addr, vec![slot]));
        }
        Ok(Listeners { socks })
    }

    /// Accept until every slot has its pod, the wait is over, or `stop` is requested; each pod
    /// goes to `on_pod` as it comes (its agent can start at once). Returns the slots left without
    /// a pod, each with one line saying so. `pods`: the agent count a pod must name (a pod of
    /// another run is refused).
    pub fn accept(self, pods: u32, wait: Duration, stop: &Stop, on_pod: &mut dyn FnMut(u32, Dialled)) -> Vec<(u32, String)> {
        let deadline = Instant::now() + wait;
        let mut taken = std::collections::BTreeSet::new();
        let want: usize = self.socks.iter().map(|s| s.2.len()).sum();
        while taken.len() < want && Instant::now() < deadline && !stop.requested() {
            let mut idle = true;
            for (l, addr, slots) in &self.socks {
                let Ok((stream, peer)) = l.accept() else { continue };
                idle = false;
                match hello(stream, pods, slots, &taken) {
                    Ok((slot, d)) => {
                        taken.insert(slot);
                        on_pod(slot, d);
                    }
                    Err(e) => eprintln!("sdnbench-engine: {addr}: refused {peer}: {e}"),
                }
            }
            if idle {
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        let mut missing = Vec::new();
        for (_, addr, slots) in &self.socks {
            for &s in slots.iter().filter(|s| !taken.contains(s)) {
                missing.push((s, format!("agent pod:{s} did not connect to {addr} within {} s", wait.as_secs())));
            }
        }
        missing
    }
}

/// Read and check a pod's hello: its index must be a free slot of this address.
fn hello(stream: TcpStream, pods: u32, slots: &[u32], taken: &std::collections::BTreeSet<u32>) -> Result<(u32, Dialled), String> {
    let io = |e: std::io::Error| e.to_string();
    stream.set_nonblocking(false).map_err(io)?;
    stream.set_nodelay(true).map_err(io)?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).map_err(io)?;
    let mut reader = BufReader::new(stream.try_clone().map_err(io)?);
    let mut line = String::new();
    reader.read_line(&mut line).map_err(|e| format!("no hello line: {e}"))?;
    let h: Hello = serde_json::from_str(line.trim()).map_err(|_| format!("not a pod's hello: {:?}", line.trim()))?;
    if h.pods != pods {
        return Err(format!("pod {} is one of {} pods, this run has {pods}", h.pod, h.pods));
    }
    if !slots.contains(&h.pod) {
        return Err(format!("pod {} is not a pod slot here (slots {slots:?})", h.pod));
    }
    if taken.contains(&h.pod) {
        return Err(format!("pod {} came twice", h.pod));
    }
    stream.set_read_timeout(None).map_err(io)?;
    Ok((h.pod, Dialled { stream, reader }))
}

/// `HOST:PORT` to addresses, `SDNBENCH_RESOLVE` first.
pub fn resolve(target: &str, overrides: Option<&str>) -> Result<Vec<SocketAddr>, String> {
    let (host, port) = target.rsplit_once(':').ok_or_else(|| format!("--coordinator {target:?}: expected HOST:PORT"))?;
    let port: u16 = port.parse().map_err(|_| format!("--coordinator {target:?}: bad port"))?;
    for pair in overrides.unwrap_or("").split(',').filter(|p| !p.is_empty()) {
        if let Some((name, ip)) = pair.split_once('=') {
            if name == host {
                let ip: std::net::IpAddr = ip.parse().map_err(|_| format!("{RESOLVE_ENV}: {pair:?}: not NAME=IP"))?;
                return Ok(vec![SocketAddr::new(ip, port)]);
            }
        }
    }
    (host, port).to_socket_addrs().map(|a| a.collect()).map_err(|e| format!("cannot resolve {host}: {e}"))
}

/// Connect to the coordinator (retrying until `wait`, or until `stop`: its pod may start after this one, its DNS
/// name appear late) and say hello. Errors are one line.
pub fn dial(target: &str, hello: &Hello, wait: Duration, stop: &Stop) -> Result<TcpStream, String> {
    let deadline = Instant::now() + wait;
    let overrides = std::env::var(RESOLVE_ENV).ok();
    let mut last = String::new();
    while Instant::now() < deadline && !stop.requested() {
        match resolve(target, overrides.as_deref()).and_then(|addrs| connect_any(&addrs)) {
            Ok(mut s) => {
                s.set_nodelay(true).map_err(|e| e.to_string())?;
                writeln!(s, "{}", serde_json::to_string(hello).expect("json")).map_err(|e| format!("coordinator {target}: {e}"))?;
                return Ok(s);
            }
            Err(e) => last = e,
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    Err(format!("no coordinator at {target} within {} s ({last})", wait.as_secs()))
}

fn connect_any(addrs: &[SocketAddr]) -> Result<TcpStream, String> {
    let mut last = String::from("no address");
    for a in addrs {
        match TcpStream::connect_timeout(a, Duration::from_secs(2)) {
            Ok(s) => return Ok(s),
            Err(e) => last = format!("{a}: {e}"),
        }
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_resolves_through_the_override_first() {
        let o = Some("sdnb-1-0.sdnb-1=127.0.0.9,x=127.0.0.2");
        assert_eq!(resolve("sdnb-1-0.sdnb-1:7070", o).unwrap(), vec!["127.0.0.9:7070".parse().unwrap()]);
        assert_eq!(resolve("127.0.0.3:1", None).unwrap(), vec!["127.0.0.3:1".parse().unwrap()]);
        assert!(resolve("nohostport", None).unwrap_err().contains("expected HOST:PORT"));
        assert!(resolve("a:1", Some("a=notanip")).unwrap_err().starts_with(RESOLVE_ENV));
    }

    #[test]
    fn pods_take_the_slot_of_their_index_and_strangers_are_refused() {
        let probe = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = probe.local_addr().unwrap();
        drop(probe);
        let l = Listeners::bind(&[(1, addr), (2, addr)]).unwrap();
        let t = std::thread::spawn(move || {
            let mut got = vec![];
            let missing = l.accept(3, Duration::from_secs(5), &Stop::new(), &mut |slot, _| got.push(slot));
            (got, missing)
        });
        let w = Duration::from_secs(5);
        let _wrong_run = dial(&addr.to_string(), &Hello { pod: 1, pods: 4 }, w, &Stop::new()).unwrap();
        let _not_a_slot = dial(&addr.to_string(), &Hello { pod: 0, pods: 3 }, w, &Stop::new()).unwrap();
        let _two = dial(&addr.to_string(), &Hello { pod: 2, pods: 3 }, w, &Stop::new()).unwrap();
        let _one = dial(&addr.to_string(), &Hello { pod: 1, pods: 3 }, w, &Stop::new()).unwrap();
        let (got, missing) = t.join().unwrap();
        assert_eq!(got, vec![2, 1], "in the order they came, each in the slot of its index");
        assert!(missing.is_empty());
    }

    #[test]
    fn a_requested_stop_ends_the_waits_and_leaves_other_runs_waiting() {
        let stop = Stop::new();
        stop.request();
        let t0 = Instant::now();
        let l = Listeners::bind(&[(1, "127.0.0.1:0".parse().unwrap())]).unwrap();
        assert_eq!(l.accept(2, Duration::from_secs(60), &stop, &mut |_, _| panic!("nobody dialled")).len(), 1);
        let probe = TcpListener::bind("127.0.0.1:0").unwrap();
        let nobody = probe.local_addr().unwrap().to_string();
        drop(probe);
        assert!(dial(&nobody, &Hello { pod: 1, pods: 2 }, Duration::from_secs(60), &stop).is_err());
        assert!(t0.elapsed() < Duration::from_secs(30), "the stop ended both waits, not the 60 s wait");
        // another run's handle is not stopped: its wait runs to its end
        let other = Listeners::bind(&[(1, "127.0.0.1:0".parse().unwrap())]).unwrap();
        let t1 = Instant::now();
        other.accept(2, Duration::from_millis(200), &Stop::new(), &mut |_, _| panic!("nobody dialled"));
        assert!(t1.elapsed() >= Duration::from_millis(200), "a fresh handle waited its whole wait");
    }

    #[test]
    fn a_pod_that_never_comes_is_named_in_one_line() {
        let l = Listeners::bind(&[(1, "127.0.0.1:0".parse().unwrap())]).unwrap();
        let missing = l.accept(2, Duration::from_millis(100), &Stop::new(), &mut |_, _| panic!("nobody dialled"));
        assert_eq!(missing.len(), 1);
        assert!(missing[0].1.starts_with("agent pod:1 did not connect to 127.0.0.1:0 within 0 s"), "{:?}", missing);
    }
}
