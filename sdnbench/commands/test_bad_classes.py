"""Bad input of the classes issue 49 found (beyond one bad flag value, ``test_every_flag.py``):
environment variables, scenario content (control characters, depth, duplicates), JSON of the
wrong shape or depth, symbolic-link loops, values a type admits but the method does not, lists
that name a thing twice, a topology file that exits, a check that came only after the run.

Each case is the command, its environment, the exit code and a pattern its one line on stderr
matches; none may print a traceback, and nothing is started (``subprocess.Popen`` raises, but
for queries that ``subprocess.run`` waits for). ``{d}`` in a case is the fixtures' directory,
``{dead}`` a 127.0.0.1 port nothing listens on."""

from __future__ import annotations

import re
import socket
import subprocess
import sys

import pytest

S = "name: s\nbenchmarks:\n  - kind: controller\n    params: {mode: throughput, loops: 1}\n"
FILES = {
    "ctl.yaml": S + "    \x01: 1\n",
    "esc.yaml": "name: s\x1b[2J\n" + S.split("\n", 1)[1],
    "deep.yaml": S.replace("{mode: throughput, loops: 1}", "[" * 500 + "]" * 500),
    "dupkey.yaml": S + "    params: {}\n",
    "dupctl.yaml": S + "    matrix:\n      controller: [osken:learning, osken:learning]\n",
    "dupsw.yaml": S + "    matrix:\n      switches: [1, 4, 1]\n",
    "dead.yaml": S.replace("loops: 1}", "loops: 1, controller: 'tcp:127.0.0.1:{dead}'}"),
    "hung.yaml": "name: s\nbenchmarks:\n  - kind: robustness\n    params: {case: no-hello, hung_ms: 0}\n",
    "obj.json": '{"a": 1}',
    "list.json": '[{"x": 1}]',
    "str.json": '"text"',
    "deep.json": "[" * 100000 + "]" * 100000,
    "deepobj.json": '{"a":' * 3000 + "1" + "}" * 3000,
    "notres.json": '{"schema": "sdnbench.result/1", "series": 5}',
    "jdir/a.json": "[" * 5000 + "]" * 5000,
    "exit0.py": "import sys\nsys.exit(0)\n",
    "exitctor.py": "import sys\ntopos = {'t': lambda: sys.exit(0)}\n",
    "afile": "a regular file\n",
    "noexec": "#!/bin/sh\n",
}
LINKS = {"loop1": "loop2", "loop2": "loop1", "loop.json": "loop.json", "loop.yaml": "loop.yaml"}
RUN = "name: r\nbenchmarks:\n  - kind: synthetic\n    params: {samples: 3}\n    matrix:\n      value: [1, 2]\n"
HOME, ENGINE = "SDNBENCH_HOME", "SDNBENCH_ENGINE"
NOT_WRITABLE = "/proc/1"                  # a directory even root may not write

