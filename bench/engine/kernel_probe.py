"""What the kernel and the processes of a scale run hold, read from /proc (Linux only).

- `sockstat()`: /proc/net/sockstat's TCP line (sockets in use, orphans, TIME_WAIT, allocated,
  and `mem`: the pages of socket buffer memory the whole machine's TCP holds, tcp_mem's unit).
- `slab_kib()`: /proc/meminfo's Slab: the kernel objects behind each socket (tcp_sock, the
  socket inode, the file, epoll's item) live there, not in `mem`.
- `tcp_counters()`: the TCP counters that say whether handshakes waited on the kernel (listen
  queue overflows, SYN queue drops, SYN cookies, retransmitted SYNs, memory pressure).
- `tree(pid)`: a process and its descendants, by /proc/PID/task/*/children.
- `proc_usage(pid)`: (RSS bytes, user s, system s) of one process.
- `ctx_switches(pid)`: its context switches so far (each a sleep and a wake-up, or a preemption).
- `machine_busy_s()`: CPU seconds the whole machine was busy (/proc/stat), to tell how much of
  the 2 cores the run's own processes got and how much went to other work meanwhile.

Pure parsers (`parse_*`) are separate from the reads so they can be tested on fixed text.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")
TICK = os.sysconf("SC_CLK_TCK")

# (file, group, counter): the handshake's kernel-side failure modes.
COUNTERS = (
    ("netstat", "TcpExt", "ListenOverflows"),    # accept queue full: the final ACK was dropped
    ("netstat", "TcpExt", "ListenDrops"),
    ("netstat", "TcpExt", "TCPReqQFullDrop"),    # SYN queue full and no cookies: SYN dropped
    ("netstat", "TcpExt", "TCPReqQFullDoCookies"),
    ("netstat", "TcpExt", "SyncookiesSent"),
    ("netstat", "TcpExt", "TCPSynRetrans"),      # SYNs sent again (1 s, 3 s, ... later)
    ("netstat", "TcpExt", "TCPTimeouts"),
    ("netstat", "TcpExt", "TCPMemoryPressures"),  # tcp_mem's middle value crossed
    ("netstat", "TcpExt", "TCPAbortOnMemory"),
    ("snmp", "Tcp", "RetransSegs"),
    ("snmp", "Tcp", "AttemptFails"),
    ("snmp", "Tcp", "EstabResets"),
)


def parse_sockstat(text: str) -> dict:
    """{'inuse': .., 'orphan': .., 'tw': .., 'alloc': .., 'mem': ..} from /proc/net/sockstat."""
    for line in text.splitlines():
        if line.startswith("TCP:"):
            f = line.split()[1:]
            return {f[i]: int(f[i + 1]) for i in range(0, len(f) - 1, 2)}
    return {}


def parse_counters(text: str) -> dict:
    """{(group, name): value} from /proc/net/netstat or /proc/net/snmp (header line, value line)."""
    out, lines = {}, text.splitlines()
    for head, vals in zip(lines[::2], lines[1::2]):
        g, names = head.split(":", 1)
        g2, values = vals.split(":", 1)
        if g != g2:
            continue
        for n, v in zip(names.split(), values.split()):
            try:
                out[(g, n)] = int(v)
            except ValueError:
                pass
    return out


def parse_meminfo_kib(text: str, key: str) -> int:
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def sockstat(net: str = "/proc/net") -> dict:
    """`net`: a namespace's view, /proc/PID/net of a process in it (`inuse` is per namespace;
    `mem` is the machine's)."""
    return parse_sockstat(Path(f"{net}/sockstat").read_text())


def wait_time_wait(net: str = "/proc/net", below: int = 1000, limit_s: float = 75.0) -> dict:
    """Wait until fewer than `below` sockets of the namespace are in TIME_WAIT (a previous run's
    closes; the kernel keeps each 60 s), at most `limit_s`: so a side starts with the
    established-connection table and the timers as the other side had them. What it waited and
    what was left."""
    t0 = time.monotonic()
    before = sockstat(net).get("tw", 0)
    now = before
    while now >= below and time.monotonic() - t0 < limit_s:
        time.sleep(0.5)
        now = sockstat(net).get("tw", 0)
    return {"before": before, "after": now, "waited_s": round(time.monotonic() - t0, 1)}


def slab_kib() -> int:
    return parse_meminfo_kib(Path("/proc/meminfo").read_text(), "Slab")


def tcp_counters(net: str = "/proc/net") -> dict:
    """The COUNTERS of the namespace whose /proc/PID/net is `net` (they are per namespace)."""
    both = {}
    for f in ("netstat", "snmp"):
        both[f] = parse_counters(Path(f"{net}/{f}").read_text())
    return {name: both[f].get((g, name), 0) for f, g, name in COUNTERS}


def tree(pid: int) -> list:
    """pid and every descendant alive now."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        try:
            for t in os.listdir(f"/proc/{p}/task"):
                todo += [int(c) for c in Path(f"/proc/{p}/task/{t}/children").read_text().split()]
        except OSError:
            pass
    return out


def parse_stat_times(text: str) -> tuple:
    """(user ticks, system ticks) from /proc/PID/stat (fields after the last ')')."""
    f = text[text.rfind(")") + 2:].split()
    return int(f[11]), int(f[12])


def proc_usage(pid: int):
    """(rss bytes, user s, system s) of pid, or None when it is gone."""
    try:
        rss = int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
        u, s = parse_stat_times(Path(f"/proc/{pid}/stat").read_text())
    except (OSError, IndexError, ValueError):
        return None
    return rss, u / TICK, s / TICK


def parse_ctxt(text: str) -> int:
    """Context switches (voluntary + involuntary) from /proc/PID/status."""
    return sum(int(line.split()[1]) for line in text.splitlines()
               if line.split(":")[0] in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"))


def ctx_switches(pid: int):
    """Context switches of pid so far (all its threads), or None when it is gone."""
    try:
        return parse_ctxt(Path(f"/proc/{pid}/status").read_text())
    except (OSError, IndexError, ValueError):
        return None


def parse_busy_s(text: str) -> float:
    """CPU seconds the whole machine spent busy (all but idle and iowait), from /proc/stat."""
    f = [int(x) for x in text.splitlines()[0].split()[1:9]]
    return (sum(f) - f[3] - f[4]) / TICK


def machine_busy_s() -> float:
    return parse_busy_s(Path("/proc/stat").read_text())


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} vCPUs"
    return f"unknown CPU, {os.cpu_count()} vCPUs"
