//! Strict validation: each malformed message is rejected with the typed error that says why.

use ofwire::{Error, Message};

fn hex(s: &str) -> Vec<u8> {
    let s: String = s.split_whitespace().collect();
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn each_malformation_has_its_error() {
    let cases: &[(&str, &str, Error)] = &[
        ("shorter than a header", "04 00 00", Error::Truncated { need: 8, have: 3 }),
        ("length below 8", "04 02 00 04 00 00 00 01", Error::BadLength { what: "ofp_header.length", len: 4 }),
        ("length beyond the buffer", "04 02 00 10 00 00 00 01 aa", Error::Truncated { need: 16, have: 9 }),
        ("bytes after the message", "04 02 00 08 00 00 00 01 aa", Error::TrailingBytes { what: "message", len: 1 }),
        ("unsupported version", "03 0a 00 08 00 00 00 01", Error::BadVersion(3)),
        ("barrier with a body", "04 14 00 0c 00 00 00 01 00 00 00 00", Error::TrailingBytes { what: "empty-bodied message", len: 4 }),
        (
            "in_port OXM of 3 bytes",
            "04 0a 00 28 00 00 00 01  ff ff ff ff 00 00 00 00  00 00 00 00 00 00 00 00  00 01 00 0b 80 00 00 03  00 00 01 00 00 00 00 00",
            Error::BadOxm { field: 0, len: 3 },
        ),
        (
            "a match that is not OXM",
            "04 0a 00 28 00 00 00 01  ff ff ff ff 00 00 00 00  00 00 00 00 00 00 00 00  00 00 00 0c 80 00 00 04  00 00 00 01 00 00 00 00",
            Error::BadMatchType(0),
        ),
        (
            "packet-out whose actions_len runs past the message",
            "01 0d 00 18 00 00 00 01  ff ff ff ff 00 01 00 10  00 00 00 08 00 02 00 00",
            Error::Truncated { need: 24, have: 16 },
        ),
        (
            "1.0 output action claiming 16 bytes",
            "01 0d 00 20 00 00 00 01  ff ff ff ff 00 01 00 10  00 00 00 10 00 02 00 00  00 00 00 00 00 00 00 00",
            Error::BadLength { what: "action length", len: 16 },
        ),
        (
            "action of length 0 (would loop forever)",
            "01 0d 00 18 00 00 00 01  ff ff ff ff 00 01 00 08  00 00 00 00 00 00 00 00",
            Error::BadLength { what: "action length", len: 0 },
        ),
        (
            "features reply with a torn port",
            "01 06 00 24 00 00 00 01  00 00 00 00 00 00 00 01  00 00 01 00 fe 00 00 00  00 00 00 c7 00 00 0f ff  00 01 02 00",
            Error::Truncated { need: 8, have: 4 },
        ),
        (
            "hello element shorter than its header",
            "04 00 00 10 00 00 00 01 00 01 00 02 00 00 00 00",
            Error::BadLength { what: "ofp_hello_elem.length", len: 2 },
        ),
        ("set-config cut short", "04 09 00 0a 00 00 00 01 00 00", Error::Truncated { need: 4, have: 2 }),
    ];
    for (what, bytes, want) in cases {
        assert_eq!(Message::parse(&hex(bytes)).unwrap_err(), *want, "{what}");
        assert!(!want.to_string().is_empty());
    }
}

#[test]
fn errors_read_as_one_line() {
    let e = Error::Truncated { need: 16, have: 9 };
    assert_eq!(e.to_string(), "truncated: need 16 bytes, have 9");
    assert_eq!(Error::BadOxm { field: 3, len: 5 }.to_string(), "bad OXM field 3 with payload length 5");
    assert_eq!(Error::BadVersion(6).to_string(), "unsupported OpenFlow version 0x06");
}
