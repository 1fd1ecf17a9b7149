"""One run of os-ken's switch test tool: the selected patterns staged, the tool started in the
os-ken environment (``osken_tester.py``) on a free loopback port, the pair built and pointed at
it, the tool's log followed (a progress line per pattern file), and everything stopped: the
tool by its process group, the pair by its ``close``. The run's Result holds every outcome.

A run fails (status ``failed``, exit 2) when the tool did not finish: the switches never joined,
no outcome came for ``STALL_S``, the tool died, or its own counts differ from the parsed ones;
or a switch sdnbench runs died (``pair.dead()``, polled with the log: its program, pid, signal or
exit status and output, and the test the tool was in; the outcomes before it are kept).
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path
from typing import Callable, Optional

from .. import proc, procreg
from ..controllers import envs
from ..controllers.ofhello import accepts, free_port
from ..controllers.launchplan import base_env
from ..errors import Interrupted, UserError
from ..result import Result
from . import pairs
from .logparse import LogParser, Outcome
from .patterns import VERSIONS, Pattern, stage

SCRIPT = Path(__file__).with_name("osken_tester.py")
HOST = "127.0.0.1"
JOIN_S = 30.0          # both switches must have joined the tool this long after connect
STALL_S = 180.0        # the longest wait for the next outcome (a throughput test sends for 30 s)
POLL_S = 0.2
BENCHMARK = "switch-conformance"


class RunFailed(Exception):
    """The tool did not finish the run (the reason is the message)."""


def make_pair(target: dict, version: str):
    kind = target["kind"]
    if kind == "ovs":
        return pairs.OvsPair(version)
    if kind == "emulated":
        return pairs.EmulatedPair(version)
    if kind == "cpqd":
        return pairs.CpqdPair(version)
    return pairs.RemotePair(version, target["port"], target["ifs"], target["dpid"])


def tester_argv(port: int, pair, version: str, directory: Path, interval: int = 0) -> list:
    v = VERSIONS[version][1]
    recv, send1, send2 = pair.target_ports
    return [str(envs.bin_path("osken")), str(SCRIPT), "--ofp-listen-host", HOST, "--ofp-tcp-listen-port", str(port),
            "--test-switch-target", pairs.dpid_hex(pair.target_dpid),
            "--test-switch-tester", pairs.dpid_hex(pair.tester_dpid),
            "--test-switch-target_recv_port", str(recv), "--test-switch-target_send_port_1", str(send1),
            "--test-switch-target_send_port_2", str(send2),
            "--test-switch-dir", str(directory), "--test-switch-target-version", v, "--test-switch-tester-version", v,
            "--test-switch-interval", str(interval)]


class _Follow:
    """Reads the tool's log as it grows and feeds the parser; says what each file did."""

    def __init__(self, path: Path, parser: LogParser, label: str, patterns: list,
                 progress: Callable[[str], None]):
        self.path, self.parser, self.label, self.progress = path, parser, label, progress
        self.n_files, self.n_tests = len(patterns), sum(p.tests for p in patterns)
        self._pos, self._buf, self._file, self._files_done, self._tests_done = 0, "", None, 0, 0
        self._t0 = time.monotonic()
        self.last_outcome = time.monotonic()

    def poll(self) -> None:
        if not self.path.exists():
            return
        with open(self.path, "rb") as f:
            f.seek(self._pos)
            data = f.read()
        self._pos += len(data)
        self._buf += data.decode("utf-8", "replace")
        *lines, self._buf = self._buf.split("\n")
        for line in lines:
            for o in self.parser.feed(line):
                self._outcome(o)

    def finish(self) -> None:
        if self._buf:
            for o in self.parser.feed(self._buf):
                self._outcome(o)
            self._buf = ""
        for o in self.parser.close():
            self._outcome(o)
        self._file_done()

    def _outcome(self, o: Outcome) -> None:
        self.last_outcome = time.monotonic()
        if o.file != self._file:
            self._file_done()
            self._file = o.file
        if o.result != "OK":
            self.progress(f"  {self.label}  ERROR  {o.file} / {o.test}: {o.reason}")

    def _file_done(self) -> None:
        if self._file is None:
            return
        mine = [o for o in self.parser.outcomes if o.file == self._file]
        ok = sum(1 for o in mine if o.result == "OK")
        self._files_done += 1
        self._tests_done += len(mine)
        self.progress(f"{self.label}  [{self._files_done}/{self.n_files} files, {self._tests_done}/"
                      f"{self.n_tests} tests, {(time.monotonic() - self._t0) / 60:.1f} min]  {self._file}: "
                      f"{ok} OK, {len(mine) - ok} ERROR")
        self._file = None


def _wait_joined(parser: LogParser, pair, tester) -> None:
    want = {pairs.dpid_hex(pair.target_dpid): "target", pairs.dpid_hex(pair.tester_dpid): "tester"}
    for dpid, what in parser.joins:
        if "but ofp version" in what:
            raise RunFailed(f"the {want.get(dpid, 'switch')} switch (dpid {dpid}) joined with another OpenFlow "
                            f"version: {what}")
    joined = {d for d, w in parser.joins if w.startswith("Join ")}
    missing = [f"{role} (dpid {d})" for d, role in want.items() if d not in joined]
    return missing


