//! The command lines of the commands beside `bench`: `merge` and `k8s-agent`. Their flags are
//! clap structs beside the code they drive (`distributed::merge::Flags`,
//! `distributed::k8s_pod::Flags`); this file parses them as `bench`'s are parsed: `--help` and
//! `--version` print and exit 0, anything wrong is one line and exit 1, an output file that
//! cannot be written is refused before anything is read or started. (`cbench` keeps cbench's
//! own grammar, `front/cbench.rs`.)

use crate::distributed::{k8s_pod, merge};
use crate::exit;
use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};

/// The commands parsed here, by name, as clap holds them (`tests/bad_input.rs` walks them).
pub fn commands() -> Vec<(&'static str, clap::Command)> {
    vec![("merge", merge::Flags::command()), ("k8s-agent", k8s_pod::Flags::command())]
}

/// `args` as the flags `T` of command `name`, or one line for the user.
fn parse<T: CommandFactory + FromArgMatches>(name: &str, args: Vec<String>) -> Result<T, String> {
    let program = format!("sdnbench-engine {name}");
    let m = match T::command().try_get_matches_from(std::iter::once(program).chain(args)) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            exit::print(&e.render().to_string());
            std::process::exit(exit::finish("sdnbench-engine", exit::MEASURED));
        }
        Err(e) => return Err(crate::front::cli::one_line(&e)),
    };
    T::from_arg_matches(&m).map_err(|e| crate::front::cli::one_line(&e))
}

/// A refusal: one line naming the command, exit 1.
fn refuse(name: &str, e: &str) -> i32 {
    eprintln!("sdnbench-engine {name}: {e}");
    exit::USER
}

/// `sdnbench-engine merge FILE... [--json OUT]` (`distributed/merge.rs`).
pub fn merge(args: Vec<String>) -> i32 {
    let f: merge::Flags = match parse("merge", args) {
        Ok(f) => f,
        Err(e) => return refuse("merge", &e),
    };
    if let Some(p) = &f.json {
        if let Err(e) = crate::front::preflight::writable("--json", p) {
            return refuse("merge", &e);
        }
    }
    merge::main(f)
}

/// `sdnbench-engine k8s-agent --config FILE [--coordinator HOST:PORT] [--serve ADDR:PORT]
/// [--json FILE]` (`distributed/k8s_pod.rs`).
pub fn k8s_agent(args: Vec<String>) -> i32 {
    let f: k8s_pod::Flags = match parse("k8s-agent", args) {
        Ok(f) => f,
        Err(e) => return refuse("k8s-agent", &e),
    };
    if let Some(p) = &f.json {
        if let Err(e) = crate::front::preflight::writable("--json", p) {
            return refuse("k8s-agent", &e);
        }
    }
    k8s_pod::main(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn merge_takes_files_and_an_output() {
        let f: merge::Flags = parse("merge", args("a.json b.json --json out.json")).unwrap();
        assert_eq!(f.files, ["a.json", "b.json"]);
        assert_eq!(f.json.as_deref(), Some(std::path::Path::new("out.json")));
        for bad in ["", "--json", "a.json --json", "a.json --bogus", "--json x"] {
            let e = parse::<merge::Flags>("merge", args(bad)).err().unwrap_or_else(|| panic!("{bad:?} accepted"));
            assert!(!e.trim().contains('\n') && e.ends_with("(see --help)"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn every_command_here_is_listed_in_the_help_of_bench() {
        let help = crate::front::command().get_after_help().map(|h| h.to_string()).unwrap_or_default();
        for (name, _) in commands() {
            assert!(help.contains(&format!("sdnbench-engine {name} ")), "{name} in --help");
        }
    }
}
