#!/usr/bin/env python3
"""The engine's emulated network at scale: a ring of N switches over W worker processes, every
link probed with LLDP by a scripted controller (bench/engine/lldp_controller.py), counted on
the engine side (every link, both directions) and on the controller side.

    .venv/bin/python bench/engine/network.py [--switches 10000] [--workers 4] [--seconds 12]
                                             [--interval 3] [--layout contiguous|interleaved|both]

Layouts: `contiguous` gives each worker a contiguous quarter of the ring (W links cross
workers); `interleaved` orders the switches so that ring neighbours live in different workers
(every link crosses workers: the transport's worst case).

Printed per layout: switches up and set-up time (first connect to all up), links probed both
ways (engine count) and link directions the controller saw, LLDP frames forwarded and their rate,
frames carried between workers, the transport's own delay (same-worker and cross-worker: min,
p50, p99), and RSS per emulated switch (workers' RSS summed, and with the coordinator). Nothing
here asserts a time: it prints.
"""

from __future__ import annotations

import argparse
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))
from sdnbench.controllers.ofhello import free_port  # noqa: E402
from sdnbench.engine.result_types import EngineResult  # noqa: E402
from sdnbench.net.engine_network import network_for  # noqa: E402

ENGINE = REPO / "target" / "release" / "sdnbench-engine"


def interleave(net: dict, workers: int) -> dict:
    """Reorder the switch list so that switch k lands in worker k % workers (slices are
    contiguous ranges of this list)."""
    sw = net["switches"]
    order = [sw[i] for w in range(workers) for i in range(w, len(sw), workers)]
    return dict(net, switches=order)


def run(net: dict, workers: int, seconds: int, interval: float, tmp: Path) -> dict:
    port = free_port()
    status = tmp / "controller.json"
    ctl = subprocess.Popen([sys.executable, str(REPO / "bench/engine/lldp_controller.py"), "--port", str(port),
                            "--status", str(status), "--interval", str(interval)])
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        f = tmp / "net.json"
        f.write_text(json.dumps(net))
        out = tmp / "result.json"
        subprocess.run([str(ENGINE), "--mode", "network", "--network", str(f), "--controller", f"127.0.0.1:{port}",
                        "--workers", str(workers), "--loops", str(seconds), "--loop-ms", "1000", "--warmup", "0",
                        "--settle-ms", "0", "--quiet", "--json", str(out)], check=True, timeout=seconds + 300)
    finally:
        ctl.terminate()
        ctl.wait(timeout=30)
    # the engine's document as its typed view: a field the schema lacks is one error naming it
    doc = EngineResult.from_json(json.loads(out.read_text()))
    return {"doc": doc, "controller": json.loads(status.read_text())}


def report(name: str, r: dict, seconds: int) -> None:
    d, c = r["doc"], r["controller"]
    n, hs = d.network, d.handshake
    rss = {p.label: max(p.rss_bytes or [0]) for p in d.resources.processes}
    workers_rss = sum(v for k, v in rss.items() if k.startswith("worker"))
    switches = d.params.switches
    td = n.transport_delay
    fmt = lambda h: f"min {h.min:.1f} / p50 {h.p50:.1f} / p99 {h.p99:.1f} us (n={h.count})"  # noqa: E731
    print(f"== {name}: {switches} switches, {n.links} links, {d.engine.workers} workers")
    print(f"  set-up: {hs.sessions_up} up in {hs.duration_s:.2f} s ({hs.rate_per_s:.0f}/s)")
    print(f"  links probed both ways (engine): {n.links_probed_both_ways} of {n.links}; "
          f"link directions seen by the controller: {c['link_directions']} of {2 * n.links}")
    print(f"  LLDP forwarded: {n.lldp_forwarded} ({n.lldp_forwarded / seconds:.0f}/s over {seconds} s); "
          f"frames between workers: {n.frames_to_other_workers}; invariant: {n.invariant}")
    print(f"  transport delay same-worker: {fmt(td.same_worker)}")
    print(f"  transport delay cross-worker: {fmt(td.cross_worker)}")
    print(f"  RSS: workers {workers_rss / 2**20:.1f} MiB = {workers_rss / switches / 1024:.1f} KiB/switch; "
          f"with coordinator {(workers_rss + rss.get('engine', 0)) / switches / 1024:.1f} KiB/switch")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--switches", type=int, default=10_000)
    p.add_argument("--workers", type=int, default=4)
    p.add_argument("--seconds", type=int, default=12)
    p.add_argument("--interval", type=float, default=3.0)
    p.add_argument("--layout", choices=["contiguous", "interleaved", "both"], default="both")
    a = p.parse_args()
    layouts = ["contiguous", "interleaved"] if a.layout == "both" else [a.layout]
    for name in layouts:
        net = network_for(f"ring,{a.switches}")
        if name == "interleaved":
            net = interleave(net, a.workers)
        with tempfile.TemporaryDirectory() as t:
            report(f"ring,{a.switches} {name}", run(net, a.workers, a.seconds, a.interval, Path(t)), a.seconds)


if __name__ == "__main__":
    main()
