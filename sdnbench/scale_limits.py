"""The kernel settings a scale run needs (N emulated switches, each one TCP session), checked
by ``sdnbench doctor`` (check ``scale-kernel``) and raised by ``make setup`` where raising is safe.

On loopback every session is two sockets on this machine (the engine's and the controller's),
so the figures below count 2N sockets. Why each setting matters is in ``SETTINGS`` and, with the
measurements, in docs/engine-figures.md ("Scale"). Usage::

    python -m sdnbench.scale_limits [--sessions N]     # print the findings
    python -m sdnbench.scale_limits --apply            # raise the safe ones (make setup)

``evaluate`` is pure (values in, findings out); ``read`` and ``apply`` do the I/O.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

TARGET_SESSIONS = 1_000_000
PROC_SYS = Path("/proc/sys")
# Memory per session measured here (docs/engine-figures.md, Scale): engine RSS, responder RSS,
# kernel slab (two sockets, their files, inodes and epoll items), rounded up.
BYTES_PER_SESSION = 8_000 + 400 + 10_500


@dataclass(frozen=True)
class Setting:
    key: str                                   # sysctl name
    why: str
    need: Callable[[int], int]                 # the least value N sessions need
    raise_to: Optional[Callable[[int], int]]   # what `--apply` sets when lower; None: never applied
    field: int = 0                             # which number of a multi-value sysctl


SETTINGS = (
    Setting("fs.file-max", "every socket is an open file: 2 per loopback session, machine-wide",
            lambda n: 2 * n + 65_536, lambda n: max(4_194_304, 2 * n + 65_536)),
    Setting("net.core.somaxconn", "caps each listener's accept queue (the responder asks 4096); "
            "a full queue drops the handshake's last ACK (TcpExtListenOverflows) and the client "
            "resends after 1 s", lambda n: 4096, lambda n: 4096),
    Setting("net.ipv4.tcp_max_syn_backlog", "half-open connections per listener; past it SYNs "
            "are answered with cookies or dropped (TcpExtTCPReqQFullDrop), and a dropped SYN "
            "waits 1 s, then 3 s", lambda n: 4096, lambda n: 8192),
    Setting("net.ipv4.tcp_mem", "pages all TCP sockets may hold before the kernel squeezes "
            "buffers (middle value) and aborts sockets (TcpExtTCPAbortOnMemory, third value); "
            "idle sessions hold almost none, but keep-alive traffic queued in 2N sockets does "
            "(1 page each)", lambda n: n // 4, None, field=1),
    Setting("net.netfilter.nf_conntrack_max", "when conntrack is hooked in (a NAT or stateful "
            "firewall rule, Docker, Kubernetes), each session is one entry: a full table drops "
            "new SYNs ('nf_conntrack: table full' in dmesg)", lambda n: n + n // 10,
            lambda n: max(2_097_152, n + n // 10)),
)


def parse(text: str) -> list:
    return [int(x) for x in text.split()]


def read(keys=None, root: Path = PROC_SYS) -> dict:
    """{key: [numbers]} for the settings this kernel has (a missing one is absent)."""
    out = {}
    for k in keys or [s.key for s in SETTINGS] + ["net.netfilter.nf_conntrack_count",
                                                  "net.ipv4.tcp_ehash_entries"]:
        try:
            out[k] = parse((root / k.replace(".", "/")).read_text())
        except (OSError, ValueError):
            pass
    return out


def evaluate(values: dict, sessions: int, mem_available_kib: Optional[int] = None) -> list:
    """One (status, key, text, fix) per finding; status 'ok' or 'warn'."""
    rows = []
    for s in SETTINGS:
        if s.key not in values:
            continue
        have, need = values[s.key][s.field], s.need(sessions)
        if s.key == "net.netfilter.nf_conntrack_max" and not values.get("net.netfilter.nf_conntrack_count", [0])[0]:
            rows.append(("ok", s.key, f"{have}; conntrack tracks nothing now (it would need {need})", ""))
            continue
        if have >= need:
            rows.append(("ok", s.key, f"{have} (>= {need})", ""))
            continue
        fix = _fix(s, values[s.key], sessions)
        rows.append(("warn", s.key, f"{have} < {need} for {sessions:,} sessions: {s.why}", fix))
    buckets = values.get("net.ipv4.tcp_ehash_entries", [0])[0]
    if buckets and 2 * sessions / buckets > 8:
        rows.append(("warn", "net.ipv4.tcp_ehash_entries",
                     f"{buckets} buckets for {2 * sessions:,} sockets ({2 * sessions / buckets:.0f} per bucket): "
                     "every segment's lookup walks its bucket", f"boot with thash_entries={_pow2(2 * sessions)}"))
    if mem_available_kib is not None and mem_available_kib * 1024 < sessions * BYTES_PER_SESSION:
        rows.append(("warn", "memory", f"{mem_available_kib // 1024:,} MiB available; {sessions:,} sessions need "
                     f"about {sessions * BYTES_PER_SESSION // 2**20:,} MiB ({BYTES_PER_SESSION:,} B each: both "
                     "processes and the kernel)", "fewer sessions, or more memory"))
    return rows


def _fix(s: Setting, have: list, sessions: int) -> str:
    if s.key == "net.ipv4.tcp_mem":
        pressure = max(have[1], s.need(sessions))
        want = [have[0], pressure, max(have[2], 2 * pressure)]
        return f"sysctl -w net.ipv4.tcp_mem='{' '.join(map(str, want))}'"
    value = s.raise_to(sessions) if s.raise_to else s.need(sessions)
    return f"sysctl -w {s.key}={value}" + ("  (or `make setup`)" if s.raise_to else "")


def _pow2(n: int) -> int:
    p = 1
    while p < n:
        p *= 2
    return p


def plan_apply(values: dict, sessions: int) -> list:
    """(key, old, new) for each safe setting below what `sessions` need: only raises."""
    out = []
    for s in SETTINGS:
        if s.raise_to is None or s.key not in values or len(values[s.key]) != 1:
            continue
        have, new = values[s.key][0], s.raise_to(sessions)
        if have < new:
            out.append((s.key, have, new))
    return out


def apply(sessions: int = TARGET_SESSIONS, root: Path = PROC_SYS) -> list:
    done = []
    for key, old, new in plan_apply(read(root=root), sessions):
        try:
            (root / key.replace(".", "/")).write_text(f"{new}\n")
            done.append(f"{key}: {old} -> {new}")
        except OSError as e:
            done.append(f"{key}: {old}, cannot raise to {new}: {e.strerror}")
    return done


def mem_available_kib() -> Optional[int]:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemAvailable:"):
            return int(line.split()[1])
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sessions", type=int, default=TARGET_SESSIONS)
    ap.add_argument("--apply", action="store_true", help="raise the settings that are safe to raise")
    a = ap.parse_args(argv)
    if a.sessions < 1:
        print("--sessions: a whole number, at least 1", file=sys.stderr)
        return 1
    if a.apply:
        for line in apply(a.sessions) or ["kernel settings already fit"]:
            print(line)
        return 0
    for status, key, text, fix in evaluate(read(), a.sessions, mem_available_kib()):
        print(f"{status:4} {key}: {text}" + (f" (fix: {fix})" if fix else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