def _follow(follow: _Follow, pair, tester, t_connect: float) -> None:
    parser = follow.parser
    while True:
        follow.poll()
        if parser.ended or not tester.alive():
            time.sleep(POLL_S)          # the report lines after "Test end"
            follow.poll()
            follow.finish()
            break
        died = pair.dead()
        if died:
            follow.poll()
            follow.finish()
            raise RunFailed(f"the switch died {parser.where()}: {died}")
        missing = _wait_joined(parser, pair, tester)
        now = time.monotonic()
        if missing and now - t_connect > JOIN_S:
            raise RunFailed(f"never joined the tool within {JOIN_S:g} s: {', '.join(missing)}")
        if not missing and now - follow.last_outcome > STALL_S and not parser.ended:
            raise RunFailed(f"no test finished for {STALL_S:g} s (last: {parser.outcomes[-1].test if parser.outcomes else 'none'})")
        time.sleep(POLL_S)
    if not parser.ended:
        raise RunFailed(f"the tool stopped before its end: {tester.log_tail(3)}")
    bad = parser.check_counts()
    if bad:
        raise RunFailed(f"the tool's log was not read whole: {bad}")


def _env() -> dict:
    """The os-ken environment's, with sdnbench's owner tag (``net clean`` finds an orphan by it)."""
    env = base_env(envs.venv_dir("osken") / "bin")
    if procreg.OWNER_ENV in os.environ:
        env[procreg.OWNER_ENV] = os.environ[procreg.OWNER_ENV]
    return env


def run(target: dict, version: str, selected: list, progress: Callable[[str], None], interval: int = 0,
        rep: int = 0) -> Result:
    """One run of ``selected`` (patterns of ``version``) against ``target`` (from ``params``);
    ``rep`` > 0: a rerun of the files holding findings (``params["rep"]``, ``report.noise_floor``).
    Ctrl-C/SIGTERM stops it as any failure does, then ``Interrupted`` propagates carrying the
    outcomes read so far as a failed ``result``."""
    label = f"{target['spec']} {version}" + (f" rerun {rep}" if rep else "")
    p = {"target": target["spec"], "of_version": version, "interval_s": interval}
    if rep:
        p.update(rep=rep, only=",".join(x.name for x in selected))
    result = Result(kind="switch", benchmark=BENCHMARK, params=p, versions={"os-ken": envs.require("osken").get("version")})
    t0 = time.monotonic()
    error: Optional[str] = None
    stopped: Optional[Interrupted] = None
    with tempfile.TemporaryDirectory(prefix="sdnbench-switchtesttool-") as scratch:
        directory, selected, shadowed = stage(selected, Path(scratch) / "patterns")
        parser = LogParser(frozenset(p.description for p in selected))
        for p in shadowed:
            result.notes.append(f"not run by the tool: {VERSIONS[version][0]}/{p.name} ({p.tests} tests) has the "
                                f"description {p.description!r} of another file, and the tool keeps one file per description")
        log = Path(scratch) / "tester.log"
        with make_pair(target, version) as pair:
            port = target.get("port") or free_port(HOST)
            progress(f"{label}: {len(selected)} pattern files, {sum(p.tests for p in selected)} tests; "
                     f"os-ken's tester on {HOST}:{port}")
            tester = proc.spawn("osken-switch-tester", tester_argv(port, pair, version, directory, interval), log_path=log,
                                env=_env())
            try:
                proc.wait_until(lambda: accepts(HOST, port) or not tester.alive(), 60.0, "os-ken's tester to listen")
                if not tester.alive():
                    raise UserError(f"os-ken's switch test tool did not start: {tester.log_tail(5)}")
                pair.connect(f"{HOST}:{port}")
                if pair.processes():
                    progress(f"{label}: {pair.processes()}")
                _follow(_Follow(log, parser, label, selected, progress), pair, tester, time.monotonic())
            except RunFailed as e:
                error = str(e)
            except Interrupted as e:
                stopped, error = e, "interrupted: the run was cut short; the outcomes read so far are kept"
            finally:
                tester.stop(grace=3.0)
            result.topology = pair.describe()
    result.topology["tests"] = [[o.file, o.test, o.result, o.reason] for o in parser.outcomes]
    ok = sum(1 for o in parser.outcomes if o.result == "OK")
    result.counters = {"tests": len(parser.outcomes), "ok": ok, "error": len(parser.outcomes) - ok,
                       "selected": sum(p.tests for p in selected), "seconds": round(time.monotonic() - t0, 1)}
    result.finish("failed" if error else "ok", error)
    if stopped is not None:
        stopped.result = result
        raise stopped
    return result


def outcomes(result: Result) -> list:
    """The Outcomes a run's Result holds."""
    return [Outcome(*t) for t in (result.topology or {}).get("tests", [])]


def category_of(patterns: list) -> Callable[[str], str]:
    """file description -> category, from the patterns (their first word otherwise)."""
    by = {p.description: p.category for p in patterns}
    return lambda desc: by.get(desc, desc.split(":", 1)[0])


__all__ = ["run", "RunFailed", "outcomes", "category_of", "Pattern"]
