"""Run name prefixes, and the clean-up of what a dead run left behind.

Every network sdnbench builds gets a short prefix, ``sb`` plus two characters (``sbk3``), and
every switch, host, interface and background process of that run carries it: switch ``sbk3s1``,
its ports ``sbk3s1-eth1``, host shells ``mininet:sbk3h1``. Real names are always
``PREFIX + s|h + index``, at most 15 characters with their ``-ethN`` suffix (Linux's limit).

A claim file ``<state>/run/net/PREFIX.json`` records the owning process (pid and start time). It
is written before anything is created and removed after everything is gone, so:

- a prefix whose claim names a live owner belongs to a running network and is never touched;
- anything else with an sdnbench prefix is a leftover, and ``clean`` removes it: OVS bridges,
  links in the root namespace, our nftables table, and the processes of that run: found by the
  ``SDNBENCH_NET=PREFIX`` variable every process it starts carries, by the network namespace of
  its host shells, or by its interface names in their command line.

Nothing here uses ``mn -c``, ``pkill`` or ``killall``: other users' Mininet networks on the same
machine are not ours to stop.
"""

from __future__ import annotations

import json
import os
import random
import re
import signal
import string
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from .. import paths

ENV = "SDNBENCH_NET"          # set to the prefix in every process a network starts
PREFIX_RE = re.compile(r"^sb[a-z0-9]{2}$")
NAME_RE = re.compile(r"^(sb[a-z0-9]{2})[sh]\d+")
_ALPHABET = string.ascii_lowercase + string.digits


def claims_dir() -> Path:
    return paths.runtime_dir("net")


def _start_time(pid: int) -> Optional[str]:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def owner_alive(claim: dict) -> bool:
    pid = claim.get("pid")
    return bool(pid) and _start_time(pid) is not None and _start_time(pid) == claim.get("start")


def claim_prefix(extra: Optional[dict] = None, tries: int = 200) -> str:
    """Pick an unused prefix and write its claim file atomically (O_EXCL)."""
    in_use = existing_prefixes()
    rng = random.SystemRandom()
    for _ in range(tries):
        prefix = "sb" + "".join(rng.choice(_ALPHABET) for _ in range(2))
        if prefix in in_use:
            continue
        path = claims_dir() / f"{prefix}.json"
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        claim = {"prefix": prefix, "pid": os.getpid(), "start": _start_time(os.getpid()),
                 "created": time.time(), **(extra or {})}
        with os.fdopen(fd, "w") as f:
            json.dump(claim, f)
        return prefix
    raise RuntimeError("no free network name prefix: run `sdnbench net clean`")


def release_prefix(prefix: str) -> None:
    try:
        (claims_dir() / f"{prefix}.json").unlink()
    except FileNotFoundError:
        pass


def read_claims() -> dict:
    out = {}
    for p in claims_dir().glob("sb*.json"):
        try:
            out[p.stem] = json.loads(p.read_text())
        except (OSError, ValueError):
            out[p.stem] = {}
    return out


# -- what exists ----------------------------------------------------------------------------

def _lines(argv: list) -> list:
    try:
        cp = subprocess.run(argv, capture_output=True, text=True, timeout=20)
    except (FileNotFoundError, subprocess.TimeoutExpired):
        return []
    return cp.stdout.splitlines() if cp.returncode == 0 else []


def bridges() -> list:
    return [b for b in _lines(["ovs-vsctl", "--timeout=10", "list-br"]) if NAME_RE.match(b)]


def root_links() -> list:
    names = []
    for line in _lines(["ip", "-o", "link", "show"]):
        parts = line.split(":", 2)
        if len(parts) > 1:
            name = parts[1].strip().split("@", 1)[0]
            if NAME_RE.match(name):
                names.append(name)
    return names


def nft_tables() -> list:
    out = []
    for line in _lines(["nft", "list", "tables"]):
        m = re.match(r"table (\w+) (sdnbench_(sb[a-z0-9]{2}))$", line.strip())
        if m:
            out.append((m.group(1), m.group(2)))
    return out


@dataclass
class Proc:
    pid: int
    cmdline: str
    netns: Optional[str]
    tag: Optional[str] = None        # the value of ENV in its environment, if any


def processes() -> list:
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
            ns = os.readlink(f"/proc/{entry}/ns/net")
        except OSError:
            continue
        out.append(Proc(int(entry), cmd, ns, _tag(entry)))
    return out


