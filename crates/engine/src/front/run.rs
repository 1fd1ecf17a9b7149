//! The binary's commands: wire parsing, the coordinator and output together.

use crate::coordinator::{self, LoopTotal};
use crate::switch::protocol::{encode, Cmd, WorkerEvent};
use std::io::{BufRead, Write};

/// Exit codes: 0 ok, 1 bad input / cannot run, 2 the run failed or was interrupted (results kept).
pub fn bench(args: Vec<String>) -> i32 {
    let a = match crate::front::cli::parse(args) {
        Ok(a) => a,
        Err(e) => return usage_error(&e),
    };
    if let Some(pods) = crate::coordinator::k8s::pods(&a.cfg) {
        return match pods {
            Ok(n) => {
                let name = format!("sdnbench-{}", std::process::id());
                let image = std::env::var("SDNBENCH_IMAGE").unwrap_or_else(|_| format!("sdnbench/engine:{}", env!("CARGO_PKG_VERSION")));
                println!("{}", serde_json::to_string_pretty(&crate::coordinator::k8s::manifest(&a.cfg, n, &name, &image)).expect("json"));
                0
            }
            Err(e) => usage_error(&e),
        };
    }
    coordinator::install_signal_handlers();
    let c = &a.cfg;
    let live = crate::front::output::Live::new(a.quiet, c.warmup + c.loops, c.warmup, c.loop_ms, c.switches);
    let outcome = coordinator::run(a.cfg.clone(), &mut |r| live.ready(r), &mut |l| live.on_loop(l));
    let o = match outcome {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-engine: {e}");
            return 1;
        }
    };
    let j = crate::export::build(o);
    if let Some(path) = &a.json {
        if let Err(e) = crate::export::write(path, &j) {
            eprintln!("sdnbench-engine: cannot write {}: {e}", path.display());
            return 1;
        }
    }
    if !a.quiet {
        print!("{}", crate::front::output::summary(&j.params, &j));
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

/// `check --config FILE|-`: validate a config; print it with every default filled in (exit 0),
/// or one line per bad field (exit 1).
pub fn check(args: Vec<String>) -> i32 {
    let path = match args.as_slice() {
        [flag, p] if flag == "--config" => p.clone(),
        _ => return usage_error("check needs --config FILE|- (usage: sdnbench-engine check --config FILE|-)"),
    };
    let errs = match crate::config::load(&path) {
        Ok(c) => match super::validate::check(&c) {
            e if e.is_empty() => {
                println!("{}", serde_json::to_string(&c).expect("a config serializes"));
                return 0;
            }
            e => e,
        },
        Err(e) => e,
    };
    for e in errs {
        println!("{e}");
    }
    1
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
    coordinator::install_signal_handlers();
    println!("{}", crate::front::cbench::banner(&a.cfg, a.cooldown));
    let switches = a.cfg.switches;
    let mut on_loop = |l: &LoopTotal| {
        // cbench's line: each switch's responses (counted as cbench counts them) per second, then
        // the total per ms (past 256 switches per worker only the total is sent while running).
        let per = if l.per_switch_responses.is_empty() { vec![l.responses] } else { l.per_switch_responses.clone() };
        println!("{}", crate::front::cbench::loop_line(&crate::front::cbench::clock_now(), switches, &per, a.cfg.loop_ms));
    };
    let o = match coordinator::run(a.cfg.clone(), &mut |_| {}, &mut on_loop) {
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
    println!("{}", crate::front::output::result_line(switches, &keep(crate::coordinator::figures::measured_responses_ps(&o))));
    let (mean, _, min, max) = crate::coordinator::figures::mean_sd(&keep(crate::coordinator::figures::measured_rps(&o)));
    println!("answered requests/s (each packet-in once): min/max/avg = {min:.2}/{max:.2}/{mean:.2}");
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

/// `schema`: the JSON Schema of the result, generated from its types (`result/`); the checked-in
/// `crates/engine/schema/engine-result.schema.json` is this output.
pub fn schema() -> String {
    serde_json::to_string_pretty(&crate::result::schema()).expect("a schema serializes") + "\n"
}

/// A worker process: the first stdin line starts it, later lines are commands, EOF means stop.
pub fn worker() -> i32 {
    unsafe {
        // Ctrl-C reaches the whole process group: the coordinator decides, the worker finishes.
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        libc::signal(libc::SIGTERM, libc::SIG_IGN);
    }
    crate::config::limits::raise_nofile();
    let stdin = std::io::stdin();
    let mut first = String::new();
    if stdin.lock().read_line(&mut first).unwrap_or(0) == 0 {
        return 1;
    }
    let (config, slice) = match serde_json::from_str::<Cmd>(&first) {
        Ok(Cmd::Start { config, slice }) => (*config, slice),
        _ => {
            println!("{}", encode(&WorkerEvent::Fatal("first line must be a start command".into())));
            return 1;
        }
    };
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            match serde_json::from_str::<Cmd>(&line) {
                Ok(c) => {
                    let _ = tx.send(c);
                }
                Err(_) => continue,
            }
        }
        let _ = tx.send(Cmd::Stop);
    });
    let mut out = std::io::stdout().lock();
    crate::switch::worker::run(config, slice, rx, &mut |e| {
        let _ = writeln!(out, "{}", encode(&e));
        let _ = out.flush();
    });
    0
}
