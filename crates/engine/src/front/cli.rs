//! Command-line parsing for `sdnbench-engine [bench] OPTIONS`, derived by clap from [`Flags`]:
//! each flag's help and its default are written once, the defaults taken from
//! [`Config::default`] (the one definition of every parameter). A flag sets the config field
//! of the same name (with `-` for `_`) and overrides a `--config` file wherever it stands.
//! Errors are one line.

use crate::config::{Config, Mode};
use crate::front::values::{number, whole};
use crate::result::run::FailMode;

use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser};
use ofwire::Versions;
use std::path::PathBuf;

/// The binary's other commands, shown after the options in `--help`.
const COMMANDS: &str = "\
other commands:
  sdnbench-engine check --config FILE|-   validate a JSON config: print it resolved (every default
                                          filled in), or one line per error and exit 1
  sdnbench-engine hello --controller HOST:PORT [--of VERSIONS]
                                          the OpenFlow version a switch speaks with it (JSON)
  sdnbench-engine cbench [cbench flags: -c -p -m -l -s -M -t -w -C -i -I -D -o]
  sdnbench-engine worker                  a worker process: JSON lines on stdin/stdout
  sdnbench-engine agent                   one machine's part of a run over agents: the worker
                                          protocol on stdin/stdout, local workers of its own
  sdnbench-engine k8s-agent --config FILE [--coordinator HOST:PORT] [--serve ADDR:PORT] [--json FILE]
                                          a pod of the Indexed Job of --agents k8s
  sdnbench-engine merge FILE... [--json OUT]   one result from parts' results
  sdnbench-engine robust-cases            the robustness catalogue (JSON)
  sdnbench-engine schema                  the JSON Schema of the result (--json), generated from its types";

fn d() -> Config {
    Config::default()
}

/// sdnbench-engine: emulate OpenFlow switches and measure a controller
#[derive(Parser, Debug)]
#[command(name = "sdnbench-engine", version, after_help = COMMANDS, allow_negative_numbers = true,
          override_usage = "sdnbench-engine [bench] [--config FILE|-] [OPTIONS]")]
