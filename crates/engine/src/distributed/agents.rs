//! Agent specs (`Config::agents`): how the coordinator reaches each machine's agent. An agent is
//! `sdnbench-engine agent` (`agent.rs`) behind a byte stream: its stdin/stdout carry the JSON-lines
//! protocol (`protocol.rs`), its stderr is kept for the one line that says why it was lost.
//!
//! - `local`: this binary as a child process (same machine; for tests and for one fat machine);
//! - `netns:NAME`: `ip netns exec NAME <this binary> agent` (a namespace as a machine);
//! - `ssh:[USER@]HOST[:PORT]`: `ssh -o BatchMode=yes -o ConnectTimeout=5 [-p PORT] [USER@]HOST
//!   sdnbench-engine agent` (the remote `sdnbench-engine` on its PATH; `SDNBENCH_AGENT_EXE`
//!   overrides the remote command; `SDNBENCH_SSH_OPTS`, split on spaces, adds ssh options such
//!   as `-i KEY`; otherwise ~/.ssh/config applies).
//!
//! - `pods:N@ADDR:PORT`: N agents that dial in (`pod_link.rs`): the coordinator listens on
//!   ADDR:PORT; each agent (a Kubernetes pod, `sdnbench-engine k8s-agent`) connects, says its
//!   index I and takes agent slot I (its position in the whole agent list); the TCP connection is
//!   then its stdin/stdout, as ssh's is. Pods that have not come after `SDNBENCH_POD_WAIT_S`
//!   (600) are lost (named, the result partial).
//!
//! `k8s` (or `k8s:N[@COORD]`) is not an agent: alone, it makes the engine write a Kubernetes
//! Indexed Job (`k8s.rs`) instead of running.

use std::process::Command;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Spec {
    Local,
    Netns(String),
    Ssh {
        dest: String,
        port: Option<u16>,
    },
    /// `n` agents dialling in at `listen` (an IP address and port).
    Pods {
        n: u32,
        listen: std::net::SocketAddr,
    },
}

impl Spec {
    /// Agent slots this spec fills (a pods spec: one per pod).
    pub fn slots(&self) -> u32 {
        match self {
            Spec::Pods { n, .. } => *n,
            _ => 1,
        }
    }
}

/// Parse one spec; errors are one line naming it.
pub fn parse(s: &str) -> Result<Spec, String> {
    if s == "local" {
        return Ok(Spec::Local);
    }
    if let Some(name) = s.strip_prefix("netns:") {
        let ok = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
        return if ok { Ok(Spec::Netns(name.into())) } else { Err(format!("agents: {s:?}: bad namespace name")) };
    }
    if let Some(rest) = s.strip_prefix("ssh:") {
        let (dest, port) = match rest.rsplit_once(':') {
            Some((d, p)) => (d, Some(p.parse::<u16>().map_err(|_| format!("agents: {s:?}: bad port {p:?}"))?)),
            None => (rest, None),
        };
        let host = dest.rsplit('@').next().unwrap_or("");
        if host.is_empty() || dest.starts_with('-') || dest.contains(char::is_whitespace) {
            return Err(format!("agents: {s:?}: expected ssh:[USER@]HOST[:PORT]"));
        }
        return Ok(Spec::Ssh { dest: dest.into(), port });
    }
    if let Some(rest) = s.strip_prefix("pods:") {
        let bad = || format!("agents: {s:?}: expected pods:N@ADDR:PORT (N >= 1, ADDR an IP address)");
        let (n, listen) = rest.split_once('@').ok_or_else(bad)?;
        let n = n.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(bad)?;
        return Ok(Spec::Pods { n, listen: listen.parse().map_err(|_| bad())? });
    }
    Err(format!("agents: unknown agent {s:?} (local, netns:NAME, ssh:[USER@]HOST[:PORT], pods:N@ADDR:PORT, or k8s alone)"))
}