def _tag(pid: str) -> Optional[str]:
    try:
        with open(f"/proc/{pid}/environ", "rb") as f:
            env = f.read()
    except OSError:
        return None
    key = ENV.encode() + b"="
    for item in env.split(b"\0"):
        if item.startswith(key):
            return item[len(key):].decode("ascii", "replace")
    return None


@dataclass
class Leftovers:
    prefix: str
    bridges: list = field(default_factory=list)
    links: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    pids: list = field(default_factory=list)
    claimed_by: Optional[int] = None          # a live owner: not a leftover at all

    def empty(self) -> bool:
        return not (self.bridges or self.links or self.tables or self.pids)

    def describe(self) -> str:
        parts = [f"{len(self.bridges)} bridges", f"{len(self.links)} links",
                 f"{len(self.tables)} nft tables", f"{len(self.pids)} processes"]
        return f"{self.prefix}: " + ", ".join(parts)


def survey(only: Optional[str] = None) -> dict:
    """Everything on this machine that carries an sdnbench prefix, by prefix."""
    found: dict = {}

    def get(prefix: str) -> Leftovers:
        return found.setdefault(prefix, Leftovers(prefix))

    for b in bridges():
        get(NAME_RE.match(b).group(1)).bridges.append(b)
    for l in root_links():
        get(NAME_RE.match(l).group(1)).links.append(l)
    for family, name in nft_tables():
        get(name.split("_", 1)[1]).tables.append((family, name))
    procs = processes()
    shells = {}
    for p in procs:
        m = re.search(r"mininet:(sb[a-z0-9]{2})[sh]\d+", p.cmdline)
        if m:
            shells.setdefault(m.group(1), set()).add(p.netns)
            get(m.group(1)).pids.append(p.pid)
    root_ns = os.readlink("/proc/self/ns/net")
    me = os.getpid()
    for p in procs:
        if p.pid == me:
            continue
        if p.tag and PREFIX_RE.match(p.tag) and p.pid not in get(p.tag).pids:
            get(p.tag).pids.append(p.pid)
        for prefix, nss in shells.items():
            if (p.netns in nss and p.netns != root_ns) or re.search(rf"\b{prefix}[sh]\d+-eth", p.cmdline):
                if p.pid not in get(prefix).pids:
                    get(prefix).pids.append(p.pid)
        m = re.search(r"\b(sb[a-z0-9]{2})[sh]\d+-eth\d+", p.cmdline)
        if m and p.pid not in get(m.group(1)).pids and "tcpdump" in p.cmdline:
            get(m.group(1)).pids.append(p.pid)
    for prefix, claim in read_claims().items():
        lo = get(prefix)
        if owner_alive(claim):
            lo.claimed_by = claim.get("pid")
    if only:
        return {only: found.get(only, Leftovers(only))}
    return found


def remove(lo: Leftovers) -> None:
    """Remove one dead run's leftovers: processes first, then bridges, links, tables."""
    for pid in lo.pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    if lo.bridges:
        args = ["ovs-vsctl", "--timeout=20"]
        for b in lo.bridges:
            args += ["--", "--if-exists", "del-br", b]
        subprocess.run(args, capture_output=True, timeout=30)
    for link in lo.links:
        subprocess.run(["ip", "link", "del", link], capture_output=True, timeout=10)
    for family, name in lo.tables:
        subprocess.run(["nft", "delete", "table", family, name], capture_output=True, timeout=10)
    import shutil
    shutil.rmtree(claims_dir() / f"{lo.prefix}.d", ignore_errors=True)
    release_prefix(lo.prefix)


def clean(only: Optional[str] = None) -> tuple:
    """Remove every dead run's leftovers. Returns (removed, skipped-because-live) Leftovers."""
    removed, live = [], []
    for _prefix, lo in sorted(survey(only).items()):
        if lo.claimed_by and lo.claimed_by != os.getpid():
            live.append(lo)
            continue
        remove(lo)
        if not lo.empty():
            removed.append(lo)
    return removed, live


def existing_prefixes() -> set:
    names = set(read_claims())
    names.update(NAME_RE.match(b).group(1) for b in bridges())
    names.update(NAME_RE.match(l).group(1) for l in root_links())
    return names