struct Flags {
    /// The run as one JSON object (fields of crates/engine/SCHEMA.md, `params`); flags override it
    #[arg(long, value_name = "FILE|-")]
    config: Option<String>,
    /// Controller to load; a comma list sets `controllers`
    #[arg(long, alias = "controllers", value_name = "HOST:PORT", default_value_t = d().controllers.join(","))]
    controller: String,
    /// cbench | unique-pairs | new-flows | faucet
    #[arg(long, value_name = "PROFILE", default_value_t = d().traffic)]
    traffic: String,
    /// throughput | latency | fixed-rate | capacity | network
    #[arg(long, default_value_t = d().mode.name().to_string())]
    mode: String,
    /// Emulated switches
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().switches)]
    switches: u32,
    /// Hosts (MAC addresses) per switch
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().macs)]
    macs: u32,
    /// Ports per switch
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().ports)]
    ports: u32,
    /// Measured loops
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().loops)]
    loops: u32,
    /// Loop length
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().loop_ms)]
    loop_ms: u64,
    /// Leading loops left out of the summary (0 = none)
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().warmup)]
    warmup: u32,
    /// OpenFlow versions offered: 1.0, 1.3 or 1.0,1.3
    #[arg(long = "of", value_name = "VERSIONS", default_value_t = version_list(d().versions))]
    of: String,
    /// Frame size in packet-ins; RFC 8456 uses 128, 512, 1508
    #[arg(long, value_parser = whole::<usize>, value_name = "BYTES", default_value_t = d().frame_size)]
    frame_size: usize,
    /// Requests in flight per switch, throughput mode
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().window)]
    window: u32,
    /// Offered requests/s over all switches, fixed-rate mode
    #[arg(long, value_parser = number, value_name = "R", default_value_t = d().rate)]
    rate: f64,
    /// A request unanswered this long is lost; adaptive below it
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().timeout_ms)]
    timeout_ms: u64,
    /// The loss timeout is exactly --timeout-ms (not 10 x recent latency)
    #[arg(long)]
    fixed_timeout: bool,
    /// Throughput mode: wait up to P% of the lowest recent latency before sleeping on the sockets (at most 1 ms; 0 = off)
    #[arg(long, value_parser = number, value_name = "P", default_value_t = d().coalesce_pct)]
    coalesce_pct: f64,
    /// Skip the gratuitous-ARP learning phase
    #[arg(long)]
    no_learn: bool,
    /// Pause between learning and measuring (0 = none)
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().settle_ms)]
    settle_ms: u64,
    /// Packet-ins without buffer id (the whole frame; matched by marker)
    #[arg(long)]
    unbuffered: bool,
    /// Keep flow-mods in each switch's flow table
    #[arg(long)]
    keep_flows: bool,
    /// Worker processes [default: as the file limit requires]
    #[arg(long, value_parser = whole::<u32>, value_name = "N")]
    workers: Option<u32>,
    /// Local addresses to connect from [default: chosen on loopback]
    #[arg(long, value_name = "A,B,...")]
    source_addrs: Option<String>,
    /// End the run on the first malformed message or lost session
    #[arg(long)]
    strict: bool,
    /// Per-session connect + handshake limit
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().connect_timeout_ms)]
    connect_timeout_ms: u64,
    /// Handshakes in progress at once per worker
    #[arg(long, value_parser = whole::<u32>, value_name = "N", default_value_t = d().connect_parallel)]
    connect_parallel: u32,
    /// Keep-alive echo after this much silence; 0 = off
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().echo_interval_ms)]
    echo_interval_ms: u64,
    /// An echo from every switch every this often under load, counted beside the requests; 0 = off
    #[arg(long, value_name = "MS", default_value_t = d().echo_every_ms)]
    echo_every_ms: u64,
    /// Re-establish a lost session with Open vSwitch's backoff
    #[arg(long, value_parser = ["on", "off"], default_value = if d().reconnect { "on" } else { "off" })]
    reconnect: String,
    /// Reconnect: the first wait, doubling while lost at once
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().reconnect_backoff_ms)]
    reconnect_backoff_ms: u64,
    /// Reconnect: the longest wait (OVS max_backoff)
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().max_backoff_ms)]
    max_backoff_ms: u64,
    /// What a disconnected switch does
    #[arg(long, value_parser = ["secure", "standalone"], default_value = fail_mode_name(d().fail_mode))]
    fail_mode: String,
    /// Capacity mode: hold all sessions this long, then count (0 = count at once)
    #[arg(long, value_parser = whole::<u64>, value_name = "MS", default_value_t = d().hold_ms)]
    hold_ms: u64,
    /// Datapath id of the first switch (0 = dpid 0: any 64-bit number that leaves room for the switches)
    #[arg(long, value_parser = whole::<u64>, value_name = "N", default_value_t = d().first_dpid)]
    first_dpid: u64,
    /// Sample this process's CPU and memory
    #[arg(long, value_parser = whole::<u32>, value_name = "PID")]
    controller_pid: Option<u32>,
    /// OpenFlow over TLS: the CA (PEM) that signed the controller's certificate; TLS is on with it
    #[arg(long, value_name = "FILE")]
    tls_ca: Option<String>,
    /// TLS: the switches' certificate (PEM), with --tls-key [default: none]
    #[arg(long, value_name = "FILE")]
    tls_cert: Option<String>,
    /// TLS: the private key (PEM) of --tls-cert
    #[arg(long, value_name = "FILE")]
    tls_key: Option<String>,
    /// TLS: the name the controller's certificate must carry [default: the controller's host]
    #[arg(long, value_name = "NAME")]
    tls_server_name: Option<String>,
    /// TLS: the versions offered: 1.2, 1.3 or 1.2,1.3 [default: 1.2,1.3]
    #[arg(long, value_name = "VERSIONS")]
    tls_versions: Option<String>,
    /// The emulated network (JSON: switches, links, hosts, events; sets --switches)
    #[arg(long, value_name = "FILE")]
    network: Option<String>,
    /// Links between the switches for LLDP: linear (as `linear,N`: 1:2-2:2, 2:3-3:2, ...) or none
    #[arg(long, value_name = "LAYOUT")]
    links: Option<String>,
    /// Run the switches' slices on agents: local, netns:NAME, ssh:[USER@]HOST[:PORT], pods:N@ADDR:PORT (N pods dial in); or k8s[:PODS][@pod0[:PORT]|@IP:PORT|@none] alone: print a Kubernetes Indexed Job and Service (JSON; image from $SDNBENCH_IMAGE), run nothing
    #[arg(long, value_name = "A,B,...")]
    agents: Option<String>,
    /// Agents: refuse clocks further off than this
    #[arg(long, value_parser = number, value_name = "MS", default_value_t = d().max_skew_ms)]
    max_skew_ms: f64,
    /// Write the full result (schema sdnbench.engine/1)
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Per-switch records in a columnar file beside --json from this many switches (0 = always)
    #[arg(long, value_parser = switch_count, value_name = "N", default_value_t = crate::export::SWITCHES_FILE_FROM)]
    switches_file_from: usize,
    /// No live or summary text
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug)]
pub struct Args {
    pub cfg: Config,
    pub json: Option<PathBuf>,
    /// `--switches-file-from`: the per-switch records beside `json` from this many switches.
    pub switches_file_from: usize,
    pub quiet: bool,
}

