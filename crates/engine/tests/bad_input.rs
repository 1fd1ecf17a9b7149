//! Bad input, generated from the command line's own definitions: every flag clap holds for
//! `sdnbench-engine` (`front::command()`: its value name, possible values, default and help)
//! and for the other commands clap parses (`front::commands()`: `merge`, `k8s-agent`), every
//! command its help lists, and every flag of the cbench front end's usage line, each fed the
//! bad values its kind admits: negative, zero (where the help does not say what 0 means and
//! the default is not 0), huge, non-numeric, empty; for files a missing one, a directory, a
//! binary file; for outputs an unwritable path. Each must exit 1 with one line naming the flag
//! (and the value, when it has one), no panic, and nothing started: every case runs against a
//! listener that counts connections, which must stay at 0.

mod common;

use clap::ArgAction;
use std::net::TcpListener;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// One case: the arguments, the words its one line must contain.
struct Case {
    args: Vec<String>,
    names: Vec<String>,
}

fn case(args: &[&str], names: &[&str]) -> Case {
    Case {
        args: args.iter().map(|s| s.to_string()).collect(),
        names: names.iter().filter(|n| !n.is_empty()).map(|s| s.to_string()).collect(),
    }
}

/// A listener that counts the connections it accepts (and never speaks).
fn counting_listener() -> (u16, Arc<AtomicUsize>) {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = l.local_addr().unwrap().port();
    let n = Arc::new(AtomicUsize::new(0));
    let seen = n.clone();
    std::thread::spawn(move || {
        for s in l.incoming() {
            seen.fetch_add(1, Ordering::SeqCst);
            drop(s);
        }
    });
    (port, n)
}

const NUMERIC: [&str; 6] = ["N", "MS", "BYTES", "R", "P", "PID"];
const HUGE: &str = "18446744073709551615";
const TOO_LARGE: &str = "99999999999999999999999";

/// A binary file that exists: the engine itself.
fn binary() -> String {
    env!("CARGO_BIN_EXE_sdnbench-engine").to_string()
}

/// The bad values of one flag, from its definition.
fn values_of(a: &clap::Arg) -> Vec<String> {
    let name = a.get_value_names().and_then(|v| v.first()).map(|s| s.to_string()).unwrap_or_default();
    let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
    if !a.get_possible_values().is_empty() {
        return vec!["".into(), "bogus".into()];
    }
    if NUMERIC.contains(&name.as_str()) {
        let mut v = vec!["-1", "x", "", HUGE, TOO_LARGE, "1e400"];
        let zero_means_something = help.contains("0 =") || a.get_default_values().iter().any(|d| d == "0" || d == "0.0");
        if !zero_means_something {
            v.push("0");
        }
        return v.into_iter().map(String::from).collect();
    }
    if help.starts_with("Write") {
        return vec!["".into(), "/".into(), "/proc/x/out.json".into()];
    }
    if name.starts_with("FILE") {
        return vec!["".into(), "/".into(), "/nonexistent/sdnbench.json".into(), binary()];
    }
    // text: addresses, names, lists
    vec!["".into(), "bogus".into(), "127.0.0.1:99999".into()]
}

/// Every case of the flags of `cmd`, each after `prefix` (the command's name) and `base` (what it
/// needs besides, left out for the flag it names): (flags walked, cases).
fn flag_cases(cmd: &clap::Command, prefix: &[&str], base: &[&str]) -> (usize, Vec<Case>) {
    let mut cases = vec![];
    let mut flags = 0;
    for a in cmd.get_arguments() {
        let Some(long) = a.get_long() else { continue };
        if matches!(a.get_action(), ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version) {
            continue;
        }
        flags += 1;
        let flag = format!("--{long}");
        let at: &[&str] = if base.contains(&flag.as_str()) { &[] } else { base };
        if matches!(a.get_action(), ArgAction::SetTrue | ArgAction::SetFalse | ArgAction::Count) {
            cases.push(case(&[prefix, at, &[&format!("{flag}=x")]].concat(), &[&flag]));
            continue;
        }
        for v in values_of(a) {
            cases.push(case(&[prefix, at, &[flag.as_str(), v.as_str()]].concat(), &[&flag, &v]));
        }
    }
    cases.push(case(&[prefix, base, &["--bogus"]].concat(), &["--bogus"]));
    (flags, cases)
}

/// Every case of the flags of `sdnbench-engine [bench]`: (flags walked, cases).
fn bench_cases(port: u16) -> (usize, Vec<Case>) {
    let ctl = format!("127.0.0.1:{port}");
    flag_cases(&sdnbench_engine::front::command(), &[], &["--controller", &ctl])
}

