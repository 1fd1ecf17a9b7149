//! `sdnbench-engine`: emulate OpenFlow switches and measure a controller (`--help`, derived from `front::cli::Flags`).
//! Exit codes: 0 measured, 1 the user's input, 2 the controller failed the run, 3 a bug (`exit.rs`).

use sdnbench_engine::exit;
use sdnbench_engine::front::{commands, run};

const PROGRAM: &str = "sdnbench-engine";

fn main() {
    sdnbench_engine::arena::one_arena();
    exit::panic_is_a_bug(PROGRAM);
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let argv0 = std::env::args().next().unwrap_or_default();
    let code = if argv0.ends_with("cbench") {
        run::cbench(args)
    } else {
        let rest = args.get(1..).unwrap_or_default().to_vec();
        match args.first().map(String::as_str) {
            Some("--version") | Some("-V") => run::no_args("--version", &rest, || format!("{PROGRAM} {}\n", env!("CARGO_PKG_VERSION"))),
            Some("worker") if rest.is_empty() => run::worker(),
            Some("agent") if rest.is_empty() => sdnbench_engine::distributed::agent::main(),
            Some("k8s-agent") => commands::k8s_agent(args.split_off(1)),
            Some("merge") => commands::merge(args.split_off(1)),
            Some("cbench") => run::cbench(args.split_off(1)),
            Some("hello") => sdnbench_engine::front::hello::main(args.split_off(1)),
            Some("check") => sdnbench_engine::front::check::main(args.split_off(1)),
            Some("robust-cases") => run::no_args("robust-cases", &rest, || format!("{}\n", sdnbench_engine::robust::catalogue())),
            Some("schema") => run::no_args("schema", &rest, run::schema),
            Some(cmd @ ("agent" | "worker")) => run::no_args(cmd, &rest, String::new),
            Some("bench") => run::bench(args.split_off(1)),
            _ => run::bench(args),
        }
    };
    std::process::exit(exit::finish(PROGRAM, code));
}
