"""A network namespace for a scale run, with TCP's established-connection hash table sized for
its sessions (issue 42).

The kernel looks every arriving TCP segment up in that table (`__inet_lookup_established`). Its
size is fixed when a namespace is created: the first namespace's at boot (`thash_entries`, here
262,144), a new one's from `net.ipv4.tcp_child_ehash_entries` at the moment of creation (0: share
the first's). A million loopback sessions are two million sockets, about 8 per bucket in the
boot table: the C client's load at 1,000,000 sessions spent 12% of all CPU samples in that walk
(`perf record -a`), and 18% more CPU per round trip than in a namespace with one bucket per
socket (docs/million.md). Both ends of every session live in the namespace, so it holds 2 N
sockets: the table gets the next power of two at or above 2 N (the kernel's own rounding).

A namespace also keeps the sessions out of the first namespace's /proc/net/tcp, which a process
that lists it (a health check, a monitoring agent) walks socket by socket. Loopback only: the
namespace has nothing but `lo`.

    with ScaleNetns(1_000_000) as ns:
        subprocess.Popen([*ns.prefix, "sdnbench-responder", ...])
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from pathlib import Path

CHILD_EHASH = Path("/proc/sys/net/ipv4/tcp_child_ehash_entries")
MAX_EHASH = 1 << 24   # the kernel's upper bound for tcp_child_ehash_entries


def ehash_entries(sessions: int) -> int:
    """Buckets for `sessions` loopback sessions (2 sockets each): the next power of two."""
    want = max(2 * sessions, 1024)
    return min(1 << (want - 1).bit_length(), MAX_EHASH)


@contextlib.contextmanager
def child_ehash(entries: int):
    """Namespaces created inside get a table of `entries` buckets; the setting is put back after."""
    old = CHILD_EHASH.read_text().strip()
    CHILD_EHASH.write_text(str(entries))
    try:
        yield
    finally:
        CHILD_EHASH.write_text(old)


class ScaleNetns:
    def __init__(self, sessions: int):
        self.name = f"sdnbench-scale-{os.getpid()}"
        self.entries = ehash_entries(sessions)
        self.prefix: list = []

    def __enter__(self) -> "ScaleNetns":
        with child_ehash(self.entries):
            subprocess.run(["ip", "netns", "add", self.name], check=True)
        try:
            self.prefix = ["ip", "netns", "exec", self.name]
            subprocess.run([*self.prefix, "ip", "link", "set", "lo", "up"], check=True)
            got = subprocess.run([*self.prefix, "sysctl", "-n", "net.ipv4.tcp_ehash_entries"],
                                 capture_output=True, text=True, check=True).stdout.strip()
            self.entries = int(got)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        subprocess.run(["ip", "netns", "del", self.name], stderr=subprocess.DEVNULL)
