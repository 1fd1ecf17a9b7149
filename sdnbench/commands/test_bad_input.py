"""Bad input of commands whose suites check it elsewhere (issue 29): robustness ``--cases`` and
``dos`` counts, and ``run --dry-run`` / ``run`` with a discovery, provisioning or resilience
matrix the trials could not use: one line (one per problem for a scenario), exit 1, nothing
started and no run written to the store."""

import pytest


@pytest.mark.parametrize("argv, words", [
    (["robustness", "--cases", ","], "--cases: no case named in ','"),
    (["dos", "--syn-rate", "-1"], "--syn-rate: want a whole number, not a negative one, got '-1'"),
    (["dos", "--workers", "-3"], "--workers: want a whole number, not a negative one, got '-3'"),
    (["dos", "--workers", "0"], "--workers: want a whole number, 1 or more, got 0"),
    (["robustness", "--syn-rate", "0"], "--syn-rate: "),
    (["dos", "--cases", "bad-version"], "--cases: unknown case bad-version; known: handshake-never-finished, no-hello"),
    (["dos", "--cases", "syn-flood", "--no-syn"], "--cases: syn-flood cannot run: --no-syn leaves it out"),
])
def test_robustness_counts_and_cases_are_refused_by_flag(refused, argv, words):
    line = refused(["controller", *argv])
    assert words in line and "{" not in line and "expected u32" not in line


SCENARIOS = {
    "discovery": ('matrix:\n      topo: ["ring,0", "fattree,3"]', "topo[0]: topology 'ring,0'"),
    "resilience": ('params:\n      test: reprovisioning\n    matrix:\n      topo: ["linear,3", "ring,6"]',
                   "linear,3 has no redundant path"),
    "provisioning": ("params:\n      deadline: 0", "deadline: must be a number of seconds above 0"),
}


@pytest.mark.parametrize("kind", sorted(SCENARIOS))
@pytest.mark.parametrize("dry", [True, False])
def test_a_scenario_the_suite_would_refuse_is_refused_before_the_store(tmp_path, monkeypatch, capsys, kind, dry):
    import subprocess
    from sdnbench.cli import main
    body, words = SCENARIOS[kind]
    f = tmp_path / "s.yaml"
    f.write_text(f"name: bad\nbenchmarks:\n  - kind: {kind}\n    {body}\n")
    monkeypatch.setattr(subprocess, "Popen", lambda *a, **k: pytest.fail("something was started"))
    code = main(["run", str(f), "--store", str(tmp_path / "store")] + (["--dry-run"] if dry else []))
    out, err = capsys.readouterr()
    assert code == 1 and words in err and "Traceback" not in err and out == ""
    assert not (tmp_path / "store").exists()
