//! `--agents k8s`: write (never apply) a Kubernetes Indexed Job that runs the same run over
//! `parallelism` pods, one agent each (docs/scale-out.md). Each pod's `JOB_COMPLETION_INDEX`
//! selects its slice (`sdnbench-engine k8s-agent`, `agent_slice`); the pods start on their own,
//! so the READY barrier and the clock check of `agent_link.rs` do not apply: each pod writes its
//! own result (`--json /results/agent-INDEX.json`), merged afterwards. Not run against a cluster.
