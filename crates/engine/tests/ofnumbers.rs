//! `ofwire` is the only source of OpenFlow numbers: no other crate of the workspace declares a
//! message type, error type or code, stats kind, command, role, flag or reason of its own. The
//! test reads every Rust file under `crates/*/src` and `crates/*/tests` (ofwire's excepted) and
//! fails on each integer `const` given a number (a literal, not an expression over ofwire's
//! names such as `MsgType::Hello.code(v)`) whose name is an OpenFlow one, naming the file and
//! the line:
//! - a name starting `OFP` (the spec's own names: `OFPT_FLOW_MOD`, `OFPFC_ADD`, ...);
//! - a name holding a message kind (`FLOW_MOD`, `PACKET_OUT`, ..., from ofwire's `MsgType`);
//! - a name with the short prefixes the spec's names are made of (`ET_`, `BRC_`, `FMF13_`,
//!   `ST_`, `FC_`, `RR_`, ...);
//! - a `const` whose trailing comment names an `OFP*` constant (`= 4; // OFPPS_LIVE`).
//!
//! It also fails on a message type compared by number (`msg_type() == 14`, `msg[1] == 13`).
//! It reads source text, so it sees only what is written in these shapes; a test vector of
//! bytes (`[1, 14, 0, 72, ..]`) is data, not a declaration, and is left alone.

use std::path::{Path, PathBuf};

/// The short prefixes of the spec's constant names (OFPET_ -> ET_, OFPBRC_ -> BRC_, ...).
const PREFIXES: &[&str] = &[
    "ET_", "HFC_", "BRC_", "BAC_", "BIC_", "BMC_", "FMF", "GMF_", "MMF_", "PMF_", "RRF_", "TMF_", "TFF_", "QOF_", "ST_", "MP_", "FC_",
    "FF_", "RR_", "PC_", "PS_", "PR_", "ROLE_", "REASON_", "OFPCR_", "NXT_", "NX_",
];

fn crates_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries {
        let p = e.expect("a directory entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The message kinds as constant names: `FLOW_MOD`, `PACKET_IN`, ... (ofwire's table).
fn kind_names() -> Vec<String> {
    let mut names: Vec<String> = (0..=40u8)
        .flat_map(|code| [ofwire::MsgType::from_wire(ofwire::OFP10, code), ofwire::MsgType::from_wire(ofwire::OFP13, code)])
        .filter(|k| !matches!(k, ofwire::MsgType::Unknown(_)))
        .map(|k| k.name().to_ascii_uppercase())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `const NAME: uN = <a number>;` on this line: (NAME, what follows the `;`). A value with no
/// token that starts with a digit (`kind::DESC`, `MsgType::Hello.code(Version::V13)`) is
/// ofwire's number under another name, not one declared here.
fn int_const(line: &str) -> Option<(&str, &str)> {
    let at = line.find("const ")?;
    let rest = &line[at + "const ".len()..];
    let (name, rest) = rest.split_once(':')?;
    let (ty, rest) = rest.trim_start().split_once('=')?;
    let ints = ["u8", "u16", "u32", "u64", "usize", "i32"];
    if !ints.contains(&ty.trim()) || !name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') {
        return None;
    }
    let (value, after) = rest.split_once(';')?;
    let starts = |(i, c): (usize, char)| c.is_ascii_digit() && !value[..i].ends_with(|p: char| p.is_ascii_alphanumeric() || p == '_');
    value.char_indices().any(starts).then_some((name, after))
}

/// Why `line` declares or compares an OpenFlow number, if it does.
fn offence(line: &str, kinds: &[String]) -> Option<String> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return None;
    }
    for cmp in ["msg_type() == ", "msg[1] == ", "msg_type == "] {
        if let Some(at) = code.find(cmp) {
            if code[at + cmp.len()..].starts_with(|c: char| c.is_ascii_digit()) {
                return Some(format!("compares a message type by number (`{cmp}N`): use ofwire's MsgType"));
            }
        }
    }
    let (name, after) = int_const(code)?;
    if name.starts_with("OFP") {
        return Some(format!("declares {name}, a spec name"));
    }
    if let Some(k) = kinds.iter().find(|k| name.contains(k.as_str())) {
        return Some(format!("declares {name}, named for the message kind {k}"));
    }
    if let Some(p) = PREFIXES.iter().find(|p| name.starts_with(*p)) {
        return Some(format!("declares {name}, an OpenFlow number by its prefix {p}"));
    }
    if after.contains("OFP") {
        return Some(format!("declares {name}, an OpenFlow number by its comment"));
    }
    None
}

/// Every offence in the crates under `dir` but ofwire, one line each.
fn offences(dir: &Path) -> Vec<String> {
    let kinds = kind_names();
    let mut files = vec![];
    for krate in std::fs::read_dir(dir).expect("crates/ is readable") {
        let krate = krate.expect("a directory entry").path();
        if krate.file_name().is_some_and(|n| n == "ofwire") || !krate.is_dir() {
            continue;
        }
        rust_files(&krate.join("src"), &mut files);
        rust_files(&krate.join("tests"), &mut files);
    }
    files.sort();
    let mut out = vec![];
    for f in files {
        if f.ends_with(file!().rsplit('/').next().unwrap_or_default()) && f.parent().is_some_and(|p| p.ends_with("tests")) {
            continue; // this file's own examples
        }
        let text = std::fs::read_to_string(&f).expect("a source file is readable");
        let rel = f.strip_prefix(dir).unwrap_or(&f).display().to_string();
        for (i, line) in text.lines().enumerate() {
            if let Some(why) = offence(line, &kinds) {
                out.push(format!("crates/{rel}:{}: {why}", i + 1));
            }
        }
    }
    out
}

#[test]
fn only_ofwire_declares_openflow_numbers() {
    let found = offences(&crates_dir());
    assert!(
        found.is_empty(),
        "OpenFlow numbers outside ofwire (tests/ofnumbers.rs): add them to ofwire and use them from there:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_shapes_it_refuses() {
    let kinds = kind_names();
    assert!(kinds.contains(&"FLOW_MOD".to_string()) && kinds.contains(&"PACKET_OUT".to_string()), "{kinds:?}");
    let bad = [
        "const FLOW_MOD: u8 = 14;",
        "pub const OFPT_HELLO: u8 = 0;",
        "    const OFPFC_ADD: u16 = 0;",
        "pub const ET_FLOW_MOD_FAILED13: u16 = 5;",
        "pub const BRC_BUFFER_UNKNOWN: u16 = 8;",
        "pub const FMF10_OVERLAP: u16 = 1;",
        "const PORT_STATE_LIVE: u32 = 4; // OFPPS_LIVE (1.3 only)",
        "pub const ROLE_SLAVE: u32 = 3;",
        "if h.msg_type() == 14 {",
        "pub const ST_ALL: u16 = 0xffff & kind::DESC;",
    ];
    for line in bad {
        assert!(offence(line, &kinds).is_some(), "{line}");
    }
    let fine = [
        "const MAX_MSG: usize = 65_000;",
        "pub const PROBE_XID: u32 = 0x5eed_0001;",
        "// const FLOW_MOD: u8 = 14; in a comment",
        "if h.msg_type() == MsgType::FlowMod.code(v) {",
        "let m = [1, 14, 0, 72];",
        "pub const ST_DESC: u16 = kind::DESC;",
        "const HELLO: u8 = MsgType::Hello.code(Version::V13);",
    ];
    for line in fine {
        assert!(offence(line, &kinds).is_none(), "{line}");
    }
}
