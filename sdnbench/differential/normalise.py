"""Pure: a side's record → what can be compared with the other side, and the comparison.

Per run, three sets (not counts: how often a periodic message repeats depends on timing):

- ``received``: the messages the controller received, each reduced to what a controller acts
  on (a flow-stats reply: one item per entry, their order and split over parts left out;
  a table-features reply: one item per distinct table, ``tablefeatures.py``;
  packet-in: reason, table, buffered or not, total_len, in_port, cookie and the frame's
  kind; port-status: reason, port, config, state; features: n_tables, n_buffers, capabilities;
  port descriptions: number, config, state);
- ``sent``: what the controller sent (flow-mods whole but the xid; packet-outs: buffer, in_port,
  actions, frame kind; requests by type and body);
- ``flows``: the flow entries of every switch after settling (all fields but durations and
  counters).

Left out on purpose, each with its reason in docs/conformance.md: echo (timing), xids,
description strings (``mfr_desc``), port names, hardware addresses and speeds, OVS's LOCAL port,
the features' capabilities bits (OVS announces queue stats, which the emulation has not),
the order of OXM fields in a match, the values of non-zero timeouts (Faucet draws them at random),
the messages after the flow tables were read (Mininet's teardown), and IPv6 frames (the kernel's
own neighbour discovery on the veths, which no stimulus sends; counted in ``noise``).

After a ``restart`` or an ``echo-silence`` only the window from the kill (the SIGCONT) on is
compared (``Record.t_from``; a session that handshook in it, whole), and ``received`` also holds the number of sessions of each switch
that handshook in it (``SESSIONS``): how often a switch came back is compared, not its TCP port.
In that window, connections that never carried a FEATURES_REPLY (sdnbench's HELLO probe of the relaunched
controller; a switch's attempt that timed out in the backlog of a stopped controller) name no
switch: left out, counted in ``unnamed``.
"""

from __future__ import annotations

import base64
import json
import struct
from dataclasses import dataclass, field
from typing import Optional

from .. import openflow as of
from . import tablefeatures
from .stimuli import SETTLE_S

NO_BUFFER = of.NO_BUFFER
LOCAL = {0xFFFE, 0xFFFFFFFE}
SKIP_TYPES = {"OFPEchoRequest", "OFPEchoReply"}
# the messages os-ken leaves unparsed that are labelled by name (any other: by its type code)
NAMED_UNPARSED = {"HELLO", "ECHO_REQUEST", "ECHO_REPLY", "FEATURES_REQUEST", "GET_CONFIG_REQUEST"}


@dataclass
class View:
    received: set = field(default_factory=set)
    sent: set = field(default_factory=set)
    flows: set = field(default_factory=set)
    noise: int = 0
    unnamed: int = 0           # messages of connections that never said which switch they are
    # the connect phase (``pooled.py``): {category: items} of ``received`` and ``sent`` with an
    # occurrence before the stimulus (``pre``: capture time < handshake + SETTLE_S) and with one
    # at or after it (``post``); None for a run whose compared window starts later (``restart``,
    # ``echo-silence``) or that has no handshake time: it tells nothing of its connect phase
    pre: Optional[dict] = None
    post: Optional[dict] = None


def frame_kind(data: bytes) -> str:
    if len(data) < 14:
        return f"short({len(data)})"
    et = struct.unpack("!H", data[12:14])[0]
    dst, src = data[0:6].hex(":"), data[6:12].hex(":")
    if et == 0x88CC:
        return "lldp"
    if et == 0x8942:
        return "bddp"
    if et == 0x0806:
        return f"arp {src}>{dst}"
    if et == 0x0800 and len(data) >= 24:
        return f"ipv4/{data[23]} {src}>{dst} len={len(data)}"
    return f"0x{et:04x} {src}>{dst} len={len(data)}"


def _data(d: dict) -> bytes:
    v = d.get("data") or ""
    return base64.b64decode(v) if isinstance(v, str) else bytes(v)


