"""Controller failover time (RFC 8456 §5.4.1) on the engine's emulated network
(docs/rfc8456-provisioning.md).

Workload ``failover`` (what the controllers must do): two instances of one controller, A and B;
every emulated switch connects to both (OpenFlow 1.3). A takes the MASTER role and forwards; B
takes SLAVE and watches A. sdnbench kills A by its PID (SIGKILL) at an instant it records on
CLOCK_MONOTONIC; B must ask every switch for MASTER (a higher generation id) and forward again.

The traffic, both started after ``warmup_ms``:
- sequence-numbered streams both ways between the farthest hosts (one flow each: once a path is
  installed, frames no longer need the controller; a controller that sends every frame through
  itself shows the failover as a gap in the sequence: T2 - T1, the RFC's figure);
- new flows at ``flow_rate`` per second (each one needs the controller): the time from the kill
  until a flow started after it is delivered, and the flows never delivered.

Each switch's own view is read from the engine's role record: the first time it saw B (its
channel 0: B is each switch's first connection, so killing A ends no switch session) become
MASTER after the kill.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from typing import Optional

from ..controllers import envs
from ..controllers.kinds.osken import LAUNCHER
from ..engine.result_types import EngineResult, engine_result
from ..errors import UserError
from ..net.engine_network import network_for
from . import streams
from .paths import farthest_pairs
from .proactive import _interrupt_engine

ROLE_MASTER = 2
B_CHANNEL, A_CHANNEL = 0, 1
FLOW_TIMEOUT_MS = 1000
ENGINE_START_S = 0.3        # the engine's start-up and handshakes before its go, roughly


def instance_specs(controller: str, hb_port: int) -> tuple:
    """(A's spec, B's spec): ``osken:takeover`` run by our launcher with its role, or a ``cmd:``
    template whose ``{role}`` (master/slave) and ``{peer}`` (the loopback port they share) are
    filled in here."""
    if controller == "osken:takeover":
        version = envs.require("osken")["version"]
        base = (f"cmd:{envs.bin_path('osken')} {LAUNCHER} --ofp-listen-host {{host}} --ofp-tcp-listen-port {{port}} "
                f"--sdnbench-of-version 1.3 --sdnbench-peer {{role}}:{{peer}} takeover"
                f";of=1.3;name=osken:takeover;version={version}")
    else:
        check_pair(controller)
        base = controller
    return tuple(base.replace("{role}", r).replace("{peer}", str(hb_port)) for r in ("master", "slave"))


def check_pair(controller: str) -> None:
    """``controller`` can run as a master and a standby (checked before anything starts)."""
    if controller == "osken:takeover" or (controller.startswith("cmd:") and "{role}" in controller
                                          and "{peer}" in controller):
        return
    raise UserError(f"failover: {controller} cannot be run as a master and a standby; give osken:takeover, or a "
                    "cmd: spec with {role} (master/slave) and {peer} (the loopback port the two share)")


def trial_network(topo: str, interval_us: int = 1000, warmup_ms: int = 3000, fail_after_ms: int = 1000,
                  after_ms: int = 2000, flow_rate: float = 100.0) -> tuple:
    """``(net, pairs, kill_ms)``: streams both ways between the farthest hosts and new flows at
    ``flow_rate`` from ``warmup_ms`` to ``kill_ms + after_ms``; kill_ms = warmup + fail_after."""
    net = network_for(topo)
    far, _ = farthest_pairs(net)
    s, d = far[0]
    pairs = [(s, d), (d, s)]
    kill_ms = warmup_ms + fail_after_ms
    net["stream"] = streams.stream_block(pairs, interval_us, warmup_ms, kill_ms + after_ms)
    flows = max(1, int(flow_rate * (fail_after_ms + after_ms) / 1000))
    net["provisioning"] = {"pairs": [list(p) for p in pairs], "flows": flows, "concurrency": flows,
                           "rate": flow_rate, "timeout_ms": FLOW_TIMEOUT_MS, "announce_ms": warmup_ms}
    return net, pairs, kill_ms


def run_seconds(net: dict) -> float:
    return (net["stream"]["stop_ms"] + FLOW_TIMEOUT_MS) / 1000 + 0.5


def run(a, b, net: dict, kill_ms: int) -> tuple:
    """Run the engine against B (channel 0) and A (channel 1), kill A by PID about ``kill_ms``
    after the engine's go. ``(the engine's document, the kill instant on CLOCK_MONOTONIC)``."""
    out: dict = {}

    def engine():
        try:
            out["doc"] = streams.run_engine([f"{b.host}:{b.port}", f"{a.host}:{a.port}"], net, "1.3", run_seconds(net))
        except BaseException as e:  # handed to the caller below
            out["error"] = e

    t = threading.Thread(target=engine, daemon=True)
    t.start()
    try:
        t.join(ENGINE_START_S + kill_ms / 1000)
        kill_mono = time.monotonic_ns()
        if t.is_alive():
            a.death_reported = True       # our doing: not a controller that died by itself
            os.kill(a.pid, signal.SIGKILL)
    except BaseException:
        _interrupt_engine()
        raise
    finally:
        t.join()
    if "error" in out:
        raise out["error"]
    return out["doc"], kill_mono


def role_times(res: EngineResult, net: dict, kill_mono: int) -> dict:
    """Per switch: ``a_master`` (A was master before the kill) and ``b_master_ms`` (ms from the kill
    until the switch saw B become MASTER; None: never)."""
    roles = res.network.roles if res.network else []
    out = {}
    for sw in net["switches"]:
        mine = [r for r in roles if r.dpid == sw["dpid"] and r.role == ROLE_MASTER]
        a = any(r.channel == A_CHANNEL and r.mono_ns < kill_mono for r in mine)
        b = [r.mono_ns for r in mine if r.channel == B_CHANNEL and r.mono_ns >= kill_mono]
        out[sw["dpid"]] = {"a_master": a, "b_master_ms": (min(b) - kill_mono) / 1e6 if b else None}
    return out


def new_flows(res: EngineResult, kill_rel: int) -> dict:
    """From the provisioning record: ms from the kill until the first flow started after it was
    delivered, and the flows never delivered."""
    p = res.network.provisioning if res.network else None
    if p is None:
        return {"new_flow_ms": None, "flows": 0, "flows_started": 0, "flows_provisioned": 0, "flows_lost": 0,
                "provisioning_invariant": None}
    after = [d for s, d in zip(p.started_ns, p.delivered_ns) if s >= kill_rel and d]
    return {"new_flow_ms": (min(after) - kill_rel) / 1e6 if after else None,
            "flows": p.flows, "flows_started": p.started, "flows_provisioned": p.provisioned,
            "flows_lost": p.timed_out + p.in_flight, "provisioning_invariant": p.invariant}


def summarize(doc: dict, net: dict, kill_mono: int) -> dict:
    res = engine_result(doc)
    st = streams.stream_section(res)
    kill_rel = kill_mono - st.go_mono_ns
    rows = []
    for p in st.pairs:
        g = streams.gap_around(p, kill_rel)
        row = {"pair": streams.pair_name(net, p), "sent": p.sent, "received": p.received,
               "missing": streams.missing(p), "before_kill": p.received > 0 and p.first_rx_ns <= kill_rel,
               "after_kill": p.received > 0 and p.last_rx_ns > kill_rel}
        if g is not None and g.before_ns is not None:
            row.update(gap_ms=(g.after_ns - g.before_ns) / 1e6, resume_ms=(g.after_ns - kill_rel) / 1e6, lost=g.lost)
        elif row["before_kill"] and row["after_kill"]:
            row.update(gap_ms=0.0, resume_ms=0.0, lost=0)       # no break: the stream went on
        else:
            row.update(gap_ms=None, resume_ms=None, lost=None)
        rows.append(row)
    roles = role_times(res, net, kill_mono)
    b = [r["b_master_ms"] for r in roles.values()]
    window = (st.pairs[0].first_sent_ns, net["stream"]["stop_ms"] * 1_000_000)
    return {"pairs": rows, "roles": {str(k): v for k, v in roles.items()}, "kill_ms": kill_rel / 1e6,
            "kill_in_window": window[0] < kill_rel < window[1],
            "a_master_everywhere": all(r["a_master"] for r in roles.values()),
            "role_change_ms": max(b) if b and None not in b else None,
            "role_change_first_ms": min((x for x in b if x is not None), default=None),
            "switches_with_b_master": sum(x is not None for x in b), "switches": len(b),
            "rfc_failover_ms": max((r["gap_ms"] for r in rows if r["gap_ms"] is not None), default=None),
            "lost": sum(r["lost"] or 0 for r in rows),
            **new_flows(res, kill_rel),
            "invariant": st.invariant, "network_invariant": res.network.invariant}


def verdict(s: dict) -> str:
    if not s["kill_in_window"]:
        return f"the kill ({s['kill_ms']:.0f} ms after go) fell outside the streams: lengthen --after-ms"
    if not s["a_master_everywhere"]:
        return "A never became master on every switch before the kill"
    if s["role_change_ms"] is None:
        return f"no takeover: B became master on {s['switches_with_b_master']} of {s['switches']} switches"
    if s["new_flow_ms"] is None:
        return "taken over, but no new flow was provisioned after the kill"
    return "taken over"


def check_of(of_version: Optional[str]) -> None:
    if of_version and of_version != "1.3":
        raise UserError(f"--of {of_version}: failover roles need OpenFlow 1.3 (give --of 1.3)")
