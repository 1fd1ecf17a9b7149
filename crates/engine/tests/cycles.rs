//! No cycle between the engine's modules at file granularity, nor between those of the
//! workspace's other crates: when a module uses another (a sibling, its parent's `mod.rs`, a
//! child), the other does not use it back, directly or round a longer loop. `layers.rs` orders
//! the engine's top-level modules; this test holds inside them, down to each file. It fails on
//! each cycle, naming its modules and, for each edge of it, the file, the line and the path.
//!
//! An edge is a path in a file's code that names an item of another module: a `crate::`,
//! `super::` or `self::` path, each leaf of a `use` tree (`{...}` groups expanded), or a path
//! through a name in scope (a child declared by `mod x;`, a module brought in by `use`). A path
//! to a module itself (`use crate::coordinator::{self}`) is no edge: the paths through it are.
//! `mod x;` declares a child, it uses nothing. Test code is no edge: a `#[cfg(test)] mod x { .. }`
//! block, or a file declared `#[cfg(test)] mod x;`. Comment lines are skipped.
//!
//! The crate root (`lib.rs`, or `main.rs` without one) is a module too, `crate`: a path to an
//! item it declares or re-exports (`crate::Ctx`) is an edge to it, so a child that reaches back
//! through the root's re-exports while the root uses the child is a cycle.

mod srctree;

use srctree::{ident, module_path, rust_files, src, without_comment_lines, ROOTS};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// `from`'s code names an item of `to` by `path`, first at `line` of `file`.
#[derive(Clone, Debug)]
struct Edge {
    file: String,
    line: usize,
    path: String,
    to: Module,
}

/// Each module's edges, keyed by the module they lead to.
type Graph = BTreeMap<Module, BTreeMap<Module, Edge>>;

fn name(m: &Module) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// `code` with the bytes of `at` blanked: newlines kept, so lines keep their numbers, and
/// every offset stays where it was.
fn blank(code: &str, at: std::ops::Range<usize>) -> String {
    let keep = |(i, c): (usize, char)| if at.contains(&i) && c != '\n' { " ".repeat(c.len_utf8()) } else { c.to_string() };
    code.char_indices().map(keep).collect()
}

/// The end (exclusive) of the `{ .. }` block opening at `open` (the whole text when unclosed).
fn block_end(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => return open + i + 1,
            '}' => depth -= 1,
            _ => {}
        }
    }
    code.len()
}

/// The `mod` declarations of `code`: (name, where it starts, where it ends, under `#[cfg(test)]`,
/// with a `{ .. }` body).
fn mod_items(code: &str) -> Vec<(String, usize, usize, bool, bool)> {
    let mut out = vec![];
    for (at, _) in code.match_indices("mod ") {
        if at > 0 && code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let name = ident(&code[at + 4..]);
        let after = code[at + 4 + name.len()..].trim_start();
        let open = code.len() - after.len();
        let body = after.starts_with('{');
        if name.is_empty() || !(body || after.starts_with(';')) {
            continue;
        }
        let before = code[..at].trim_end();
        let before = before.strip_suffix("pub(crate)").or_else(|| before.strip_suffix("pub")).unwrap_or(before).trim_end();
        let test = before.ends_with("#[cfg(test)]");
        let start = if test { before.len() - "#[cfg(test)]".len() } else { at };
        let end = if body { block_end(code, open) } else { open + 1 };
        out.push((name.to_string(), start, end, test, body));
    }
    out
}

