//! `--agents k8s[:PODS][@COORD]`: write (never apply) a Kubernetes manifest that runs the same run
//! over PODS pods of an Indexed Job, one engine agent each (docs/scale-out.md). `k8s` alone asks
//! for one pod per 25,000 switches.
//!
//! COORD says where the coordinator is; the pods find it through a headless Service named as the
//! Job and then run the agent protocol with it (`pod_link.rs`): READY barrier, clock check, common
//! start, one merged result, as ssh agents do.
//! - `pod0` (default; `pod0:PORT`, port 7070): the pod of `JOB_COMPLETION_INDEX` 0 coordinates
//!   (and runs slice 0 as a local agent). The Service selects the Job's pods and the pod template
//!   sets `subdomain` to it, so pod 0 is `NAME-0.NAME` in the cluster's DNS; the result is pod 0's
//!   stdout (`kubectl logs`).
//! - `IP:PORT`: a `sdnbench-engine --agents pods:PODS@ADDR:PORT` outside the cluster at IP:PORT
//!   coordinates: the Service has no selector and an EndpointSlice gives it that address.
//! - `none`: no coordinator: each pod runs its slice at once and prints its own result
//!   (`sdnbench-engine merge` merges the files afterwards); no barrier, no clock check.
//!
//! The manifest is JSON (which `kubectl apply -f` reads as YAML): a `List` of a ConfigMap holding
//! the run's config, the Service (and EndpointSlice), and the Job. Checked by strict decoding into
//! Kubernetes' own types in `tools/k8s-schema` (`make test-k8s`).

use crate::config::Config;
use serde_json::{json, Value};
use std::net::SocketAddr;

pub const INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
pub const COUNT_ENV: &str = "SDNBENCH_AGENT_COUNT";
/// Switches per pod when `k8s` gives no count (an agent of 2 worker processes at 20,000 files).
pub const PER_POD: u32 = 25_000;
/// The port pod 0 listens on for the other pods when none is given.
pub const DEFAULT_PORT: u16 = 7070;
/// Where the ConfigMap's run.json is mounted in a pod.
pub const CONFIG_PATH: &str = "/etc/sdnbench/run.json";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Coordinator {
    /// The pod of index 0, listening on this port.
    Pod0(u16),
    /// An engine outside the cluster, reachable from the pods at this address.
    External(SocketAddr),
    /// None: each pod alone.
    Alone,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct K8s {
    pub pods: u32,
    pub coordinator: Coordinator,
}

/// Parse `k8s[:PODS][@COORD]` for a run of `switches`; errors are one line.
pub fn parse(spec: &str, switches: u32) -> Result<K8s, String> {
    let rest = spec.strip_prefix("k8s").filter(|r| r.is_empty() || r.starts_with(':') || r.starts_with('@'));
    let rest = rest.ok_or_else(|| format!("agents: {spec:?} is not a k8s spec"))?;
    let (count, coord) = match rest.split_once('@') {
        Some((c, k)) => (c, Some(k)),
        None => (rest, None),
    };
    let pods = match count.strip_prefix(':') {
        None if count.is_empty() => switches.div_ceil(PER_POD).max(1),
        Some(n) => match n.parse::<u32>() {
            Ok(n) if n >= 1 && n <= switches => n,
            _ => return Err(format!("agents: {spec:?}: k8s:N needs 1 <= N <= switches")),
        },
        None => return Err(format!("agents: {spec:?}: expected k8s[:PODS][@pod0[:PORT]|@IP:PORT|@none]")),
    };
    let bad = || format!("agents: {spec:?}: the coordinator is pod0, pod0:PORT, IP:PORT (an engine outside the cluster) or none");
    let coordinator = match coord {
        None | Some("pod0") => Coordinator::Pod0(DEFAULT_PORT),
        Some("none") => Coordinator::Alone,
        Some(c) => match c.strip_prefix("pod0:") {
            Some(p) => Coordinator::Pod0(p.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(bad)?),
            None => Coordinator::External(c.parse::<SocketAddr>().ok().filter(|a| a.port() > 0).ok_or_else(bad)?),
        },
    };
    Ok(K8s { pods, coordinator })
}

/// The k8s spec of `cfg` (the `agents` entry, alone), if any.
pub fn of(cfg: &Config) -> Option<Result<K8s, String>> {
    let a = cfg.agents.first().filter(|_| cfg.agents.len() == 1)?;
    (a == "k8s" || a.starts_with("k8s:") || a.starts_with("k8s@")).then(|| parse(a, cfg.switches))
}

/// Pods asked for by the `agents` entry; None: not a k8s run.
pub fn pods(cfg: &Config) -> Option<Result<u32, String>> {
    of(cfg).map(|r| r.map(|k| k.pods))
}

/// The manifest for `cfg` (whose `agents` is a k8s spec) over `pods` pods, named `name`.
pub fn manifest(cfg: &Config, pods: u32, name: &str, image: &str) -> Value {
    let coordinator = of(cfg).and_then(|r| r.ok()).map_or(Coordinator::Pod0(DEFAULT_PORT), |k| k.coordinator);
    let run = Config { agents: vec![], ..cfg.clone() };
    let run_json = serde_json::to_string(&run).expect("a config serializes");
    let labels = json!({"app.kubernetes.io/name": "sdnbench-engine-agent", "sdnbench/run": name});
    let mut items = vec![json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("{name}-config"), "labels": labels},
                                "data": {"run.json": run_json}})];
    items.extend(service(coordinator, name, &labels));
    items.push(job(cfg, coordinator, pods, name, image, &labels));
    json!({"apiVersion": "v1", "kind": "List", "items": items})
}

