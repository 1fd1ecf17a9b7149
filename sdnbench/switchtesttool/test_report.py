"""Summaries and the side-by-side table of two targets (pure)."""

from ..result import Result
from .params import target, targets, versions
from .report import by_category, regressions, side_by_side_rows, summary_rows

import pytest

from ..errors import UserError


def _run(target_name: str, tests: list) -> Result:
    return Result(kind="switch", benchmark="switch-conformance", params={"target": target_name, "of_version": "1.3"},
                  topology={"tests": [list(t) for t in tests]})


A = _run("ovs", [("action: 00_OUTPUT", "t1", "OK", ""), ("action: 11_COPY_TTL_OUT", "t2", "OK", ""),
                 ("match: 03_ETH_DST", "t3", "ERROR", "Receiving timeout: no packet-in.")])
B = _run("emulated", [("action: 00_OUTPUT", "t1", "OK", ""),
                      ("action: 11_COPY_TTL_OUT", "t2", "ERROR", "Received incorrect packet: mpls(ttl=64)"),
                      ("match: 03_ETH_DST", "t3", "OK", "")])


def test_counts_by_category_and_a_total_row():
    assert by_category(A) == {"action": (2, 0), "match": (0, 1)}
    assert summary_rows([A])[-1] == ["ovs", "1.3", "all", 2, 1, 3]


def test_side_by_side_and_what_the_second_target_fails():
    assert side_by_side_rows(A, B) == [["action", 2, 2, 1, 1, 1, 0], ["match", 1, 0, 1, 0, 0, 1]]
    assert regressions(A, B) == [("action: 11_COPY_TTL_OUT", "t2", "ERROR", "Received incorrect packet: mpls(ttl=64)")]
    assert regressions(A, _run("x", [])) == [("action: 00_OUTPUT", "t1", "not run", ""),
                                             ("action: 11_COPY_TTL_OUT", "t2", "not run", "")]


def test_targets_and_versions_are_checked_before_anything_starts():
    assert [t["spec"] for t in targets(["ovs,emulated", "ovs"], None)] == ["ovs", "emulated"]
    t = target("remote:6653,lo,lo,lo", "aa")
    assert (t["port"], t["ifs"], t["dpid"]) == (6653, ["lo", "lo", "lo"], 0xAA)
    for bad in (lambda: target("remote:6653,eth1,eth2", "1"), lambda: target("remote:6653,a,b,c", None),
                lambda: target("remote:6653,a,b,c", "zz"), lambda: target("hardware", None),
                lambda: target("remote:6653,lo,lo,sbtnone0", "1"),
                lambda: versions("1.4"), lambda: versions(",")):
        with pytest.raises(UserError):
            bad()


def test_the_last_target_against_the_union_of_the_others():
    from .report import findings, groups_by_version, union_rows
    C = _run("cpqd", [("action: 00_OUTPUT", "t1", "ERROR", "x"), ("match: 03_ETH_DST", "t3", "OK", ""),
                      ("meter: 01_DROP", "t4", "OK", "")])
    D = _run("emulated", [("action: 00_OUTPUT", "t1", "OK", ""), ("action: 11_COPY_TTL_OUT", "t2", "OK", ""),
                          ("match: 03_ETH_DST", "t3", "ERROR", "timeout"), ("meter: 01_DROP", "t4", "ERROR", "rate")])
    [(v, refs, subject)] = groups_by_version([A, C, D])
    assert (v, [r.params["target"] for r in refs], subject.params["target"]) == ("1.3", ["ovs", "cpqd"], "emulated")
    # category, tests, OK ovs, OK cpqd, OK a reference, OK emulated, findings, emulated only
    assert union_rows(refs, subject) == [["action", 2, 2, 0, 2, 2, 0, 0], ["match", 1, 0, 1, 1, 0, 1, 0],
                                         ["meter", 1, 0, 1, 1, 0, 1, 0]]
    assert findings(refs, subject) == [("match: 03_ETH_DST", "t3", "cpqd", "ERROR", "timeout"),
                                       ("meter: 01_DROP", "t4", "cpqd", "ERROR", "rate")]
    # two targets: the first is the reference, as before
    [(_, [ra], rb)] = groups_by_version([A, B])
    assert [f[:2] for f in findings([ra], rb)] == [t[:2] for t in regressions(A, B)]


def _rerun(target_name: str, rep: int, tests: list) -> Result:
    r = _run(target_name, tests)
    r.params["rep"] = rep
    return r


def test_a_finding_stands_only_when_a_reference_always_passes_and_the_subject_never():
    from .report import FINDING, NOISE, UNSETTLED, verdict
    assert verdict({"ovs": (3, 3), "emulated": (0, 3)}, "emulated") == FINDING
    assert verdict({"ovs": (1, 3), "cpqd": (3, 3), "emulated": (0, 3)}, "emulated") == FINDING
    assert verdict({"ovs": (2, 3), "emulated": (1, 3)}, "emulated") == NOISE
    assert verdict({"ovs": (2, 3), "cpqd": (0, 3), "emulated": (2, 3)}, "emulated") == NOISE
    assert verdict({"ovs": (3, 3), "emulated": (1, 3)}, "emulated") == UNSETTLED      # passes less often
    assert verdict({"ovs": (2, 3), "emulated": (0, 3)}, "emulated") == UNSETTLED      # the reference moves, the subject never passed
    assert verdict({"ovs": (1, 1), "emulated": (0, 1)}, "emulated") == UNSETTLED      # one run decides nothing


def test_the_noise_floor_counts_each_finding_over_the_first_run_and_the_reruns():
    from .report import first_runs, groups_by_version, noise_floor
    t = [("meter: 02_DSCP", "ipv4", "OK", ""), ("group: 01_SELECT", "arp", "OK", "")]
    ovs = _run("ovs", t)
    emu = _run("emulated", [("meter: 02_DSCP", "ipv4", "ERROR", "862 kbps"), ("group: 01_SELECT", "arp", "ERROR", "0 kbps")])
    reruns = [_rerun("ovs", 1, [t[0], ("group: 01_SELECT", "arp", "ERROR", "1.8 Mbps on one")]),
              _rerun("emulated", 1, [("meter: 02_DSCP", "ipv4", "ERROR", "870"), ("group: 01_SELECT", "arp", "OK", "")]),
              _rerun("ovs", 2, t), _rerun("emulated", 2, [("meter: 02_DSCP", "ipv4", "ERROR", "865"), ("group: 01_SELECT", "arp", "OK", "")])]
    every = [ovs, emu, *reruns]
    assert first_runs(every) == [ovs, emu]
    [(v, refs, subject)] = groups_by_version(every)            # the tables are of the first runs
    assert (refs, subject) == ([ovs], emu)
    [(v, s, targets, rows)] = noise_floor(every)
    assert (v, s, targets) == ("1.3", "emulated", ["ovs", "emulated"])
    assert rows == [("meter: 02_DSCP", "ipv4", {"ovs": (3, 3), "emulated": (0, 3)}, "finding"),
                    ("group: 01_SELECT", "arp", {"ovs": (2, 3), "emulated": (2, 3)}, "noise")]
    assert noise_floor([ovs, emu]) == []                        # no rerun: no noise floor