/// The `use` declarations of `code`: (where `use` starts, where its `;` ends).
fn use_items(code: &str) -> Vec<(usize, usize)> {
    let mut out = vec![];
    for (at, _) in code.match_indices("use") {
        let in_word = code[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if in_word || !code[at + 3..].starts_with(char::is_whitespace) {
            continue;
        }
        let before = code[..at].trim_end();
        if before.is_empty() || before.ends_with(['{', '}', ';', ']', ')']) || before.ends_with("pub") {
            out.push((at, code[at..].find(';').map_or(code.len(), |e| at + e + 1)));
        }
    }
    out
}

/// The tokens of a `use` tree: identifiers, `::`, and single characters.
fn tokens(tree: &str) -> Vec<String> {
    let (mut out, mut rest) = (vec![], tree);
    while let Some(c) = rest.chars().next() {
        let id = ident(rest.trim_start_matches('$'));
        let len = if !id.is_empty() {
            out.push(id.to_string());
            rest.len() - rest.trim_start_matches('$').len() + id.len()
        } else if rest.starts_with("::") {
            out.push("::".into());
            2
        } else {
            if !c.is_whitespace() {
                out.push(c.to_string());
            }
            c.len_utf8()
        };
        rest = &rest[len..];
    }
    out
}

/// The leaves of a `use` tree from token `i`: each a path and the name it is known by here
/// (`*` for a glob; `x::{self}` is `x`, known as `x`).
fn leaves(t: &[String], i: &mut usize, prefix: Vec<String>, out: &mut Vec<(Vec<String>, String)>) {
    let mut path = prefix;
    while let Some(tok) = t.get(*i) {
        *i += 1;
        match tok.as_str() {
            "{" => {
                while t.get(*i).is_some_and(|x| x != "}") {
                    leaves(t, i, path.clone(), out);
                    if t.get(*i).is_some_and(|x| x == ",") {
                        *i += 1;
                    }
                }
                *i += 1;
                return;
            }
            "*" => return out.push((path, "*".into())),
            _ => {
                if tok != "self" || path.is_empty() {
                    path.push(tok.clone());
                }
                if t.get(*i).is_some_and(|x| x == "::") {
                    *i += 1;
                    continue;
                }
                let mut known = path.last().cloned().unwrap_or_default();
                if t.get(*i).is_some_and(|x| x == "as") {
                    known = t.get(*i + 1).cloned().unwrap_or_default();
                    *i += 2;
                }
                return out.push((path, known));
            }
        }
    }
}

/// `path` as written in module `from`, as a path from the crate root (None: another crate's).
fn absolute(from: &Module, path: &[String], scope: &BTreeMap<String, Module>) -> Option<Module> {
    let (first, rest) = path.split_first()?;
    let mut base = match first.as_str() {
        "crate" => vec![],
        "self" => from.clone(),
        "super" => from[..from.len().checked_sub(1)?].to_vec(),
        name => scope.get(name)?.clone(),
    };
    let mut rest = rest;
    while rest.first().is_some_and(|s| s == "super") {
        base.pop()?;
        rest = &rest[1..];
    }
    base.extend(rest.iter().filter(|s| *s != "*").cloned());
    Some(base)
}

/// The module that owns the item `abs` names: its longest prefix that is a module (the crate
/// root, `[]`, for an item the root declares or re-exports).
fn owner(abs: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    (0..=abs.len()).rev().map(|n| abs[..n].to_vec()).find(|m| modules.contains(m))
}

/// Paths in `code` (its `use` items blanked) that start with a name: (offset, segments).
fn code_paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let mut out = vec![];
    let is_id = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let id = ident(rest);
        let starts = !id.is_empty() && !code[..at].ends_with(is_id) && !code[..at].ends_with(':');
        if !starts {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let (mut path, mut end) = (vec![id.to_string()], at + id.len());
        while let Some(next) = code[end..].strip_prefix("::").map(ident).filter(|n| !n.is_empty()) {
            path.push(next.to_string());
            end += 2 + next.len();
        }
        if path.len() > 1 {
            out.push((at, path));
        }
        at = end;
    }
    out
}

/// One file's module, its code (comments and test blocks blanked), and its declared children.
struct Unit {
    file: String,
    module: Module,
    code: String,
    children: Vec<String>,
}

/// The crate root's file: `lib.rs`, or `main.rs` for a crate with no library. Beside a `lib.rs`,
/// `main.rs` is a binary crate of its own that reaches the library by its crate name, never by
/// `crate::`; it must declare no module (or its tree would be one this test does not read).
fn root_file(files: &[(String, String)]) -> &'static str {
    let has = |f: &str| files.iter().any(|(name, _)| name == f);
    if !has("lib.rs") {
        return ROOTS[1];
    }
    if let Some((_, main)) = files.iter().find(|(f, _)| f == ROOTS[1]) {
        assert!(
            mod_items(&without_comment_lines(main)).is_empty(),
            "main.rs beside lib.rs declares modules: tests/cycles.rs reads only lib.rs's tree"
        );
    }
    ROOTS[0]
}

/// The files as modules, the crate root as `[]`: test-only files (`#[cfg(test)] mod x;`) and
/// a binary's `main.rs` beside `lib.rs` left out.
fn units(files: &[(String, String)]) -> Vec<Unit> {
    let mut units = vec![];
    let mut test_only = BTreeSet::new();
    let root = root_file(files);
    let in_tree = |f: &str| f == root || !ROOTS.contains(&f);
    for (file, text) in files.iter().filter(|(f, _)| in_tree(f)) {
        let module = if file == root { vec![] } else { module_path(Path::new(file)) };
        let mut code = without_comment_lines(text);
        let mut children = vec![];
        for (child, start, end, test, body) in mod_items(&code) {
            match (test, body) {
                (true, true) => code = blank(&code, start..end),
                (true, false) => drop(test_only.insert([module.clone(), vec![child]].concat())),
                (false, _) => children.push(child),
            }
        }
        units.push(Unit { file: file.clone(), module, code, children });
    }
    units.retain(|u| !test_only.iter().any(|t| u.module.starts_with(t)));
    units
}

