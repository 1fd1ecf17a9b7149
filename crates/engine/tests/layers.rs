//! The engine's top-level modules are layers: a module imports only those below it, so there
//! is no cycle between them. `LAYERS` states the order once, top first; this test reads every
//! source file and fails on each `crate::` path (or `super::` chain that leaves its top-level
//! module) that names a module above the file's own, naming the file, the line and the path.
//! A layer whose files need an order of their own has one in `INSIDE`, checked the same way one
//! level down. Inside a layer, `cycles.rs` holds the rule of no loop between files. Distribution
//! is one layer: what only agents have is named nowhere else (`distribution_is_one_folder`).

mod srctree;

use srctree::{ident, module_path, rust_files, src, without_comment_lines, ROOTS};
use std::path::Path;

/// Top first. A module may use the ones after it, never those before it.
const LAYERS: &[&str] = &[
    "front",
    "distributed",
    "export",
    "coordinator",
    "robust",
    "switch",
    "network",
    "tls",
    "hist",
    "config",
    "exit",
    "children",
    "trim",
    "arena",
    "result",
];

/// Layers that name no other module of the crate (only std and other crates). `result` is the
/// public document, whose JSON Schema is generated from its types: were it to name a type of
/// the worker protocol, the network or the config, a change there would change the schema
/// unseen. The layers that fill it convert into its records, or fill records it defines.
const LEAVES: &[&str] = &["result"];

/// Layers inside a top-level module, top first, one level down: each row is a set of its
/// modules that may use those of later rows, never those of earlier ones (in one row,
/// `cycles.rs` keeps them from a loop).
const INSIDE: &[(&str, &[&[&str]])] = &[(
    "switch",
    &[
        // a worker runs a driver; a driver starts the sessions of its workload; `footprint`
        // (tests only) measures a held session's parts from above, as a worker makes them
        &["worker", "footprint"],
        &["driver"],
        // the per-switch hot path, phase by phase (`switch/session/`)
        &["session"],
        &["shared"],
        &["protocol", "tally"],
        &["accounting", "cbench_switch", "coalesce", "exceptions", "hello_fallback", "learning", "load", "pacer", "reconnect", "stagger"],
        &["columns", "keepalive", "outstanding", "rare", "replies", "trace"],
        // what a run's switches send: read by the session and the drivers, it reads only the config
        &["workload"],
    ],
)];

/// The first names of a `{a, b::c, d::{e, f}}` group (the text after its `{`).
fn group_heads(s: &str) -> Vec<&str> {
    let (mut depth, mut start, mut heads) = (0, 0, vec![]);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                heads.push(ident(s[start..].trim_start()));
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                heads.push(ident(s[start..].trim_start()));
                start = i + 1;
            }
            _ => {}
        }
    }
    heads.into_iter().filter(|h| !h.is_empty()).collect()
}

/// The top-level modules a file's code names, with the line of each (comment lines skipped).
fn imports(text: &str, depth: usize) -> Vec<(usize, String)> {
    imports_in(text, "", depth)
}

/// The modules directly under `parent` (a top-level module; "": the crate root) that a file
/// `depth` deep names, with the line of each (comment lines skipped).
fn imports_in(text: &str, parent: &str, depth: usize) -> Vec<(usize, String)> {
    let code = without_comment_lines(text);
    let line_of = |at: usize| code[..at].matches('\n').count() + 1;
    let mut found = vec![];
    let root = if parent.is_empty() { "crate::".to_string() } else { format!("crate::{parent}::") };
    let mut roots: Vec<usize> = code.match_indices(&root).map(|(i, _)| i + root.len()).collect();
    // a chain of `super::` as long as the file is deep below `parent` reaches `parent` too
    let up = depth - usize::from(!parent.is_empty());
    for (i, _) in code.match_indices("super::") {
        let chain = code[i..].len() - code[i..].trim_start_matches("super::").len();
        if !code[..i].ends_with("super::") && chain == up * "super::".len() {
            roots.push(i + chain);
        }
    }
    roots.sort();
    for at in roots {
        let rest = &code[at..];
        let heads = if let Some(g) = rest.strip_prefix('{') { group_heads(g) } else { vec![ident(rest)] };
        found.extend(heads.into_iter().map(|h| (line_of(at), h.to_string())));
    }
    found
}

