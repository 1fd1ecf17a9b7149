"""The scale-out figure (issue 20, docs/scale-out.md): N namespace agents x S switches each held
against ``sdnbench-responder --procs P`` at a modest fixed rate; prints the merged result, setup
time, memory per session and protocol bytes per agent. Run once (root), not a test:

    .venv/bin/python bench/engine/agents_figure.py --agents 4 --per-agent 25000 --procs 6 --rate 20000
        [--loops 60] [--echo-every-ms 30000]

With --echo-every-ms every switch also sends a keep-alive echo that often; the merged `load`
section is printed per loop (offered, sent, answered, late, lost, p50/p99, echoes), as the agents'
per-loop records are merged by the coordinator (issue 42).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sdnbench import paths  # noqa: E402
from sdnbench.engine.result_check import as_json  # noqa: E402
from sdnbench.engine.result_types import EngineResult, Load  # noqa: E402
from sdnbench.testing.labs.agent_lab import AgentLab  # noqa: E402

import kernel_probe  # noqa: E402  (bench/engine/kernel_probe.py, beside this file)
from scale_netns import child_ehash, ehash_entries  # noqa: E402


def _sample(responder_pid: int, stop: threading.Event, peak: dict) -> None:
    """Every second until `stop`: the kernel's TCP memory and slab (machine-wide: every
    namespace's sockets), and the responder's RSS summed over its processes; peaks kept."""
    while not stop.wait(1.0):
        rss = sum((kernel_probe.proc_usage(p) or (0,))[0] for p in kernel_probe.tree(responder_pid))
        now = {"tcp_mem_pages": kernel_probe.sockstat().get("mem", 0), "slab_kib": kernel_probe.slab_kib(),
               "responder_rss": rss}
        for k, v in now.items():
            peak[k] = max(peak.get(k, 0), v)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agents", type=int, default=4)
    ap.add_argument("--per-agent", type=int, default=25000)
    ap.add_argument("--procs", type=int, default=6)
    ap.add_argument("--rate", type=float, default=20000)
    ap.add_argument("--loops", type=int, default=5)
    ap.add_argument("--addrs", type=int, default=3, help="addresses per agent namespace")
    ap.add_argument("--connect-timeout-ms", type=int, default=120000)
    ap.add_argument("--echo-every-ms", type=int, default=0, help="a keep-alive echo from every switch this often (0: off)")
    ap.add_argument("--timeout-ms", type=int, default=2000, help="the loss timeout of requests and echoes")
    a = ap.parse_args()
    out = Path(tempfile.mkdtemp(prefix="sdnbench-agents-figure-")) / "result.json"
    # each agent's namespace gets a TCP hash table of its own, sized for its sessions
    # (scale_netns.py); the responder's sockets stay in the first namespace's table
    with contextlib.ExitStack() as stack:
        with child_ehash(ehash_entries(a.per_agent // 2)):
            lab = stack.enter_context(AgentLab(a.agents, addrs=a.addrs))
        addr = f"{lab.controller_ip}:6653"
        base = {"tcp_mem_pages": kernel_probe.sockstat().get("mem", 0), "slab_kib": kernel_probe.slab_kib()}
        resp = subprocess.Popen([str(paths.engine_binary("sdnbench-responder")), "--listen", addr, "--procs", str(a.procs)])
        time.sleep(0.5)
        peak, stop = {}, threading.Event()
        sampler = threading.Thread(target=_sample, args=(resp.pid, stop, peak), daemon=True)
        sampler.start()
        try:
            t0 = time.monotonic()
            cp = subprocess.run([str(paths.engine_binary("sdnbench-engine")), "--controller", addr, "--mode", "fixed-rate",
                                 "--rate", str(a.rate), "--switches", str(a.agents * a.per_agent), "--loops", str(a.loops),
                                 "--loop-ms", "1000", "--no-learn", "--of", "1.3", "--connect-timeout-ms", str(a.connect_timeout_ms),
                                 "--echo-interval-ms", "0", "--echo-every-ms", str(a.echo_every_ms),
                                 "--timeout-ms", str(a.timeout_ms), "--warmup", "0", "--agents", ",".join(lab.specs()), "--json", str(out)],
                                capture_output=True, text=True)
            wall = time.monotonic() - t0
        finally:
            stop.set()
            sampler.join()
            resp.terminate()
            resp.wait(timeout=10)
    print(cp.stdout[-3000:])
    print(cp.stderr[-2000:], file=sys.stderr)
    # the engine's document as its typed view: a field the schema lacks is one error naming it
    j = EngineResult.from_json(json.loads(out.read_text()))
    report(j, wall)
    up = max(j.handshake.sessions_up, 1)
    print(f"machine: {kernel_probe.cpu_model()}; responder procs {a.procs}, rss peak "
          f"{peak.get('responder_rss', 0) / 2**20:.0f} MiB ({peak.get('responder_rss', 0) / up:.0f} B/session)")
    print(f"kernel (all namespaces): TCP memory peak {peak.get('tcp_mem_pages', 0)} pages "
          f"(+{(peak.get('tcp_mem_pages', 0) - base['tcp_mem_pages']) * kernel_probe.PAGE / up:.0f} B/session), "
          f"slab +{(peak.get('slab_kib', 0) - base['slab_kib']) * 1024 / up:.0f} B/session")
    print(f"result: {out}")
    return 0 if j.status == "ok" else 2


def report(j: EngineResult, wall: float) -> None:
    """The merged result, its load per loop and one line per agent."""
    h, t = j.handshake, j.totals
    print(f"status {j.status} error {j.error}")
    print(f"sessions up {h.sessions_up} / {j.params.switches}; setup {h.duration_s:.1f} s "
          f"({h.rate_per_s:.0f}/s, slowest agent); wall {wall:.1f} s")
    print(f"merged: sent {t.requests_sent} answered {t.requests_answered} "
          f"lost {t.requests_lost}; answered/s mean {j.throughput.mean:.0f}; "
          f"latency p50 {j.latency.p50} us p99 {j.latency.p99} us")
    _print_load(j.load)
    for ag in j.agents:
        loc = ag.local
        print(f"{ag.name}: switches {ag.switches} up {ag.sessions_up} workers {loc.workers if loc else None} "
              f"addrs {loc.source_addrs if loc else None} rss {ag.rss_bytes_peak / 1e6:.1f} MB "
              f"({ag.rss_bytes_per_session} B/session) clock {ag.clock_offset_ms} ms "
              f"protocol to {ag.protocol_bytes_to_agent} B from {ag.protocol_bytes_from_agent} B")


def _print_load(ld: Optional[Load]) -> None:
    """The merged load section: totals, then one line per loop."""
    if not ld:
        return
    print(f"load: offered {ld.offered} ({ld.offered_per_s:.0f}/s) sent {ld.sent} kept up {ld.sender_kept_up}; "
          f"keep-alive {json.dumps(as_json(ld.keepalive))}")
    lp = ld.loops
    cols: dict[str, list] = {"offered": lp.offered, "sent": lp.sent, "answered": lp.answered, "late": lp.late, "lost": lp.lost,
                             "backlog": lp.backlog, "p50_us": lp.p50_us, "p99_us": lp.p99_us, "echo_sent": lp.echo_sent,
                             "echo_answered": lp.echo_answered, "echo_lost": lp.echo_lost}
    print("loop " + " ".join(cols))
    for i in range(len(lp.offered)):
        print(f"{i + 1} " + " ".join(str(round(v[i])) for v in cols.values()))
    # the drain: with it the columns close (crates/engine/SCHEMA.md, load.after_loops)
    print(f"after the loops: {json.dumps(as_json(ld.after_loops))}")


if __name__ == "__main__":
    sys.exit(main())