/// The config's `agents` checks (for `validate`): every spec parses; `k8s` stands alone.
pub fn check(agents: &[String], switches: u32) -> Vec<String> {
    if agents.iter().any(|a| a == "k8s" || a.starts_with("k8s:") || a.starts_with("k8s@")) {
        if agents.len() > 1 {
            return vec!["agents: k8s stands alone (it writes a Job, it runs nothing)".into()];
        }
        return crate::distributed::k8s::parse(&agents[0], switches).err().into_iter().collect();
    }
    let specs: Vec<Result<Spec, String>> = agents.iter().map(|a| parse(a)).collect();
    let mut e: Vec<String> = specs.iter().filter_map(|s| s.as_ref().err().cloned()).collect();
    let n: u64 = specs.iter().filter_map(|s| s.as_ref().ok()).map(|s| s.slots() as u64).sum();
    if n > switches as u64 {
        e.push(format!("agents: {n} agents for {switches} switches (each needs at least one)"));
    }
    e
}

/// The command that starts the agent `spec` (stdin/stdout/stderr set by the caller).
pub fn command(spec: &Spec) -> Result<Command, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find my own binary: {e}"))?;
    Ok(match spec {
        Spec::Local => {
            let mut c = Command::new(exe);
            c.arg("agent");
            c
        }
        Spec::Netns(name) => {
            let mut c = Command::new("ip");
            c.args(["netns", "exec", name]).arg(exe).arg("agent");
            c
        }
        Spec::Ssh { dest, port } => {
            let remote = std::env::var("SDNBENCH_AGENT_EXE").unwrap_or_else(|_| "sdnbench-engine".into());
            let mut c = Command::new("ssh");
            c.args(["-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "-o", "StrictHostKeyChecking=accept-new"]);
            if let Some(p) = port {
                c.arg("-p").arg(p.to_string());
            }
            c.args(std::env::var("SDNBENCH_SSH_OPTS").unwrap_or_default().split_whitespace());
            c.arg(dest).arg(format!("{remote} agent"));
            c
        }
        Spec::Pods { .. } => return Err("pods dial in: they are not started by a command".into()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_parse_and_bad_ones_are_one_line() {
        assert_eq!(parse("local").unwrap(), Spec::Local);
        assert_eq!(parse("netns:sdnb-a1").unwrap(), Spec::Netns("sdnb-a1".into()));
        assert_eq!(parse("ssh:root@10.0.0.2").unwrap(), Spec::Ssh { dest: "root@10.0.0.2".into(), port: None });
        assert_eq!(parse("ssh:h:2222").unwrap(), Spec::Ssh { dest: "h".into(), port: Some(2222) });
        assert_eq!(parse("pods:3@127.0.0.1:7070").unwrap(), Spec::Pods { n: 3, listen: "127.0.0.1:7070".parse().unwrap() });
        assert_eq!(parse("pods:3@127.0.0.1:7070").unwrap().slots(), 3);
        for bad in [
            "ssh:",
            "ssh:-oProxyCommand=x",
            "ssh:h:port",
            "netns:",
            "netns:a b",
            "k9s",
            "ssh:root@",
            "pods:0@127.0.0.1:1",
            "pods:2@host:1",
            "pods:2",
            "pods:x@127.0.0.1:1",
        ] {
            let e = parse(bad).unwrap_err();
            assert!(e.starts_with("agents: ") && !e.contains('\n'), "{bad}: {e}");
        }
    }

    #[test]
    fn k8s_stands_alone_and_agents_need_switches() {
        assert!(check(&["k8s".into()], 4).is_empty());
        assert_eq!(check(&["k8s".into(), "local".into()], 4).len(), 1);
        assert_eq!(check(&["local".into(), "local".into()], 1).len(), 1);
        assert!(check(&["local".into(), "netns:x".into()], 2).is_empty());
        assert!(check(&["local".into(), "pods:2@127.0.0.1:7070".into()], 3).is_empty());
        assert_eq!(
            check(&["local".into(), "pods:3@127.0.0.1:7070".into()], 3),
            vec!["agents: 4 agents for 3 switches (each needs at least one)".to_string()]
        );
        assert_eq!(check(&["k8s:9".into()], 4).len(), 1, "a k8s spec is checked alone");
    }

    #[test]
    fn ssh_command_names_the_remote_agent() {
        let c = command(&parse("ssh:root@10.0.0.2:2222").unwrap()).unwrap();
        let args: Vec<String> = c.get_args().map(|a| a.to_string_lossy().into()).collect();
        assert_eq!(c.get_program(), "ssh");
        assert!(args.windows(2).any(|w| w == ["-p", "2222"]), "{args:?}");
        assert!(args.ends_with(&["root@10.0.0.2".into(), "sdnbench-engine agent".into()]), "{args:?}");
    }
}
