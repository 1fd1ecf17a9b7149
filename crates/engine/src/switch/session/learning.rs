//! Before the go (`Phase::Wait`): the handshake is under way or done, and the learning phase's
//! requests are sent once, when the worker opens it (`switch/learning.rs`).

use super::Session;
use crate::switch::workload::learning_requests;
use ofswitch::Learning;

impl Session {
    /// A turn before the go: the learning requests, if due. Returns when the go is (if known).
    pub(super) fn wait_turn(&mut self, now: u64) -> u64 {
        self.learn(now);
        match self.sh.go_ns() {
            0 => u64::MAX,
            go => go,
        }
    }

    /// The learning phase's requests, once, when the worker opens it (`learning.rs`): the
    /// traffic profile's (`Profile::learning`).
    fn learn(&mut self, now: u64) {
        if self.sh.cfg.cbench_compat && !self.learned && self.sw.is_up() {
            // cbench: its -L packet-in (xid 1) in the same write as the features reply
            self.learned = true;
            if self.sh.cfg.learn {
                self.gen.emit_cbench_learn(&mut self.wbuf, 1);
            }
            return;
        }
        if self.learned || !self.sw.is_up() || !self.sh.learning.is_open() {
            return;
        }
        self.learned = true;
        if self.workload.learns(&self.sh.cfg) {
            let n = learning_requests(&self.sh.cfg);
            match self.sh.cfg.profile().learning() {
                // cbench's -L packet-in takes xid 1; its requests then start at xid 2
                Some(Learning::CbenchDestination) => self.gen.emit_cbench_learn(&mut self.wbuf, 1),
                Some(Learning::HostArps | Learning::FirstHost) => {
                    for h in 1..=n {
                        self.gen.emit_arp(&mut self.wbuf, 0x4000_0000 | h, h);
                    }
                }
                None => {}
            }
            self.sh.learning.requests_sent(u64::from(n), now);
        }
    }
}
