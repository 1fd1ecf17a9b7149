//! `sdnbench-responder`: the minimal fast OpenFlow "controller" the engine's benchmarks run
//! against. It answers each packet-in with exactly one flow-mod carrying the packet-in's buffer id,
//! answers echo requests, and does nothing else.
//!
//! With `--tls-cert/--tls-key` (and `--tls-ca`: client certificates required) it speaks
//! OpenFlow over TLS (`tls.rs`, issue 51).
//!
//! One process is one thread with one epoll loop. `--procs N` starts N processes that all listen
//! on the port with SO_REUSEPORT (the kernel spreads connections over them), because one process
//! may hold at most its hard file limit (20,000 here) of sessions. Children are in the parent's
//! process group; stopping the group stops them all, and a child is killed when its parent dies.

use sdnbench_responder::cli::{self, Responder};
use sdnbench_responder::{gate, poll, tls};
use std::io;

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

/// The throttles of the command line (`gate.rs`; each off when not given).
fn knobs(o: &Responder) -> gate::Knobs {
    gate::Knobs {
        rate: o.rate.unwrap_or(0.0),
        delay_ns: o.delay_us.unwrap_or(0) * 1000,
        drop_one_in: o.drop_one_in.unwrap_or(0),
        drop_echo_one_in: o.drop_echo_one_in.unwrap_or(0),
    }
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
    let o: Responder = match cli::parse("sdnbench-responder", std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-responder: {e}");
            std::process::exit(1);
        }
    };
    let tls = tls::from_flags(o.tls_cert.as_deref(), o.tls_key.as_deref(), o.tls_ca.as_deref()).unwrap_or_else(|e| {
        eprintln!("sdnbench-responder: {e}");
        std::process::exit(1);
    });
    raise_nofile();
    let addr = o.listen;
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
            let mut cmd = std::process::Command::new(&exe);
            cmd.args(o.child_args());
            die_with_parent(&mut cmd);
            match cmd.spawn() {
                Ok(c) => children.push(c),
                Err(e) => eprintln!("sdnbench-responder: cannot start a child: {e}"),
            }
        }
        poll::serve(lfd, o.version(), knobs(&o), tls.clone()).unwrap_or_else(|e| eprintln!("sdnbench-responder: {e}"));
    } else {
        let lfd = poll::listen(addr).unwrap_or_else(|e| {
            eprintln!("sdnbench-responder: child cannot listen: {e}");
            std::process::exit(1);
        });
        poll::serve(lfd, o.version(), knobs(&o), tls.clone()).unwrap_or_else(|e| eprintln!("sdnbench-responder: {e}"));
    }
}

/// The child of `cmd` is killed when this process dies, however it dies: `PR_SET_PDEATHSIG`,
/// set between fork and exec (this process forks from its only thread); a child whose parent
/// died before the setting took hold exits at once.
fn die_with_parent(cmd: &mut std::process::Command) {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child and makes only async-signal-safe system calls.
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(cmd, move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}
