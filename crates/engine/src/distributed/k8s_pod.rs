//! `sdnbench-engine k8s-agent --config FILE [--coordinator HOST:PORT] [--serve ADDR:PORT] [--json FILE]`:
//! one pod of the Indexed Job that `--agents k8s` writes (`k8s.rs`, docs/scale-out.md). The Job
//! sets `JOB_COMPLETION_INDEX`; the manifest sets `SDNBENCH_AGENT_COUNT` and the flags.
//!
//! - `--serve` and index 0: the coordinator. It runs the config over the agents
//!   `local` (its own slice, 0) and `pods:COUNT-1@ADDR:PORT` (the others dial in), exactly as
//!   `sdnbench-engine --agents ...` does: READY barrier, clock check, common start, merged result,
//!   printed on stdout (and written to `--json`).
//! - `--coordinator` (any other pod, or every pod when the coordinator is outside the cluster): dial
//!   it (`pod_link.rs`), then be `sdnbench-engine agent` with the connection as stdin/stdout.
//! - neither: run this pod's slice at once and print its own result (`sdnbench-engine merge`
//!   merges them afterwards).

use crate::config::{slices, Config};
use crate::coordinator::Stop;
use crate::distributed::k8s::{COUNT_ENV, INDEX_ENV};
use crate::export::EngineResult;
use std::net::SocketAddr;
use std::path::PathBuf;

/// sdnbench-engine k8s-agent: one pod of the Indexed Job that --agents k8s writes
#[derive(clap::Parser, Debug)]
#[command(name = "sdnbench-engine k8s-agent", version)]
pub struct Flags {
    /// The run as one JSON object (the Job's ConfigMap, mounted in the pod)
    #[arg(long, value_name = "FILE")]
    pub config: String,
    /// Dial the coordinator there (every pod but 0; every pod when it is outside the cluster)
    #[arg(long, value_name = "HOST:PORT", value_parser = host_port)]
    pub coordinator: Option<String>,
    /// Pod 0: coordinate, the other pods dialling in at this address
    #[arg(long, value_name = "ADDR:PORT", value_parser = ip_port)]
    pub serve: Option<SocketAddr>,
    /// Write pod 0's result to this file too (stdout has it)
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
}

/// `HOST:PORT`, a port of 1 to 65535 (the host is resolved when dialling: the cluster's DNS).
fn host_port(v: &str) -> Result<String, String> {
    let ok = v.rsplit_once(':').is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok_and(|p| p > 0));
    if ok {
        Ok(v.to_string())
    } else {
        Err("expected HOST:PORT (a port of 1 to 65535)".into())
    }
}

/// `ADDR:PORT` with ADDR an IP address.
fn ip_port(v: &str) -> Result<SocketAddr, String> {
    v.parse().map_err(|_| "expected ADDR:PORT (an IP address)".to_string())
}

/// Run one pod; the exit code as the engine's (0 ok, 1 cannot run, 2 the run failed).
pub fn main(a: Flags) -> i32 {
    let fail = |e: String| {
        eprintln!("sdnbench-engine k8s-agent: {e}");
        1
    };
    let cfg = match crate::config::load(&a.config) {
        Ok(c) => c,
        Err(e) => return fail(e.join("; ")),
    };
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u32>().ok());
    let (Some(index), Some(count)) = (env(INDEX_ENV), env(COUNT_ENV)) else {
        return fail(format!("{INDEX_ENV} and {COUNT_ENV} must be set (the Indexed Job sets them)"));
    };
    if index >= count || count > cfg.switches {
        return fail(format!("{INDEX_ENV} {index} must be below {COUNT_ENV} {count}, and {count} at most the {} switches", cfg.switches));
    }
    match (a.serve, a.coordinator) {
        (Some(bind), _) if index == 0 => coordinate(cfg, count, bind, a.json.as_deref()),
        (_, Some(target)) => dial(&target, index, count),
        (None, None) => alone(cfg, index, count),
        (Some(_), None) => fail(format!("pod {index} needs --coordinator (only pod 0 serves)")),
    }
}

