//! `sdnbench-responder`: the minimal fast OpenFlow "controller" the engine's benchmarks run
//! against. It answers each packet-in with exactly one flow-mod carrying the packet-in's buffer id,
//! answers echo requests, and does nothing else.
//!
//! One process is one thread with one epoll loop. `--procs N` starts N processes that all listen
//! on the port with SO_REUSEPORT (the kernel spreads connections over them), because one process
//! may hold at most its hard file limit (20,000 here) of sessions. Children are in the parent's
//! process group; stopping the group stops them all, and a child exits when its parent does.

mod conn;
mod gate;
mod poll;

use std::io;

struct Opts {
    addr: String,
    procs: u32,
    version: u8,
    child: bool,
    knobs: gate::Knobs,
}

const USAGE: &str = "usage: sdnbench-responder [--listen 127.0.0.1:6653] [--procs N] [--of 1.0|1.3] [--rate ANSWERS_PER_S] \
[--delay-us D] [--drop-one-in K] [--drop-echo-one-in K]   (per process; see gate.rs)\n";

/// `text` on stdout, then exit 0 (a closed pipe too); a full disk is one line, exit 1.
fn print_and_exit(text: &str) -> ! {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            eprintln!("sdnbench-responder: cannot write to stdout: {e}");
            std::process::exit(1)
        }
        _ => std::process::exit(0),
    }
}

/// Exit codes (docs/cli.md): 0 stopped, 1 the user's input (one line, before listening),
/// 3 an internal bug: a panic ends the process with one line naming it.
fn panic_is_a_bug() {
    std::panic::set_hook(Box::new(|info| {
        let what =
            info.payload().downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| info.payload().downcast_ref::<String>().cloned());
        let at = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        eprintln!("sdnbench-responder: internal error (a bug, please report it): {}{at}", what.unwrap_or_else(|| "panic".into()));
        std::process::exit(3);
    }));
}

fn parse() -> Result<Opts, String> {
    let mut o = Opts { addr: "127.0.0.1:6653".into(), procs: 1, version: 0x04, child: false, knobs: Default::default() };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut v = || it.next().ok_or(format!("{a}: missing value"));
        match a.as_str() {
            "--listen" => o.addr = v()?,
            "--procs" => {
                let n = v()?;
                o.procs = n
                    .parse()
                    .ok()
                    .filter(|p: &u32| (1..=1024).contains(p))
                    .ok_or(format!("--procs {n:?}: a whole number of processes, 1 to 1024"))?
            }
            "--of" => {
                o.version = match v()?.as_str() {
                    "1.0" => 0x01,
                    "1.3" => 0x04,
                    x => return Err(format!("--of: {x:?} is not 1.0 or 1.3")),
                }
            }
            "--rate" => {
                o.knobs.rate =
                    v()?.parse().ok().filter(|r: &f64| *r > 0.0 && r.is_finite()).ok_or("--rate: answers per second, a number above 0")?
            }
            "--delay-us" => {
                let d = v()?;
                o.knobs.delay_ns = d
                    .parse::<u64>()
                    .ok()
                    .filter(|us| *us <= 60_000_000)
                    .ok_or(format!("--delay-us {d:?}: whole microseconds, 0 to 60000000"))?
                    * 1000
            }
            "--drop-one-in" => {
                o.knobs.drop_one_in = v()?.parse().ok().filter(|k: &u64| *k >= 1).ok_or("--drop-one-in: a whole number, at least 1")?
            }
            "--drop-echo-one-in" => {
                o.knobs.drop_echo_one_in =
                    v()?.parse().ok().filter(|k: &u64| *k >= 1).ok_or("--drop-echo-one-in: a whole number, at least 1")?
            }
            "--child" => o.child = true,
            "--version" => print_and_exit(&format!("sdnbench-responder {}\n", env!("CARGO_PKG_VERSION"))),
            "--help" | "-h" => print_and_exit(USAGE),
            x => return Err(format!("unknown option {x:?}")),
        }
    }
    Ok(o)
}

/// The throttle options a child gets (each only when set; the rate is per process).
fn knob_args(k: &gate::Knobs) -> Vec<String> {
    let mut a = vec![];
    if k.rate > 0.0 {
        a.extend(["--rate".into(), k.rate.to_string()]);
    }
    if k.delay_ns > 0 {
        a.extend(["--delay-us".into(), (k.delay_ns / 1000).to_string()]);
    }
    if k.drop_one_in > 0 {
        a.extend(["--drop-one-in".into(), k.drop_one_in.to_string()]);
    }
    if k.drop_echo_one_in > 0 {
        a.extend(["--drop-echo-one-in".into(), k.drop_echo_one_in.to_string()]);
    }
    a
}

fn raise_nofile() {
    unsafe {
        let mut r = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) == 0 {
            r.rlim_cur = r.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &r);
        }
    }
}

fn main() {
    panic_is_a_bug();
    let o = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-responder: {e}");
            std::process::exit(1);
        }
    };
    raise_nofile();
    let addr: std::net::SocketAddr = match o.addr.parse() {
        Ok(a) => a,
        Err(_) => {
            eprintln!("sdnbench-responder: --listen: {:?} is not IP:PORT", o.addr);
            std::process::exit(1);
        }
    };
    let mut children = vec![];
    if !o.child {
        // Bind first in the parent so a busy port fails loudly before any child starts.
        let lfd = match poll::listen(addr) {
            Ok(fd) => fd,
            Err(e) => {
                eprintln!("sdnbench-responder: cannot listen on {addr}: {e}");
                std::process::exit(1);
            }
        };
        let exe = std::env::current_exe().expect("own binary");
        for _ in 1..o.procs {
            let c = std::process::Command::new(&exe)
                .args(["--child", "--listen", &o.addr, "--of", if o.version == 1 { "1.0" } else { "1.3" }])
                .args(knob_args(&o.knobs))
                .spawn();
            match c {
                Ok(c) => children.push(c),
                Err(e) => eprintln!("sdnbench-responder: cannot start a child: {e}"),
            }
        }
        run(lfd, o.version, o.knobs).unwrap_or_else(|e| eprintln!("sdnbench-responder: {e}"));
    } else {
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
        }
        let lfd = poll::listen(addr).unwrap_or_else(|e| {
            eprintln!("sdnbench-responder: child cannot listen: {e}");
            std::process::exit(1);
        });
        run(lfd, o.version, o.knobs).unwrap_or_else(|e| eprintln!("sdnbench-responder: {e}"));
    }
}

fn run(lfd: i32, version: u8, knobs: gate::Knobs) -> io::Result<()> {
    poll::serve(lfd, version, knobs)
}
