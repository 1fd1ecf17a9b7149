//! What the run loop (`gather.rs`, `drive.rs`) leaves to parts that are agents on other machines
//! or pods (`distributed/`): the loop knows only this trait. Local workers have no `Remote`: they
//! get the go as soon as all are READY, and one lost or fatal stops the run. Agents get a clock
//! check first, and one lost is named while the others go on.

use crate::coordinator::digest::Digest;
use crate::coordinator::handle::Handle;
use crate::switch::protocol::{Pong, WorkerReport};
use std::time::Duration;

/// Where the clock check stands once every live agent is READY and pinged.
pub(crate) enum Go {
    /// Not every live agent has answered the ping yet.
    Wait,
    /// The common start is sent: it comes this far from now.
    At(Duration),
    /// A clock too far off: the run is refused, one line.
    Refused(String),
}

/// The agents of a run, as the run loop sees them (`distributed/agent_state.rs`).
pub(crate) trait Remote {
    /// Agent `w` announced where it takes the other agents' frames (network mode).
    fn listening(&mut self, handles: &mut [Handle], w: usize, addr: String);
    /// Agent `w` said why it cannot go on (kept for the line that says it was lost).
    fn fatal(&mut self, w: usize, msg: String);
    /// Agent `w`'s stream ended without a report.
    fn lost(&mut self, w: usize, msg: String, during_run: bool);
    /// Every live agent is READY: the clock check starts.
    fn ping(&mut self, handles: &mut [Handle], alive: &[bool]);
    /// Agent `w`'s answer to the ping.
    fn pong(&mut self, w: usize, p: &Pong);
    /// The common start once every live agent answered, or why not.
    fn go(&mut self, handles: &mut [Handle], alive: &[bool], max_skew_ms: f64) -> Go;
    /// Lost agents make the result partial (the line names each).
    fn judge(&self, status: &mut &'static str, error: &mut Option<String>);
    /// The result's `agents` section, from the agents, their reports and their switches folded.
    fn section(&self, reports: &[WorkerReport], digest: &Digest) -> Vec<crate::result::Agent>;
}