/// Every import of a module above the file's own, as one line each.
fn back_edges(src: &Path) -> Vec<String> {
    let mut bad = vec![];
    for f in rust_files(src) {
        let rel = f.strip_prefix(src).expect("under src").to_path_buf();
        if ROOTS.iter().any(|r| rel == Path::new(r)) {
            continue;
        }
        let path = module_path(&rel);
        let Some(me) = LAYERS.iter().position(|l| *l == path[0]) else {
            bad.push(format!(
                "src/{}: top-level module {:?} is not in LAYERS (tests/layers.rs): give it its place",
                rel.display(),
                path[0]
            ));
            continue;
        };
        let text = std::fs::read_to_string(&f).expect("a source file is readable");
        bad.extend(inside_back_edges(&rel, &path, &text));
        for (line, name) in imports(&text, path.len()) {
            if let Some(them) = LAYERS.iter().position(|l| *l == name) {
                if them < me {
                    bad.push(format!(
                        "src/{}:{line}: {} (layer {me}) imports crate::{name} (layer {them}, above it)",
                        rel.display(),
                        path[0]
                    ));
                }
            }
        }
    }
    bad
}

/// Every file of a leaf (`LEAVES`) that names another module of the crate, one line each.
fn leaf_imports(src: &Path) -> Vec<String> {
    let mut bad = vec![];
    for f in rust_files(src) {
        let rel = f.strip_prefix(src).expect("under src");
        let path = module_path(rel);
        let Some(leaf) = LEAVES.iter().find(|l| path.first().is_some_and(|p| p == *l)) else { continue };
        let text = std::fs::read_to_string(&f).expect("a source file is readable");
        for (line, name) in imports(&text, path.len()).into_iter().filter(|(_, n)| n != leaf) {
            bad.push(format!("src/{}:{line}: {leaf} is a leaf (LEAVES in tests/layers.rs) and imports crate::{name}", rel.display()));
        }
    }
    bad
}

/// The row of `module` among `rows` (top first).
fn row_of(rows: &[&[&str]], module: &str) -> Option<usize> {
    rows.iter().position(|r| r.contains(&module))
}

/// A file inside a module with `INSIDE` layers: every import of a module of an earlier row.
fn inside_back_edges(rel: &Path, path: &[String], text: &str) -> Vec<String> {
    let Some((parent, rows)) = INSIDE.iter().find(|(p, _)| *p == path[0]) else { return vec![] };
    if path.len() < 2 {
        return vec![];
    }
    let Some(me) = row_of(rows, &path[1]) else {
        return vec![format!("src/{}: module {parent}::{} is not in INSIDE (tests/layers.rs): give it its place", rel.display(), path[1])];
    };
    let mut bad = vec![];
    for (line, name) in imports_in(text, parent, path.len()) {
        if let Some(them) = row_of(rows, &name).filter(|&them| them < me) {
            bad.push(format!(
                "src/{}:{line}: {parent}::{} (row {me}) imports {parent}::{name} (row {them}, above it)",
                rel.display(),
                path[1]
            ));
        }
    }
    bad
}

#[test]
fn no_module_imports_one_above_it() {
    let bad = back_edges(&src());
    assert!(bad.is_empty(), "imports against the layers (LAYERS in tests/layers.rs, top first):\n{}", bad.join("\n"));
}

#[test]
fn a_leaf_imports_nothing_of_the_crate() {
    let bad = leaf_imports(&src());
    assert!(bad.is_empty(), "a leaf names only std and other crates; give it a record of its own:\n{}", bad.join("\n"));
    // the leaves sit below every other layer (else the order would allow what this rule refuses)
    let bottom = &LAYERS[LAYERS.len() - LEAVES.len()..];
    assert!(LEAVES.iter().all(|l| bottom.contains(l)), "LEAVES are the last of LAYERS: {bottom:?}");
}

#[test]
fn a_leaf_import_is_found_and_named() {
    let tree = Path::new(env!("CARGO_TARGET_TMPDIR")).join("layers-leaf/src");
    let _ = std::fs::remove_dir_all(&tree);
    std::fs::create_dir_all(tree.join("result/network")).unwrap();
    std::fs::write(tree.join("result/mod.rs"), "pub(crate) mod network;\nuse crate::result::network::Network;\n").unwrap();
    // inside result/network/: `super::` stays in result, `super::super::` reaches the crate root
    let text = "use super::events::Applied;\n// crate::config in a comment\nuse crate::switch::protocol::SwitchReport;\nfn f(_: super::super::config::Config) {}\n";
    std::fs::write(tree.join("result/network/mod.rs"), text).unwrap();
    std::fs::write(tree.join("front.rs"), "use crate::config::Config;\n").unwrap();
    let bad = leaf_imports(&tree);
    assert_eq!(
        bad,
        [
            "src/result/network/mod.rs:3: result is a leaf (LEAVES in tests/layers.rs) and imports crate::switch",
            "src/result/network/mod.rs:4: result is a leaf (LEAVES in tests/layers.rs) and imports crate::config",
        ]
    );
}

