//! The OF1.3 `IPV6_EXTHDR` pseudo-field (OF1.3.x §7.2.3.8, `ofp_ipv6exthdr_flags`): which IPv6
//! extension headers a packet carries, and whether they are repeated or out of the order
//! RFC 2460 §4.1 prefers (hop-by-hop, destination, routing, fragment, authentication, ESP,
//! destination). The walk follows next-header values from the fixed header; ESP ends it (what
//! follows is encrypted), as does no-next-header (59) or any upper-layer protocol. A
//! destination-options header before a routing header takes the first place, any other the
//! last; a header seen twice (two destination headers apart) sets UNREP; one before a header
//! that ranks above it sets UNSEQ; hop-by-hop anywhere but first is out of order.

pub const NONEXT: u16 = 1 << 0;
pub const ESP: u16 = 1 << 1;
pub const AUTH: u16 = 1 << 2;
pub const DEST: u16 = 1 << 3;
pub const FRAG: u16 = 1 << 4;
pub const ROUTER: u16 = 1 << 5;
pub const HOP: u16 = 1 << 6;
pub const UNREP: u16 = 1 << 7;
pub const UNSEQ: u16 = 1 << 8;

const P_HOP: u8 = 0;
const P_ROUTING: u8 = 43;
const P_FRAG: u8 = 44;
const P_ESP: u8 = 50;
const P_AUTH: u8 = 51;
const P_NONEXT: u8 = 59;
const P_DEST: u8 = 60;

/// The flags of an IPv6 packet whose fixed header names `next`, `rest` the bytes after the
/// fixed header. A truncated header ends the walk with the flags found so far.
pub fn flags(mut next: u8, mut rest: &[u8]) -> u16 {
    let (mut f, mut last_rank, mut dests) = (0u16, 0u8, 0u8);
    let mut first = true;
    loop {
        let (flag, rank) = match next {
            P_HOP => (HOP, 0),
            P_DEST if f & ROUTER == 0 && dests == 0 => (DEST, 1),
            P_DEST => (DEST, 6),
            P_ROUTING => (ROUTER, 2),
            P_FRAG => (FRAG, 3),
            P_AUTH => (AUTH, 4),
            P_ESP => (ESP, 5),
            P_NONEXT => return f | NONEXT,
            _ => return f,
        };
        let repeated = if next == P_DEST { dests >= 2 || (dests == 1 && rank == 1) } else { f & flag != 0 };
        if repeated {
            f |= UNREP;
        }
        if rank < last_rank || (next == P_HOP && !first) {
            f |= UNSEQ;
        }
        f |= flag;
        last_rank = last_rank.max(rank);
        first = false;
        if next == P_DEST {
            dests += 1;
        }
        let len = match next {
            P_ESP => return f,
            P_FRAG => 8,
            P_AUTH => (*rest.get(1).unwrap_or(&0) as usize + 2) * 4,
            _ => (*rest.get(1).unwrap_or(&0) as usize + 1) * 8,
        };
        if rest.len() < len.max(2) {
            return f;
        }
        next = rest[0];
        rest = &rest[len..];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame os-ken's match/39_IPV6_EXTHDR sends (`ipv6(ext_hdrs=[hop_opts(nxt=51),
    /// auth(nxt=6)], nxt=0)`, TCP), as os-ken 2.x serialises it: hop-by-hop of 8 bytes (a PadN
    /// option), an AH of 16 (length 2), then TCP.
    const FRAME: &str = "22222222222212111111111186dd600000640030004000100000000000000000000000000010002000000000000000000000000000203300010400000000060200000000000000000000000000002b6708ae0000000000000000600000006b72000000000000";

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    }

    #[test]
    fn osken_hop_auth_is_68() {
        // the value os-ken's match/39_IPV6_EXTHDR installs for this frame
        let f = unhex(FRAME);
        assert_eq!(flags(f[20], &f[54..]), 68);
        assert_eq!(flags(f[20], &f[54..]) & 0x1f0, 64, "the mask test: HOP only of 0x1f0");
    }

    #[test]
    fn plain_none_esp_and_order() {
        assert_eq!(flags(6, &[]), 0, "TCP right after the fixed header");
        assert_eq!(flags(59, &[]), NONEXT);
        assert_eq!(flags(50, &[0; 16]), ESP);
        // fragment then hop-by-hop: both, hop-by-hop out of order
        let frag_hop = [0u8, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(flags(44, &frag_hop), FRAG | HOP | UNSEQ);
        // dest, routing, dest: both destination places, in order
        let d_r_d = [43u8, 0, 0, 0, 0, 0, 0, 0, 60, 0, 0, 0, 0, 0, 0, 0, 59, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(flags(60, &d_r_d), DEST | ROUTER | NONEXT);
        // two fragment headers: repeated
        let f_f = [44u8, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
        assert_eq!(flags(44, &f_f), FRAG | UNREP);
        // truncated: what was seen
        assert_eq!(flags(0, &[51]), HOP);
    }
}
