//! CPU and memory of processes, from /proc, sampled by the coordinator once per loop.

/// One process's samples: the result's type (`result/resources.rs`).
pub use crate::result::ProcSeries;

/// (cpu ticks, rss bytes, threads) of `pid`, or None if it is gone.
pub fn read(pid: u32) -> Option<(u64, u64, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // fields after the command (which may contain spaces) start after the last ')'
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    let threads = f.get(17)?.parse().ok()?;
    let statm = std::fs::read_to_string(format!("/proc/{pid}/statm")).ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some((ticks, pages * page_size(), threads))
}

/// The run-queue delay (ns) summed over the threads of `pid` now alive, or None if unreadable
/// (a kernel without schedstats, or the process gone).
pub fn run_delay_ns(pid: u32) -> Option<u64> {
    let mut sum = None;
    for t in std::fs::read_dir(format!("/proc/{pid}/task")).ok()?.flatten() {
        let Ok(text) = std::fs::read_to_string(t.path().join("schedstat")) else { continue };
        if let Some(d) = text.split_whitespace().nth(1).and_then(|v| v.parse::<u64>().ok()) {
            sum = Some(sum.unwrap_or(0) + d);
        }
    }
    sum
}

fn page_size() -> u64 {
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as u64 }
}

fn ticks_per_s() -> f64 {
    unsafe { libc::sysconf(libc::_SC_CLK_TCK) as f64 }
}

pub struct Sampler {
    pub t_s: Vec<f64>,
    pub series: Vec<ProcSeries>,
    last: Vec<Option<u64>>,
    last_delay: Vec<Option<u64>>,
    last_t: f64,
}

impl Sampler {
    pub fn new(procs: Vec<(String, u32)>, t: f64) -> Sampler {
        let last = procs.iter().map(|(_, p)| read(*p).map(|r| r.0)).collect();
        let last_delay = procs.iter().map(|(_, p)| run_delay_ns(*p)).collect();
        let series = procs.into_iter().map(|(label, pid)| ProcSeries { label, pid, ..Default::default() }).collect();
        Sampler { t_s: vec![], series, last, last_delay, last_t: t }
    }

    /// One sample of every process at time `t` (seconds).
    pub fn sample(&mut self, t: f64) {
        let dt = (t - self.last_t).max(1e-6);
        self.t_s.push(t);
        for ((s, last), last_delay) in self.series.iter_mut().zip(self.last.iter_mut()).zip(self.last_delay.iter_mut()) {
            // a thread that exited takes its delay with it: the sum may fall (read as 0)
            let delay = run_delay_ns(s.pid);
            s.run_delay_ms.push(match (delay, *last_delay) {
                (Some(d), Some(l)) => d.saturating_sub(l) as f64 / 1e6,
                _ => 0.0,
            });
            *last_delay = delay;
            match read(s.pid) {
                Some((ticks, rss, threads)) => {
                    let cpu = last.map(|l| (ticks.saturating_sub(l)) as f64 / ticks_per_s() / dt * 100.0);
                    s.cpu_percent.push(cpu.unwrap_or(0.0));
                    s.rss_bytes.push(rss);
                    s.threads.push(threads);
                    *last = Some(ticks);
                }
                None => {
                    s.cpu_percent.push(0.0);
                    s.rss_bytes.push(0);
                    s.threads.push(0);
                }
            }
        }
        self.last_t = t;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_this_process() {
        let (_, rss, threads) = read(std::process::id()).unwrap();
        assert!(rss > 0 && threads >= 1);
        let mut s = Sampler::new(vec![("self".into(), std::process::id())], 0.0);
        let mut x = 0u64;
        for i in 0..2_000_000u64 {
            x = x.wrapping_mul(31).wrapping_add(i);
        }
        std::hint::black_box(x);
        s.sample(0.5);
        assert_eq!(s.series[0].cpu_percent.len(), 1);
        assert_eq!(s.series[0].run_delay_ms.len(), 1);
        assert!(s.series[0].run_delay_ms[0] >= 0.0);
        assert!(run_delay_ns(std::process::id()).is_some(), "this kernel keeps schedstats");
        assert!(read(u32::MAX - 1).is_none());
    }
}
