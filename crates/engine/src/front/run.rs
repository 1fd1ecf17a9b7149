//! The binary's commands: wire parsing, the coordinator and output together.

use crate::coordinator::{self, LoopTotal};
use crate::exit;
use crate::switch::protocol::{encode, Cmd, WorkerEvent};
use std::io::{BufRead, Write};

/// Exit codes (`exit.rs`): 0 measured, 1 bad input or nothing to measure (refused before anything
/// starts: every output path and the controller's address are checked first), 2 the run failed
/// or was interrupted (results kept).
pub fn bench(args: Vec<String>) -> i32 {
    let a = match crate::front::cli::parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error(&e),
    };
    if let Some(pods) = crate::distributed::k8s::pods(&a.cfg) {
        return match pods {
            Ok(n) => {
                let name = format!("sdnbench-{}", std::process::id());
                let image = std::env::var("SDNBENCH_IMAGE").unwrap_or_else(|_| format!("sdnbench/engine:{}", env!("CARGO_PKG_VERSION")));
                exit::line(serde_json::to_string_pretty(&crate::distributed::k8s::manifest(&a.cfg, n, &name, &image)).expect("json"));
                0
            }
            Err(e) => usage_error(&e),
        };
    }
    if let Err(e) = crate::front::preflight::check(&a.cfg, a.json.as_deref()) {
        return usage_error(&e);
    }
    let stop = coordinator::install_signal_handlers();
    let c = &a.cfg;
    let live = crate::front::output::Live::new(a.quiet, c.warmup + c.loops, c.warmup, c.loop_ms, c.switches);
    let on_loop = &mut |l: &LoopTotal| {
        coordinator::fault::at("loop", &stop);
        live.on_loop(l)
    };
    // a run of many switches: each worker's records go to the columnar file as its report comes
    let columnar = a.json.is_some() && a.cfg.switches as usize >= a.switches_file_from;
    let (mut encoder, mut keep) = (crate::export::Encoder::default(), coordinator::Keep);
    let records: &mut dyn coordinator::Records = if columnar { &mut encoder } else { &mut keep };
    let outcome = crate::distributed::run(a.cfg.clone(), stop.clone(), &mut |r| live.ready(r), on_loop, records);
    let o = match outcome {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-engine: {e}");
            return 1;
        }
    };
    coordinator::fault::at("end", &stop);
    let mut j = crate::export::build(o);
    let write = |p: &std::path::Path, j: &mut crate::export::EngineResult| match columnar {
        true => crate::export::write_beside(p, j, &encoder),
        false => crate::export::write_from(p, j, a.switches_file_from),
    };
    if let Some(path) = &a.json {
        if let Err(e) = write(path, &mut j) {
            // checked before the run, and still refused: the measurement goes to a rescue file
            let rescue = std::env::temp_dir().join(format!("sdnbench-engine-rescue-{}.json", std::process::id()));
            let kept = match write(&rescue, &mut j) {
                Ok(()) => format!("; the result is in {}", rescue.display()),
                Err(_) => String::new(),
            };
            eprintln!("sdnbench-engine: --json {}: cannot write ({e}){kept}", path.display());
            return exit::USER;
        }
    }
    if !a.quiet {
        exit::print(&crate::front::output::summary(&j.params, &j));
    }
    if let Some(e) = &j.error {
        eprintln!("sdnbench-engine: {e}");
    }
    if j.status == "ok" {
        0
    } else {
        2
    }
}

fn usage_error(e: &str) -> i32 {
    if e.starts_with("sdnbench-engine:") || e.starts_with("usage") {
        eprintln!("{e}");
        return if e.starts_with("usage") { 0 } else { 1 };
    }
    eprintln!("sdnbench-engine: {e}");
    1
}