def _in_port(d: dict):
    if "in_port" in d:
        return d["in_port"]
    for f in ((d.get("match") or {}).get("OFPMatch") or {}).get("oxm_fields", []):
        t = f.get("OXMTlv", {})
        if t.get("field") == "in_port":
            return t.get("value")
    return None


def _strip(x):
    """A message dict without lengths, xids, padding: what stays the same between runs. OXM
    fields are sorted: their order in a match carries no meaning (Open vSwitch answers flow
    stats in its own field order, the emulated switch in OXM field-number order)."""
    if isinstance(x, dict) and "oxm_fields" in x:
        x = dict(x, oxm_fields=sorted(x["oxm_fields"], key=lambda f: json.dumps(f, sort_keys=True)))
    if isinstance(x, dict):
        return {k: (_timeout(v) if k in ("idle_timeout", "hard_timeout") else _strip(v))
                for k, v in sorted(x.items()) if k not in ("len", "length", "xid", "duration_sec",
                                                          "duration_nsec", "packet_count", "byte_count")}
    if isinstance(x, list):
        return [_strip(v) for v in x]
    return x


def _timeout(v):
    """A timeout compares as set or not: Faucet draws its timeouts at random per flow (so two
    runs on the same switch differ), and the switch only echoes what it was given."""
    return "set" if v else 0


def _port(p: dict) -> tuple:
    p = p.get("OFPPort", p.get("OFPPhyPort", p))
    return (p["port_no"], p["config"], p["state"])


def _packet_out(raw: bytes) -> str:
    po = of.packet_out_fields(raw)
    data = po["data"]
    return (f"PACKET_OUT buffered={po['buffer_id'] != NO_BUFFER} in_port={po['in_port']:#x} "
            f"actions={po['actions'].hex()} frame={frame_kind(data) if data else '-'}")


def received_key(d: dict, raw: bytes):
    """The comparable form of a switch → controller message (None: left out)."""
    name, body = next(iter(d.items()))
    if name in SKIP_TYPES:
        return None
    if tablefeatures.is_table_features_reply(raw):
        return tablefeatures.items(raw)
    if name == "OFPPacketIn":
        data = _data(body)
        if len(data) >= 14 and data[12:14] == b"\x86\xdd":
            return "noise"
        return (f"PACKET_IN reason={body['reason']} table={body.get('table_id', '-')} "
                f"buffered={body['buffer_id'] != NO_BUFFER} total_len={body['total_len']} "
                f"in_port={_in_port(body)} cookie={body.get('cookie', '-')} frame={frame_kind(data)}")
    if name == "OFPPortStatus":
        if _port(body["desc"])[0] in LOCAL:
            return None
        return f"PORT_STATUS reason={body['reason']} port,config,state={_port(body['desc'])}"
    if name == "OFPSwitchFeatures":
        listed = body.get("ports") or []
        listed = list(listed.values()) if isinstance(listed, dict) else listed     # 1.0: by number
        ports = sorted(_port(p) for p in listed if _port(p)[0] not in LOCAL)
        # capabilities left out: OVS adds queue stats, which the emulation has not
        return (f"FEATURES_REPLY n_tables={body['n_tables']} n_buffers={body['n_buffers']}"
                + (f" ports={ports}" if ports else ""))
    if name == "OFPPortDescStatsReply":
        return f"PORT_DESC_REPLY {sorted(_port(p) for p in body['body'] if _port(p)[0] not in LOCAL)}"
    if name == "OFPDescStatsReply":
        return "DESC_REPLY"
    if name == "unparsed":
        return f"unparsed type={raw[1]} {body}"
    if name == "OFPFlowStatsReply":
        return flow_stats_entries(body)
    return f"{name} {json.dumps(_strip(body), sort_keys=True)}"


