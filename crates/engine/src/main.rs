//! `sdnbench-engine`: emulate OpenFlow switches and measure a controller (see `cli::USAGE`).

mod accounting;
mod capacity;
mod cbench;
mod cli;
mod config;
mod coordinator;
mod export;
mod hist;
mod limits;
mod outstanding;
mod output;
mod pacer;
mod protocol;
mod resources;
mod run;
mod session;
mod worker;

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
            Some("cbench") => run::cbench(args.split_off(1)),
            Some("bench") => run::bench(args.split_off(1)),
            _ => run::bench(args),
        }
    };
    std::process::exit(code);
}
