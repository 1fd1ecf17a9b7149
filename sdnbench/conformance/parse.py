"""Raw OpenFlow messages → os-ken's parse of each (``osken_parse.py`` run by the os-ken
environment's Python, one process for a whole run)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from .. import paths
from ..errors import UserError

SCRIPT = Path(__file__).with_name("osken_parse.py")


def osken_python() -> Path:
    p = Path(paths.state_dir()) / "venvs" / "osken" / "bin" / "python"
    if not p.exists():
        raise UserError(f"the os-ken environment is not installed ({p}); run `sdnbench controllers install osken`")
    return p


def parse_raw(raws: list) -> list:
    """os-ken's dict for each raw message (in order)."""
    if not raws:
        return []
    items = [[r[0], r.hex()] for r in raws]
    cp = subprocess.run([str(osken_python()), str(SCRIPT)], input=json.dumps(items), capture_output=True,
                        text=True, timeout=120)
    if cp.returncode != 0:
        raise RuntimeError(f"os-ken parser failed: {cp.stderr.strip()[-300:]}")
    return json.loads(cp.stdout)


def parse_all(msgs: list, flows: dict) -> tuple:
    """(messages as (t, conn, to_controller, dict, raw), {dpid: [dict per flow reply part]})."""
    order = [(None, k) for k in sorted(flows) for _ in flows[k]]
    raws = [m.raw for m in msgs] + [p for k in sorted(flows) for p in flows[k]]
    parsed = parse_raw(raws)
    out = [(m.t, m.conn, m.to_controller, d, m.raw) for m, d in zip(msgs, parsed)]
    f: dict = {}
    for (_, k), d in zip(order, parsed[len(msgs):]):
        f.setdefault(k, []).append(d)
    return out, f
