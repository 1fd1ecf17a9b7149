//! A switch's count of messages from the controller by wire type code (issue 50: a held
//! session's bytes). The codes a session gets in its handshake, its load and its keep-alive are
//! counted inline; any other code (errors, role, table or port mods, ...) in a block made the
//! first time one comes. Before: 32 counters inline, 256 B in every switch's record.

/// Wire type codes counted inline (both versions: hello, echo request and reply, features and
/// config requests, set-config, packet-out, flow-mod, 1.0's stats and barrier requests (16,
/// 18), 1.3's multipart and barrier requests (18, 20)).
const HOT: [u8; 11] = [0, 2, 3, 5, 7, 9, 13, 14, 16, 18, 20];

/// Each wire code's inline slot (`HOT`), or `COLD`.
const COLD: u8 = u8::MAX;
const SLOT: [u8; 32] = {
    let mut s = [COLD; 32];
    let mut i = 0;
    while i < HOT.len() {
        s[HOT[i] as usize] = i as u8;
        i += 1;
    }
    s
};

#[derive(Debug, Default)]
pub struct Replies {
    hot: [u64; HOT.len()],
    cold: Option<Box<[u64; 32]>>,
}

impl Replies {
    /// Count one message of wire type `code` (codes of 32 and above are not counted, as before).
    #[inline]
    pub fn count(&mut self, code: u8) {
        match SLOT.get(code as usize) {
            None => {}
            Some(&COLD) => self.cold.get_or_insert_with(|| Box::new([0; 32]))[code as usize] += 1,
            Some(&s) => self.hot[s as usize] += 1,
        }
    }

    /// The count of wire type `code`.
    pub fn get(&self, code: u8) -> u64 {
        match SLOT.get(code as usize) {
            None => 0,
            Some(&COLD) => self.cold.as_ref().map_or(0, |c| c[code as usize]),
            Some(&s) => self.hot[s as usize],
        }
    }

    /// (code, count) for every code counted at least once, lowest code first.
    pub fn nonzero(&self) -> impl Iterator<Item = (u8, u64)> + '_ {
        (0..32u8).map(|c| (c, self.get(c))).filter(|&(_, n)| n > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::Replies;

    #[test]
    fn every_code_counts_and_only_a_cold_one_makes_the_block() {
        let mut r = Replies::default();
        for c in [0u8, 2, 3, 5, 7, 9, 13, 14, 14, 16, 18, 20] {
            r.count(c);
        }
        assert!(r.cold.is_none(), "the handshake's, the load's and the keep-alive's codes are inline");
        r.count(1);
        r.count(24);
        r.count(31);
        r.count(32); // past the table: not counted, as before
        assert!(r.cold.is_some());
        let all: Vec<(u8, u64)> = r.nonzero().collect();
        assert_eq!(
            all,
            [(0, 1), (1, 1), (2, 1), (3, 1), (5, 1), (7, 1), (9, 1), (13, 1), (14, 2), (16, 1), (18, 1), (20, 1), (24, 1), (31, 1)]
        );
        assert_eq!((r.get(14), r.get(4), r.get(40)), (2, 0, 0));
    }
}
