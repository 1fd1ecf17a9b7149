//! `sdnbench-engine hello --controller HOST:PORT [--of VERSIONS]`: which OpenFlow version an
//! emulated switch speaks with that controller, found as a session finds it, by the same code:
//! the emulated switch (`ofswitch::Switch`) says its HELLO (1.3 with a version bitmap when it
//! offers 1.3, a plain 1.0 HELLO otherwise), reads the controller's first message, and
//! negotiates with `ofwire::negotiate` (OpenFlow 1.3.5 §6.3.1). A controller that closes on the
//! bitmap HELLO after saying nothing or 1.0 is asked once more with a plain 1.0 HELLO, as a
//! session is (`switch/hello_fallback.rs`).
//!
//! One JSON object on stdout, exit 0 whatever the controller did: `answered` (the version byte
//! of the controller's HELLO, null when none came back), `version` ("1.0", "1.3", or null when
//! no version is common or no HELLO came back), `fallback` (the plain 1.0 HELLO was needed).
//! The Python side asks it before a command's first run (`sdnbench/controllers/negotiation.py`).

use crate::exit;
use crate::front::values::whole;
use crate::switch::hello_fallback::{self, Ended};
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser};
use ofswitch::{Switch, SwitchConfig};
use ofwire::{Versions, OFP10, OFP13};
use std::io::{ErrorKind as IoKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// Say HELLO to a controller as an emulated switch does; print the version they agree on (JSON)
#[derive(Parser, Debug)]
#[command(
    name = "sdnbench-engine hello",
    override_usage = "sdnbench-engine hello --controller HOST:PORT [--of VERSIONS] [--timeout-ms MS]"
)]
struct HelloFlags {
    /// The controller's address
    #[arg(long, value_name = "HOST:PORT")]
    controller: String,
    /// OpenFlow versions offered: 1.0, 1.3 or 1.0,1.3
    #[arg(long = "of", value_name = "VERSIONS", default_value = "1.0,1.3")]
    of: String,
    /// How long to wait to connect, and for the controller's first message
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = 2000)]
    timeout_ms: u64,
}

/// What the exchange found (the command's JSON).
#[derive(Debug, PartialEq, serde::Serialize)]
pub struct Answer {
    pub answered: Option<u8>,
    pub version: Option<&'static str>,
    pub fallback: bool,
}

/// One connection's end, as a session sees it: the controller's first message (None: it sent
/// none) and, without one, how the connection ended ("closed", "reset", "timeout", ...).
struct Heard {
    first: Option<Vec<u8>>,
    kind: &'static str,
}

fn ended_kind(e: &std::io::Error) -> &'static str {
    match e.kind() {
        IoKind::UnexpectedEof => "closed",
        IoKind::ConnectionReset | IoKind::ConnectionAborted | IoKind::BrokenPipe => "reset",
        IoKind::WouldBlock | IoKind::TimedOut => "timeout",
        IoKind::ConnectionRefused => "refused",
        _ => "error",
    }
}

/// Connect, send `hello`, read one whole message.
fn exchange(addr: SocketAddr, hello: &[u8], timeout: Duration) -> Heard {
    let run = || -> std::io::Result<Vec<u8>> {
        let mut s = TcpStream::connect_timeout(&addr, timeout)?;
        s.set_read_timeout(Some(timeout))?;
        s.set_write_timeout(Some(timeout))?;
        s.write_all(hello)?;
        let mut msg = vec![0u8; 8];
        s.read_exact(&mut msg)?;
        let len = usize::from(u16::from_be_bytes([msg[2], msg[3]])).max(8);
        msg.resize(len, 0);
        s.read_exact(&mut msg[8..])?;
        Ok(msg)
    };
    match run() {
        Ok(m) => Heard { first: Some(m), kind: "message" },
        Err(e) => Heard { first: None, kind: ended_kind(&e) },
    }
}

/// The switch offering `versions` (a HELLO bitmap) against the controller at `addr`: one
/// exchange, and the fallback exchange when a session would make it.
pub fn ask(addr: SocketAddr, versions: Versions, timeout: Duration) -> Answer {
    let once = |versions: Versions| {
        let mut sw = Switch::new(SwitchConfig { versions, ..SwitchConfig::new(1) });
        let mut out = Vec::new();
        sw.start(0, &mut out);
        let heard = exchange(addr, &out, timeout);
        let answer = heard.first.as_deref().filter(|m| m[1] == 0).map(|m| {
            let agreed = sw.on_message(0, m, &mut Vec::new()).ok().map(|_| sw.channels[0].version);
            (m[0], agreed)
        });
        (heard, answer)
    };
    let (heard, answer) = once(versions);
    let ended = Ended { kind: heard.kind, peer_version: heard.first.as_ref().map(|m| m[0]) };
    let (answer, fallback) = match answer {
        None if hello_fallback::retry(versions, true, &ended) => (once(hello_fallback::PLAIN).1, true),
        a => (a, false),
    };
    let name = |v: u8| match v {
        OFP10 => Some("1.0"),
        OFP13 => Some("1.3"),
        _ => None,
    };
    Answer { answered: answer.map(|a| a.0), version: answer.and_then(|a| a.1).and_then(name), fallback }
}

