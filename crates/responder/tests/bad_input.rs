//! Bad input, generated from the command lines' own definitions (`cli.rs`, as clap holds them):
//! every flag of `sdnbench-responder` and `sdnbench-pingpong`, fed the bad values its kind admits
//! (negative, zero where the help does not say what 0 means, huge, non-numeric, empty; for an
//! address a name and a port out of range; for a choice an unknown one). Each must exit 1 with
//! one line naming the flag and the value, no panic, before anything starts: the responder is
//! given a port of its own to listen on and must not be found running; the ping-pong's
//! responder is a listener that counts connections, which must stay at 0.

use clap::ArgAction;
use std::net::TcpListener;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const NUMERIC: [&str; 5] = ["N", "R", "D", "K", "S"];

/// The bad values of one flag, from its definition.
fn values_of(a: &clap::Arg) -> Vec<String> {
    let name = a.get_value_names().and_then(|v| v.first()).map(|s| s.to_string()).unwrap_or_default();
    let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
    let v: Vec<&str> = if !a.get_possible_values().is_empty() {
        vec!["", "bogus"]
    } else if NUMERIC.contains(&name.as_str()) {
        let mut v = vec!["-1", "x", "", "18446744073709551616", "1e400"];
        if !help.contains("0 =") {
            v.push("0");
        }
        v
    } else {
        vec!["", "bogus", "127.0.0.1:99999", "localhost:1"]
    };
    v.into_iter().map(String::from).collect()
}

/// (args, the flag, the value) of every case of `cmd`, each after `base` (left out for its own flag).
fn cases(cmd: &clap::Command, base: &[String]) -> Vec<(Vec<String>, String, String)> {
    let mut out = vec![];
    for a in cmd.get_arguments() {
        let Some(long) = a.get_long() else { continue };
        if matches!(a.get_action(), ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version) {
            continue;
        }
        let flag = format!("--{long}");
        let at: Vec<String> = if base.contains(&flag) { vec![] } else { base.to_vec() };
        if matches!(a.get_action(), ArgAction::SetTrue | ArgAction::SetFalse) {
            out.push(([at, vec![format!("{flag}=x")]].concat(), flag, String::new()));
            continue;
        }
        for v in values_of(a) {
            out.push(([at.clone(), vec![flag.clone(), v.clone()]].concat(), flag.clone(), v));
        }
    }
    out.push(([base.to_vec(), vec!["--bogus".into()]].concat(), "--bogus".into(), String::new()));
    out
}

/// Run one case (killed after 5 s: a case still running was accepted); its failure as one line.
fn judge(exe: &str, (args, flag, value): &(Vec<String>, String, String)) -> Option<String> {
    let mut c = Command::new(exe).args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap();
    let until = Instant::now() + Duration::from_secs(5);
    while c.try_wait().unwrap().is_none() {
        if Instant::now() > until {
            let _ = c.kill();
            let _ = c.wait();
            return Some(format!("{args:?}: accepted (still running after 5 s)"));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = c.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    let named = lines.first().is_some_and(|l| l.contains(flag.as_str()) && l.contains(value.as_str()));
    let ok = o.status.code() == Some(1) && lines.len() == 1 && named && !err.contains("panicked");
    (!ok).then(|| format!("{args:?}: exit {:?}, {:?}", o.status.code(), err.trim()))
}

/// A listener that counts the connections it accepts (and never speaks).
fn counting_listener() -> (String, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = l.local_addr().unwrap().to_string();
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            seen.fetch_add(1, Ordering::SeqCst);
            drop(s);
        }
    });
    (addr, n)
}

#[test]
fn every_flag_refuses_its_bad_values_in_one_line_before_anything_starts() {
    use clap::CommandFactory;
    use sdnbench_responder::cli::{Pingpong, Responder};
    let (addr, connections) = counting_listener();
    let responder = cases(&Responder::command(), &["--listen".into(), "127.0.0.1:0".into()]);
    let pingpong = cases(&Pingpong::command(), &["--connect".into(), addr]);
    let mut bad: Vec<String> = responder.iter().filter_map(|c| judge(env!("CARGO_BIN_EXE_sdnbench-responder"), c)).collect();
    bad.extend(pingpong.iter().filter_map(|c| judge(env!("CARGO_BIN_EXE_sdnbench-pingpong"), c)));
    let n = responder.len() + pingpong.len();
    println!("bad input: {} responder and {} ping-pong cases", responder.len(), pingpong.len());
    assert!(bad.is_empty(), "{} of {n} cases not refused in one line naming the flag:\n{}", bad.len(), bad.join("\n"));
    assert_eq!(connections.load(Ordering::SeqCst), 0, "a ping-pong case connected");
    assert!(responder.len() > 30 && pingpong.len() > 8, "the walk found the flags: {} + {} cases", responder.len(), pingpong.len());
}