CASES = [
    # -- environment variables
    ("env", ["controllers", "list"], {HOME: "{d}/afile"}, 1, r"SDNBENCH_HOME='.*afile': a file, not a directory"),
    ("env", ["doctor"], {HOME: "{d}/afile"}, 1, r"a file, not a directory; point SDNBENCH_HOME at a directory"),
    ("env", ["controllers", "list"], {HOME: "/proc/sdnbench-nowhere/home"}, 1, r"cannot make it \(No such file"),
    ("env", ["controllers", "list"], {HOME: NOT_WRITABLE}, 1, r"SDNBENCH_HOME='/proc/1': not writable"),
    ("env", ["controllers", "list"], {HOME: "bad\x01home"}, 1, r"not a path \(control characters\)"),
    ("env", ["controller", "robustness", "--list"], {ENGINE: "garbage"}, 1, r"SDNBENCH_ENGINE='garbage': no such file"),
    ("env", ["controller", "robustness", "--list"], {ENGINE: "{d}/jdir"}, 1, r"SDNBENCH_ENGINE='.*jdir': a directory"),
    ("env", ["controller", "robustness", "--list"], {ENGINE: "{d}/noexec"}, 1, r"noexec': not executable"),
    ("env", ["controller", "bench", "--controller", "tcp:127.0.0.1:{dead}"], {ENGINE: "garbage"}, 1,
     r"SDNBENCH_ENGINE='garbage': no such file; point it at an sdnbench-engine binary"),
    # -- scenario content
    ("scenario", ["run", "ctl.yaml"], {}, 1, r"ctl.yaml:5: not valid YAML: control character U\+0001"),
    ("scenario", ["run", "esc.yaml", "--dry-run"], {}, 1, r"esc.yaml:1: not valid YAML: control character U\+001B"),
    ("scenario", ["run", "deep.yaml"], {}, 1, r"deep.yaml: nested deeper than 100 levels"),
    ("scenario", ["run", "dupkey.yaml"], {}, 1, r"dupkey.yaml:5: .*duplicate key 'params' \(first on line 4\)"),
    ("scenario", ["run", "dupctl.yaml"], {}, 1, r"matrix.controller: the same value is listed twice"),
    ("scenario", ["run", "dupsw.yaml"], {}, 1, r"matrix.switches: the same value is listed twice"),
    ("scenario", ["run", "dead.yaml", "--store", "{d}/st-dead"], {}, 1,
     r"dead.yaml: tcp:127.0.0.1:\d+: no OpenFlow controller answering \(nothing listens there: connection to .* refused\)"),
    ("scenario", ["run", "hung.yaml", "--dry-run"], {}, 1, r"params.hung_ms: must be a number of milliseconds above 0"),
    # -- JSON of the wrong shape or depth
    ("json", ["conformance", "--report", "obj.json"], {}, 1, r"--report obj.json: JSON, but not the cells .* \(item 0: no controller"),
    ("json", ["conformance", "--report", "list.json"], {}, 1, r"not the cells `sdnbench conformance -o` writes"),
    ("json", ["conformance", "--report", "str.json"], {}, 1, r"\(item 0: a str, not an object\)"),
    ("json", ["conformance", "--report", "deep.json"], {}, 1, r"--report deep.json: JSON nested deeper than 100 levels"),
    ("json", ["report", "deep.json"], {}, 1, r"deep.json: JSON nested deeper than 100 levels"),
    ("json", ["report", "deepobj.json"], {}, 1, r"deepobj.json: JSON nested deeper than 100 levels"),
    ("json", ["report", "notres.json"], {}, 1, r"notres.json: JSON, but not a Result"),
    ("json", ["compare", "jdir", "obj.json"], {}, 1, r"jdir/a.json: JSON nested deeper than 100 levels"),
    ("json", ["switch", "conformance", "--compare", "list.json"], {}, 1, r"list.json: not an sdnbench result"),
    # -- symbolic-link loops
    ("symlink", ["install", "cbench", "--from", "loop1"], {}, 1, r"--from loop1: cannot follow it \(Symlink loop"),
    ("symlink", ["report", "loop.json"], {}, 1, r"loop.json: a symbolic link that leads nowhere"),
    ("symlink", ["run", "loop.yaml"], {}, 1, r"loop.yaml: a symbolic link that leads nowhere"),
    ("symlink", ["conformance", "--report", "loop.json"], {}, 1, r"cannot read it \(Too many levels of symbolic links\)"),
    # -- values the type admits but the method does not
    ("value", ["controller", "robustness", "--hung-ms", "0"], {}, 1, r"--hung-ms: must be a number of milliseconds above 0, got 0.0"),
    ("value", ["controller", "search", "--max-trials", "0"], {}, 1, r"--max-trials: want a whole number, 2 or more"),
    ("value", ["controller", "search", "--max-trials", "1"], {}, 1, r"--max-trials: want a whole number, 2 or more"),
    ("value", ["controller", "search", "--confirm", "0"], {}, 1, r"--confirm: want a number above 0"),
    ("value", ["controller", "provisioning", "--workers", "0"], {}, 1, r"--workers: want a whole number, 1 or more"),
    ("value", ["controllers", "start", "--timeout", "0"], {}, 1, r"--timeout: want a number above 0"),
    ("value", ["results", "best", "1", "--vary", "value", "--metric", "nosuch", "--store", "{d}/st"], {}, 1,
     r"--metric nosuch: run 1 measured no such metric; its metrics: throughput"),
    # -- lists that name a thing twice
    ("twice", ["controller", "bench", "--switches", "1,4,1"], {}, 1, r"--switches: 1 is listed twice"),
    ("twice", ["controller", "robustness", "--cases", "no-hello,no-hello"], {}, 1, r"--cases: no-hello is listed twice"),
    ("twice", ["rfc8456", "--only", "proactive,proactive"], {}, 1, r"--only: proactive is listed twice"),
    ("twice", ["conformance", "--stimuli", "connect,connect"], {}, 1, r"--stimuli: connect is listed twice"),
    ("twice", ["conformance", "--controller", "osken:learning", "--controller", "osken:learning"], {}, 1,
     r"--controller: osken:learning is listed twice"),
    ("twice", ["controller", "dos", "--controller", "osken:learning", "--controller", "osken:learning"], {}, 1,
     r"--controller: osken:learning is listed twice"),
    ("twice", ["switch", "bench", "--test", "insertion,insertion"], {}, 1, r"--test: insertion is listed twice"),
    ("twice", ["net", "run", "--topo", "linear,2", "--ping-sizes", "64,64"], {}, 1, r"--ping-sizes: size 64 is listed twice"),
    # -- a topology file that exits; a check that came after the run
    ("late", ["net", "run", "--topo", "exit0.py"], {}, 1, r"exit0.py: it called sys.exit\(0\) while loading"),
    ("late", ["net", "run", "--topo", "exitctor.py"], {}, 1, r"topology exitctor.py: SystemExit"),
    ("late", ["net", "run", "--topo", "linear,2", "--ditg", "--ditg-log", "afile"], {}, 1, r"--ditg-log: afile is not a directory"),
    ("late", ["net", "run", "--topo", "linear,2", "--ditg", "--ditg-log", "afile/logs"], {}, 1,
     r"--ditg-log: afile/logs cannot be made: afile is not a directory"),
    # -- a password where no API takes it
    ("secret", ["rfc8456", "--controller", "cmd:/bin/ctl --db http://u:s3cret@127.0.0.1:1 {{port}}", "--list"], {}, 1,
     r"http://u:\*\*\*@127.0.0.1:1 .*no password in a URL here"),
]