/// The command: the answer on stdout (exit 0), or a usage error (one line, exit 1).
pub fn main(args: Vec<String>) -> i32 {
    let argv = std::iter::once("sdnbench-engine hello".to_string()).chain(args);
    let parsed = HelloFlags::command().try_get_matches_from(argv).and_then(|m| HelloFlags::from_arg_matches(&m));
    let f = match parsed {
        Ok(f) => f,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            exit::print(&e.render().to_string());
            return exit::MEASURED;
        }
        Err(e) => return refuse(&super::cli::one_line(&e)),
    };
    let versions = match super::cli::versions(&f.of) {
        Ok(v) => v,
        Err(e) => return refuse(&e),
    };
    let addr = match crate::config::limits::resolve(&f.controller) {
        Ok(a) => a,
        Err(e) => return refuse(&format!("--controller: {e}")),
    };
    let a = ask(addr, versions, Duration::from_millis(f.timeout_ms.max(1)));
    exit::line(serde_json::to_string(&a).expect("an answer serializes"));
    exit::MEASURED
}

fn refuse(e: &str) -> i32 {
    eprintln!("sdnbench-engine hello: {e}");
    exit::USER
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A controller that reads the switch's HELLO and answers with `reply` (or closes).
    fn controller(reply: Option<Vec<u8>>, times: usize) -> SocketAddr {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        std::thread::spawn(move || {
            for _ in 0..times {
                let Ok((mut s, _)) = l.accept() else { return };
                let mut head = [0u8; 8];
                let _ = s.read_exact(&mut head);
                if let Some(r) = &reply {
                    let _ = s.write_all(r);
                }
            }
        });
        addr
    }

    fn hello(version: u8, bitmap: Versions) -> Vec<u8> {
        let mut out = Vec::new();
        ofswitch::emit::hello(&mut out, version, bitmap, 7);
        out
    }

    const BOTH: Versions = Versions::BOTH;
    const T: Duration = Duration::from_secs(2);

    #[test]
    fn the_version_is_the_sessions() {
        let a = ask(controller(Some(hello(OFP13, BOTH)), 1), BOTH, T);
        assert_eq!(a, Answer { answered: Some(OFP13), version: Some("1.3"), fallback: false });
        let a = ask(controller(Some(hello(OFP10, Versions::default())), 1), BOTH, T);
        assert_eq!(a, Answer { answered: Some(OFP10), version: Some("1.0"), fallback: false });
        // a 1.5 controller: with a bitmap the highest common version; with a bare HELLO header
        // the lower of the two HELLO versions; 1.3 either way
        let a = ask(controller(Some(hello(6, Versions::from_bits(BOTH.bits() | 1 << 6))), 1), BOTH, T);
        assert_eq!((a.answered, a.version), (Some(6), Some("1.3")));
        let a = ask(controller(Some(vec![6, 0, 0, 8, 0, 0, 0, 7]), 1), BOTH, T);
        assert_eq!((a.answered, a.version), (Some(6), Some("1.3")));
    }

    #[test]
    fn a_forced_version_the_controller_lacks_has_no_version_and_names_its_answer() {
        let a = ask(controller(Some(hello(OFP10, Versions::default())), 1), Versions::OF13, T);
        assert_eq!(a, Answer { answered: Some(OFP10), version: None, fallback: false });
    }

    #[test]
    fn a_close_on_the_bitmap_hello_is_asked_again_with_a_plain_1_0_hello() {
        // closes the first connection unanswered, answers the second at 1.0
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = l.local_addr().unwrap();
        std::thread::spawn(move || {
            drop(l.accept());
            let (mut s, _) = l.accept().unwrap();
            let mut head = [0u8; 8];
            s.read_exact(&mut head).unwrap();
            assert_eq!(head[0], OFP10, "the second HELLO is plain 1.0");
            s.write_all(&hello(OFP10, Versions::default())).unwrap();
        });
        assert_eq!(ask(addr, BOTH, T), Answer { answered: Some(OFP10), version: Some("1.0"), fallback: true });
    }

    #[test]
    fn nothing_there_is_no_answer() {
        let addr = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap(); // closed again: refused
        assert_eq!(ask(addr, BOTH, T), Answer { answered: None, version: None, fallback: false });
        let closes = controller(None, 1);
        assert_eq!(ask(closes, Versions::OF13, Duration::from_millis(300)).answered, None, "forced: no second HELLO");
    }
}