/// The headless Service through which the pods find the coordinator (and, for an outside
/// coordinator, the EndpointSlice that gives it its address).
fn service(coordinator: Coordinator, name: &str, labels: &Value) -> Vec<Value> {
    let port = |p: u16| json!([{"name": "agents", "port": p, "targetPort": p, "protocol": "TCP"}]);
    match coordinator {
        Coordinator::Alone => vec![],
        Coordinator::Pod0(p) => vec![json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "labels": labels},
            "spec": {"clusterIP": "None", "publishNotReadyAddresses": true, "selector": {"sdnbench/run": name}, "ports": port(p)}})],
        Coordinator::External(a) => vec![
            json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": name, "labels": labels},
                   "spec": {"clusterIP": "None", "ports": port(a.port())}}),
            json!({"apiVersion": "discovery.k8s.io/v1", "kind": "EndpointSlice",
                   "metadata": {"name": format!("{name}-coordinator"),
                                "labels": {"kubernetes.io/service-name": name, "endpointslice.kubernetes.io/managed-by": "sdnbench"}},
                   "addressType": if a.is_ipv4() { "IPv4" } else { "IPv6" },
                   "endpoints": [{"addresses": [a.ip().to_string()]}],
                   "ports": [{"name": "agents", "port": a.port(), "protocol": "TCP"}]}),
        ],
    }
}

/// What each pod runs (`sdnbench-engine k8s-agent`, `k8s_pod.rs`).
pub fn command(coordinator: Coordinator, name: &str) -> Vec<String> {
    let mut c: Vec<String> = ["sdnbench-engine", "k8s-agent", "--config", CONFIG_PATH].map(String::from).to_vec();
    match coordinator {
        Coordinator::Pod0(p) => c.extend([format!("--coordinator={name}-0.{name}:{p}"), format!("--serve=0.0.0.0:{p}")]),
        Coordinator::External(a) => c.push(format!("--coordinator={name}:{}", a.port())),
        Coordinator::Alone => {}
    }
    c
}

fn job(cfg: &Config, coordinator: Coordinator, pods: u32, name: &str, image: &str, labels: &Value) -> Value {
    // pod 0 as coordinator also holds every switch's record (about 480 B each): 1 KiB per switch
    let extra = if matches!(coordinator, Coordinator::Pod0(_)) { (cfg.switches as u64).div_ceil(1024) } else { 0 };
    let mut container = json!({
        "name": "agent", "image": image, "command": command(coordinator, name),
        "env": [{"name": COUNT_ENV, "value": pods.to_string()}],
        "resources": {"requests": {"cpu": "1", "memory": format!("{}Mi", mem_mib(cfg.switches.div_ceil(pods)) + extra)}},
        "volumeMounts": [{"name": "run", "mountPath": "/etc/sdnbench", "readOnly": true}]});
    let mut pod = json!({"restartPolicy": "Never", "containers": [],
                         "volumes": [{"name": "run", "configMap": {"name": format!("{name}-config")}}]});
    if let Coordinator::Pod0(p) = coordinator {
        container["ports"] = json!([{"name": "agents", "containerPort": p, "protocol": "TCP"}]);
        pod["subdomain"] = json!(name);
    }
    pod["containers"] = json!([container]);
    json!({"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "labels": labels},
           "spec": {"completionMode": "Indexed", "completions": pods, "parallelism": pods, "backoffLimit": 0,
                    "template": {"metadata": {"labels": labels}, "spec": pod}}})
}