pub fn cbench(args: Vec<String>) -> i32 {
    let a = match crate::front::cbench::parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error(&e),
    };
    if let Err(e) = crate::front::preflight::check(&a.cfg, None) {
        return usage_error(&format!("cbench: {}", e.replacen("--controller ", "-c/-p ", 1)));
    }
    let stop = coordinator::install_signal_handlers();
    exit::line(crate::front::cbench::banner(&a.cfg, a.cooldown));
    let switches = a.cfg.switches;
    let mut on_loop = |l: &LoopTotal| {
        // cbench's line: each switch's responses (counted as cbench counts them) per second, then
        // the total per ms (past 256 switches per worker only the total is sent while running).
        let per = if l.per_switch_responses.is_empty() { vec![l.responses] } else { l.per_switch_responses.clone() };
        exit::line(crate::front::cbench::loop_line(&crate::front::cbench::clock_now(), switches, &per, a.cfg.loop_ms));
    };
    let o = match crate::distributed::run(a.cfg.clone(), stop, &mut |_| {}, &mut on_loop, &mut coordinator::Discard) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-engine: {e}");
            return 1;
        }
    };
    let keep = |mut v: Vec<f64>| {
        v.truncate(v.len().saturating_sub(a.cooldown as usize));
        v
    };
    exit::line(crate::front::output::result_line(switches, &keep(crate::coordinator::figures::measured_responses_ps(&o))));
    let (mean, _, min, max) = crate::coordinator::figures::mean_sd(&keep(crate::coordinator::figures::measured_rps(&o)));
    exit::line(format!("answered requests/s (each packet-in once): min/max/avg = {min:.2}/{max:.2}/{mean:.2}"));
    for w in &o.warnings {
        eprintln!("warning: {w}");
    }
    // nothing answered, or a version mismatch: the status says why (issue 21.7)
    if let Some(e) = &o.error {
        eprintln!("sdnbench-engine cbench: {e}");
    }
    if o.status == "ok" {
        0
    } else {
        2
    }
}

/// A command that takes no arguments (`schema`, `robust-cases`, `--version`, `worker`, `agent`):
/// `text` on stdout, or one line and exit 1 for any argument given.
pub fn no_args(cmd: &str, rest: &[String], text: impl FnOnce() -> String) -> i32 {
    if let Some(first) = rest.first() {
        eprintln!("sdnbench-engine {cmd}: unexpected argument {first:?} ({cmd} takes none; see sdnbench-engine --help)");
        return exit::USER;
    }
    exit::print(&text());
    exit::MEASURED
}

/// `schema`: the JSON Schema of the result, generated from its types (`result/`); the checked-in
/// `crates/engine/schema/engine-result.schema.json` is this output.
pub fn schema() -> String {
    serde_json::to_string_pretty(&crate::export::schema()).expect("a schema serializes") + "\n"
}

/// A worker process: the first stdin line starts it, later lines are commands. It ends with its
/// coordinator (`children.rs`): the close of stdin (the coordinator is done with it, or died)
/// ends it at once, as nobody is left to read its report; SIGTERM stops it as a stop command does
/// (its report still goes out) and ends it if it has not ended [`TERM_GRACE`] later. SIGINT is
/// ignored: a terminal's Ctrl-C reaches the whole process group, and the coordinator decides.
pub fn worker() -> i32 {
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
    }
    // before any thread starts, so every thread inherits the mask that leaves SIGTERM to one
    let term = block_sigterm();
    crate::config::limits::raise_nofile();
    let stdin = std::io::stdin();
    let mut first = String::new();
    if stdin.lock().read_line(&mut first).unwrap_or(0) == 0 {
        return 1;
    }
    let (config, slice) = match serde_json::from_str::<Cmd>(&first) {
        Ok(Cmd::Start { config, slice }) => (*config, slice),
        _ => {
            exit::line(encode(&WorkerEvent::Fatal("first line must be a start command".into())));
            return 1;
        }
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    stop_on_sigterm(term, tx.clone());
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if let Ok(c) = serde_json::from_str::<Cmd>(&line) {
                let _ = tx.send(c);
            }
        }
        std::process::exit(exit::MEASURED);
    });
    let mut out = std::io::stdout().lock();
    crate::switch::worker::run(config, slice, rx, &mut |e| {
        // written as it is serialized: a block of records is not held a second time as text
        let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut out);
        let _ = serde_json::to_writer(&mut w, &e).map_err(std::io::Error::from).and_then(|_| w.write_all(b"\n")).and_then(|_| w.flush());
    });
    0
}

/// How long a worker told to stop by SIGTERM may take to report before it exits regardless
/// (its sessions end within a second or so of a stop, `switch/driver/`).
const TERM_GRACE: std::time::Duration = std::time::Duration::from_secs(10);

/// Block SIGTERM in this thread (and so in every thread it starts); the set, for `sigwait`.
fn block_sigterm() -> libc::sigset_t {
    unsafe {
        libc::signal(libc::SIGTERM, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGTERM);
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    }
}

/// A thread that takes SIGTERM: a stop command, then the exit if the worker is still here
/// [`TERM_GRACE`] later.
fn stop_on_sigterm(set: libc::sigset_t, tx: tokio::sync::mpsc::UnboundedSender<Cmd>) {
    std::thread::spawn(move || {
        let mut sig = 0;
        while unsafe { libc::sigwait(&set, &mut sig) } != 0 {}
        let _ = tx.send(Cmd::Stop);
        std::thread::sleep(TERM_GRACE);
        std::process::exit(exit::FAILED);
    });
}
