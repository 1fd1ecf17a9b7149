//! The engine's source tree as its structure tests read it (`layers.rs`, `cycles.rs`): the
//! files under src, the module path of each, and its code without comment lines.

use std::path::{Path, PathBuf};

/// Files that are not a module of the tree: the crate root and the binary.
pub const ROOTS: &[&str] = &["lib.rs", "main.rs"];

pub fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).expect("src is readable") {
            let p = e.expect("a directory entry").path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = vec![];
    walk(dir, &mut out);
    out.sort();
    out
}

/// The module path of a file under src: `switch/workload/mod.rs` is `["switch", "workload"]`.
pub fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel.iter().map(|c| c.to_string_lossy().into_owned()).collect();
    let last = parts.pop().expect("a file name");
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_string());
    }
    parts
}

/// The identifier at the start of `s` (empty when there is none).
pub fn ident(s: &str) -> &str {
    let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(s.len());
    &s[..end]
}

/// `text` with every comment line (`//`, `//!`, `///`) blanked; lines keep their numbers.
pub fn without_comment_lines(text: &str) -> String {
    text.lines().map(|l| if l.trim_start().starts_with("//") { "\n".to_string() } else { format!("{l}\n") }).collect()
}