@pytest.fixture(scope="module")
def fixtures(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad-classes")
    for name, text in FILES.items():
        (d / name).parent.mkdir(exist_ok=True)
        (d / name).write_text(text)
    for name, target in LINKS.items():
        (d / name).symlink_to(target)
    return d


@pytest.fixture(scope="module")
def stored_run(fixtures):
    """Run 1 in ``{d}/st``: the synthetic kind, ``value`` 1 and 2, one metric (throughput)."""
    from sdnbench.campaign.kinds import CAMPAIGN_KINDS
    from sdnbench.cli import main
    from sdnbench.testing.synthetic import kind
    (fixtures / "run.yaml").write_text(RUN)
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(CAMPAIGN_KINDS, "synthetic", kind())
        assert main(["run", str(fixtures / "run.yaml"), "--store", str(fixtures / "st")]) == 0


def _dead_port() -> int:
    with socket.socket() as s:           # free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("cls, argv, env, code, pattern", CASES, ids=[f"{c[0]}: {' '.join(c[1])}" for c in CASES])
def test_a_bad_input_is_one_line_and_its_exit_code(cls, argv, env, code, pattern, fixtures, stored_run,
                                                     monkeypatch, capsys):
    from sdnbench.cli import main
    real = subprocess.Popen

    def started(*a, **k):
        if sys._getframe(1).f_code is subprocess.run.__code__:   # a query run to its end
            return real(*a, **k)
        pytest.fail(f"something was started: {a[:1]}")
    fill = {"d": str(fixtures), "dead": _dead_port()}
    (fixtures / "dead.yaml").write_text(FILES["dead.yaml"].replace("{dead}", str(fill["dead"])))
    monkeypatch.chdir(fixtures)
    for k, v in env.items():
        monkeypatch.setenv(k, v.format(**fill))
    monkeypatch.setattr(subprocess, "Popen", started)
    rc = main([a.format(**fill) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err, err
    assert (rc, err.count("\n")) == (code, 1), (rc, err)
    assert re.search(pattern, err) and err.startswith("sdnbench: error: "), err
    assert out == "" and "s3cret" not in err
