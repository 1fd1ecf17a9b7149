//! What is checked before the first measurement, beyond the config's own fields
//! (`validate.rs`): facts of the machine the run needs. Each refusal is one line naming the flag
//! and the value, and the run does not start (exit 1): an output file that cannot be written
//! would otherwise be found after the run, with the measurement lost; an address where nothing
//! listens would otherwise be found by every session, and blamed on the controller (exit 2).

use crate::config::Config;
use crate::front::listeners::{lookup, Listener};
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

/// Does something listen at `addr`? Asked first of the kernel's socket table (`/proc/net/tcp*`,
/// `listeners.rs`), so that the check is no session the controller sees. Where the table shows
/// no listener, one connection is tried, and only a refused one refuses the run: a table misread
/// must never refuse a controller that listens. An address of another machine or network
/// namespace, or a table that cannot be read, is left to the run, which says what it saw.
fn listening(addr: &str) -> Result<(), String> {
    let sa = crate::config::limits::resolve(addr).map_err(|e| format!("--controller: {e}"))?;
    let local = sa.ip().is_loopback() || std::net::TcpListener::bind((sa.ip(), 0)).is_ok();
    let table = |f: &str| std::fs::read_to_string(format!("/proc/net/{f}")).unwrap_or_default();
    if !local || lookup(&(table("tcp") + &table("tcp6")), sa) != Some(Listener::No) {
        return Ok(());
    }
    match std::net::TcpStream::connect_timeout(&sa, std::time::Duration::from_secs(1)) {
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            Err(format!("--controller {addr}: nothing listens there (connection refused); start the controller first, or name its address"))
        }
        _ => Ok(()),
    }
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
    fn a_listener_bound_any_way_is_found_and_a_wrong_family_refused() {
        // bound as a JVM binds 127.0.0.1 (IPv4-mapped), and the other forms the kernel shows
        for bound in ["127.0.0.1:0", "0.0.0.0:0", "[::]:0", "[::ffff:127.0.0.1]:0", "127.0.0.2:0"] {
            let l = std::net::TcpListener::bind(bound).unwrap();
            let port = l.local_addr().unwrap().port();
            let target = if bound.starts_with("127.0.0.2") { "127.0.0.2" } else { "127.0.0.1" };
            assert_eq!(listening(&format!("{target}:{port}")), Ok(()), "bound to {bound}");
        }
        let only6 = std::net::TcpListener::bind("[::1]:0").unwrap();
        let port = only6.local_addr().unwrap().port();
        assert_eq!(listening(&format!("[::1]:{port}")), Ok(()));
        let e = listening(&format!("127.0.0.1:{port}")).unwrap_err();
        assert!(e.contains("nothing listens there (connection refused)"), "{e}");
    }
}
