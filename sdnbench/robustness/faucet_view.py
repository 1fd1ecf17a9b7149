"""Faucet's host and stack view, from its Prometheus exporter (issue 31). Faucet serves no
topology API; what it believes is in its metrics (``faucet/faucet_metrics.py``, 1.10):

- ``learned_l2_port{dp_id, dp_name, vid, eth_src}``: the port it learned a host on, per
  datapath (the host view: ``host-hijack``);
- ``port_stack_state{dp_id, dp_name, port}``: each stack port's state (``STATES``),
  ``stack_probes_received`` and ``stack_cabling_errors`` per datapath: what it made of the
  stack LLDP it got (the topology view: ``fabricated-lldp``).

``parse`` and the two ``*_view`` functions are pure; ``read`` fetches the text (loopback only:
the exporter listens on 127.0.0.1, ``controllers/plan.py``)."""

from __future__ import annotations

import re
import urllib.request
from typing import Optional

UP = 3   # a stack port that is up (``verdicts.STACK_STATES``)
_LINE = re.compile(r'^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\S+)?$')
_LABEL = re.compile(r'([A-Za-z_][A-Za-z0-9_]*)="((?:[^"\\]|\\.)*)"')


class MetricsError(ValueError):
    """A line of the exposition text that is not a sample."""


def parse(text: str) -> list:
    """[(name, {label: value}, float)] of every sample of a Prometheus text exposition
    (comments and blank lines skipped; label values unescaped)."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise MetricsError(f"line {n} is not a sample: {line[:80]!r}")
        labels = {k: bytes(v, "utf-8").decode("unicode_escape") for k, v in _LABEL.findall(m.group(2) or "")}
        try:
            value = float(m.group(3))
        except ValueError as e:
            raise MetricsError(f"line {n}: value {m.group(3)!r} is not a number") from e
        out.append((m.group(1), labels, value))
    return out


def _dpid(labels: dict) -> int:
    return int(labels["dp_id"], 0)


def _port(label: str):
    """A ``port`` label is the port's name (``port4`` in sdnbench's configs, ``faucet_config``)
    or its number; the number when it has one."""
    m = re.fullmatch(r"(?:port)?(\d+)", label)
    return int(m.group(1)) if m else label


def host_view(samples: list) -> list:
    """Faucet's learned hosts: [{"mac", "dpid", "dp_name", "port_no", "vid"}] (the shape of a
    topology view's ``hosts``, ``verdicts.view_check``)."""
    return [{"mac": lb["eth_src"].lower(), "dpid": _dpid(lb), "dp_name": lb.get("dp_name"), "port_no": int(v),
             "vid": int(lb["vid"]) if lb.get("vid") else None}
            for name, lb, v in samples if name == "learned_l2_port" and "eth_src" in lb and "dp_id" in lb]


def stack_view(samples: list) -> dict:
    """{"ports": {(dpid, port): state}, "probes": {dpid: n}, "cabling_errors": {dpid: n}}."""
    view: dict = {"ports": {}, "probes": {}, "cabling_errors": {}}
    for name, lb, v in samples:
        if "dp_id" not in lb:
            continue
        if name == "port_stack_state" and "port" in lb:
            view["ports"][(_dpid(lb), _port(lb["port"]))] = int(v)
        elif name in ("stack_probes_received_total", "stack_probes_received"):
            view["probes"][_dpid(lb)] = int(v)
        elif name in ("stack_cabling_errors_total", "stack_cabling_errors"):
            view["cabling_errors"][_dpid(lb)] = int(v)
    return view


def view(text: str) -> dict:
    """The view ``verdicts`` reads: {"hosts": host_view, "stack": stack_view}."""
    samples = parse(text)
    return {"hosts": host_view(samples), "stack": stack_view(samples)}


def read(url: str, timeout: float = 3.0) -> Optional[dict]:
    """``view`` of the exporter at ``url``; None when it cannot be read."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as f:
            return view(f.read().decode("utf-8", "replace"))
    except (OSError, MetricsError):
        return None


def stack_change(before: Optional[dict], after: dict, dpids: set) -> dict:
    """What the stack view of ``dpids`` did between two reads: {"came_up": [(dpid, port)],
    "states": {(dpid, port): (before, after)}, "probes": +n, "cabling_errors": +n}."""
    b = (before or {}).get("stack") or {"ports": {}, "probes": {}, "cabling_errors": {}}
    a = after["stack"]
    ports = sorted(k for k in set(a["ports"]) | set(b["ports"]) if k[0] in dpids)
    states = {k: (b["ports"].get(k), a["ports"].get(k)) for k in ports}
    came_up = [k for k, (x, y) in states.items() if y == UP and x != UP]
    d = lambda key: sum(a[key].get(i, 0) - b[key].get(i, 0) for i in dpids)  # noqa: E731
    return {"came_up": came_up, "states": states, "probes": d("probes"), "cabling_errors": d("cabling_errors")}


class Watch:
    """Read the exporter every ``every_s`` in a thread while a case runs (``with Watch(url) as
    w``): Faucet forgets a datapath's hosts and stack state when it disconnects, so what the
    case made it believe must be read while the case's switches are still up. ``w.views``:
    [(seconds since start, view)] of every read that worked."""

    def __init__(self, url: str, every_s: float = 0.25):
        import threading
        self.url, self.every_s, self.views = url, every_s, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="faucet-metrics", daemon=True)

    def _run(self) -> None:
        import time
        t0 = time.monotonic()
        while not self._stop.is_set():
            v = read(self.url, timeout=1.0)
            if v is not None:
                self.views.append((round(time.monotonic() - t0, 2), v))
            self._stop.wait(self.every_s)

    def __enter__(self) -> "Watch":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def host_reads(views: list, mac: str) -> list:
    """Where Faucet had host ``mac`` at each read of a case (``Watch.views``, in time order):
    [(t_s, [(dpid, port), ...])], a read that placed it nowhere included (``[]``). The order of
    the reads is what ``host-hijack`` is judged from: a placement seen at a read before the
    attacker's was Faucet's belief before it took the forged ARP."""
    mac = mac.lower()
    return [(t, sorted((h["dpid"], h["port_no"]) for h in v["hosts"] if h["mac"] == mac)) for t, v in views]


def merged(views: list) -> Optional[dict]:
    """One view from a case's reads (``Watch.views``): every host placement seen at any read
    (with the first time it was seen: ``t_s``), each stack port's state at its last read, or
    UP if it was up at any read, and the largest of each counter."""
    if not views:
        return None
    hosts: dict = {}
    ports: dict = {}
    counters: dict = {"probes": {}, "cabling_errors": {}}
    for t, v in views:
        for h in v["hosts"]:
            hosts.setdefault((h["mac"], h["dpid"], h["port_no"]), dict(h, t_s=t))
        for k, s in v["stack"]["ports"].items():
            ports[k] = UP if ports.get(k) == UP else s
        for key in counters:
            for d, n in v["stack"][key].items():
                counters[key][d] = max(n, counters[key].get(d, 0))
    return {"hosts": list(hosts.values()), "stack": dict(counters, ports=ports)}
