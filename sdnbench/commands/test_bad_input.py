"""Bad input of commands whose suites check it elsewhere (issue 29): robustness ``--cases`` and
``dos`` counts, and ``run --dry-run`` / ``run`` with a discovery, provisioning or resilience
matrix the trials could not use: one line (one per problem for a scenario), exit 1, nothing
started and no run written to the store."""

import pytest

from sdnbench.testing.listener_matrix import COMMANDS


@pytest.mark.parametrize("argv, words", [
    (["robustness", "--cases", ","], "--cases: no case named in ','"),
    (["dos", "--syn-rate", "-1"], "--syn-rate: want a whole number, not a negative one, got '-1'"),
    (["dos", "--workers", "-3"], "--workers: want a whole number, not a negative one, got '-3'"),
    (["dos", "--workers", "0"], "--workers: want a whole number, 1 or more, got '0'"),
    (["robustness", "--syn-rate", "0"], "--syn-rate: "),
    (["dos", "--cases", ","], "(one or more of handshake-never-finished, no-hello, connection-flood, syn-flood, packet-in-flood)"),
    (["dos", "--cases", "bad-version"], "--cases: unknown case bad-version; known: handshake-never-finished, no-hello"),
    (["dos", "--cases", "syn-flood", "--no-syn"], "--cases: syn-flood cannot run: --no-syn leaves it out"),
])
def test_robustness_counts_and_cases_are_refused_by_flag(refused, argv, words):
    line = refused(["controller", *argv])
    assert words in line and "{" not in line and "expected u32" not in line


@pytest.mark.parametrize("argv, words", [
    (["controller", "bench", "-o", "x.txt"], "-o x.txt: cannot tell the format from the extension; name a file ending in .json"),
    (["switch", "bench", "-o", "x.txt"], "-o x.txt: cannot tell the format from the extension; name a file ending in .json"),
    (["controller", "cbench", "-s", "0"], "controller cbench: unrecognized arguments: -s: cbench's flags go after --"),
    (["rfc8456", "--only", ",", "--list"], "--only: no test named in ','"),
    (["rfc8456", "--only", ","], "--only: no test named in ','"),
    (["rfc8456", "--controller", "cmd:/nonexistent/prog {port}"], "no such program '/nonexistent/prog'"),
])
def test_issue_40_cases_exit_1_in_one_line_before_anything_starts(refused, argv, words):
    assert words in refused(argv)


def test_a_tcp_controller_where_nothing_listens_is_the_users_error_not_a_failed_run(refused, tmp_path):
    import socket
    with socket.socket() as s:               # a port that was free a moment ago: nothing listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = refused(["rfc8456", "--controller", f"tcp:127.0.0.1:{port}", "--quick", "--store", str(tmp_path / "st")])
    assert line.endswith(f"(nothing listens there: connection to 127.0.0.1:{port} refused); start it first, or use a "
                         "managed spec such as "
                         "osken:learning")
    assert not (tmp_path / "st").exists()


@pytest.mark.parametrize("words", [c.argv for c in COMMANDS if c.name.startswith("controller ")
                                   and c.name != "controller cbench"] + [("conformance",)], ids=lambda w: " ".join(w[:2]))
def test_every_command_refuses_a_tcp_controller_where_nothing_listens_in_one_line(refused, words):
    """Nothing started, one line, exit 1 (robustness and dos once raised an IndexError here)."""
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    line = refused([*words, "--controller", f"tcp:127.0.0.1:{port}"])
    assert f"nothing listens there: connection to 127.0.0.1:{port} refused" in line \
        or "cannot be run as a master and a standby" in line           # failover: true of any tcp:


def test_a_result_file_that_is_binary_or_not_a_result_is_one_line(refused, tmp_path):
    (tmp_path / "b.json").write_bytes(bytes(range(256)))
    (tmp_path / "n.json").write_text("[1, 2]")
    assert refused(["report", str(tmp_path / "b.json")]).endswith("b.json: not a text file, so not a Result JSON file")
    assert refused(["report", str(tmp_path / "n.json")]).endswith("n.json: JSON, but not a Result (a int)")


def test_a_corrupt_or_foreign_store_is_one_line_naming_it_in_every_command(refused, tmp_path):
    import sqlite3
    (tmp_path / "corrupt").mkdir()
    (tmp_path / "corrupt" / "results.sqlite").write_bytes(b"not a database" * 300)
    (tmp_path / "foreign").mkdir()
    sqlite3.connect(tmp_path / "foreign" / "results.sqlite").execute("CREATE TABLE x (y)").connection.commit()
    said = {"corrupt": "is not an SQLite database", "foreign": "is another program's SQLite database"}
    for store in ("corrupt", "foreign"):
        d = str(tmp_path / store)
        for argv in (["results", "list"], ["results", "show", "1"], ["report", "1"], ["compare", "1", "2"],
                     ["controller", "bench"], ["rfc8456", "--report", "1"]):
            line = refused([*argv, "--store", d])
            assert f"the results store {d}/results.sqlite {said[store]}" in line, (argv, line)


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
