"""Which came first at each switch of ``linear,2``: the controller's LLDP entry (its flow-mod)
or the first LLDP probe the other switch was told to send over the link (its packet-out), and
what the switch then raised: the harness's own runs (``sides.run_ovs`` / ``run_engine``) of a
topology controller at OpenFlow 1.0, e.g. Ryu rest_topology: docs/conformance.md, "#8 on Ryu
at 1.0".

Read from each run's capture of the controller's port (tcpdump on loopback, both sides alike;
``receivers``, pure), per receiving switch R and its peer P:

- ``flow_mod``: the first FLOW_MOD to R matching ``dl_type`` LLDP (Ryu's entry, output
  CONTROLLER), the capture time of its write;
- ``probe``: the first PACKET_OUT to P of an LLDP frame out of P's link port;
- ``reason``: the reason of R's first packet-in of an LLDP frame from its link port within
  ``WINDOW_S`` of that probe (0 NO_MATCH: the frame ran before the entry; 1 ACTION; None: none).

``tally`` counts receivers by which was written first and how many of them raised NO_MATCH.

    cd <repository> && .venv/bin/python bench/conformance/lldporder.py --pairs 8 -o order.json

Not in the test suite (a measurement); its pure part is tested in ``test_lldporder.py``.
"""

from __future__ import annotations

import argparse
import json
import struct
import tempfile
import time
from pathlib import Path

from sdnbench import openflow as of
from sdnbench.differential import sides
from sdnbench.differential.clock import packet_in_data

LINK_PORT = 2                   # linear,2: port 1 the host, port 2 the other switch (both sides)
WINDOW_S = 0.5                  # a packet-in this long after the probe is a later probe's
_DL_TYPE10 = 8 + 22             # 1.0 FLOW_MOD: header, then ofp_match's dl_type at +22


def _is_lldp(frame: bytes) -> bool:
    return len(frame) >= 14 and frame[12:14] == b"\x88\xcc"


def _probe_port(raw: bytes):
    """The output port of a 1.0 PACKET_OUT carrying an LLDP frame (None otherwise)."""
    alen = struct.unpack("!H", raw[14:16])[0]
    if alen < 8 or not _is_lldp(raw[16 + alen:]):
        return None
    return struct.unpack("!H", raw[20:22])[0]


def _conn_dpid(msgs: list) -> dict:
    return {conn: of.dpid_of(raw) for _t, conn, to_ctl, _d, raw in msgs
            if to_ctl and of.name_of(raw) == "FEATURES_REPLY" and len(raw) >= 16}


def receivers(msgs: list) -> list:
    """Pure: per switch of a 1.0 run's messages ``(t, conn, to_controller, parsed, raw)``,
    ``{dpid, flow_mod, probe, reason}`` (module doc; times in capture seconds, None: not seen)."""
    dp = _conn_dpid(msgs)
    fm, probe, pins = {}, {}, {}
    for t, conn, to_ctl, _d, raw in msgs:
        sw, kind = dp.get(conn), of.name_of(raw)
        if sw is None or raw[0] != of.V10:
            continue
        if not to_ctl and kind == "FLOW_MOD" and raw[_DL_TYPE10:_DL_TYPE10 + 2] == b"\x88\xcc":
            fm.setdefault(sw, t)
        elif not to_ctl and kind == "PACKET_OUT" and _probe_port(raw) == LINK_PORT:
            probe.setdefault(sw, t)
        elif to_ctl and kind == "PACKET_IN" and struct.unpack("!H", raw[14:16])[0] == LINK_PORT \
                and _is_lldp(packet_in_data(raw)):
            pins.setdefault(sw, []).append((t, raw[16]))
    out = []
    for sw in sorted(dp.values()):
        peer = next((p for p in dp.values() if p != sw), None)
        t_probe = probe.get(peer)
        first = next((r for t, r in pins.get(sw, []) if t_probe is not None and t_probe <= t <= t_probe + WINDOW_S), None)
        out.append({"dpid": sw, "flow_mod": fm.get(sw), "probe": t_probe, "reason": first})
    return out


def tally(rows: list) -> dict:
    """{"flow-mod first" | "probe first": {"receivers", "no_match", "gaps_ms"}} over receivers
    that saw both writes; ``gaps_ms`` is flow-mod − probe of each (negative: the flow-mod first)."""
    out: dict = {}
    for r in rows:
        if r["flow_mod"] is None or r["probe"] is None:
            continue
        c = out.setdefault("flow-mod first" if r["flow_mod"] < r["probe"] else "probe first",
                           {"receivers": 0, "no_match": 0, "gaps_ms": []})
        c["receivers"] += 1
        c["no_match"] += r["reason"] == 0
        c["gaps_ms"].append(round(1000 * (r["flow_mod"] - r["probe"]), 3))
    return out


def one(side: str, spec: str, work: Path) -> list:
    fn = sides.run_ovs if side == "ovs" else sides.run_engine
    return receivers(fn(spec, "1.0", "connect", "linear,2", work).msgs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=4, help="run pairs, alternating OVS and the engine (4)")
    ap.add_argument("--controller", default="ryu:rest_topology", help="an OpenFlow 1.0 topology controller")
    ap.add_argument("--sides", default="ovs,engine", help="which sides to run (ovs,engine)")
    ap.add_argument("-o", metavar="FILE", help="every run's receivers and the tally as JSON")
    args = ap.parse_args()
    runs: dict = {s: [] for s in args.sides.split(",")}
    for _ in range(args.pairs):
        for side in runs:
            with tempfile.TemporaryDirectory(prefix="sdnbench-lldporder-") as d:
                runs[side].append({"at": time.strftime("%H:%M:%S", time.gmtime()), "receivers": one(side, args.controller, Path(d))})
    summary = {side: {"runs": len(rs), "runs_with_no_match": sum(any(x["reason"] == 0 for x in r["receivers"]) for r in rs),
                      **tally([x for r in rs for x in r["receivers"]])} for side, rs in runs.items()}
    print(json.dumps(summary, indent=1))
    if args.o:
        Path(args.o).write_text(json.dumps({"summary": summary, "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
