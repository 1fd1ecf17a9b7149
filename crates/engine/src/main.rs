//! Placeholder entry point until the load engine lands (issue: controller load engine).
fn main() {
    if std::env::args().any(|a| a == "--version") {
        println!("sdnbench-engine {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    eprintln!("sdnbench-engine: not implemented yet");
    std::process::exit(1);
}
