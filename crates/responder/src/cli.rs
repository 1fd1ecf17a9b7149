//! The command lines of `sdnbench-responder` and `sdnbench-pingpong`, derived by clap from
//! [`Responder`] and [`Pingpong`]: each flag's help, range and default written once. `--help` and
//! `--version` print and exit 0; anything wrong is one line and exit 1, before anything listens
//! or connects (docs/cli.md).

use clap::error::ErrorKind;
use clap::Parser;
use std::net::SocketAddr;

/// sdnbench-responder: a minimal fast OpenFlow controller, one flow-mod per packet-in
#[derive(Parser, Debug, Clone, PartialEq)]
#[command(name = "sdnbench-responder", version, allow_negative_numbers = true)]
pub struct Responder {
    /// Listen there (every process of --procs, with SO_REUSEPORT)
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:6653")]
    pub listen: SocketAddr,
    /// Processes listening on the port (one holds at most its file limit of sessions)
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub procs: u32,
    /// OpenFlow version spoken
    #[arg(long = "of", value_name = "VERSION", default_value = "1.3", value_parser = ["1.0", "1.3"])]
    pub of: String,
    /// Answers per second, per process (unthrottled when not given; gate.rs)
    #[arg(long, value_name = "R", value_parser = rate)]
    pub rate: Option<f64>,
    /// Answer each packet-in this long after it came (0 = at once; gate.rs)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u64).range(0..=60_000_000))]
    pub delay_us: Option<u64>,
    /// Drop every K-th packet-in unanswered (gate.rs)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub drop_one_in: Option<u64>,
    /// Drop every K-th echo request unanswered (gate.rs)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..))]
    pub drop_echo_one_in: Option<u64>,
    /// Speak TLS with this certificate (PEM; with --tls-key; tls.rs)
    #[arg(long, value_name = "FILE")]
    pub tls_cert: Option<std::path::PathBuf>,
    /// The private key of --tls-cert (PEM)
    #[arg(long, value_name = "FILE")]
    pub tls_key: Option<std::path::PathBuf>,
    /// Require a client certificate signed by this CA (PEM; with --tls-cert)
    #[arg(long, value_name = "FILE")]
    pub tls_ca: Option<std::path::PathBuf>,
    /// A process started by the first one (it binds the port itself, and ends with its parent)
    #[arg(long, hide = true)]
    pub child: bool,
}

impl Responder {
    /// The OpenFlow version byte of `--of`.
    pub fn version(&self) -> u8 {
        if self.of == "1.0" {
            0x01
        } else {
            0x04
        }
    }

    /// The flags a child process gets: the same address, version and throttles (each only when set).
    pub fn child_args(&self) -> Vec<String> {
        let mut a: Vec<String> = vec!["--child".into(), "--listen".into(), self.listen.to_string(), "--of".into(), self.of.clone()];
        let mut opt = |flag: &str, v: Option<String>| a.extend(v.into_iter().flat_map(|v| [flag.to_string(), v]));
        opt("--rate", self.rate.map(|r| r.to_string()));
        opt("--delay-us", self.delay_us.map(|d| d.to_string()));
        opt("--drop-one-in", self.drop_one_in.map(|k| k.to_string()));
        opt("--drop-echo-one-in", self.drop_echo_one_in.map(|k| k.to_string()));
        let path = |p: &Option<std::path::PathBuf>| p.as_ref().map(|p| p.display().to_string());
        opt("--tls-cert", path(&self.tls_cert));
        opt("--tls-key", path(&self.tls_key));
        opt("--tls-ca", path(&self.tls_ca));
        a
    }
}