/// The module graph of `files` (path under src, text): what each module's code names.
fn graph(files: &[(String, String)]) -> Graph {
    let units = units(files);
    let modules: BTreeSet<Module> = units.iter().map(|u| u.module.clone()).collect();
    let mut g = Graph::new();
    for u in &units {
        let edges = g.entry(u.module.clone()).or_default();
        let mut add = |at: usize, abs: &Module, path: &[String]| {
            if let Some(to) = owner(abs, &modules).filter(|to| *to != u.module) {
                let line = u.code[..at].matches('\n').count() + 1;
                edges.entry(to.clone()).or_insert(Edge { file: u.file.clone(), line, path: path.join("::"), to });
            }
        };
        let mut scope: BTreeMap<String, Module> =
            u.children.iter().map(|c| (c.clone(), [u.module.clone(), vec![c.clone()]].concat())).collect();
        let mut code = u.code.clone();
        for (start, end) in use_items(&u.code) {
            let (mut i, mut found) = (0, vec![]);
            leaves(&tokens(&u.code[start + 3..end - 1]), &mut i, vec![], &mut found);
            for (path, known) in found {
                let Some(abs) = absolute(&u.module, &path, &scope) else { continue };
                if known != "*" && modules.contains(&abs) {
                    scope.insert(known, abs);
                } else {
                    add(start, &abs, &path);
                }
            }
            code = blank(&code, start..end);
        }
        for (at, path) in code_paths(&code) {
            if let Some(abs) = absolute(&u.module, &path, &scope) {
                add(at, &abs, &path);
            }
        }
    }
    g
}

/// The cycles of `g`: its strongly connected components of more than one module (Tarjan),
/// each sorted.
fn cycles(g: &Graph) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a Module, (usize, usize)>,
        stack: Vec<&'a Module>,
        out: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let i = self.index.len();
            self.index.insert(v, (i, i));
            self.stack.push(v);
            for w in self.g.get(v).into_iter().flat_map(|e| e.keys()) {
                let low = match self.index.get(w) {
                    None => {
                        self.visit(w);
                        self.index[w].1
                    }
                    Some(&(wi, _)) if self.stack.contains(&w) => wi,
                    Some(_) => continue,
                };
                let e = self.index.get_mut(v).expect("visited");
                e.1 = e.1.min(low);
            }
            if self.index[v].0 == self.index[v].1 {
                let at = self.stack.iter().rposition(|m| *m == v).expect("on the stack");
                let mut scc: Vec<Module> = self.stack.drain(at..).cloned().collect();
                scc.sort();
                if scc.len() > 1 {
                    self.out.push(scc);
                }
            }
        }
    }
    let mut walk = Walk { g, index: BTreeMap::new(), stack: vec![], out: vec![] };
    for v in g.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.out.sort();
    walk.out
}

/// A cycle in words: its modules, then each edge between them with where it is written.
fn report(g: &Graph, cycle: &[Module]) -> String {
    let mut s = format!("cycle: {}", cycle.iter().map(name).collect::<Vec<_>>().join(", "));
    for from in cycle {
        for e in g.get(from).into_iter().flat_map(|e| e.values()).filter(|e| cycle.contains(&e.to)) {
            s += &format!("\n  {} -> {}: src/{}:{}: {}", name(from), name(&e.to), e.file, e.line, e.path);
        }
    }
    s
}

fn source_tree(src: &Path) -> Vec<(String, String)> {
    rust_files(src)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(src).expect("under src").to_string_lossy().into_owned();
            (rel, std::fs::read_to_string(&f).expect("a source file is readable"))
        })
        .collect()
}

/// The cycles of the crate whose sources are `src`, in words; at least `modules` modules and
/// `edges` edges must be read.
fn cycles_of(src: &Path, modules: usize, edges: usize) -> Vec<String> {
    let g = graph(&source_tree(src));
    let found: usize = g.values().map(BTreeMap::len).sum();
    assert!(g.len() >= modules && found >= edges, "{} read as {} modules with {found} edges: the reader is broken", src.display(), g.len());
    cycles(&g).iter().map(|c| report(&g, c)).collect()
}

#[test]
fn no_cycle_between_modules() {
    let found = cycles_of(&src(), 50, 100);
    assert!(found.is_empty(), "modules that use each other (tests/cycles.rs):\n{}", found.join("\n"));
}