/// A number of switches, 0 to the most the engine runs.
fn switch_count(v: &str) -> Result<usize, String> {
    let n = whole::<usize>(v)?;
    let most = super::validate::MAX_SWITCHES as usize;
    if n > most {
        return Err(format!("{n} is out of range (0 to {most})"));
    }
    Ok(n)
}

fn version_list(versions: Versions) -> String {
    versions.names().join(",")
}

fn fail_mode_name(m: FailMode) -> &'static str {
    match m {
        FailMode::Secure => "secure",
        FailMode::Standalone => "standalone",
    }
}

pub fn versions(s: &str) -> Result<Versions, String> {
    let mut offered = Versions::default();
    for v in s.split(',') {
        offered = offered
            | match v.trim() {
                "1.0" | "10" | "OpenFlow10" => Versions::OF10,
                "1.3" | "13" | "OpenFlow13" => Versions::OF13,
                other => return Err(format!("--of: unsupported OpenFlow version {other:?} (1.0 or 1.3)")),
            };
    }
    Ok(offered)
}

fn list(v: &str) -> Vec<String> {
    v.split(',').filter(|s| !s.is_empty()).map(String::from).collect()
}

/// A comma list given on the command line names at least one item (an empty one is a mistake,
/// not "the default").
fn nonempty(flag: &str, v: &str) -> Result<Vec<String>, String> {
    let l = list(v);
    if l.is_empty() {
        return Err(format!("{flag}: empty (name at least one)"));
    }
    Ok(l)
}

/// The flags' definitions, as clap holds them (`tests/bad_input.rs` walks them).
pub fn command() -> clap::Command {
    Flags::command()
}

/// The command line: `--help` and `--version` print and exit 0; bad input is one line.
pub fn parse(args: Vec<String>) -> Result<Args, String> {
    let m = match Flags::command().try_get_matches_from(std::iter::once("sdnbench-engine".to_string()).chain(args)) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            crate::exit::print(&e.render().to_string());
            std::process::exit(crate::exit::finish("sdnbench-engine", crate::exit::MEASURED));
        }
        Err(e) => return Err(one_line(&e)),
    };
    let f = Flags::from_arg_matches(&m).map_err(|e| one_line(&e))?;
    let mut c = match &f.config {
        Some(path) => crate::config::load(path).map_err(|e| e.join("; "))?,
        None => Config::default(),
    };
    apply(&mut c, &f, &m)?;
    validate(&c).map_err(|e| as_flag(&e, &m))?;
    Ok(Args { cfg: c, json: f.json, switches_file_from: f.switches_file_from, quiet: f.quiet })
}

/// A config check's line ("loop_ms: 0 is too small ...") in the words of the command line when
/// the value came from a flag ("--loop-ms: 0 is too small ..."); from a `--config` file it
/// keeps the field's name and says so.
fn as_flag(e: &str, m: &ArgMatches) -> String {
    let Some((field, rest)) = e.split_once(": ") else { return e.to_string() };
    let id = match field {
        "controllers" => "controller",
        "versions" => "of",
        "tls.ca" => "tls_ca",
        "tls.cert" => "tls_cert",
        "tls.key" => "tls_key",
        "tls.server_name" => "tls_server_name",
        "tls.versions" => "tls_versions",
        f => f,
    };
    let known = Flags::command().get_arguments().any(|a| a.get_id() == id);
    match (known, m.value_source(id)) {
        (true, Some(ValueSource::CommandLine)) => {
            let flag = format!("--{}", id.replace('_', "-"));
            // the value as typed, where the line shows it otherwise (a float's own digits)
            let raw = m.get_raw(id).and_then(|mut v| v.next_back()).map(|v| v.to_string_lossy().to_string()).unwrap_or_default();
            if raw.is_empty() || rest.starts_with(&raw) || rest.contains(&format!("{raw:?}")) {
                format!("{flag}: {rest}")
            } else {
                format!("{flag} {raw}: {rest}")
            }
        }
        (_, _) if m.value_source("config") == Some(ValueSource::CommandLine) => format!("{field} (in --config): {rest}"),
        _ => e.to_string(),
    }
}

