"""The differential run itself, a small part of the matrix (docs/conformance.md), for real:
Mininet + Open vSwitch (userspace datapath) and the engine's emulated network side by side,
each with a fresh controller, tcpdump on its port, the flow tables read over OpenFlow.

- the scripted table-miss + LLDP controller of issue 27 at 1.3 (``tablemiss``): the same
  handshake, table-miss entries in tables 0-3, LLDP packet-ins (NO_MATCH, table 0) and tables;
- os-ken's learning switch at 1.3 with frames between the hosts: the same packet-ins,
  packet-outs, flow-mods and learned flows; and the first frame's packet-in ``SETTLE_S`` after
  the last switch's handshake on every run (the stimulus clock, ``clock.py``).

Each cell runs Open vSwitch twice (A, then the engine, then B: the noise floor; the os-ken cell
three times, ``--noise-runs 3``) and must
compare identical, or differ only as Open vSwitch differs from itself (``noise``); what is left
out, and why, is in the module docs of ``normalise``; a difference prints what differs."""

import json

from . import clock, report, stimuli
from .harness import cell
from sdnbench.testing.peers.tablemiss import spec as tablemiss


def _check(c: dict, verdicts=("identical",), more: tuple = ()) -> None:
    assert c["verdict"] in verdicts, json.dumps({k: c[k] for k in ("verdict", "by_label", "noise_floor", "notes")},
                                                 indent=1)
    assert c["noise"] == [0] * (3 + len(more)), "a frame no stimulus sent reached the controller (IPv6 from a host?)"
    for side in ("ovs", "engine", "ovs_b", *more):              # something was compared, every run
        assert c["counts"][side][0] > 3 and c["counts"][side][1] > 3, c["counts"]
    assert set(c["run_seconds"]) == {"ovs_a", "engine", "ovs_b", *more}
    # every run's timeline starts at its last switch's handshake, read from its capture
    ready = c["ready_after_handshake_s"]
    assert set(ready) == set(c["run_seconds"]) and all(0 <= r <= stimuli.SETTLE_S - stimuli.LEAD_S
                                                       for r in ready.values()), ready


def _same_clock(c: dict) -> None:
    """The stimulus came as long after the handshake on every run, Open vSwitch's and the
    engine's: ``SETTLE_S``, within ``clock.TOLERANCE_S`` (the old clocks: 0.4-4.6 s apart)."""
    after = c["stimulus_after_handshake_s"]
    assert set(after) == set(c["run_seconds"]) and None not in after.values(), after
    assert all(abs(v - stimuli.SETTLE_S) <= clock.TOLERANCE_S for v in after.values()), after
    assert not any(n.startswith("clock:") for n in c["notes"]), c["notes"]


def test_tablemiss_controller_sees_the_same_network_on_ovs_and_the_engine():
    c = cell(tablemiss(), "1.3", "connect")
    _check(c)
    assert c["counts"]["ovs"][2] == 8, "four table-miss entries on each of two switches"


def test_osken_learning_frames_are_handled_the_same_or_as_ovs_differs_from_itself():
    """With a third Open vSwitch run (``--noise-runs 3``): its counts and floor are in the cell."""
    c = cell("osken:learning", "1.3", "frames", noise_runs=3)
    _check(c, ("identical", "noise"), more=("ovs_c",))
    _same_clock(c)
    assert min(c["counts"][side][2] for side in ("ovs", "engine", "ovs_b", "ovs_c")) >= 2, "flows learned on every run"
    fl = c["noise_floor"]
    assert fl["runs"] == 3 and fl["run_names"] == ["A", "B", "C"] and len(fl["per_run"]) == 3
    assert fl["per_run"][:2] == [fl["a"], fl["b"]] and len(fl["only_more"]) == 1


def test_over_tls_both_sides_go_through_the_tap_and_compare_the_same():
    """os-ken on TLS (``;tls``): Open vSwitch (``ssl:``) and the engine (rustls) each connect to a
    TLS tap that ends TLS twice (``tlstap.py``); its plain middle hop is what is captured."""
    c = cell("osken:learning;tls", "1.3", "connect")
    _check(c, ("identical", "noise"))


def test_two_real_commands_pool_across_their_files(tmp_path, capsys):
    """Two ``sdnbench conformance`` commands (ovs-testcontroller, OpenFlow 1.0, connect) each
    with its ``-o`` file and ``--views``, then ``--pool`` both: each cell carries what it is
    comparable by (the controller's version as launched, both switches' versions), the cell is
    judged with the four Open vSwitch runs of both commands, the inputs stay as they were."""
    from ..cli import main
    files = []
    for name in ("A", "B"):
        out, views = tmp_path / f"{name}.json", tmp_path / name
        rc = main(["conformance", "--controller", "ovs-testcontroller", "--of", "1.0", "--stimuli", "connect",
                   "-o", str(out), "--views", str(views)])
        assert rc in (0, 2) and (views / "ovs-testcontroller-1.0-connect.json").is_file()
        files.append((out, views, out.read_text()))
    (a, _, _), (b, _, _) = files
    ca, cb = (json.loads(f.read_text())[0] for f in (a, b))
    assert ca["provenance"] == cb["provenance"] and ca["command"]["id"] != cb["command"]["id"]
    prov = ca["provenance"]
    assert prov["controller"] and not any(c.endswith(" unknown") for c in prov["controller"]), prov
    assert prov["switches"]["ovs"].startswith("Open vSwitch 3.") and prov["switches"]["engine"].startswith("sdnbench-engine ")
    capsys.readouterr()
    merged = tmp_path / "AB.json"
    rc = main(["conformance", "--pool", str(a), "--views", str(tmp_path / "A"), "--pool", str(b),
               "--views", str(tmp_path / "B"), "-o", str(merged)])
    out = capsys.readouterr()
    c = json.loads(merged.read_text())[0]
    assert c["pooled_across"] == {"runs": 4, "same_stimulus_commands": 2, "commands": 2, "files": [str(a), str(b)]}
    assert c["noise_floor"]["runs"] == 4, c["noise_floor"]
    assert c["identical"] or "4 OVS runs from 2 commands" in out.out, out.out
    assert rc == (0 if report.agrees(c) else 2)
    assert [f.read_text() for f, _, _ in files] == [t for _, _, t in files], "no stored result changes"