/// Memory to request for `sessions` held sessions: 16 KiB each (measured 7-11 KB) + 64 MiB.
fn mem_mib(sessions: u32) -> u64 {
    64 + (sessions as u64 * 16).div_ceil(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(switches: u32, agents: &str) -> Config {
        Config { switches, agents: vec![agents.into()], ..Config::default() }
    }

    #[test]
    fn the_job_is_indexed_and_finds_pod_0_through_a_headless_service() {
        let c = cfg(100_000, "k8s");
        let n = pods(&c).unwrap().unwrap();
        assert_eq!(n, 4);
        let m = manifest(&c, n, "sdnb-run1", "sdnbench/engine:0.1");
        let kinds: Vec<&str> = m["items"].as_array().unwrap().iter().map(|i| i["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["ConfigMap", "Service", "Job"]);
        let (cm, svc, job) = (&m["items"][0], &m["items"][1], &m["items"][2]);
        assert_eq!(job["spec"]["completionMode"], "Indexed");
        assert_eq!((job["spec"]["completions"].as_u64(), job["spec"]["parallelism"].as_u64()), (Some(4), Some(4)));
        let pod = &job["spec"]["template"]["spec"];
        let c0 = &pod["containers"][0];
        assert_eq!(c0["command"][1], "k8s-agent");
        assert_eq!(c0["command"][4], "--coordinator=sdnb-run1-0.sdnb-run1:7070", "pod 0's DNS name: hostname.subdomain");
        assert_eq!(c0["command"][5], "--serve=0.0.0.0:7070");
        assert_eq!(c0["env"][0], json!({"name": COUNT_ENV, "value": "4"}));
        assert_eq!(c0["resources"]["requests"]["memory"], "553Mi", "455 for 25,000 sessions + 98 for the coordinator's records");
        assert_eq!(pod["subdomain"], svc["metadata"]["name"]);
        assert_eq!(svc["spec"]["clusterIP"], "None");
        assert_eq!(svc["spec"]["selector"]["sdnbench/run"], job["spec"]["template"]["metadata"]["labels"]["sdnbench/run"]);
        assert_eq!(svc["spec"]["ports"][0]["port"], c0["ports"][0]["containerPort"]);
        assert_eq!(pod["volumes"][0]["configMap"]["name"], cm["metadata"]["name"]);
        // the pods get the same run, less the agent list (the coordinator hands out the slices)
        let run = Config::parse_json(cm["data"]["run.json"].as_str().unwrap()).unwrap();
        assert_eq!((run.switches, run.agents.len()), (100_000, 0));
    }

    #[test]
    fn an_outside_coordinator_is_the_services_only_endpoint() {
        let m = manifest(&cfg(8, "k8s:2@10.1.2.3:7000"), 2, "r", "img");
        let kinds: Vec<&str> = m["items"].as_array().unwrap().iter().map(|i| i["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["ConfigMap", "Service", "EndpointSlice", "Job"]);
        let (svc, eps, job) = (&m["items"][1], &m["items"][2], &m["items"][3]);
        assert!(svc["spec"].get("selector").is_none());
        assert_eq!(eps["metadata"]["labels"]["kubernetes.io/service-name"], "r");
        assert_eq!(eps["endpoints"][0]["addresses"][0], "10.1.2.3");
        let c0 = &job["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(c0["command"].as_array().unwrap().last().unwrap(), "--coordinator=r:7000");
        assert!(c0.get("ports").is_none() && job["spec"]["template"]["spec"].get("subdomain").is_none());
        let alone = manifest(&cfg(8, "k8s:2@none"), 2, "r", "img");
        assert_eq!(alone["items"].as_array().unwrap().len(), 2, "no Service without a coordinator");
    }

    #[test]
    fn specs_are_checked() {
        let p = |s: &str| parse(s, 8);
        assert_eq!(p("k8s:3"), Ok(K8s { pods: 3, coordinator: Coordinator::Pod0(7070) }));
        assert_eq!(p("k8s@pod0:9000").unwrap().coordinator, Coordinator::Pod0(9000));
        assert_eq!(p("k8s:2@none").unwrap().coordinator, Coordinator::Alone);
        assert_eq!(p("k8s:2@[::1]:80").unwrap().coordinator, Coordinator::External("[::1]:80".parse().unwrap()));
        for bad in ["k8s:9", "k8s:x", "k8s:0", "k8sx", "k8s@host.example:80", "k8s@pod0:0", "k8s@10.0.0.1"] {
            let e = p(bad).unwrap_err();
            assert!(e.starts_with("agents: ") && !e.contains('\n'), "{bad}: {e}");
        }
        assert_eq!(pods(&cfg(8, "local")), None);
    }
}
