"""Pure: the noise floor pooled across commands (docs/conformance.md, "Pooling across commands").

A user who ran the matrix several times (``sdnbench conformance … -o A.json --views A``, then B …)
holds more Open vSwitch runs of each cell than one command took. ``judge`` judges each cell again
with every comparable one of them:

- the cell judged is the first file's (its OVS A against its engine, as that command compared
  them); the other commands' Open vSwitch runs of the *same* controller, OpenFlow version and
  stimulus join its noise floor whole (their A, B, C … after the cell's own B, C …: ``noise.py``);
  their engine runs never do;
- the connect phases of every comparable Open vSwitch run of the same controller and version,
  any stimulus, any command, pool as within one command (``pooled.py``);
- comparable means the same controller spec, and the same ``provenance`` as the cell judged
  (``harness.provenance``: the controller's name and version as launched, both switches'
  versions, the topology, the stimulus timing). A cell that differs in any of it is set apart,
  never pooled, and ``judge`` says which and why in one line (``apart``); so is a cell of a file
  written before cells recorded their provenance, and a command given twice.

An error cell ("not run") neither pools nor is judged; a cell no file could judge stays as the
first file has it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from . import pooled

OWN = ("ovs_a", "engine")
STIMULUS_KEYS = ("end_s",)          # provenance that only the same stimulus shares


@dataclass(frozen=True)
class Cell:
    """One cell of one ``-o`` file, with its views ({run: View}: ``ovs_a``, ``engine``, ``ovs_b`` …)."""
    file: str
    record: dict
    views: dict

    @property
    def key(self) -> tuple:
        return (self.record["spec"], self.record["version"], self.record["stimulus"])

    @property
    def command(self) -> Optional[str]:
        return (self.record.get("command") or {}).get("id")

    def ovs(self) -> list:
        """Its Open vSwitch runs (A, B, C …), in order."""
        return [v for k, v in self.views.items() if k != "engine"]

    def name(self) -> str:
        r = self.record
        return f"{self.file}: {r['controller']} {r['version']} {r['stimulus']}"


@dataclass
class Plan:
    """For each cell judged (by ``key``): the cell, the same-stimulus cells of other commands
    whose OVS runs join its floor, the other-stimulus cells whose connect phases pool; and one
    line per cell set apart."""
    judged: dict = field(default_factory=dict)       # key -> Cell
    same: dict = field(default_factory=dict)         # key -> [Cell]
    phases: dict = field(default_factory=dict)       # key -> [Cell]
    apart: list = field(default_factory=list)


def _differs(ref: dict, other: dict, same_stimulus: bool) -> Optional[str]:
    """What in ``other``'s provenance differs from ``ref``'s (the first such), or None."""
    if not isinstance(other, dict):
        return "no provenance recorded (a file written before cells recorded it)"
    for k in sorted(set(ref) | set(other)):
        if k in STIMULUS_KEYS and not same_stimulus:
            continue
        if ref.get(k) != other.get(k):
            return f"{k} {_show(other.get(k))} where the judged cell has {_show(ref.get(k))}"
    return None


def _show(x) -> str:
    if isinstance(x, list):
        return ", ".join(map(str, x)) or "none"
    if isinstance(x, dict):
        return "; ".join(f"{k} {v}" for k, v in sorted(x.items()))
    return str(x)


def plan(cells: list) -> Plan:
    """Which cells pool with which (module doc). ``cells``: ``Cell`` of every file, in the order
    the files were given (the first file's cell of a key is the one judged)."""
    p = Plan()
    seen_commands: dict = {}
    usable, twice = [], {}
    for c in cells:
        if "error" in c.record:
            continue
        cmd = c.command
        if cmd is not None and seen_commands.setdefault(cmd, c.file) != c.file:
            twice.setdefault((c.file, seen_commands[cmd], cmd), []).append(c)
            continue
        usable.append(c)
    for (file, first, cmd), cs in twice.items():
        p.apart.append(f"{file}: set apart ({len(cs)} cell{'s' if len(cs) > 1 else ''}): the same command as "
                       f"{first} (command {cmd}): its runs are not new samples")
    for c in usable:
        p.judged.setdefault(c.key, c)
    for c in usable:
        ref = p.judged[c.key]
        if c is ref:
            continue
        why = _differs(ref.record.get("provenance") or {}, c.record.get("provenance"), True) \
            if isinstance(ref.record.get("provenance"), dict) else "the judged cell has no provenance recorded"
        if why:
            p.apart.append(f"{c.name()}: set apart: {why}")
        else:
            p.same.setdefault(c.key, []).append(c)
    for key, ref in p.judged.items():
        prov = ref.record.get("provenance")
        for c in usable:
            if c.key[:2] != key[:2] or c.key == key or not isinstance(prov, dict):
                continue
            if _differs(prov, c.record.get("provenance"), False) is None:
                p.phases.setdefault(key, []).append(c)
    return p


def more_runs(p: Plan, key: tuple) -> list:
    """The OVS runs that join the judged cell's floor after its own B, C …: every run of each
    comparable same-stimulus cell of another command."""
    return [v for c in p.same.get(key, []) for v in c.ovs()]


def pool(p: Plan, key: tuple) -> tuple:
    """The connect-phase samples (``pooled.Sample``) of the other stimuli's cells of the same
    controller and version, every comparable command's."""
    return tuple(x for c in p.phases.get(key, [])
                 for x in pooled.samples(c.key[2], {f"{c.file}:{k}": v for k, v in c.views.items() if k != "engine"}))


def across(p: Plan, key: tuple) -> dict:
    """What the judged cell pooled: its own OVS runs and the other commands' (``runs``), from how
    many commands (``commands``: the judged cell's own one included) and files (``files``)."""
    ref = p.judged[key]
    same = p.same.get(key, [])
    phase_files = [c.file for c in p.phases.get(key, [])]
    files = list(dict.fromkeys([ref.file] + [c.file for c in same] + phase_files))
    commands = {c.command or c.file for c in [ref, *same, *p.phases.get(key, [])]}
    return {"runs": len(ref.ovs()) + len(more_runs(p, key)), "same_stimulus_commands": 1 + len(same),
            "commands": len(commands), "files": files}


def judge(cells: list) -> tuple:
    """Every cell judged again with what pools with it (module doc): (the cells, in the order
    their keys first appear, each judged one with ``pooled_across``; the lines of cells set
    apart)."""
    from .harness import record                 # the judging of one command, unchanged
    p = plan(cells)
    out, done = [], set()
    for c in cells:
        if c.key in done:
            continue
        ref = p.judged.get(c.key)
        if ref is None:                          # only "not run" cells of this key
            out.append(c.record)
            done.add(c.key)
            continue
        vs = ref.views
        others = [v for k, v in vs.items() if k not in OWN] + more_runs(p, c.key)
        r = ref.record
        new = record(r["spec"], r["version"], r["stimulus"], vs["ovs_a"], vs["engine"], others, pool(p, c.key))
        for k in ("noise", "unnamed"):           # counted by the capture; the views do not keep them
            new.pop(k, None)
        out.append({**r, **new, "pooled_across": across(p, c.key)})
        done.add(c.key)
    return out, p.apart
