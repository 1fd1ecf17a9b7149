//! `sdnbench-switch`: listens for one OpenFlow switch on a loopback port, becomes its
//! controller (`ofcontroller`), sends and captures probe frames on its data ports (AF_PACKET,
//! kernel timestamps) and prints one JSON document (`sdnbench.switch/1`, see SCHEMA.md).
//!
//! Exit codes: 0 the run finished (failed tests are marked in the document), 1 bad input or
//! no switch (one line on stderr), 3 internal error.

mod bench;
mod cli;
mod clock;
mod dataplane;
mod packet;
mod probe;
mod run;
mod session;

fn main() {
    let code = match cli::parse(std::env::args().skip(1)) {
        Ok(c) => match run::run(&c) {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("sdnbench-switch: error: {e}");
                1
            }
        },
        Err(e) => {
            eprintln!("sdnbench-switch: error: {e}");
            1
        }
    };
    std::process::exit(code);
}
