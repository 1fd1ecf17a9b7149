"""Proactive path provisioning time and rate (RFC 8456 §5.1.5, §5.1.7) on the emulated network.

Workload ``provisioning-proactive`` (what the controller must do per request): one northbound
request per switch of a K-switch path (match source and destination MAC, output to the next
hop), for a flow whose frames already knock at the ingress switch (the engine re-sends each
waiting flow's frame every ``repeat_ms``; a miss is dropped, the controller gets no hint). Time
per flow: from the path's first request leaving sdnbench to the first frame leaving the egress
switch toward the destination host (the RFC's "first frame at TP2"), on one clock
(CLOCK_MONOTONIC, shared with the engine). Its resolution is ``repeat_ms``. Rate (§5.1.7):
paths across / (last delivery - first request).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time

from ..engine.result_types import engine_result
from ..errors import UserError
from .flow_push import NorthboundRefused
from .paths import port_path
from .provisioning import run_trial, summarize

REPEAT_MS = 2


def flow_mac(i: int) -> str:
    """Flow i's source MAC, as the engine writes it (``provision.rs``: 02:5d + i)."""
    return "02:5d:" + ":".join(f"{(i >> s) & 255:02x}" for s in (24, 16, 8, 0))


def _wait_switches(adapter, want: set, until: float, engine: threading.Thread) -> None:
    error = None
    while True:
        try:
            seen, error = set(adapter.switches()), None
        except UserError as e:
            seen, error = set(), e
        if want <= seen:
            return
        if time.monotonic() > until or not engine.is_alive():
            if error is not None:       # the API refused or did not answer: say that, not "[]"
                raise UserError(f"proactive provisioning: the controller's flow API did not answer: {error}")
            raise UserError(f"proactive provisioning: the controller's API lists switches {sorted(seen)}, "
                            f"not all of {sorted(want)}")
        time.sleep(0.1)


def run(adapter, address: str, net: dict, of_version: str, deadline_s: float, until_refused: bool = False) -> tuple:
    """Run the engine with ``net`` (its provisioning block set for proactive use here) and push
    every flow's path through ``adapter``. Returns ``(summary, the engine's document)``.
    ``until_refused`` (§5.2.3 proactive): a refused request ends the pushing instead of the test;
    the summary names it (``refused``) and counts the paths pushed whole (``pushed``)."""
    p = net["provisioning"]
    p.update(concurrency=p["flows"], rate=0.0, timeout_ms=int(deadline_s * 1000), repeat_ms=REPEAT_MS)
    out: dict = {}

    def engine():
        try:
            out["doc"] = run_trial(address, net, of_version, deadline_s)
        except BaseException as e:  # handed to the caller below
            out["error"] = e

    t = threading.Thread(target=engine, daemon=True)
    t.start()
    requests, refused = [], None
    try:
        _wait_switches(adapter, {s["dpid"] for s in net["switches"]}, time.monotonic() + 30, t)
        time.sleep(p["announce_ms"] / 1000 + 0.2)       # the flows are knocking now
        for i in range(p["flows"]):
            s, d = p["pairs"][i % len(p["pairs"])]
            dst_mac = net["hosts"][d]["mac"]
            requests.append(time.monotonic_ns())
            try:
                for dpid, port in port_path(net, s, d):
                    adapter.add(dpid, flow_mac(i), dst_mac, port)
            except NorthboundRefused as e:
                if not until_refused:
                    raise
                refused = str(e)
                requests.pop()
                break
    except BaseException:
        _interrupt_engine()     # Ctrl-C / SIGTERM / a refusal: the engine writes what it has and ends
        raise
    finally:
        t.join()
    if "error" in out:
        raise out["error"]
    summary = with_requests(summarize(out["doc"], net), out["doc"], requests)
    return dict(summary, pushed=len(requests), refused=refused), out["doc"]


def _interrupt_engine() -> None:
    """SIGINT to our own sdnbench-engine children (by PID; the engine runs in its own session, so
    a terminal's Ctrl-C never reaches it): it stops, writes its partial result and exits."""
    me = os.getpid()
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        comm, rest = stat[stat.find("(") + 1:stat.rfind(")")], stat[stat.rfind(")") + 2:].split()
        if comm == "sdnbench-engine" and int(rest[1]) == me:
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(d), signal.SIGINT)


def with_requests(s: dict, doc: dict, requests: list) -> dict:
    """Re-time the summary's flows from their northbound request (not from the first frame)."""
    pr = engine_result(doc).network.provisioning     # summarize(doc) found it there
    go = pr.go_mono_ns
    times, before, ends = [], 0, []
    for i, d in enumerate(pr.delivered_ns):
        if not d or i >= len(requests):
            continue
        t = go + d - requests[i]
        if t < 0:
            before += 1          # across before it was asked for: the controller did it itself
            continue
        times.append(t / 1e6)
        ends.append(go + d)
    span = (max(ends) - min(requests)) / 1e9 if ends and requests else 0.0
    return dict(s, times_ms=times, before_request=before, span_s=span,
                rate_per_s=len(times) / span if span > 0 else None, repeated=pr.repeated)
