"""The switch test tool's log → one outcome per test (pure).

What the tool writes (``os_ken/tests/switch/tester.py``), one logger line each:

    action: 00_OUTPUT                                   a pattern file's description, before its first test
        ethernet/ipv4/tcp-->'actions=output:2'     OK   a test: 4 spaces, its description, OK or ERROR
        ethernet/arp-->'eth_dst=...,actions=output:CONTROLLER'   ERROR
            Receiving timeout: no packet-in.            the reason of an ERROR: 8 spaces
    ---  Test end  ---
    --- Test report ---                                 then the errors grouped by reason, and
    OK(11) / ERROR(1)                                   the tool's own counts

and ``dpid=... : Join target SW.`` / ``Join tester SW.`` as the switches connect (``, but ofp
version is not ...`` when one speaks another version). Anything else (os-ken's start-up lines,
eventlet's warnings, the dots the throughput tests print) is skipped.

Invariant checked by ``check_counts``: the outcomes parsed equal the tool's own OK and ERROR
counts, so a line this parser missed cannot go unnoticed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Optional

OK, ERROR = "OK", "ERROR"
_RESULT = re.compile(r"^    (?P<desc>\S.*?) +(?P<res>OK|ERROR)$")
_REASON = re.compile(r"^        (?P<reason>\S.*)$")
_SUMMARY = re.compile(r"^OK\((?P<ok>\d+)\) / ERROR\((?P<error>\d+)\)$")
_FILE = re.compile(r"^[a-z][a-z0-9_]*: \S")          # "action: 00_OUTPUT", "match: 03_ETH_DST"
_JOIN = re.compile(r"^dpid=(?P<dpid>[0-9a-f]{16}) : (?P<what>.*)$")
# the throughput tests' progress dots go to the tool's stdout, its lines to stderr, both into one
# log: a sender thread still writing dots after the tool's "\r\n" puts them before the next line
_DOTS = re.compile(r"^[.\r]+(?=\s)")
TEST_END, REPORT = "---  Test end  ---", "--- Test report ---"


@dataclass
class Outcome:
    file: str           # the pattern file's description ("action: 00_OUTPUT")
    test: str           # the test's description
    result: str         # OK or ERROR
    reason: str = ""    # the tool's reason for an ERROR

    def key(self) -> tuple:
        return (self.file, self.test)


@dataclass
class LogParser:
    """Fed the log line by line (``feed`` returns each outcome once it is complete)."""

    files: Optional[frozenset] = None       # the selected files' descriptions, when known
    outcomes: list = field(default_factory=list)
    joins: list = field(default_factory=list)     # (dpid, what) as the tool logged them
    ended: bool = False
    counts: Optional[tuple] = None                 # the tool's own (OK, ERROR)
    _file: str = ""
    _pending: Optional[Outcome] = None
    _in_report: bool = False

    def feed(self, line: str) -> list:
        """The outcomes completed by ``line`` (0, 1, or 2: a pending ERROR without a reason
        and the OK that follows it)."""
        line = _DOTS.sub("", line.rstrip("\r\n"))
        done = []
        m = _REASON.match(line)
        if self._pending is not None:
            if m and not self._in_report:
                self._pending.reason = m.group("reason").strip()
                return [self._finish()]
            done.append(self._finish())
        if line == REPORT:
            self._in_report = True
        elif line == TEST_END:
            self.ended = True
        elif (s := _SUMMARY.match(line)):
            self.counts = (int(s.group("ok")), int(s.group("error")))
        elif self._in_report:
            pass
        elif (r := _RESULT.match(line)):
            o = Outcome(self._file, r.group("desc").strip(), r.group("res"))
            if o.result == OK:
                self.outcomes.append(o)
                done.append(o)
            else:
                self._pending = o
        elif (j := _JOIN.match(line)):
            self.joins.append((j.group("dpid"), j.group("what")))
        elif self._is_file(line):
            self._file = line.strip()
        return done

    def _is_file(self, line: str) -> bool:
        if self.files is not None:
            return line.strip() in self.files
        return bool(_FILE.match(line))

    def _finish(self) -> Outcome:
        o, self._pending = self._pending, None
        self.outcomes.append(o)
        return o

    def where(self) -> str:
        """Where the tool is now, for a switch that died: the file being run and its test after
        the last one finished ("in action: 01_... (its test 3; the last finished: ...)")."""
        if not self._file:
            return "before the first test"
        done = [o for o in self.outcomes if o.file == self._file]
        last = f"; the last finished: {self.outcomes[-1].file} / {self.outcomes[-1].test}" if self.outcomes else ""
        return f"in {self._file} (its test {len(done) + 1}{last})"

    def close(self) -> list:
        """Whatever is still pending (an ERROR that was the log's last line)."""
        return [self._finish()] if self._pending is not None else []

    def check_counts(self) -> Optional[str]:
        """None when the parsed outcomes equal the tool's own counts, else what differs."""
        if self.counts is None:
            return None if not self.ended else "the tool ended without its OK/ERROR counts"
        ok = sum(1 for o in self.outcomes if o.result == OK)
        err = len(self.outcomes) - ok
        if (ok, err) != self.counts:
            return f"parsed OK {ok} / ERROR {err}, the tool counted OK {self.counts[0]} / ERROR {self.counts[1]}"
        return None


def parse(lines: Iterable[str], files: Optional[frozenset] = None) -> LogParser:
    p = LogParser(files)
    for line in lines:
        p.feed(line)
    p.close()
    return p
