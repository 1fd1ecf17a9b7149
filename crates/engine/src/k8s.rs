//! `--agents k8s`: write (never apply) a Kubernetes Indexed Job that runs the same run over
//! `parallelism` pods, one agent each (docs/scale-out.md). Each pod's `JOB_COMPLETION_INDEX`
//! selects its slice (`sdnbench-engine k8s-agent`, `agent_slice`); the pods start on their own,
//! so the READY barrier and the clock check of `agent_link.rs` do not apply: each pod writes its
//! own result (`--json /results/agent-INDEX.json`), merged afterwards. Not run against a cluster.
//!
//! The manifest is JSON (which `kubectl apply -f` reads as YAML): a `List` of a ConfigMap holding
//! the run's config and the Job. `k8s:N` asks for N pods; `k8s` alone for one per 25,000 switches.
//! Each pod prints its part's result (schema `sdnbench.engine/1`, plus `agent_index`) on stdout.

use crate::config::{slices, Config};
use serde_json::{json, Value};

pub const INDEX_ENV: &str = "JOB_COMPLETION_INDEX";
pub const COUNT_ENV: &str = "SDNBENCH_AGENT_COUNT";
/// Switches per pod when `k8s` gives no count (an agent of 2 worker processes at 20,000 files).
pub const PER_POD: u32 = 25_000;

/// Pods asked for by the `agents` entry (`k8s` or `k8s:N`); None: not a k8s run.
pub fn pods(cfg: &Config) -> Option<Result<u32, String>> {
    let a = cfg.agents.first().filter(|_| cfg.agents.len() == 1)?;
    if a == "k8s" {
        return Some(Ok(cfg.switches.div_ceil(PER_POD).max(1)));
    }
    let n = a.strip_prefix("k8s:")?;
    Some(match n.parse::<u32>() {
        Ok(n) if n >= 1 && n <= cfg.switches => Ok(n),
        _ => Err(format!("agents: {a:?}: k8s:N needs 1 <= N <= switches")),
    })
}

/// The ConfigMap + Indexed Job for `cfg` over `pods` pods, named `name`.
pub fn manifest(cfg: &Config, pods: u32, name: &str, image: &str) -> Value {
    let run = Config { agents: vec![], ..cfg.clone() };
    let run_json = serde_json::to_string(&run).expect("a config serializes");
    let labels = json!({"app.kubernetes.io/name": "sdnbench-engine-agent", "sdnbench/run": name});
    json!({
        "apiVersion": "v1", "kind": "List",
        "items": [
            {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("{name}-config"), "labels": labels},
             "data": {"run.json": run_json}},
            {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": name, "labels": labels},
             "spec": {"completionMode": "Indexed", "completions": pods, "parallelism": pods, "backoffLimit": 0,
                      "template": {"metadata": {"labels": labels}, "spec": {
                          "restartPolicy": "Never",
                          "containers": [{
                              "name": "agent", "image": image,
                              "command": ["sdnbench-engine", "k8s-agent", "--config", "/etc/sdnbench/run.json"],
                              "env": [{"name": COUNT_ENV, "value": pods.to_string()}],
                              "resources": {"requests": {"cpu": "1", "memory": format!("{}Mi", mem_mib(cfg.switches.div_ceil(pods)))}},
                              "volumeMounts": [{"name": "run", "mountPath": "/etc/sdnbench", "readOnly": true}]}],
                          "volumes": [{"name": "run", "configMap": {"name": format!("{name}-config")}}]}}}}
        ]
    })
}

/// Memory to request for `sessions` held sessions: 16 KiB each (measured 7-11 KB) + 64 MiB.
fn mem_mib(sessions: u32) -> u64 {
    64 + (sessions as u64 * 16).div_ceil(1024)
}

/// `sdnbench-engine k8s-agent --config FILE`: this pod's slice (`JOB_COMPLETION_INDEX` of
/// `SDNBENCH_AGENT_COUNT`), run at once (no barrier), its result JSON on stdout.
pub fn agent_main(args: Vec<String>) -> i32 {
    let fail = |e: String| {
        eprintln!("sdnbench-engine k8s-agent: {e}");
        1
    };
    let path = match args.as_slice() {
        [flag, p] if flag == "--config" => p.clone(),
        _ => return fail("usage: sdnbench-engine k8s-agent --config FILE".into()),
    };
    let cfg = match crate::cli::load_config(&path) {
        Ok(c) => c,
        Err(e) => return fail(e.join("; ")),
    };
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u32>().ok());
    let (Some(index), Some(count)) = (env(INDEX_ENV), env(COUNT_ENV)) else {
        return fail(format!("{INDEX_ENV} and {COUNT_ENV} must be set (the Indexed Job sets them)"));
    };
    let Some(slice) = slices(cfg.switches, count).into_iter().nth(index as usize) else {
        return fail(format!("{INDEX_ENV} {index} is not below {COUNT_ENV} {count}"));
    };
    let slice = crate::config::Slice { worker: index, ..slice };
    match crate::coordinator::run_part(cfg, slice, &crate::agent::source_addrs, &mut |_| {}, &mut |_| {}) {
        Ok(o) => {
            let mut j = crate::export::build(&o);
            j["agent_index"] = json!(index);
            println!("{j}");
            if o.status == "ok" {
                0
            } else {
                2
            }
        }
        Err(e) => fail(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_job_is_indexed_with_one_pod_per_slice_and_the_run_in_a_configmap() {
        let cfg = Config { switches: 100_000, agents: vec!["k8s".into()], ..Config::default() };
        let n = pods(&cfg).unwrap().unwrap();
        assert_eq!(n, 4);
        let m = manifest(&cfg, n, "sdnb-run1", "sdnbench/engine:0.1");
        let (cm, job) = (&m["items"][0], &m["items"][1]);
        assert_eq!(job["kind"], "Job");
        assert_eq!(job["spec"]["completionMode"], "Indexed");
        assert_eq!((job["spec"]["completions"].as_u64(), job["spec"]["parallelism"].as_u64()), (Some(4), Some(4)));
        let c = &job["spec"]["template"]["spec"]["containers"][0];
        assert_eq!(c["command"][1], "k8s-agent");
        assert_eq!(c["env"][0], json!({"name": COUNT_ENV, "value": "4"}));
        assert_eq!(c["resources"]["requests"]["memory"], "455Mi");
        assert_eq!(job["spec"]["template"]["spec"]["volumes"][0]["configMap"]["name"], cm["metadata"]["name"]);
        // the pods get the same run, less the agent list (each runs its slice itself)
        let run = Config::from_json(cm["data"]["run.json"].as_str().unwrap()).unwrap();
        assert_eq!((run.switches, run.agents.len()), (100_000, 0));
    }

    #[test]
    fn a_pod_count_is_checked() {
        let c = |a: &str| Config { switches: 8, agents: vec![a.into()], ..Config::default() };
        assert_eq!(pods(&c("k8s:3")), Some(Ok(3)));
        assert!(pods(&c("k8s:9")).unwrap().is_err());
        assert!(pods(&c("k8s:x")).unwrap().is_err());
        assert_eq!(pods(&c("local")), None);
    }
}