/// The flags of the other commands parsed by clap (`front::commands()`: `merge`, `k8s-agent`),
/// each after what the command needs besides (files that do not exist: every refusal must come
/// first): (flags walked, cases).
fn other_flag_cases() -> (usize, Vec<Case>) {
    let (mut flags, mut cases) = (0, vec![]);
    for (name, cmd) in sdnbench_engine::front::commands() {
        let base: &[&str] = match name {
            "merge" => &["/nonexistent/part.json"],
            "k8s-agent" => &["--config", "/nonexistent/run.json"],
            other => panic!("{other}: say what it needs besides the flag under test"),
        };
        let (n, more) = flag_cases(&cmd, &[name], base);
        assert!(n >= 1, "{name}: no flags walked");
        flags += n;
        cases.extend(more);
    }
    (flags, cases)
}

/// The commands `--help` lists after the options ("  sdnbench-engine NAME ..."), each with an
/// argument it does not take, and their files as the flags' files.
fn command_cases() -> (usize, Vec<Case>) {
    let help = sdnbench_engine::front::command().get_after_help().map(|h| h.to_string()).unwrap_or_default();
    let names: Vec<String> = help
        .lines()
        .filter_map(|l| l.trim().strip_prefix("sdnbench-engine "))
        .filter_map(|r| r.split_whitespace().next())
        .map(String::from)
        .collect();
    assert!(names.len() >= 7, "the commands listed in --help: {names:?}");
    let mut cases = vec![];
    for n in &names {
        if n == "cbench" {
            continue; // its flags are walked from its usage line
        }
        cases.push(case(&[n, "--bogus"], &["--bogus"]));
    }
    for f in ["/", "/nonexistent/sdnbench.json", binary().as_str()] {
        cases.push(case(&["check", "--config", f], &[f]));
        cases.push(case(&["merge", f], &[f]));
    }
    (names.len(), cases)
}

/// The cbench front end's flags, from its usage line (`cbench -h`): "[-c host] [-t] ...".
fn cbench_cases(port: u16) -> (usize, Vec<Case>) {
    let o = common::engine_command().args(["cbench", "-h"]).output().unwrap();
    let usage = String::from_utf8_lossy(&o.stderr).to_string() + &String::from_utf8_lossy(&o.stdout);
    let mut cases = vec![];
    let mut flags = 0;
    for group in usage.split('[').skip(1) {
        let mut w = group.trim_end_matches([']', ' ', '\n']).split_whitespace();
        let (Some(flag), value) = (w.next(), w.next()) else { continue };
        flags += 1;
        let base = ["cbench", "-c", "127.0.0.1", "-p"];
        let p = port.to_string();
        match value {
            None => cases.push(case(&[&base[..], &[p.as_str(), &format!("{flag}x")]].concat(), &[])),
            Some("host") => {
                for v in ["", "bogus"] {
                    cases.push(case(&[&base[..], &[p.as_str(), flag, v]].concat(), &[flag]));
                }
            }
            Some(_) => {
                for v in ["-1", "x", "", TOO_LARGE] {
                    cases.push(case(&[&base[..], &[p.as_str(), flag, v]].concat(), &[flag, v]));
                }
            }
        }
    }
    assert!(flags >= 10, "cbench's flags from {usage:?}");
    (flags, cases)
}

/// Run one case: exit 1, one line on stderr (stdout for `check`, whose errors are its output)
/// holding every name, no panic. The failures, one line each.
fn judge(c: &Case) -> Option<String> {
    let o = common::engine_command().args(&c.args).output().unwrap();
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let text = if c.args[0] == "check" { format!("{out}{err}") } else { err.to_string() };
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let named = c.names.iter().all(|n| lines.first().is_some_and(|l| l.contains(n.as_str())));
    let ok = o.status.code() == Some(1) && lines.len() == 1 && named && !text.contains("panicked");
    (!ok).then(|| format!("{:?}: exit {:?}, {:?}", c.args, o.status.code(), text.trim()))
}

#[test]
fn every_flag_and_command_refuses_its_bad_values_in_one_line_before_anything_starts() {
    let (port, connections) = counting_listener();
    let (bench_flags, mut cases) = bench_cases(port);
    let (commands, more) = command_cases();
    cases.extend(more);
    let (other_flags, more) = other_flag_cases();
    cases.extend(more);
    let (cbench_flags, more) = cbench_cases(port);
    cases.extend(more);
    let t = std::time::Instant::now();
    let bad: Vec<String> = cases.iter().filter_map(judge).collect();
    println!(
        "bad input: {} commands, {} bench + {} other + {} cbench flags, {} cases in {:.1} s",
        commands + 1,
        bench_flags,
        other_flags,
        cbench_flags,
        cases.len(),
        t.elapsed().as_secs_f64()
    );
    assert!(bad.is_empty(), "{} of {} cases not refused in one line naming the flag:\n{}", bad.len(), cases.len(), bad.join("\n"));
    assert_eq!(connections.load(Ordering::SeqCst), 0, "a case started a run: the listener saw a connection");
    assert!(bench_flags >= 40 && cases.len() > 200, "the walk found the flags: {bench_flags}, {} cases", cases.len());
}
