//! A criterion measurement of the benchmark thread's CPU time (CLOCK_THREAD_CPUTIME_ID)
//! instead of wall time, so "messages per second per core" stays meaningful on a shared,
//! loaded machine where the thread is not always on a core.

use criterion::measurement::{Measurement, ValueFormatter};
use criterion::Throughput;

pub struct CpuTime;

fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

impl Measurement for CpuTime {
    type Intermediate = u64;
    type Value = u64;

    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns() - start
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        &CpuFormatter
    }
}

struct CpuFormatter;

impl ValueFormatter for CpuFormatter {
    fn scale_values(&self, _typical_ns: f64, _values: &mut [f64]) -> &'static str {
        "ns cpu"
    }

    fn scale_throughputs(&self, _typical: f64, throughput: &Throughput, values: &mut [f64]) -> &'static str {
        let per = match *throughput {
            Throughput::Elements(n) => n as f64,
            Throughput::Bytes(n) | Throughput::BytesDecimal(n) => n as f64,
        };
        for v in values {
            *v = per * 1e9 / *v / 1e6;
        }
        "M/s per core"
    }

    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns cpu"
    }
}
