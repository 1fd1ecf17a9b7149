//! `sdnbench-switch`: listens for one OpenFlow switch on a loopback port, becomes its
//! controller (`ofcontroller`), sends and captures probe frames on its data ports (AF_PACKET,
//! kernel timestamps) and prints one JSON document (`sdnbench.switch/1`, see SCHEMA.md).
//!
//! Exit codes (`exit.rs`, docs/cli.md): 0 the run finished (failed tests are marked in the
//! document), 1 the user's input (one line on stderr, before the switch is waited for), 2 the
//! switch under test failed the run (never connected, or its session broke), 3 an internal bug.

mod bench;
mod cli;
mod clock;
mod dataplane;
mod exit;
mod packet;
mod probe;
mod run;
mod session;

fn main() {
    exit::panic_is_a_bug();
    let code = match cli::parse(std::env::args().skip(1)) {
        Ok(c) => match run::run(&c) {
            Ok(()) => 0,
            Err(run::Stop::Input(e)) => {
                eprintln!("sdnbench-switch: error: {e}");
                exit::USER
            }
            Err(run::Stop::Switch(e)) => {
                eprintln!("sdnbench-switch: error: {e}");
                2
            }
        },
        Err(e) => {
            eprintln!("sdnbench-switch: error: {e}");
            exit::USER
        }
    };
    std::process::exit(code);
}
