"""``switch conformance`` parameters, checked before anything starts, one line each: pure but
for three looks at this machine (the CPqD switch's programs, the engine's check of the emulated
network, a remote target's interfaces), so that ``--target ovs,cpqd`` refuses before OVS is built.

Targets: ``ovs``, ``emulated``, ``cpqd``, ``remote:PORT,IF1,IF2,IF3`` (a switch that connects to
127.0.0.1:PORT by itself, its ports 1, 2, 3 cabled to the local IF1..IF3 (the patterns name
ports 1, 2, 3 themselves); ``--target-dpid`` names its datapath id). ``--target``
may repeat, and a value may list simple names with commas (``ovs,emulated``).
"""

from __future__ import annotations

from typing import Optional

from ..errors import UserError
from ..switchbench.targets import check_interface
from .pairs import check_cpqd, emulated_params
from .patterns import VERSIONS

SIMPLE = ("ovs", "emulated", "cpqd")
# the OpenFlow versions a kind of target speaks, where not all: ofsoftswitch13 is a 1.3 switch
# (its README: "an OpenFlow 1.3 compatible user-space software switch")
SPEAKS_WHY = {"cpqd": "the CPqD switch (ofsoftswitch13) speaks OpenFlow 1.3 only"}
_SPEAKS = {"cpqd": ("1.3",)}


def speaks(target: dict) -> tuple:
    return _SPEAKS.get(target["kind"], tuple(VERSIONS))


def targets(values: list, dpid: Optional[str]) -> list:
    """[{"spec", "kind", ...}] in the order given, each once."""
    out, seen = [], set()
    for v in values or ["ovs"]:
        specs = [v] if v.startswith("remote:") else [s.strip() for s in v.split(",") if s.strip()]
        for s in specs:
            if s in seen:
                continue
            seen.add(s)
            out.append(target(s, dpid))
    if not out:
        raise UserError("--target: name a target: ovs, emulated, cpqd or remote:PORT,IF1,IF2,IF3")
    return out


def target(spec: str, dpid: Optional[str]) -> dict:
    if spec in SIMPLE:
        if spec == "cpqd":
            check_cpqd()
        elif spec == "emulated":
            emulated_params("1.3", 60)       # the engine is built and takes the network
        return {"spec": spec, "kind": spec}
    if not spec.startswith("remote:"):
        raise UserError(f"--target {spec}: want ovs, emulated, cpqd or remote:PORT,IF1,IF2,IF3")
    parts = spec[len("remote:"):].split(",")
    if len(parts) != 4 or not parts[0].isdigit() or not 0 < int(parts[0]) < 65536 or not all(parts[1:]):
        raise UserError(f"--target {spec}: want remote:PORT,IF1,IF2,IF3 (the tool's listening port on 127.0.0.1, "
                        "then the three local interfaces cabled to the switch's ports 1, 2, 3)")
    if dpid is None:
        raise UserError(f"--target {spec}: give the switch's datapath id with --target-dpid HEX")
    dp = datapath_id(dpid)
    for name in parts[1:]:
        try:
            check_interface(name)
        except UserError as e:
            raise UserError(f"--target {spec}: {e}")
    return {"spec": spec, "kind": "remote", "port": int(parts[0]), "ifs": parts[1:], "dpid": dp}


def datapath_id(text: str) -> int:
    try:
        v = int(text, 16)
    except ValueError:
        v = -1
    if not 0 < v < 1 << 64:
        raise UserError(f"--target-dpid: want a datapath id in hex (e.g. 0000000000000001), got {text!r}")
    return v


def versions(text: str) -> list:
    vs = [v.strip() for v in text.split(",") if v.strip()]
    bad = [v for v in vs if v not in VERSIONS]
    if bad or not vs:
        raise UserError(f"--of: the switch test tool's patterns here are for {', '.join(VERSIONS)}; got {text!r}")
    return list(dict.fromkeys(vs))
