//! Does the kernel's socket table show a listener that a TCP client connecting to an address
//! would reach? Pure: it reads the text of `/proc/net/tcp` and `/proc/net/tcp6`. One rule, shared
//! with sdnbench's Python side (`sdnbench/controllers/listeners.py`) through the vectors in
//! `tests/vectors/listeners.json`, lines the kernel wrote for real listeners.
//!
//! Every form the kernel shows: an IPv4 listener (`tcp`, 8 hex digits), an IPv6 one (`tcp6`, 32),
//! an IPv4-mapped IPv6 one (`::ffff:a.b.c.d`, how a JVM told to listen on 127.0.0.1 listens), and
//! the wildcard of either family. A target written IPv4-mapped is its IPv4 address (the kernel
//! connects it over IPv4). The table does not show `IPV6_V6ONLY`, so a wildcard IPv6 listener
//! asked for an IPv4 target is `Maybe`: the caller lets the run go on.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// What the table says of a target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    /// A listener bound to the target's address, or to its family's wildcard.
    Yes,
    /// Only a wildcard IPv6 listener, asked for an IPv4 target: it takes IPv4 connections
    /// unless `IPV6_V6ONLY` is set.
    Maybe,
    /// Lines to read, and none listens where the target connects.
    No,
}

/// The table's answer for `target`, or None when there is no table to read.
pub fn lookup(table: &str, target: SocketAddr) -> Option<Listener> {
    let want = unmapped(target.ip());
    let mut best = Listener::No;
    for line in table.lines() {
        let Some((ip, port)) = listening(line) else { continue };
        if port != target.port() {
            continue;
        }
        match reaches(ip, want) {
            Listener::Yes => return Some(Listener::Yes),
            Listener::Maybe => best = Listener::Maybe,
            Listener::No => {}
        }
    }
    (!table.trim().is_empty()).then_some(best)
}

/// Whether a listener bound to `bound` takes a connection to `to` (both unmapped).
fn reaches(bound: IpAddr, to: IpAddr) -> Listener {
    let yes = |b: bool| if b { Listener::Yes } else { Listener::No };
    match (bound, to) {
        (IpAddr::V4(b), IpAddr::V4(t)) => yes(b == t || b.is_unspecified()),
        (IpAddr::V6(b), IpAddr::V6(t)) => yes(b == t || b.is_unspecified()),
        (IpAddr::V6(b), IpAddr::V4(_)) if b.is_unspecified() => Listener::Maybe,
        _ => Listener::No,
    }
}

/// The local address and port of a listening line (state `0A`), the address unmapped.
fn listening(line: &str) -> Option<(IpAddr, u16)> {
    let f: Vec<&str> = line.split_whitespace().collect();
    if f.get(3) != Some(&"0A") {
        return None;
    }
    let (ip, port) = f.get(1)?.split_once(':')?;
    Some((unmapped(hex_ip(ip)?), u16::from_str_radix(port, 16).ok()?))
}

/// The kernel prints each 32-bit word of an address as a native-endian number in hex.
fn hex_ip(hex: &str) -> Option<IpAddr> {
    let word = |i: usize| u32::from_str_radix(hex.get(i * 8..i * 8 + 8)?, 16).ok().map(u32::to_ne_bytes);
    match hex.len() {
        8 => Some(IpAddr::V4(Ipv4Addr::from(word(0)?))),
        32 => {
            let mut b = [0u8; 16];
            for i in 0..4 {
                b[i * 4..i * 4 + 4].copy_from_slice(&word(i)?);
            }
            Some(IpAddr::V6(Ipv6Addr::from(b)))
        }
        _ => None,
    }
}

/// `::ffff:a.b.c.d` is `a.b.c.d`: what the kernel connects and accepts it as.
fn unmapped(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTORS: &str = include_str!("../../tests/vectors/listeners.json");

    #[test]
    fn every_form_the_kernel_shows_is_read_as_the_vectors_say() {
        let v: serde_json::Value = serde_json::from_str(VECTORS).unwrap();
        let targets: Vec<SocketAddr> = v["targets"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().parse().unwrap()).collect();
        let header = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n";
        let mut rows = 0;
        for (name, line) in v["listeners"].as_object().unwrap() {
            let table = format!("{header}{}\n", line.as_str().unwrap());
            for (t, want) in targets.iter().zip(v["expect"][name].as_array().unwrap()) {
                let got = match lookup(&table, *t).unwrap() {
                    Listener::Yes => "yes",
                    Listener::Maybe => "maybe",
                    Listener::No => "no",
                };
                assert_eq!(got, want.as_str().unwrap(), "listener {name}, target {t}");
                rows += 1;
            }
        }
        assert_eq!(rows, 36);
    }

    #[test]
    fn no_table_says_nothing_and_an_empty_one_says_no() {
        assert_eq!(lookup("", "127.0.0.1:9".parse().unwrap()), None);
        let header_only = "  sl  local_address rem_address   st\n";
        assert_eq!(lookup(header_only, "127.0.0.1:9".parse().unwrap()), Some(Listener::No));
    }

    #[test]
    fn a_yes_anywhere_wins_over_a_maybe() {
        let t = "0: 00000000000000000000000000000000:19FD 00000000000000000000000000000000:0000 0A\n\
                 1: 0100007F:19FD 00000000:0000 0A\n";
        assert_eq!(lookup(t, "127.0.0.1:6653".parse().unwrap()), Some(Listener::Yes));
        assert_eq!(lookup(t, "127.0.0.9:6653".parse().unwrap()), Some(Listener::Maybe));
    }
}