/// Every flag given on the command line onto `c` (a default leaves the file's value alone).
fn apply(c: &mut Config, f: &Flags, m: &ArgMatches) -> Result<(), String> {
    let given = |id: &str| m.value_source(id) == Some(ValueSource::CommandLine);
    macro_rules! copy {
        ($($field:ident),*) => { $(if given(stringify!($field)) { c.$field = f.$field.clone(); })* };
    }
    copy!(traffic, switches, macs, ports, loops, loop_ms, warmup, frame_size, window, rate, timeout_ms, coalesce_pct, settle_ms);
    copy!(connect_timeout_ms, connect_parallel, echo_interval_ms, reconnect_backoff_ms, max_backoff_ms, hold_ms, first_dpid, max_skew_ms);
    copy!(echo_every_ms);
    if given("controller") {
        c.controllers = list(&f.controller);
    }
    if given("mode") {
        c.mode = Mode::parse(&f.mode)
            .ok_or(format!("--mode: unknown mode {:?} (throughput, latency, fixed-rate, capacity, network)", f.mode))?;
    }
    if given("of") {
        c.versions = versions(&f.of)?;
    }
    if given("reconnect") {
        c.reconnect = f.reconnect == "on";
    }
    if given("fail_mode") {
        c.fail_mode = if f.fail_mode == "standalone" { FailMode::Standalone } else { FailMode::Secure };
    }
    (c.adaptive_timeout, c.learn, c.buffered) =
        (c.adaptive_timeout && !f.fixed_timeout, c.learn && !f.no_learn, c.buffered && !f.unbuffered);
    (c.keep_flows, c.strict) = (c.keep_flows || f.keep_flows, c.strict || f.strict);
    c.workers = f.workers.or(c.workers);
    c.controller_pid = f.controller_pid.or(c.controller_pid);
    tls(c, f)?;
    if let Some(v) = &f.source_addrs {
        c.source_addrs = nonempty("--source-addrs", v)?;
    }
    if let Some(v) = &f.agents {
        c.agents = nonempty("--agents", v)?;
    }
    if let Some(path) = &f.network {
        crate::network::load_into(c, path)?;
    }
    if let Some(l) = &f.links {
        c.links = crate::config::links_for(l, c.switches, c.first_dpid, c.ports)?;
    }
    Ok(())
}

/// The TLS flags onto `c.tls` (--tls-ca turns TLS on; the others change a TLS config).
fn tls(c: &mut Config, f: &Flags) -> Result<(), String> {
    if let Some(ca) = &f.tls_ca {
        c.tls.get_or_insert_with(|| crate::config::tls::Tls::new(ca)).ca = ca.clone();
    }
    let others = [
        ("--tls-cert", &f.tls_cert),
        ("--tls-key", &f.tls_key),
        ("--tls-server-name", &f.tls_server_name),
        ("--tls-versions", &f.tls_versions),
    ];
    let Some(t) = c.tls.as_mut() else {
        return match others.iter().find(|(_, v)| v.is_some()) {
            Some((flag, v)) => Err(format!(
                "{flag} {}: TLS is off; give --tls-ca FILE (the CA of the controller's certificate)",
                v.as_deref().unwrap_or_default()
            )),
            None => Ok(()),
        };
    };
    if f.tls_cert.is_some() {
        t.cert = f.tls_cert.clone();
    }
    if f.tls_key.is_some() {
        t.key = f.tls_key.clone();
    }
    if f.tls_server_name.is_some() {
        t.server_name = f.tls_server_name.clone();
    }
    if let Some(v) = &f.tls_versions {
        t.versions = crate::config::tls::versions(v).map_err(|e| format!("--tls-versions: {e}"))?;
    }
    Ok(())
}

/// clap's error as one line: its first paragraph ("invalid value 'x' for '--switches <N>': ...",
/// or the flags after "...were not provided:").
pub(crate) fn one_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let head: Vec<&str> = text.lines().take_while(|l| !l.trim().is_empty()).map(str::trim).collect();
    format!("{} (see --help)", head.join(" ").trim_start_matches("error: "))
}

