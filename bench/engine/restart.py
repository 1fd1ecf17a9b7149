#!/usr/bin/env python3
"""A controller killed (SIGKILL) and restarted mid-load, with switches that reconnect as Open
vSwitch does (the engine's ``reconnect``: 1 s backoff doubling to 8 s). Run once, not a test:

    .venv/bin/python bench/engine/restart.py --controller osken:learning --controller faucet:auto

Per controller: a fixed-rate load (--rate over --switches, --loops x 1 s); --kill-at s after the
engine starts, the controller process is killed and launched again on the same port (the
relaunch, --down-s later, waits until it answers HELLO). Printed, from the engine's own counters:
- all back: from the kill to the last switch's re-established session (the slowest switch),
  and from the controller answering again to that;
- requests lost: in flight at the kill (lost) and due while disconnected (never sent);
- reconnect attempts, refused ones (the controller not up yet), and the backoff that decided.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sdnbench.controllers import launch  # noqa: E402
from sdnbench.controllers.lifecycle import ControllerDied  # noqa: E402
from sdnbench.controllers.ofhello import free_port  # noqa: E402
from sdnbench.engine import driver  # noqa: E402
from sdnbench.engine.params import check, config, engine_args, launch_of_version, launch_spec  # noqa: E402
from sdnbench.engine.result_types import EngineResult, engine_result  # noqa: E402


def one(spec: str, a) -> dict:
    p = check({"controller": spec, "mode": "fixed-rate", "rate": a.rate, "switches": a.switches,
               "loops": a.loops, "loop_ms": 1000, "warmup": 0, "reconnect": True})
    port = free_port("127.0.0.1")
    launched, of = launch_spec(p), launch_of_version(p)
    box: dict = {}
    try:
        with launch(launched, port=port, of_version=of) as ctl:
            cfg = config(p, f"{ctl.host}:{ctl.port}")
            th = threading.Thread(target=lambda: box.update(doc=driver.run(engine_args(p), config=cfg)))
            t0 = time.monotonic()
            th.start()
            time.sleep(a.kill_at)
            t_kill = time.monotonic()
            os.kill(ctl.pid, signal.SIGKILL)
    except ControllerDied:
        pass  # killed here, on purpose
    time.sleep(a.down_s)
    with launch(launched, port=port, of_version=of):
        t_ready = time.monotonic()
        th.join()
    return row(engine_result(box["doc"]), spec, t0, t_kill, t_ready)


def row(doc: EngineResult, spec: str, t0: float, t_kill: float, t_ready: float) -> dict:
    """The printed figures of one run, from the engine's document (its typed view) and the
    instants of the kill and the relaunch (time.monotonic)."""
    sw = doc.switches
    lost_at = [d.t_s for d in doc.disconnects]
    back = [s.reconnect.last_back_t_s for s in sw]
    t = doc.totals
    out = {"controller": spec, "switches": len(sw), "kill_at_s": round(t_kill - t0, 2),
           "relaunch_s": round(t_ready - t_kill, 2), "lost_sessions": t.sessions_lost,
           "all_back": all(b is not None for b in back) and t.switches_down_at_stop == 0,
           "attempts": t.reconnect_attempts, "refused": t.reconnect_failures,
           "requests_lost": t.requests_lost, "not_sent": t.requests_not_sent_disconnected,
           "sent": t.requests_sent, "answered": t.requests_answered, "status": doc.status}
    if lost_at and out["all_back"]:
        out["all_back_after_kill_s"] = round(max(back) - min(lost_at), 2)
        out["all_back_after_relaunch_s"] = round(max(back) - min(lost_at) - (t_ready - t_kill), 2)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--controller", action="append", help="controller spec (repeat)")
    ap.add_argument("--switches", type=int, default=8)
    ap.add_argument("--rate", type=float, default=400.0, help="offered requests/s over all switches")
    ap.add_argument("--loops", type=int, default=20)
    ap.add_argument("--kill-at", type=float, default=6.0, help="seconds after the engine starts")
    ap.add_argument("--down-s", type=float, default=0.0, help="seconds between the kill and the relaunch (0)")
    a = ap.parse_args()
    rows = [one(s, a) for s in a.controller or ["osken:learning"]]
    for r in rows:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
