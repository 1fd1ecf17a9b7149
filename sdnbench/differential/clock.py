"""Pure: the stimulus clock of a run, read from its capture (docs/conformance.md, "The stimulus
clock").

Both sides start their timeline (``stimuli.py``) at the same event: the capture time of the
FEATURES_REPLY that completed the last switch's handshake (each switch's first FEATURES_REPLY
on the controller's port; the latest of them) — ``handshake_at``. How long the stimulus then
came after it is read back from the same capture (``stimulus_at``): the first message the
stimulus caused at the controller (``frames``: the packet-in of a stream frame; ``hosts``: of
an ARP announcement; ``link``: a PORT_STATUS reporting a port down), or, for the stimuli that act
on the controller (``restart``, ``echo-silence``), the harness's own signal time. ``connect``
has no stimulus.

Messages are ``(t, conn, to_controller, ..., raw)`` tuples or ``capture.Msg``: only ``t``,
``to_controller`` and the raw bytes are read.
"""

from __future__ import annotations

import struct
from typing import Iterable, Optional

from .. import openflow as of
from .stimuli import UDP_PORT

CONTROLLER_STIMULI = ("restart", "echo-silence")
# how far apart the two sides' stimuli may come after their handshakes (seconds): the frame
# senders and the engine keep their schedules to the millisecond; Open vSwitch raises a frame
# 4-5 ms after it arrived, the emulated switch within 1 ms; a signal is sent by the same code on
# both sides. The old clocks were 0.4-4.6 s apart (docs/conformance.md).
TOLERANCE_S = 0.25


def _parts(m) -> tuple:
    """(t, to_controller, raw) of a capture ``Msg`` or a record's message tuple."""
    if isinstance(m, tuple):
        return m[0], m[2], m[-1]
    return m.t, m.to_controller, m.raw


def handshake_at(msgs: Iterable, n_switches: int) -> Optional[float]:
    """The capture time of the last of ``n_switches`` switches' first FEATURES_REPLY (None while
    fewer switches have answered)."""
    first: dict = {}
    for m in msgs:
        t, to_ctl, raw = _parts(m)
        if to_ctl and len(raw) >= 16 and of.name_of(raw) == "FEATURES_REPLY":
            first.setdefault(of.dpid_of(raw), t)
    return max(first.values()) if len(first) >= n_switches else None


def packet_in_data(raw: bytes) -> bytes:
    """The frame a PACKET_IN carries (1.0 §5.4.1; 1.3 §7.4.1: after the padded match and 2 pad)."""
    if raw[0] == of.V10:
        return raw[18:]
    mlen = struct.unpack("!H", raw[26:28])[0]
    return raw[24 + (mlen + 7) // 8 * 8 + 2:]


def is_stream(frame: bytes) -> bool:
    """Is ``frame`` one of the ``frames`` stimulus' stream frames (UDP to ``UDP_PORT``)?"""
    return len(frame) >= 38 and frame[12:14] == b"\x08\x00" and frame[23] == 17 \
        and struct.unpack("!H", frame[36:38])[0] == UDP_PORT


def _arp(frame: bytes) -> bool:
    return len(frame) >= 14 and frame[12:14] == b"\x08\x06"


def port_down(raw: bytes) -> bool:
    """Does a PORT_STATUS report its port down (config PORT_DOWN or state LINK_DOWN)? The
    port's config and state: 1.0 ``ofp_phy_port`` at 16 (config +24, state +28); 1.3 ``ofp_port``
    at 16 (config +32, state +36)."""
    at = 16 + (24 if raw[0] == of.V10 else 32)
    if len(raw) < at + 8:
        return False
    config, state = struct.unpack("!II", raw[at:at + 8])
    return bool(config & of.OFPPC_PORT_DOWN or state & of.OFPPS_LINK_DOWN)


def _caused_by(stimulus: str, raw: bytes) -> bool:
    name = of.name_of(raw)
    if stimulus in ("frames", "hosts"):
        return name == "PACKET_IN" and (is_stream if stimulus == "frames" else _arp)(packet_in_data(raw))
    return stimulus == "link" and name == "PORT_STATUS" and port_down(raw)


def stimulus_at(msgs: Iterable, stimulus: str, after: float, until: float = 0.0) -> Optional[float]:
    """The capture time of the first message after ``after`` (the handshake) and not after
    ``until`` (the flow dump; 0: no end) that the data-plane ``stimulus`` caused at the controller
    (None: none, or a stimulus that acts elsewhere)."""
    for m in msgs:
        t, to_ctl, raw = _parts(m)
        if until and t > until:
            return None
        if to_ctl and t >= after and _caused_by(stimulus, raw):
            return t
    return None


def intervals(recs: dict) -> dict:
    """{run: seconds from the handshake to the stimulus (None: no stimulus seen)}, of records
    with ``t_handshake`` and ``t_stimulus``."""
    return {k: (round(r.t_stimulus - r.t_handshake, 3) if r.t_stimulus and r.t_handshake else None)
            for k, r in recs.items()}


def disagreement(by_run: dict) -> Optional[str]:
    """A note when two runs' stimuli came more than ``TOLERANCE_S`` apart after their handshakes
    (None when they agree, or when fewer than two runs saw a stimulus)."""
    seen = {k: v for k, v in by_run.items() if v is not None}
    if len(seen) < 2 or max(seen.values()) - min(seen.values()) <= TOLERANCE_S:
        return None
    return ("clock: the stimulus came " + ", ".join(f"{k} {v:.3f} s" for k, v in seen.items())
            + f" after the handshake, more than {TOLERANCE_S} s apart")