#[test]
fn every_layer_exists_and_lib_rs_lists_them_in_order() {
    let lib = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let declared: Vec<&str> =
        lib.lines().filter_map(|l| l.split_whitespace().skip_while(|w| *w != "mod").nth(1)).map(|m| m.trim_end_matches(';')).collect();
    let mut sorted: Vec<&str> = LAYERS.to_vec();
    sorted.sort();
    assert_eq!(declared, sorted, "lib.rs declares exactly the LAYERS (alphabetically)");
    let table: Vec<&str> = lib.lines().filter_map(|l| l.strip_prefix("//! | `")).map(ident).collect();
    assert_eq!(table, LAYERS, "lib.rs's layer table lists LAYERS, top first");
}

/// What only a run over agents has: the clock check and the network's peers (commands only
/// agents are sent), each agent's state, the agent specs, the pods' link, the Kubernetes Job.
const AGENTS_ONLY: &[&str] = &["Cmd::Ping", "Cmd::GoAt", "Cmd::Peers", "AgentState", "Spec::Pods", "pod_link::", "Coordinator::Pod0"];

/// Every file outside `distributed/` whose code names one of `AGENTS_ONLY`, one line each.
fn agents_outside(src: &Path) -> Vec<String> {
    let mut bad = vec![];
    for f in rust_files(src) {
        let rel = f.strip_prefix(src).expect("under src");
        let code = without_comment_lines(&std::fs::read_to_string(&f).expect("a source file is readable"));
        for w in AGENTS_ONLY.iter().filter(|w| code.contains(*w)) {
            if !rel.starts_with("distributed") {
                bad.push(format!("src/{}: names {w}, which belongs in distributed/", rel.display()));
            }
        }
    }
    bad
}

#[test]
fn distribution_is_one_folder() {
    let bad = agents_outside(&src());
    assert!(
        bad.is_empty(),
        "a run over agents is distributed/'s alone (the run loop sees agents through coordinator::remote):\n{}",
        bad.join("\n")
    );
    // the words are the folder's own: each is named there (a word renamed away would check nothing)
    let inside: String = rust_files(&src().join("distributed")).iter().map(|f| std::fs::read_to_string(f).expect("readable")).collect();
    for w in AGENTS_ONLY {
        assert!(inside.contains(w), "{w} is not named under distributed/: update AGENTS_ONLY");
    }
}

#[test]
fn a_back_edge_is_found_and_named() {
    let text = "use crate::config::Config;\n// crate::front in a comment is no import\nfn f() { crate::front::run::bench(vec![]); }\n";
    assert_eq!(imports(text, 1), vec![(1, "config".to_string()), (3, "front".to_string())]);
    assert_eq!(imports("use crate::{hist::Hist, switch::{session, worker}};", 1), vec![(1, "hist".into()), (1, "switch".into())]);
    assert_eq!(imports("use super::super::export::build;", 2), vec![(1, "export".into())]);
    assert_eq!(imports("use super::model::Model;", 2), vec![]);
    assert_eq!(module_path(Path::new("switch/workload/mod.rs")), ["switch", "workload"]);
    assert_eq!(module_path(Path::new("export.rs")), ["export"]);
}

#[test]
fn a_back_edge_inside_a_layer_is_found_and_named() {
    // one level down: the session (`switch/session/`) may use the workload, not the drivers
    let text = "use crate::switch::workload::Workload;\nuse super::super::driver::run;\nuse super::End;\n";
    assert_eq!(imports_in(text, "switch", 3), vec![(1, "workload".to_string()), (2, "driver".to_string())]);
    assert_eq!(imports_in("use super::outstanding::Outstanding;", "switch", 2), vec![(1, "outstanding".into())]);
    let path: Vec<String> = ["switch", "session", "load"].map(String::from).to_vec();
    let bad = inside_back_edges(Path::new("switch/session/load.rs"), &path, text);
    assert_eq!(bad, ["src/switch/session/load.rs:2: switch::session (row 2) imports switch::driver (row 1, above it)"]);
    let path: Vec<String> = ["switch", "workload"].map(String::from).to_vec();
    assert_eq!(inside_back_edges(Path::new("switch/workload.rs"), &path, "use crate::switch::session::learning_requests;").len(), 1);
    let path: Vec<String> = ["switch", "newcomer"].map(String::from).to_vec();
    assert!(inside_back_edges(Path::new("switch/newcomer.rs"), &path, "")[0].contains("not in INSIDE"));
}
