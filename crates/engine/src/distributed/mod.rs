//! Everything about a run over several agents (processes, machines, Kubernetes pods): the
//! coordinator's side and the agent's, and `merge` of results that pods wrote alone. The run loop
//! itself is `coordinator/`'s (one process's run); it sees agents only through
//! `coordinator::remote::Remote`, which `agent_state.rs` implements.
//!
//! - the coordinator's side: `agent_link.rs` starts the agents (`agents.rs`: how each is reached;
//!   pods dial in through `pod_link.rs`) and drives them; `agent_state.rs` is each agent as the
//!   run loop sees it (clock check, loss, its line in the result);
//! - the agent's side: `agent.rs` (`sdnbench-engine agent`), its workers merged by
//!   `agent_merge.rs`; `k8s_pod.rs` (`sdnbench-engine k8s-agent`), one pod of the Job that
//!   `k8s.rs` writes;
//! - afterwards: `merge.rs` (`sdnbench-engine merge`).

pub mod agent;
pub(crate) mod agent_link;
pub(crate) mod agent_merge;
pub(crate) mod agent_state;
pub(crate) mod agents;
pub(crate) mod k8s;
pub mod k8s_pod;
pub mod merge;
pub(crate) mod pod_link;

use crate::config::Config;
use crate::coordinator::{LoopTotal, Outcome};
use crate::switch::protocol::Ready;

/// Run `cfg` to the end (or until `stop`: Ctrl-C), over its agents when it names any. `on_loop` sees each
/// loop's totals as they complete (the live display); `on_ready` the handshake results;
/// `records` each worker's (or agent's) per-switch records as its report arrives.
pub(crate) fn run(
    cfg: Config,
    stop: crate::coordinator::Stop,
    on_ready: &mut dyn FnMut(&[Ready]),
    on_loop: &mut dyn FnMut(&LoopTotal),
    records: &mut dyn crate::coordinator::Records,
) -> Result<Outcome, String> {
    if cfg.agents.is_empty() {
        crate::coordinator::run(cfg, stop, on_ready, on_loop, records)
    } else {
        agent_link::run(cfg, stop, on_ready, on_loop, records)
    }
}
