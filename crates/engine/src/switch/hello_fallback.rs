//! A second HELLO for controllers that cannot read the first one.
//!
//! Offering 1.0 and 1.3, a switch's HELLO says 1.3 in its header and carries a version bitmap
//! element (OpenFlow 1.3.5 §6.3.1, §7.5.1). A controller that speaks OpenFlow 1.0 only should
//! answer with its own 1.0 HELLO and go on at 1.0; some instead close the connection (a C++
//! learning switch built on a public OpenFlow library logs "failed version negotiation"). Such a
//! session is tried once more at once, offering 1.0 alone: a plain 1.0 HELLO with no element,
//! what an OpenFlow 1.0 switch sends. The switch's record says it (`hello_fallback`), and the
//! result counts and names it (`handshake.hello_fallbacks`, a warning).
//!
//! The retry is for exactly that failure: the first connection of a switch offering both
//! versions, closed or reset before the handshake finished, after the controller said nothing
//! or only something of version 1.0. A controller that speaks 1.3 and closes is not retried
//! (its close has another reason), nor is a switch forced to one version (`--of`): there the
//! failure's line names `--of 1.0` ([`hint`]).

use ofwire::{Versions, OFP10, OFP13};

/// What ended a connection that never came up, as the session saw it.
pub struct Ended<'a> {
    /// `End::kind`: "closed", "reset", "timeout", ...
    pub kind: &'a str,
    /// The version byte of the first message the controller sent, if any.
    pub peer_version: Option<u8>,
}

/// Retry this switch's first connection with a plain 1.0 HELLO? `offered`: the config's
/// versions; `first`: no session of this switch came up yet and this was its first connection.
pub fn retry(offered: Versions, first: bool, ended: &Ended) -> bool {
    let both = offered.has(OFP10) && offered.has(OFP13);
    let closed = matches!(ended.kind, "closed" | "reset");
    let said_1_0_or_nothing = matches!(ended.peer_version, None | Some(OFP10));
    both && first && closed && said_1_0_or_nothing
}

/// The versions a retried switch offers: 1.0 alone (its HELLO is then 1.0, with no element).
pub const PLAIN: Versions = Versions::OF10;

/// A close before the handshake, by a controller that said nothing or 1.0, when no retry was
/// made (one version forced): the reason, with the flag that may fix it.
pub fn hint(offered: Versions, ended: &Ended, reason: &str) -> String {
    let closed = matches!(ended.kind, "closed" | "reset");
    if closed && offered == Versions::OF13 && matches!(ended.peer_version, None | Some(OFP10)) {
        return format!("{reason} before the handshake (the switches offered OpenFlow 1.3 only; a 1.0 controller does this: try --of 1.0)");
    }
    reason.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH: Versions = Versions::BOTH;

    fn ended(kind: &str, peer_version: Option<u8>) -> Ended<'_> {
        Ended { kind, peer_version }
    }

    #[test]
    fn only_a_close_after_nothing_or_1_0_on_a_first_bitmap_hello_is_retried() {
        assert!(retry(BOTH, true, &ended("closed", None)));
        assert!(retry(BOTH, true, &ended("reset", Some(OFP10))));
        assert!(!retry(BOTH, true, &ended("closed", Some(OFP13))), "a 1.3 controller's close has another reason");
        assert!(!retry(BOTH, true, &ended("timeout", None)), "a silent controller is not a version problem");
        assert!(!retry(BOTH, false, &ended("closed", None)), "once only, and never after a session came up");
        assert!(!retry(Versions::OF10, true, &ended("closed", None)), "already a plain 1.0 HELLO");
        assert!(!retry(Versions::OF13, true, &ended("closed", None)), "--of 1.3: forced");
    }

    #[test]
    fn a_forced_1_3_close_names_the_flag() {
        let r = "the controller closed the connection";
        assert!(hint(Versions::OF13, &ended("closed", Some(OFP10)), r).ends_with("try --of 1.0)"));
        assert_eq!(hint(Versions::OF13, &ended("closed", Some(OFP13)), r), r);
        assert_eq!(hint(BOTH, &ended("timeout", None), r), r);
    }
}
