//! The run's status, decided from its counters (pure). Written rules:
//!
//! - `failed`: no session came up, every session that came up was lost and none had it back at
//!   the end (with `reconnect`, a switch that re-established its session is back), or the
//!   request workload measured nothing (no request answered in the measured loops); the error
//!   says why in one line (with the first failure reason when there is one);
//! - `partial`: some sessions were lost (re-established or not) or never came up; the error
//!   names them (at most 5) and says how many were re-established;
//! - `interrupted`: stopped by a signal (kept whatever else holds);
//! - `ok`: otherwise.
//!
//! Exit codes follow: 0 for `ok`, 2 for everything else (the result is written either way).

/// What the judge looks at.
#[derive(Debug, Default)]
pub struct Facts {
    pub switches: u32,
    /// Sessions that came up (handshake done; for capacity: an echo went round).
    pub up: u32,
    /// Up sessions that ended before the run did, as "switch I (dpid D): reason".
    pub lost: Vec<String>,
    /// Of the switches in `lost`, those up again at the end (re-established, `reconnect.rs`).
    pub back: u32,
    /// Sessions re-established during the run (all switches).
    pub reconnects: u64,
    /// First reason a session failed to come up.
    pub first_failure: Option<String>,
    /// The workload sends requests (so "nothing measured" applies).
    pub sends_requests: bool,
    /// Requests answered in the measured loops.
    pub measured_answered: u64,
    /// All loops were run (not stopped early).
    pub went: bool,
    pub interrupted: bool,
    /// An error a worker already reported (e.g. --strict).
    pub fatal: Option<String>,
}

fn wire_name(v: u32) -> String {
    match v {
        1 => "1.0".into(),
        4 => "1.3".into(),
        v => format!("0x{v:02x}"),
    }
}

/// A handshake failure in words a user can act on: a version mismatch names what the controller
/// answered, what the switches offered, and the flag that fixes it.
pub fn explain(reason: &str, offered: ofwire::Versions) -> String {
    let Some(rest) = reason.strip_prefix("no common OpenFlow version (controller hello 0x") else {
        return reason.to_string();
    };
    let Ok(theirs) = u32::from_str_radix(rest.get(..2).unwrap_or(""), 16) else {
        return reason.to_string();
    };
    let fix = match theirs {
        1 | 4 => format!("; use --of {}", wire_name(theirs)),
        _ => String::new(),
    };
    let offered_words = if offered.bits().count_ones() > 1 { "offered" } else { "were forced to" };
    format!(
        "the controller answered HELLO with {} only and the switches {offered_words} {}{fix}",
        wire_name(theirs),
        offered.names().join(" and ")
    )
}

/// (status, error line).
pub fn judge(f: &Facts) -> (&'static str, Option<String>) {
    if f.interrupted {
        return ("interrupted", f.fatal.clone());
    }
    if let Some(e) = &f.fatal {
        return ("failed", Some(e.clone()));
    }
    let why = f.first_failure.clone().unwrap_or_else(|| "no reason recorded".into());
    if !f.went || f.up == 0 {
        return ("failed", Some(format!("no session came up ({why})")));
    }
    if f.lost.len() as u32 >= f.up && f.back == 0 {
        let meanwhile =
            if f.reconnects > 0 { format!(", none up at the end ({} re-established meanwhile)", f.reconnects) } else { String::new() };
        return ("failed", Some(format!("every session was lost during the run{meanwhile} (first: {})", f.lost[0])));
    }
    if f.sends_requests && f.measured_answered == 0 {
        return ("failed", Some("nothing measured: no request was answered in the measured loops".into()));
    }
    let never_up = f.switches.saturating_sub(f.up);
    if !f.lost.is_empty() || never_up > 0 {
        let mut parts = vec![];
        if never_up > 0 {
            parts.push(format!("{never_up} of {} sessions never came up ({why})", f.switches));
        }
        if !f.lost.is_empty() {
            let names: Vec<&str> = f.lost.iter().take(5).map(String::as_str).collect();
            let more = if f.lost.len() > 5 { format!(" and {} more", f.lost.len() - 5) } else { String::new() };
            let back = if f.back > 0 { format!(" ({} of them re-established by the end)", f.back) } else { String::new() };
            parts.push(format!("{} session(s) lost{back}: {}{more}", f.lost.len(), names.join("; ")));
        }
        return ("partial", Some(parts.join("; ")));
    }
    ("ok", None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok() -> Facts {
        Facts { switches: 4, up: 4, sends_requests: true, measured_answered: 10, went: true, ..Default::default() }
    }

    #[test]
    fn all_up_and_answered_is_ok() {
        assert_eq!(judge(&ok()), ("ok", None));
    }

    #[test]
    fn every_session_lost_fails() {
        let f = Facts { lost: (0..4).map(|i| format!("switch {i}")).collect(), ..ok() };
        assert_eq!(judge(&f).0, "failed");
    }

    #[test]
    fn every_session_lost_at_the_end_says_how_many_came_back_meanwhile() {
        let f = Facts { lost: (0..4).map(|i| format!("switch {i}")).collect(), reconnects: 8, ..ok() };
        let (s, e) = judge(&f);
        assert_eq!(s, "failed");
        assert!(e.unwrap().starts_with("every session was lost during the run, none up at the end (8 re-established meanwhile)"));
    }

    #[test]
    fn every_session_lost_but_one_back_is_partial() {
        let f = Facts { lost: (0..4).map(|i| format!("switch {i}")).collect(), back: 1, ..ok() };
        let (s, e) = judge(&f);
        assert_eq!(s, "partial");
        assert!(e.unwrap().contains("4 session(s) lost (1 of them re-established by the end)"));
    }

    #[test]
    fn some_lost_is_partial_and_named() {
        let f = Facts { lost: vec!["switch 2 (dpid 3): reset".into()], ..ok() };
        let (s, e) = judge(&f);
        assert_eq!(s, "partial");
        assert!(e.unwrap().contains("switch 2 (dpid 3)"));
    }

    #[test]
    fn nothing_answered_fails_but_not_for_capacity() {
        let f = Facts { measured_answered: 0, ..ok() };
        assert_eq!(judge(&f).0, "failed");
        let f = Facts { measured_answered: 0, sends_requests: false, ..ok() };
        assert_eq!(judge(&f).0, "ok");
    }

    #[test]
    fn a_version_mismatch_names_the_fix() {
        let r = "no common OpenFlow version (controller hello 0x01, bitmap 0x0)";
        assert_eq!(
            explain(r, ofwire::Versions::OF13),
            "the controller answered HELLO with 1.0 only and the switches were forced to 1.3; use --of 1.0"
        );
        assert_eq!(explain("connection refused", ofwire::Versions::OF13), "connection refused");
    }

    #[test]
    fn nothing_up_names_the_reason() {
        let f = Facts { up: 0, first_failure: Some("connection refused".into()), ..ok() };
        assert_eq!(judge(&f), ("failed", Some("no session came up (connection refused)".into())));
    }
}