/// Pod 0: coordinate `count` pods, its own slice as a local agent.
fn coordinate(mut cfg: Config, count: u32, bind: std::net::SocketAddr, json_path: Option<&std::path::Path>) -> i32 {
    cfg.agents = vec!["local".into()];
    if count > 1 {
        cfg.agents.push(format!("pods:{}@{bind}", count - 1));
    }
    let stop = crate::coordinator::install_signal_handlers();
    let o = match crate::distributed::run(cfg, stop, &mut |_| {}, &mut |_| {}, &mut crate::coordinator::Keep) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sdnbench-engine k8s-agent: {e}");
            return 1;
        }
    };
    let mut j = crate::export::build(o);
    crate::exit::line(crate::export::line(&j));
    if let Some(p) = json_path {
        if let Err(e) = crate::export::write(p, &mut j) {
            eprintln!("sdnbench-engine k8s-agent: cannot write {}: {e}", p.display());
            return 1;
        }
    }
    if let Some(e) = &j.error {
        eprintln!("sdnbench-engine k8s-agent: {e}");
    }
    if j.status == "ok" {
        0
    } else {
        2
    }
}

/// Any other pod: dial the coordinator, then be an agent on that connection.
fn dial(target: &str, index: u32, count: u32) -> i32 {
    let hello = crate::distributed::pod_link::Hello { pod: index, pods: count };
    // no handlers yet (the agent installs them): a signal ends this pod as by default
    let stream = match crate::distributed::pod_link::dial(target, &hello, crate::distributed::pod_link::wait(), &Stop::new()) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sdnbench-engine k8s-agent: pod {index}: {e}");
            return 1;
        }
    };
    // the connection becomes this process's stdin and stdout: the agent speaks its protocol there,
    // as it does over ssh (stderr stays the pod's log)
    let fd = std::os::unix::io::IntoRawFd::into_raw_fd(stream);
    unsafe {
        if libc::dup2(fd, 0) < 0 || libc::dup2(fd, 1) < 0 {
            eprintln!("sdnbench-engine k8s-agent: dup2: {}", std::io::Error::last_os_error());
            return 1;
        }
        libc::close(fd);
    }
    crate::distributed::agent::main()
}

/// No coordinator: run this pod's slice now and print its result (merged later by hand).
fn alone(cfg: Config, index: u32, count: u32) -> i32 {
    let slice = slices(cfg.switches, count)[index as usize];
    let slice = crate::config::Slice { worker: index, ..slice };
    // no handlers: a signal ends this pod as by default, nothing stops the run otherwise
    match crate::coordinator::run_part(cfg, slice, Stop::new(), &crate::distributed::agent::source_addrs, &mut |_| {}, &mut |_| {}) {
        Ok(o) => {
            let j = EngineResult { agent_index: Some(index), ..crate::export::build(o) };
            crate::exit::line(crate::export::line(&j));
            if j.status == "ok" {
                0
            } else {
                2
            }
        }
        Err(e) => {
            eprintln!("sdnbench-engine k8s-agent: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn parse(args: &[&str]) -> Result<Flags, clap::Error> {
        Flags::try_parse_from(std::iter::once("k8s-agent").chain(args.iter().copied()))
    }

    #[test]
    fn flags_as_the_manifest_writes_them() {
        for c in [
            crate::distributed::k8s::Coordinator::Pod0(7070),
            crate::distributed::k8s::Coordinator::External("10.0.0.1:7000".parse().unwrap()),
            crate::distributed::k8s::Coordinator::Alone,
        ] {
            let cmd = crate::distributed::k8s::command(c, "r");
            assert_eq!(&cmd[..2], ["sdnbench-engine", "k8s-agent"]);
            let a = Flags::try_parse_from(&cmd[1..]).unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
            assert_eq!(a.config, crate::distributed::k8s::CONFIG_PATH);
        }
        let cmd = crate::distributed::k8s::command(crate::distributed::k8s::Coordinator::Pod0(7070), "r");
        let a = Flags::try_parse_from(&cmd[1..]).unwrap();
        assert_eq!(a.coordinator.as_deref(), Some("r-0.r:7070"));
        assert_eq!(a.serve, Some("0.0.0.0:7070".parse().unwrap()));
    }

    #[test]
    fn bad_addresses_and_a_missing_config_are_refused() {
        assert!(parse(&["--serve", "host:1", "--config", "f"]).unwrap_err().to_string().contains("--serve"));
        for bad in ["", "host", "host:0", "host:99999", ":80"] {
            assert!(parse(&["--coordinator", bad, "--config", "f"]).is_err(), "{bad:?}");
        }
        assert!(parse(&["--coordinator", "r-0.r:7070", "--config", "f"]).is_ok());
        assert!(parse(&[]).unwrap_err().to_string().contains("--config"));
    }
}
