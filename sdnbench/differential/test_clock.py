"""The stimulus clock read from captures (``clock.py``), on real Open vSwitch messages
(``testdata/clock_ovs.json``: the harness's own OVS runs, os-ken's parse of each beside it)."""

import json
from pathlib import Path

from . import clock

DATA = json.loads((Path(__file__).parent / "testdata" / "clock_ovs.json").read_text())


def _msgs(name: str, t0: float = 1000.0) -> list:
    """The capture's messages as the record keeps them: (t, conn, to_controller, dict, raw)."""
    c = next(c for c in DATA["captures"] if c["capture"] == name)
    return [(t0 + m["t"], 40000, True, {}, bytes.fromhex(m["hex"])) for m in c["messages"]]


def test_the_frame_of_a_packet_in_and_a_port_reported_down_read_as_os_ken_reads_them():
    n = 0
    for c in DATA["captures"]:
        for m in c["messages"]:
            raw, want = bytes.fromhex(m["hex"]), m.get("osken", {})
            if "data" in want:
                assert clock.packet_in_data(raw).hex() == want["data"], c["capture"]
            if "config" in want:
                assert clock.port_down(raw) == bool(want["config"] & 1 or want["state"] & 1), (c["capture"], m["t"])
            n += bool(want)
    assert n > 40


def test_the_handshake_is_the_last_switchs_first_features_reply():
    msgs = _msgs("ovs link 1.3")
    assert clock.handshake_at(msgs, 2) == 1000.0
    assert clock.handshake_at(msgs, 3) is None, "a third switch never answered"
    assert clock.handshake_at(msgs[1:], 2) is None
    # a switch's second session (after a restart) does not move it
    again = msgs + [(1009.0, 40001, True, {}, msgs[0][-1])]
    assert clock.handshake_at(again, 2) == 1000.0


def test_each_stimulus_is_found_where_it_reached_the_controller():
    at = {name: round(clock.stimulus_at(_msgs(f"ovs {name}"), name.split()[0], 1000.0, 1008.0) - 1000.0, 6)
          for name in ("frames 1.0", "hosts 1.3", "link 1.0", "link 1.3")}
    # the stimulus at 4 s: the first stream frame's packet-in, the first announcement's, the
    # first PORT_STATUS reporting the port down (1.3: after a transitional config 0 / state 0)
    assert at == {"frames 1.0": 4.000657, "hosts 1.3": 4.00371, "link 1.0": 4.003031, "link 1.3": 4.004285}
    # what the flow dump's teardown sends is no stimulus; nor an ARP in a frames run
    assert clock.stimulus_at(_msgs("ovs frames 1.0"), "link", 1000.0, 1008.0) is None
    assert clock.stimulus_at(_msgs("ovs hosts 1.3"), "frames", 1000.0, 1008.0) is None
    assert clock.stimulus_at(_msgs("ovs link 1.3"), "connect", 1000.0) is None


def test_intervals_and_the_note_when_the_sides_disagree():
    class R:
        def __init__(self, hs, stim):
            self.t_handshake, self.t_stimulus = hs, stim
    after = clock.intervals({"ovs_a": R(10.0, 14.004), "engine": R(20.0, 24.001), "ovs_b": R(30.0, None)})
    assert after == {"ovs_a": 4.004, "engine": 4.001, "ovs_b": None}
    assert clock.disagreement(after) is None
    # the old clocks: Open vSwitch's stimulus 4.57 s later than the engine's after the handshake
    old = {"ovs_a": 8.57, "engine": 4.0}
    assert clock.disagreement(old) == ("clock: the stimulus came ovs_a 8.570 s, engine 4.000 s after the "
                                       f"handshake, more than {clock.TOLERANCE_S} s apart")
