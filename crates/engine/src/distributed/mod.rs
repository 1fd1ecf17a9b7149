//! The agent side of a run spread over processes, machines or Kubernetes pods, and `merge` of
//! the results that pods wrote alone. The coordinator's side of the link is `coordinator::agent_link`.

pub mod agent;
pub(crate) mod agent_merge;
pub mod k8s_pod;
pub mod merge;