/// sdnbench-pingpong: one blocking connection, one packet-in at a time (the latency baseline)
#[derive(Parser, Debug, Clone, PartialEq)]
#[command(name = "sdnbench-pingpong", version, allow_negative_numbers = true)]
pub struct Pingpong {
    /// The responder's address
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:6653")]
    pub connect: SocketAddr,
    /// OpenFlow version spoken
    #[arg(long = "of", value_name = "VERSION", default_value = "1.3", value_parser = ["1.0", "1.3"])]
    pub of: String,
    /// How long to ping-pong
    #[arg(long, value_name = "S", default_value_t = 2.0, value_parser = seconds)]
    pub seconds: f64,
}

/// A rate in answers per second: above 0, at most one a nanosecond (the gate's clock, gate.rs).
fn rate(v: &str) -> Result<f64, String> {
    v.parse().ok().filter(|r: &f64| *r > 0.0 && *r <= 1e9).ok_or_else(|| "answers per second, above 0 and at most 1e9".into())
}

/// A duration in seconds: above 0, at most a day.
fn seconds(v: &str) -> Result<f64, String> {
    v.parse().ok().filter(|s: &f64| *s > 0.0 && *s <= 86_400.0).ok_or_else(|| "seconds, above 0 and at most 86400".into())
}

/// The command line `args` (without the program name) as `T`: `--help`/`--version` print and exit
/// 0; anything wrong is `Err` with one line (clap's first paragraph).
pub fn parse<T: Parser>(program: &str, args: impl IntoIterator<Item = String>) -> Result<T, String> {
    match T::try_parse_from(std::iter::once(program.to_string()).chain(args)) {
        Ok(t) => Ok(t),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => print_and_exit(&e.render().to_string()),
        Err(e) => {
            let text = e.render().to_string();
            let head: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
            Err(format!("{} (see --help)", head.join(" ").trim_start_matches("error: ")))
        }
    }
}

/// `text` on stdout, then exit 0 (a closed pipe too); a full disk is one line, exit 1.
pub fn print_and_exit(text: &str) -> ! {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("cannot write to stdout: {e}");
            std::process::exit(1)
        }
        _ => std::process::exit(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn responder(s: &str) -> Result<Responder, String> {
        parse("sdnbench-responder", s.split_whitespace().map(String::from))
    }

    #[test]
    fn defaults_and_a_child_gets_the_parents_flags() {
        let d = responder("").unwrap();
        assert_eq!((d.listen, d.procs, d.version(), d.child), ("127.0.0.1:6653".parse().unwrap(), 1, 4, false));
        assert_eq!((d.rate, d.delay_us, d.drop_one_in, d.drop_echo_one_in), (None, None, None, None));
        let p = responder("--listen 127.0.0.2:7000 --procs 3 --of 1.0 --rate 2.5 --delay-us 0 --drop-echo-one-in 10 --tls-cert c.pem --tls-key k.pem --tls-ca ca.pem").unwrap();
        let c = parse::<Responder>("sdnbench-responder", p.child_args()).unwrap();
        assert!(c.child);
        assert_eq!(Responder { child: false, procs: 3, ..c }, p, "a child runs as its parent, one process");
    }

    #[test]
    fn bad_values_are_one_line_naming_the_flag() {
        for (bad, flag) in [
            ("--procs 0", "--procs"),
            ("--procs 1025", "--procs"),
            ("--of 1.5", "--of"),
            ("--rate 0", "--rate"),
            ("--rate inf", "--rate"),
            ("--rate 2e9", "--rate"),
            ("--delay-us 60000001", "--delay-us"),
            ("--drop-one-in 0", "--drop-one-in"),
            ("--drop-echo-one-in -1", "--drop-echo-one-in"),
            ("--listen nohost", "--listen"),
            ("--bogus", "--bogus"),
        ] {
            let e = responder(bad).err().unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(!e.contains('\n') && e.contains(flag), "{bad}: {e}");
        }
        let e = parse::<Pingpong>("sdnbench-pingpong", ["--seconds".to_string(), "x".into()]).unwrap_err();
        assert!(e.contains("--seconds"), "{e}");
    }
}
