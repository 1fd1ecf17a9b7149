//! The processes this one starts (workers, agents, and the `ip netns exec`/`ssh` that carry an
//! agent) end when it ends, however it ends:
//! - each is started with `PR_SET_PDEATHSIG(SIGKILL)`, set between fork and exec, so the kernel
//!   kills it when its parent dies (SIGKILL, an abort, the OOM killer). The signal follows the
//!   *thread* that forked: every child is started from the thread that runs the whole command (the
//!   main thread). A child whose parent died before the setting took hold exits at once;
//! - each reads its parent's pipe and ends at its close (`front/run.rs`, `distributed/agent.rs`);
//! - a panic kills every child still listed here (and its process group, when it leads one)
//!   before the process exits (`exit::panic_is_a_bug`).
//!
//! A child is listed from its start until it is reaped, so a listed pid is never another
//! process's: the pid of an unreaped child cannot be reused.

use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::Mutex;

/// Children started and not yet reaped: (pid, leads its own process group).
static LIVE: Mutex<Vec<(u32, bool)>> = Mutex::new(Vec::new());

/// Make the child of `cmd` die with this process (the setting survives its exec).
pub fn die_with_us(cmd: &mut Command) {
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: the closure runs in the forked child and makes only async-signal-safe system calls.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            // the parent died between the fork and the prctl: no signal will come
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            Ok(())
        });
    }
}

/// List a child just started (`own_group`: it leads a process group of its own).
pub(crate) fn started(pid: u32, own_group: bool) {
    LIVE.lock().unwrap_or_else(|p| p.into_inner()).push((pid, own_group));
}

/// Unlist a child once reaped.
pub(crate) fn reaped(pid: u32) {
    LIVE.lock().unwrap_or_else(|p| p.into_inner()).retain(|(p, _)| *p != pid);
}

/// SIGKILL every listed child, and the group of each that leads one (what it started in turn).
pub fn kill_all() {
    // a panic while the list was held must not stop this: take it as it is
    let live = match LIVE.try_lock() {
        Ok(l) => l.clone(),
        Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().clone(),
        Err(std::sync::TryLockError::WouldBlock) => return,
    };
    for (pid, own_group) in live {
        let pid = pid as libc::pid_t;
        unsafe {
            if own_group {
                libc::kill(-pid, libc::SIGKILL);
            }
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    fn gone(pid: u32, within: Duration) -> bool {
        let t = Instant::now();
        while t.elapsed() < within {
            // a zombie is gone too: it holds nothing but its pid
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return true,
                Ok(s) if s.rsplit(')').next().is_some_and(|r| r.trim_start().starts_with('Z')) => return true,
                Ok(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        false
    }

    #[test]
    fn a_listed_child_and_its_group_are_killed_and_an_unlisted_one_is_not() {
        let mut lead = Command::new("sh");
        lead.args(["-c", "sleep 60 & echo $!; wait"]).stdout(std::process::Stdio::piped());
        lead.process_group(0);
        die_with_us(&mut lead);
        let mut lead = lead.spawn().unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(lead.stdout.take().unwrap()), &mut line).unwrap();
        let grandchild: u32 = line.trim().parse().unwrap();
        let mut other = Command::new("sleep").arg("60").spawn().unwrap();
        started(lead.id(), true);
        kill_all();
        assert!(gone(lead.id(), Duration::from_secs(5)), "the listed child lives");
        assert!(gone(grandchild, Duration::from_secs(5)), "its group's member lives");
        assert!(!gone(other.id(), Duration::from_millis(200)), "an unlisted child was killed");
        reaped(lead.id());
        let _ = lead.wait();
        let _ = other.kill();
        let _ = other.wait();
    }
}
