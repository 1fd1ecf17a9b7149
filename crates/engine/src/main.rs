//! `sdnbench-engine`: emulate OpenFlow switches and measure a controller (`--help`, derived from `front::cli::Flags`).

use sdnbench_engine::front::run;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let argv0 = std::env::args().next().unwrap_or_default();
    let code = if argv0.ends_with("cbench") {
        run::cbench(args)
    } else {
        match args.first().map(String::as_str) {
            Some("--version") | Some("-V") => {
                println!("sdnbench-engine {}", env!("CARGO_PKG_VERSION"));
                0
            }
            Some("worker") => run::worker(),
            Some("agent") => sdnbench_engine::distributed::agent::main(),
            Some("k8s-agent") => sdnbench_engine::distributed::k8s_pod::main(args.split_off(1)),
            Some("merge") => sdnbench_engine::distributed::merge::main(args.split_off(1)),
            Some("cbench") => run::cbench(args.split_off(1)),
            Some("check") => run::check(args.split_off(1)),
            Some("robust-cases") => {
                println!("{}", sdnbench_engine::robust::catalogue());
                0
            }
            Some("schema") => {
                print!("{}", run::schema());
                0
            }
            Some("bench") => run::bench(args.split_off(1)),
            _ => run::bench(args),
        }
    };
    std::process::exit(code);
}