def flow_stats_entries(body: dict) -> list:
    """A flow-stats reply the controller asked for, one item per entry: the spec gives its body as
    an array of ofp_flow_stats and no order for it (OpenFlow 1.3.5 §7.3.5.2, 1.0.0 §5.3.5; the
    1.3 header: "The reply body is an array of struct ofp_flow_stats"), and how the entries are
    split over the parts of a multipart reply is the switch's choice too."""
    entries = [json.dumps(_strip(next(iter(e.values())) if isinstance(e, dict) and len(e) == 1 else e),
                          sort_keys=True) for e in body.get("body") or []]
    return [f"FLOW_STATS_ENTRY {e}" for e in entries] or ["FLOW_STATS_REPLY (empty part)"]


def sent_key(d: dict, raw: bytes):
    """The comparable form of a controller → switch message (None: left out)."""
    kind = of.name_of(raw)
    if kind in ("ECHO_REQUEST", "ECHO_REPLY"):
        return None
    if kind == "PACKET_OUT" and raw[0] in (of.V10, of.V13):
        data_kind = _packet_out(raw)
        return "noise" if "frame=0x86dd" in data_kind else data_kind
    name = next(iter(d))
    if name not in ("unparsed",):
        return f"{name} {json.dumps(_strip(d[name]), sort_keys=True)}"
    label = kind if kind in NAMED_UNPARSED else f"type {raw[1]}"
    return f"{label} {raw[8:].hex()}"


def flow_keys(parts: list) -> set:
    out = set()
    for p in parts:
        body = next(iter(p.values()))
        for e in body.get("body", []):
            e = next(iter(e.values()))
            out.add(json.dumps(_strip(e), sort_keys=True))
    return out


def view(rec) -> View:
    """The comparable view of a side's record (``sides.Record``)."""
    v = View()
    dpid, sessions = {}, {}
    t_from = getattr(rec, "t_from", 0.0)
    for t, conn, to_ctl, _d, raw in rec.msgs:
        if to_ctl and of.name_of(raw) == "FEATURES_REPLY" and len(raw) >= 16:
            dpid[conn] = of.dpid_of(raw)
            if t >= t_from and not (rec.t_end and t > rec.t_end):
                sessions.setdefault(dpid[conn], set()).add(conn)
    window = set().union(*sessions.values()) if sessions else set()
    t_hs = getattr(rec, "t_handshake", 0.0)
    phased = bool(t_hs) and not t_from
    if phased:
        v.pre, v.post = {"received": set(), "sent": set()}, {"received": set(), "sent": set()}
    for t, conn, to_ctl, d, raw in rec.msgs:
        # a session of the window counts whole: its switch's HELLO may have waited in a stopped
        # controller's backlog from before the SIGCONT (where in the retry cycle: timing)
        if (rec.t_end and t > rec.t_end) or (t < t_from and conn not in window):
            continue
        if t_from and conn not in dpid:
            v.unnamed += 1
            continue
        key = received_key(d, raw) if to_ctl else sent_key(d, raw)
        if key is None:
            continue
        if key == "noise":
            v.noise += 1
            continue
        cat = "received" if to_ctl else "sent"
        for k in ([key] if isinstance(key, str) else key):
            item = f"s{dpid.get(conn, '?')} {k}"
            getattr(v, cat).add(item)
            if phased:
                (v.pre if t < t_hs + SETTLE_S else v.post)[cat].add(item)
    if t_from:
        v.received |= {f"s{k} SESSIONS={len(c)}" for k, c in sessions.items()}
    for k, parts in rec.flows.items():
        v.flows |= {f"s{k} {e}" for e in flow_keys(parts)}
    return v


@dataclass
class Diff:
    only_ovs: dict
    only_engine: dict

    @property
    def identical(self) -> bool:
        return not any(self.only_ovs.values()) and not any(self.only_engine.values())


def compare(ovs: View, engine: View) -> Diff:
    cats = ("received", "sent", "flows")
    return Diff({c: sorted(getattr(ovs, c) - getattr(engine, c)) for c in cats},
                {c: sorted(getattr(engine, c) - getattr(ovs, c)) for c in cats})