/// The workspace's other crates hold to the same rule (the codec, the emulated switch, the
/// controller core, the switch harness, ...).
#[test]
fn no_cycle_between_modules_of_the_other_crates() {
    let crates = [("ofwire", 25), ("ofswitch", 15), ("ofcontroller", 2), ("ofmutate", 4), ("responder", 4), ("switchbench", 10)];
    for (krate, modules) in crates {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(krate).join("src");
        let found = cycles_of(&dir, modules, 1);
        assert!(found.is_empty(), "modules of {krate} that use each other (tests/cycles.rs):\n{}", found.join("\n"));
    }
}

fn tree(files: &[(&str, &str)]) -> Vec<(String, String)> {
    files.iter().map(|(f, t)| (f.to_string(), t.to_string())).collect()
}

fn edges(files: &[(&str, &str)]) -> Vec<String> {
    let g = graph(&tree(files));
    g.iter().flat_map(|(from, e)| e.keys().map(move |to| format!("{} -> {}", name(from), name(to)))).collect()
}

#[test]
fn edges_are_the_paths_to_other_modules_items() {
    let found = edges(&[
        ("a/mod.rs", "mod b;\nmod c;\npub use b::B;\nfn f() { c::g(); }\n"),
        ("a/b.rs", "// use crate::z::Z; in a comment is no edge\npub struct B;\n"),
        ("a/c.rs", "use super::*;\npub fn g() {}\n"),
        ("z.rs", "use crate::a::{self, b::B as Bee};\nfn f() { a::c::g(); }\n"),
        ("y.rs", "use crate::{z, a::b::{self}};\nfn f() { z::f(); b::B; std::process::id(); $crate::x::X; }\n"),
        ("x.rs", "pub struct X;\n"),
    ]);
    let want = ["a -> a::b", "a -> a::c", "a::c -> a", "y -> a::b", "y -> x", "y -> z", "z -> a::b", "z -> a::c"];
    assert_eq!(found, want);
}

#[test]
fn a_cycle_is_found_and_named() {
    let files = tree(&[
        ("x.rs", "use crate::y::Y;\npub struct X;\n"),
        ("y.rs", "pub struct Y;\npub fn f() -> crate::x::X { crate::x::X }\n"),
        ("a/mod.rs", "mod b;\nmod c;\npub use b::B;\npub struct A;\n"),
        ("a/b.rs", "use super::{c::C, A};\npub struct B;\n"),
        ("a/c.rs", "pub struct C;\n"),
    ]);
    let g = graph(&files);
    let found: Vec<String> = cycles(&g).iter().map(|c| report(&g, c)).collect();
    assert_eq!(
        found,
        [
            "cycle: a, a::b\n  a -> a::b: src/a/mod.rs:3: b::B\n  a::b -> a: src/a/b.rs:1: super::A",
            "cycle: x, y\n  x -> y: src/x.rs:1: crate::y::Y\n  y -> x: src/y.rs:2: crate::x::X",
        ]
    );
}

#[test]
fn test_code_and_a_facade_make_no_cycle() {
    let files = tree(&[
        ("a/mod.rs", "mod b;\nmod c;\npub use b::B;\npub use c::C;\n#[cfg(test)]\nmod tests;\n"),
        ("a/b.rs", "use super::c::C;\npub struct B(C);\n#[cfg(test)]\nmod tests {\n    use super::*;\n    fn f() { crate::a::B; }\n}\n"),
        ("a/c.rs", "pub struct C;\n"),
        ("a/tests.rs", "use super::*;\nuse crate::a::B;\n"),
        ("lib.rs", "mod a;\n"),
    ]);
    let g = graph(&files);
    assert!(cycles(&g).is_empty(), "{:?}", cycles(&g));
    assert_eq!(
        edges(&[("a/mod.rs", "mod b;\n#[cfg(test)]\nmod tests { use super::b::*; }\n"), ("a/b.rs", "use super::*;\n")]),
        ["a::b -> a"]
    );
}

#[test]
fn the_crate_root_is_a_module_too() {
    let files = tree(&[
        ("lib.rs", "pub mod cases;\npub struct Case;\npub fn all() -> &'static [Case] { cases::CASES }\n"),
        ("cases.rs", "use crate::Case;\npub static CASES: &[Case] = &[];\n"),
        ("main.rs", "fn main() { sdnbench::all(); }\n"),
    ]);
    let g = graph(&files);
    let found: Vec<String> = cycles(&g).iter().map(|c| report(&g, c)).collect();
    assert_eq!(found, ["cycle: crate, cases\n  crate -> cases: src/lib.rs:3: cases::CASES\n  cases -> crate: src/cases.rs:1: crate::Case"]);
    assert_eq!(edges(&[("main.rs", "mod a;\nfn main() { a::f(); }\n"), ("a.rs", "pub fn f() {}\n")]), ["crate -> a"]);
}
