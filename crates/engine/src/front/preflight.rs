//! What is checked before the first measurement, beyond the config's own fields
//! (`validate.rs`): facts of the machine the run needs. Each refusal is one line naming the flag
//! and the value, and the run does not start (exit 1): an output file that cannot be written
//! would otherwise be found after the run, with the measurement lost; an address where nothing
//! listens would otherwise be found by every session, and blamed on the controller (exit 2).

use crate::config::Config;
use std::path::Path;

/// Every check, in the order a user fixes them; the first failure.
pub fn check(c: &Config, json: Option<&Path>) -> Result<(), String> {
    if let Some(p) = json {
        writable("--json", p)?;
    }
    if let Some(pid) = c.controller_pid {
        if !Path::new(&format!("/proc/{pid}")).exists() {
            return Err(format!("--controller-pid {pid}: no such process"));
        }
    }
    // agents connect from other machines or namespaces: their view of the address is theirs
    if c.agents.is_empty() {
        for a in &c.controllers {
            listening(a)?;
        }
    }
    Ok(())
}

/// Can a file be written at `path` (the result is written there at the end)? A file made only to
/// check is removed again; an existing one is left as it is (opened to append, nothing written).
pub fn writable(flag: &str, path: &Path) -> Result<(), String> {
    let shown = path.display();
    if path.as_os_str().is_empty() {
        return Err(format!("{flag}: an empty path (name the file to write)"));
    }
    if path.is_dir() {
        return Err(format!("{flag} {shown}: is a directory (name a file in it)"));
    }
    let existed = path.exists();
    match std::fs::OpenOptions::new().append(true).create(true).open(path) {
        Ok(_) => {
            if !existed {
                let _ = std::fs::remove_file(path);
            }
            Ok(())
        }
        Err(e) => Err(format!("{flag} {shown}: cannot write there ({e})")),
    }
}

/// Does something listen at `addr`? Asked of the kernel's socket table (`/proc/net/tcp*`), not by
/// connecting: a check must not be a session the controller sees. Only for an address of this
/// machine (in this network namespace); any other is left to the run, which says what it saw.
fn listening(addr: &str) -> Result<(), String> {
    let sa = crate::config::limits::resolve(addr).map_err(|e| format!("--controller: {e}"))?;
    let local = sa.ip().is_loopback() || std::net::TcpListener::bind((sa.ip(), 0)).is_ok();
    let table = |f: &str| std::fs::read_to_string(format!("/proc/net/{f}")).unwrap_or_default();
    if !local || listens(&(table("tcp") + &table("tcp6")), sa) != Some(false) {
        return Ok(());
    }
    Err(format!("--controller {addr}: nothing listens there; start the controller first, or name its address"))
}

/// Whether the kernel's TCP table (`/proc/net/tcp` and `tcp6` lines) has a listening socket
/// that takes connections to `sa` (bound to its address or to any); None: no table to read.
fn listens(table: &str, sa: std::net::SocketAddr) -> Option<bool> {
    let want = match sa.ip() {
        std::net::IpAddr::V4(ip) => format!("{:08X}", u32::from_ne_bytes(ip.octets())),
        std::net::IpAddr::V6(ip) => {
            ip.octets().chunks(4).map(|w| format!("{:08X}", u32::from_ne_bytes([w[0], w[1], w[2], w[3]]))).collect()
        }
    };
    for l in table.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        let (Some(local), Some(&"0A")) = (f.get(1), f.get(3)) else { continue };
        let Some((ip, port)) = local.split_once(':') else { continue };
        let any = ip.bytes().all(|b| b == b'0');
        if u16::from_str_radix(port, 16) == Ok(sa.port()) && (any || ip == want) {
            return Some(true);
        }
    }
    (!table.is_empty()).then_some(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unwritable_output_path_is_named() {
        assert!(writable("--json", Path::new("/proc/x")).unwrap_err().starts_with("--json /proc/x: cannot write there"));
        assert!(writable("--json", Path::new("/")).unwrap_err().contains("is a directory"));
        assert!(writable("--json", Path::new("")).unwrap_err().contains("empty path"));
        let p = std::env::temp_dir().join(format!("sdnbench-preflight-{}.json", std::process::id()));
        writable("--json", &p).unwrap();
        assert!(!p.exists(), "a file made only to check is removed");
    }

    #[test]
    fn nothing_listening_is_refused_naming_the_address() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap().to_string();
        assert!(listening(&addr).is_ok());
        drop(l);
        let e = listening(&addr).unwrap_err();
        assert!(e.starts_with(&format!("--controller {addr}: nothing listens there")), "{e}");
        let any = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
        assert!(listening(&format!("127.0.0.3:{}", any.local_addr().unwrap().port())).is_ok(), "bound to any address");
    }

    #[test]
    fn the_kernel_table_is_read_by_address_and_port() {
        // /proc/net/tcp: 127.0.0.1:6653 listening (0A), 0.0.0.0:8080 listening, 127.0.0.1:9 connected (01)
        let t = "  sl  local_address rem_address   st\n\
                 0: 0100007F:19FD 00000000:0000 0A\n\
                 1: 00000000:1F90 00000000:0000 0A\n\
                 2: 0100007F:0009 0100007F:D431 01\n";
        let sa = |s: &str| s.parse().unwrap();
        assert_eq!(listens(t, sa("127.0.0.1:6653")), Some(true));
        assert_eq!(listens(t, sa("127.0.0.2:6653")), Some(false));
        assert_eq!(listens(t, sa("127.0.0.9:8080")), Some(true));
        assert_eq!(listens(t, sa("127.0.0.1:9")), Some(false));
        assert_eq!(listens("", sa("127.0.0.1:9")), None);
    }
}
