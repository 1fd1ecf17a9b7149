//! Where each worker's per-switch records go once they are final (its report): the run's caller
//! decides, the coordinator only hands them over. [`Keep`] leaves them in the `Outcome` (the
//! result embeds them; an agent sends them on); the columnar file's encoder
//! (`export::columnar::Encoder`, given by `front/`) encodes and drops them as each report comes,
//! so a large run's records are never all held at once (docs/million.md). The figures the run
//! needs of them are folded before they go (`digest.rs`).

use crate::result::switches::SwitchReport;

/// Takes each worker's records as its report arrives.
pub trait Records {
    /// `worker`'s records, in switch order; what the outcome should keep of them.
    fn take(&mut self, worker: u32, records: Vec<SwitchReport>) -> Vec<SwitchReport>;
}

/// The records stay in the outcome.
pub struct Keep;

impl Records for Keep {
    fn take(&mut self, _: u32, records: Vec<SwitchReport>) -> Vec<SwitchReport> {
        records
    }
}

/// The records are not needed (cbench's output is the loops' lines): each goes at once.
pub struct Discard;

impl Records for Discard {
    fn take(&mut self, _: u32, _: Vec<SwitchReport>) -> Vec<SwitchReport> {
        vec![]
    }
}