/// The config's checks, as flags: the first bad field, one line (`check` lists them all).
pub fn validate(c: &Config) -> Result<(), String> {
    match super::validate::check(c).into_iter().next() {
        None => Ok(()),
        Some(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Result<Args, String> {
        parse(s.split_whitespace().map(String::from).collect())
    }

    #[test]
    fn tls_flags_fill_the_tls_field() {
        let flags = |s: &str| Flags::try_parse_from(std::iter::once("e").chain(s.split_whitespace())).unwrap();
        let mut c = Config::default();
        tls(&mut c, &flags("--tls-ca ca.pem --tls-cert c.pem --tls-key k.pem --tls-versions 1.2")).unwrap();
        let t = c.tls.unwrap();
        assert_eq!(
            (t.ca.as_str(), t.cert.as_deref(), t.key.as_deref(), t.versions),
            ("ca.pem", Some("c.pem"), Some("k.pem"), vec!["1.2".to_string()])
        );
        assert!(args("--switches 2").unwrap().cfg.tls.is_none(), "TCP unless asked");
        assert!(args("--tls-cert c.pem").unwrap_err().starts_with("--tls-cert c.pem: TLS is off"));
        assert!(args("--tls-ca ca.pem --tls-versions 1.1").unwrap_err().starts_with("--tls-versions: unknown TLS version"));
        // the files are read when the flags are: one line naming the file
        let e = args("--tls-ca /nonexistent/ca.pem").unwrap_err();
        assert!(
            e.starts_with("--tls-ca /nonexistent/ca.pem: /nonexistent/ca.pem: cannot read")
                || e.starts_with("--tls-ca: /nonexistent/ca.pem: cannot read"),
            "{e}"
        );
    }

    #[test]
    fn parses_options() {
        let a = args("--mode latency --switches 4 --of 1.0 --json out.json --source-addrs 127.0.0.2,127.0.0.3").unwrap();
        assert_eq!(a.cfg.mode, Mode::Latency);
        assert_eq!(a.cfg.switches, 4);
        assert_eq!(a.cfg.versions, Versions::OF10);
        assert_eq!(a.cfg.source_addrs.len(), 2);
        assert_eq!(a.json.unwrap().to_str(), Some("out.json"));
        let a = args("--reconnect off --max-backoff-ms 2000 --fail-mode standalone --no-learn --fixed-timeout -q").unwrap();
        assert!(!a.cfg.reconnect && !a.cfg.learn && !a.cfg.adaptive_timeout && a.quiet);
        assert_eq!((a.cfg.max_backoff_ms, a.cfg.fail_mode), (2000, FailMode::Standalone));
    }

    #[test]
    fn no_flags_is_config_default() {
        let (a, d) = (args("").unwrap().cfg, Config::default());
        assert_eq!(serde_json::to_value(&a).unwrap(), serde_json::to_value(&d).unwrap());
    }

    #[test]
    fn help_shows_the_defaults_of_config() {
        let help = Flags::command().render_long_help().to_string();
        let d = Config::default();
        for want in [
            format!("[default: {}]", d.switches),
            format!("[default: {}]", d.macs),
            format!("[default: {}]", d.loop_ms),
            format!("[default: {}]", d.connect_parallel),
            format!("[default: {}]", d.echo_interval_ms),
            "[default: 1.0,1.3]".to_string(),
            format!("[default: {}]", d.controllers[0]),
        ] {
            assert!(help.contains(&want), "{want} not in --help");
        }
    }

    #[test]
    fn flags_override_the_file_wherever_they_stand_and_defaults_do_not() {
        let dir = std::env::temp_dir().join(format!("sdnbench-cli-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("c.json");
        std::fs::write(&file, r#"{"switches": 7, "loops": 3, "learn": false}"#).unwrap();
        let p = file.to_str().unwrap();
        let a = args(&format!("--loops 5 --config {p}")).unwrap().cfg;
        assert_eq!((a.switches, a.loops, a.learn), (7, 5, false), "the file's switches and learn, the flag's loops");
        let a = args(&format!("--config {p} --macs 3")).unwrap().cfg;
        assert_eq!((a.switches, a.loops, a.macs), (7, 3, 3));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn bad_input_is_one_line() {
        for bad in [
            "--switches x",
            "--mode fast",
            "--of 1.5",
            "--switches 0",
            "--frame-size 10",
            "--bogus",
            "--controller nohost",
            "--workers 0",
            "--traffic x",
            "--config /nonexistent",
            "--reconnect maybe",
            "--fail-mode open",
            "--max-backoff-ms 1",
            "--switches -3",
            "--loops",
        ] {
            let e = args(bad).err().unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(!e.trim().contains('\n'), "{bad}: {e}");
        }
    }
}
