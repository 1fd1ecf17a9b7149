"""Engine parameters: the one dict a campaign cell or a CLI command gives, checked, and turned
into ``sdnbench-engine`` flags. Pure: no I/O.

Keys (all optional except as noted; defaults are the engine's):

- ``controller`` (spec, default ``osken:learning``), ``of_version`` ("1.0" or "1.3", default "1.3")
- ``mode``: throughput | latency | fixed-rate | capacity
- ``switches``, ``macs``, ``ports``, ``loops``, ``loop_ms``, ``warmup``
- ``frame_size`` (RFC 8456 §5.1: 128, 512, 1508), ``window``, ``rate``, ``timeout_ms``
- ``learn`` (bool), ``settle_ms``, ``buffered`` (bool), ``keep_flows`` (bool)
- ``links`` ("linear": LLDP between neighbouring switches, for discovery tests)
- ``workers``, ``source_addrs`` (list), ``strict`` (bool), ``connect_parallel``, ``hold_ms``,
  ``echo_interval_ms``, ``connect_timeout_ms``
"""

from __future__ import annotations

from typing import Any

from ..errors import UserError

MODES = ("throughput", "latency", "fixed-rate", "capacity")

# key -> (flag, type)
_INT = {
    "switches": "--switches", "macs": "--macs", "ports": "--ports", "loops": "--loops",
    "loop_ms": "--loop-ms", "warmup": "--warmup", "frame_size": "--frame-size",
    "window": "--window", "timeout_ms": "--timeout-ms", "settle_ms": "--settle-ms",
    "workers": "--workers", "connect_parallel": "--connect-parallel", "hold_ms": "--hold-ms",
    "echo_interval_ms": "--echo-interval-ms", "connect_timeout_ms": "--connect-timeout-ms",
    "first_dpid": "--first-dpid",
}
_BOOL_OFF = {"learn": "--no-learn", "buffered": "--unbuffered"}
_BOOL_ON = {"keep_flows": "--keep-flows", "strict": "--strict"}
# Keys the driver reads itself (not engine flags), and campaign bookkeeping keys.
_OWN = {"controller", "of_version", "mode", "rate", "source_addrs", "links", "name", "rep", "repetition"}


def check(params: dict) -> dict:
    """Return a normalized copy of ``params`` or raise UserError naming the bad key."""
    p = dict(params)
    unknown = sorted(set(p) - set(_INT) - set(_BOOL_OFF) - set(_BOOL_ON) - _OWN)
    if unknown:
        raise UserError(f"unknown engine parameter(s): {', '.join(unknown)}")
    p.setdefault("controller", "osken:learning")
    p.setdefault("mode", "throughput")
    p.setdefault("of_version", "1.3")
    if p["mode"] not in MODES:
        raise UserError(f"mode must be one of {', '.join(MODES)}, not {p['mode']!r}")
    if str(p["of_version"]) not in ("1.0", "1.3"):
        raise UserError(f"of_version must be 1.0 or 1.3, not {p['of_version']!r}")
    p["of_version"] = str(p["of_version"])
    for k in _INT:
        if k in p:
            p[k] = _int(k, p[k])
    if "rate" in p:
        try:
            p["rate"] = float(p["rate"])
        except (TypeError, ValueError):
            raise UserError(f"rate must be a number, not {p['rate']!r}")
        if p["rate"] <= 0:
            raise UserError("rate must be positive")
    if p["mode"] == "fixed-rate" and "rate" not in p:
        raise UserError("mode fixed-rate needs a rate (requests/s over all switches)")
    for k in list(_BOOL_OFF) + list(_BOOL_ON):
        if k in p and not isinstance(p[k], bool):
            raise UserError(f"{k} must be true or false, not {p[k]!r}")
    if "source_addrs" in p and not isinstance(p["source_addrs"], (list, tuple)):
        raise UserError("source_addrs must be a list of addresses")
    if p.get("links", "none") not in ("none", "linear"):
        raise UserError(f"links must be linear or none, not {p['links']!r}")
    return p


def _int(key: str, v: Any) -> int:
    if isinstance(v, bool):
        raise UserError(f"{key} must be a whole number, not {v!r}")
    try:
        n = int(v)
    except (TypeError, ValueError):
        raise UserError(f"{key} must be a whole number, not {v!r}")
    if n < 0 or (n == 0 and key not in ("warmup", "settle_ms", "echo_interval_ms", "workers", "hold_ms")):
        raise UserError(f"{key} must be positive, not {n}")
    return n


def engine_args(p: dict, address: str) -> list:
    """The engine's command-line flags for checked params ``p`` against ``address`` (HOST:PORT)."""
    args = ["--controller", address, "--mode", p["mode"], "--of", p["of_version"]]
    for k, flag in _INT.items():
        if k in p:
            args += [flag, str(p[k])]
    if "rate" in p:
        args += ["--rate", repr(float(p["rate"]))]
    for k, flag in _BOOL_OFF.items():
        if p.get(k) is False:
            args.append(flag)
    for k, flag in _BOOL_ON.items():
        if p.get(k):
            args.append(flag)
    if p.get("links", "none") != "none":
        args += ["--links", p["links"]]
    if p.get("source_addrs"):
        args += ["--source-addrs", ",".join(p["source_addrs"])]
    return args
