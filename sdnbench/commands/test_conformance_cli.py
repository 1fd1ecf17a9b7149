"""``sdnbench conformance``: its input checked before anything starts, a spec's own commas kept,
the product command free of the test peers, and a cell's record kept small."""

import argparse
import subprocess
import sys

import pytest

from ..differential import harness, report
from ..errors import UserError
from .conformance import check


def _args(**kw):
    d = {"controller": None, "of": "1.0,1.3", "stimuli": "connect", "output": None, "noise_runs": 2,
         "noise_extra": 0}
    d.update(kw)
    return argparse.Namespace(**d)


def test_a_repeated_controller_keeps_the_commas_of_its_own_spec():
    spec = "cmd:java -jar ctl.jar --port {port};name=j;of=1.0,1.3"
    ctl, versions, stims = check(_args(controller=[spec, "osken:learning"]))
    assert ctl == [spec, "osken:learning"] and versions == ["1.0", "1.3"] and stims == ["connect"]
    assert harness.speaks(spec, "1.0") and harness.speaks(spec, "1.3")
    assert not harness.speaks("cmd:x {port};of=1.0", "1.3")


@pytest.mark.parametrize("kw,line", [({"of": "1.4"}, "--of"), ({"stimuli": "nope"}, "--stimuli"),
                                     ({"controller": ["nosuch:x"]}, "--controller"), ({"output": "x.txt"}, "-o"),
                                     ({"noise_runs": 1}, "--noise-runs"), ({"noise_runs": 0}, "--noise-runs"),
                                     ({"noise_extra": -1}, "--noise-extra")])
def test_bad_input_is_one_line_naming_the_flag(kw, line):
    with pytest.raises(UserError, match=f"^{line}"):
        check(_args(**kw))


def test_noise_runs_default_to_a_and_b_and_say_their_cost_in_help(capsys):
    from ..cli import main
    assert check(_args(noise_runs=3))[2] == ["connect"], "three runs are good input"
    with pytest.raises(SystemExit):
        main(["conformance", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "--noise-runs N" in out and "adds a whole OVS run's time to every cell" in out and "(2)" in out
    assert harness.run_keys(2) == ["ovs_a", "engine", "ovs_b"]
    assert harness.run_keys(4) == ["ovs_a", "engine", "ovs_b", "ovs_c", "ovs_d"]


def test_the_command_imports_no_test_peer():
    code = ("import sys, sdnbench.commands.conformance; "
            "print([m for m in sys.modules if m.startswith('sdnbench.testing') or m.endswith('tablemiss')])")
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"


def test_a_flooding_cell_keeps_counts_and_the_first_items_only():
    items = {"received": [f"s1 PACKET_IN {'x' * 1000} {i}" for i in range(5000)], "sent": [], "flows": []}
    kept, n = harness.capped(items)
    assert n == {"received": 5000, "sent": 0, "flows": 0}
    assert len(kept["received"]) == harness.KEEP_ITEMS and all(len(x) == harness.ITEM_CHARS for x in kept["received"])
    c = {"controller": "c", "version": "1.3", "stimulus": "connect", "identical": False,
         "only_ovs": kept, "only_engine": {"received": [], "sent": [], "flows": []},
         "differing": {"ovs": n, "engine": {"received": 0, "sent": 0, "flows": 0}}}
    assert report.summary(c) == "received ovs+5000/engine+0"
    assert not report.agrees(c) and report.verdict(c).startswith("**unexplained**")
    assert "… 4988 more" in report.details([c])


def test_differing_sides_exit_2_and_identical_or_explained_exit_0(tmp_path, capsys):
    import json

    from ..cli import main
    base = {"controller": "c", "version": "1.3", "stimulus": "link", "only_engine": {"received": [], "sent": [], "flows": []}}
    same = dict(base, identical=True, only_ovs={"received": [], "sent": [], "flows": []})
    item = {"received": ["s1 PORT_STATUS reason=2 port,config,state=(2, 1, 1)"], "sent": [], "flows": []}
    expl = dict(base, identical=False, only_ovs=item, verdict="explained", labels={"admin-down": 1})
    noisy = dict(base, identical=False, only_ovs=item, verdict="noise", labels={"noise": 1})
    odd = dict(base, identical=False, only_ovs=item, verdict="unexplained", labels={"unexplained": 1})
    old = dict(base, identical=False, only_ovs=item)         # a file from before the noise floor
    for cells, code in (([same, expl, noisy], 0), ([same, odd], 2), ([old], 2)):
        f = tmp_path / f"{code}.json"
        f.write_text(json.dumps(cells))
        assert main(["conformance", "--report", str(f)]) == code
    assert "1 unexplained" in capsys.readouterr().err
