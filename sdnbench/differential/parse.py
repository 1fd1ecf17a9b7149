"""Raw OpenFlow messages → os-ken's parse of each (``osken_parse.py`` run by the os-ken
environment's Python, one process for a whole run)."""

from __future__ import annotations

import atexit
import contextlib
import json
import select
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Optional

from .. import paths
from ..errors import UserError
from . import tablefeatures

SCRIPT = Path(__file__).with_name("osken_parse.py")
# a run's messages (a Java controller's 1.3 connect: thousands, table-features parts of 64 KB)
# took over 120 s on a loaded machine with a parser process a run
TIMEOUT_S = 600.0
WIRE = {"OFPTableFeaturesStatsReply": {"wire": True}}


def osken_python() -> Path:
    p = Path(paths.state_dir()) / "venvs" / "osken" / "bin" / "python"
    if not p.exists():
        raise UserError(f"the os-ken environment is not installed ({p}); run `sdnbench controllers install osken`")
    return p


class _Parser:
    """The one ``--serve`` process (started on first use; closed at exit)."""

    def __init__(self) -> None:
        self.p: Optional[subprocess.Popen] = None
        self.err = tempfile.TemporaryFile()
        self.lock = threading.Lock()

    def _stderr(self) -> str:
        self.err.seek(0)
        return self.err.read().decode(errors="replace").strip()[-300:]

    def ask(self, items: list) -> list:
        with self.lock:
            if self.p is None or self.p.poll() is not None:
                self.p = subprocess.Popen([str(osken_python()), str(SCRIPT), "--serve"], stdin=subprocess.PIPE,
                                          stdout=subprocess.PIPE, stderr=self.err, text=True)
            try:
                self.p.stdin.write(json.dumps(items) + "\n")
                self.p.stdin.flush()
                ready = select.select([self.p.stdout], [], [], TIMEOUT_S)[0]
                line = self.p.stdout.readline() if ready else None
            except OSError:
                line = ""
            if line is None:
                self.p.kill()
                self.close()
                raise RuntimeError(f"os-ken parser: no answer in {TIMEOUT_S:.0f} s for {len(items)} messages")
            if not line:
                self.close()
                raise RuntimeError(f"os-ken parser failed: {self._stderr()}")
            return json.loads(line)

    def close(self) -> None:
        p, self.p = self.p, None
        if p is not None:
            with contextlib.suppress(OSError):
                p.stdin.close()
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


_PARSER = _Parser()
atexit.register(_PARSER.close)


def parse_raw(raws: list) -> list:
    """os-ken's dict for each raw message (in order)."""
    if not raws:
        return []
    return _PARSER.ask([[r[0], r.hex()] for r in raws])


def parse_all(msgs: list, flows: dict) -> tuple:
    """(messages as (t, conn, to_controller, dict, raw), {dpid: [dict per flow reply part]}).
    A 1.3 TABLE_FEATURES reply part is not given to os-ken (``tablefeatures.py`` reads it from
    the wire): its dict is ``{"OFPTableFeaturesStatsReply": {"wire": True}}``."""
    order = [(None, k) for k in sorted(flows) for _ in flows[k]]
    wire = [tablefeatures.is_table_features_reply(m.raw) for m in msgs]
    raws = [m.raw for m, w in zip(msgs, wire) if not w] + [p for k in sorted(flows) for p in flows[k]]
    parsed = iter(parse_raw(raws))
    out = [(m.t, m.conn, m.to_controller, WIRE if w else next(parsed), m.raw) for m, w in zip(msgs, wire)]
    parsed = list(parsed)
    f: dict = {}
    for (_, k), d in zip(order, parsed):
        f.setdefault(k, []).append(d)
    return out, f
