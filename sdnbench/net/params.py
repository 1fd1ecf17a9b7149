"""The typed parameter model of a network benchmark (``net run`` and the campaign's ``net`` kind).

One model, three users: the ``net run`` flags, a scenario's ``params``/``matrix`` and
``run --dry-run``. ``check(params)`` fills in defaults and checks every field, collecting every
problem instead of stopping at the first; it runs before any network, controller or tool starts.
``check_one(name, value)`` checks one scenario key on its own (the scenario validator points at
its line).

Fields (all optional except ``topo``)::

    topo: "star,10,4"       controller: "osken:learning" | "standalone" | any launch spec
    link: "fast-ethernet"   of: "1.0,1.3" (OpenFlow versions the switches offer; they negotiate)
    datapath: auto|kernel|user   switch: ovs|user   pairs: first-last|per-switch|all|h1-h4,...
    reps: 1   measurements: [ping, tcp, udp, ditg, first-packet]
    ping: {sizes, count, interval}   tcp/udp: {duration, interval, window, parallel, reverse,
    rate, length}   ditg: {protocol, sizes, rate, duration_ms, meter, interval_ms, log_dir}
    first_packet: {count, interval}

``protocols`` (Open vSwitch's spelling, e.g. ``OpenFlow10,OpenFlow13``) is derived from ``of``;
giving ``protocols`` yourself is refused with a line naming ``of``.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable, Optional

from ..controllers.spec import DEFAULT_SPEC, parse_spec
from ..errors import UserError
from ..kind import Kind
from .links import parse_link
from .mininet_common import STANDALONE
from .pairs import select_pairs
from .ping import parse_sizes
from .topology import parse_topology

MEASUREMENTS = ("first-packet", "ping", "tcp", "udp", "ditg")
OF_VERSIONS = {"1.0": "OpenFlow10", "1.3": "OpenFlow13", "1.4": "OpenFlow14", "1.5": "OpenFlow15"}
DEFAULT_OF = "1.0,1.3"
DATAPATHS = ("auto", "kernel", "user")
SWITCHES = ("ovs", "user")
MIN_PING_SIZE = 16          # below 16 bytes of payload ping carries no timestamp: no RTT
MAX_PAYLOAD = 65507
_RATE = re.compile(r"^\d+(\.\d+)?[KMGkmg]?$")

# field -> the net run flag that sets it (CLI messages name the flag, scenario messages the key)
FLAGS = {
    "topo": "--topo", "controller": "--controller", "link": "--link", "of": "--of",
    "datapath": "--datapath", "switch": "--switch", "pairs": "--pairs", "reps": "--reps",
    "measurements": "measurements", "ping.sizes": "--ping-sizes", "ping.count": "--ping-count",
    "ping.interval": "--ping-interval", "tcp.duration": "--duration", "udp.duration": "--duration",
    "tcp.interval": "--interval", "udp.interval": "--interval", "tcp.window": "--window",
    "tcp.parallel": "--parallel", "udp.rate": "--udp-rate", "udp.length": "--udp-length",
    "ditg.protocol": "--ditg-protocol", "ditg.sizes": "--ditg-sizes", "ditg.rate": "--ditg-rate",
    "ditg.duration_ms": "--ditg-duration", "ditg.meter": "--ditg-meter", "ditg.log_dir": "--ditg-log",
    "ditg.interval_ms": "ditg.interval_ms", "first_packet.count": "--fp-count",
    "first_packet.interval": "first_packet.interval",
    "tls_ca": "--tls-ca", "tls_cert": "--tls-cert", "tls_key": "--tls-key",
}
# the switches' files for a TLS controller spec (docs/tls.md); each left out: sdnbench's own
TLS_KEYS = ("tls_ca", "tls_cert", "tls_key")

SECTION_DEFAULTS = {
    "ping": {"sizes": None, "count": 10, "interval": 0.2},
    "tcp": {"duration": 5, "interval": 1, "window": None, "parallel": 1, "reverse": False},
    "udp": {"duration": 5, "interval": 1, "rate": "50M", "length": 1470, "reverse": False},
    "ditg": {"protocol": "UDP", "sizes": [512], "rate": 100, "duration_ms": 5000, "meter": "rttm",
             "interval_ms": 1000, "log_dir": None},
    "first_packet": {"count": 20, "interval": 0.1},
}
TOP_DEFAULTS = {"controller": DEFAULT_SPEC, "link": None, "of": DEFAULT_OF, "datapath": "auto",
                "switch": "ovs", "pairs": "first-last", "reps": 1, "measurements": ["ping"]}
# backend: where the network is (mininet | ssh:INVENTORY), checked by sdnbench.net.backends
KNOWN = ("topo",) + tuple(TOP_DEFAULTS) + tuple(SECTION_DEFAULTS) + TLS_KEYS + ("backend", "protocols", "log_dir")


class NetParamsError(UserError):
    """Every problem found in one set of net parameters: ``problems`` is ``[(field, message)]``."""

    def __init__(self, problems: list, flags: bool = True):
        self.problems = problems
        name = (lambda f: FLAGS.get(f, f)) if flags else (lambda f: f)
        lines = dict.fromkeys(f"{name(f)}: {m}" for f, m in problems)   # --duration sets tcp and udp
        super().__init__("; ".join(lines))


def parse_of(value: Any) -> list:
    """``"1.0,1.3"`` (or a list) -> ``["1.0", "1.3"]``; Open vSwitch names are accepted too."""
    items = value if isinstance(value, list) else str(value if value is not None else "").split(",")
    out = []
    for item in (str(i).strip() for i in items):
        if not item:
            continue
        v = {ovs: ver for ver, ovs in OF_VERSIONS.items()}.get(item, item)
        if v not in OF_VERSIONS:
            raise ValueError(f"unknown OpenFlow version {item!r}; use {', '.join(OF_VERSIONS)} "
                             f"(several with commas, e.g. {DEFAULT_OF})")
        if v not in out:
            out.append(v)
    out.sort(key=float)
    if not out:
        raise ValueError(f"no OpenFlow version given; use e.g. {DEFAULT_OF}")
    return out


def ovs_protocols(of: list) -> str:
    return ",".join(OF_VERSIONS[v] for v in of)


def check(params: dict, flags: bool = False, legacy: bool = False) -> dict:
    """``params`` with defaults filled in and every field checked; ``NetParamsError`` lists all
    problems (named by flag when ``flags``). ``legacy`` (the runner, for cells stored before the
    rename) reads an old ``protocols`` as ``of`` instead of refusing it."""
    problems: list = []
    if legacy and params.get("protocols") and "of" not in params:
        params = {**params, "of": params["protocols"]}
    p = _fill(params, problems)
    for name in ("topo", "controller", "link", "of", "datapath", "switch", "reps", "measurements"):
        _run(problems, name, _TOP[name], p.get(name))
    for name in TLS_KEYS:
        _run(problems, name, _TOP[name], p.get(name))
    if any(p.get(k) for k in TLS_KEYS) and not any(f == "controller" for f, _ in problems):
        _run(problems, "controller", _on_tls, p.get("controller"))
    for section, rules in _SECTIONS.items():
        for key, rule in rules.items():
            _run(problems, f"{section}.{key}", rule, p[section].get(key))
    if not any(f in ("topo", "pairs") for f, _ in problems):
        _run(problems, "pairs", lambda v: _pairs(p["topo"], p.get("link"), v), p["pairs"])
    if problems:
        raise NetParamsError(problems, flags)
    p["of"] = ",".join(parse_of(p["of"]))
    p["protocols"] = ovs_protocols(parse_of(p["of"]))
    p["measurements"] = [m for m in MEASUREMENTS if m in _measurements(p["measurements"])]
    p["ping"]["sizes"] = _ping_sizes(p["ping"]["sizes"])
    p["ditg"]["sizes"] = _sizes(p["ditg"]["sizes"], 1)
    p["reps"] = int(p["reps"])
    return p


def check_one(name: str, value: Any) -> Optional[str]:
    """The problem with one scenario parameter on its own, or None."""
    if name == "protocols":
        return "renamed: use `of: 1.0,1.3` (OpenFlow versions, e.g. 1.3)"
    if name in _TOP:
        return _message(_TOP[name], value)
    if name == "pairs":
        return None if isinstance(value, str) and value.strip() else "expected text such as first-last"
    if name in _SECTIONS:
        if not isinstance(value, dict):
            return f"expected a mapping of {', '.join(SECTION_DEFAULTS[name])}"
        bad = [f"{k}: {m}" for k, v in value.items()
               for m in [_message(_SECTIONS[name][k], v) if k in _SECTIONS[name]
                         else f"unknown field; known: {', '.join(SECTION_DEFAULTS[name])}"] if m]
        return "; ".join(bad) or None
    return None


def _fill(params: dict, problems: list) -> dict:
    p = {**TOP_DEFAULTS, **{k: v for k, v in params.items() if v is not None}}
    if "protocols" in params and params["protocols"] is not None:
        if "of" not in params:
            problems.append(("protocols", "renamed: use `of` (e.g. of: 1.0,1.3)"))
        p.pop("protocols")
    for k in p:
        if k not in KNOWN:
            problems.append((k, f"unknown parameter; known: {', '.join(KNOWN[:-2])}"))
    for section, defaults in SECTION_DEFAULTS.items():
        given = p.get(section) or {}
        if not isinstance(given, dict):
            problems.append((section, f"expected a mapping of {', '.join(defaults)}"))
            given = {}
        p[section] = {**defaults, **{k: v for k, v in given.items() if v is not None or k == "window"}}
    return p


def _run(problems: list, name: str, rule: Callable, value: Any) -> None:
    msg = _message(rule, value)
    if msg:
        problems.append((name, msg))


def _message(rule: Callable, value: Any) -> Optional[str]:
    try:
        rule(value)
    except (ValueError, TypeError) as e:
        return str(e)
    except UserError as e:
        return str(e)
    return None


def _num(kind: type, lo: float, hi: float, what: str = "") -> Callable:
    def rule(v: Any) -> None:
        if isinstance(v, bool) or not isinstance(v, (int, float)) and not _numeric_text(v):
            raise ValueError(f"expected a {'whole ' if kind is int else ''}number{what and ' (' + what.strip() + ')'}, got {v!r}")
        x = float(v)
        if kind is int and x != int(x):
            raise ValueError(f"expected a whole number{what and ' (' + what.strip() + ')'}, got {v!r}")
        if not lo <= x <= hi:
            raise ValueError(f"must be between {lo:g} and {hi:g}{what}, got {v}")
    return rule


def _numeric_text(v: Any) -> bool:
    if not isinstance(v, str):
        return False
    try:
        float(v)
        return True
    except ValueError:
        return False


def _choice(options: tuple) -> Callable:
    def rule(v: Any) -> None:
        if v not in options:
            raise ValueError(f"expected one of {', '.join(options)}, got {v!r}")
    return rule


def _log_dir(v: Any) -> None:
    """A directory the packet logs can be copied to after the run: one, or one that can be made
    there (its nearest existing parent is a writable directory). Checked now, made then."""
    if v is None:
        return
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"expected a directory, got {v!r}")
    up = Path(v)
    if up.exists() and not up.is_dir():
        raise ValueError(f"{v} is not a directory")
    while not up.exists():
        up = up.parent
    if not up.is_dir():
        raise ValueError(f"{v} cannot be made: {up} is not a directory")
    if not os.access(up, os.W_OK | os.X_OK):
        raise ValueError(f"{v}: {up} is not writable")


def _rate(what: str, optional: bool = False) -> Callable:
    def rule(v: Any) -> None:
        if v is None and optional:
            return
        s = str(v).strip()
        if not _RATE.match(s) or float(re.sub(r"[KMGkmg]$", "", s)) <= 0:
            raise ValueError(f"expected {what} such as 50M, 1.5G or 800K, got {v!r}")
    return rule


def _topo(v: Any) -> None:
    if not isinstance(v, str) or not v.strip():
        raise ValueError("a topology is required, e.g. star,10,4")
    parse_topology(v)


def _link(v: Any) -> None:
    if v is None:
        return
    parse_link(str(v))


def _controller(v: Any) -> None:
    if v in STANDALONE:
        return
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"expected a controller spec such as {DEFAULT_SPEC}, got {v!r}")
    parse_spec(v)


def _file(what: str) -> Callable[[Any], None]:
    """A TLS file the switches use (``what`` it is): there and readable (what is in it:
    ``tls.check`` at launch)."""
    def check(v: Any) -> None:
        if v is None:
            return
        if not isinstance(v, (str, Path)) or not str(v).strip():
            raise ValueError(f"expected a file name, got {v!r}")
        try:
            Path(v).expanduser().read_bytes()
        except OSError as e:
            raise ValueError(f"{v}: cannot read the {what}: {e.strerror}") from None
    return check


def _on_tls(v: Any) -> None:
    if v in STANDALONE or not parse_spec(v).tls:
        raise ValueError(f"{v} is not on TLS, but TLS files are given; add ;tls to a managed spec, "
                         "or use tls:HOST:PORT")


def _measurements(v: Any) -> list:
    ms = [m.strip() for m in v.split(",")] if isinstance(v, str) else v
    if not isinstance(ms, list) or not [m for m in ms if m]:
        raise ValueError(f"expected a non-empty list of {', '.join(MEASUREMENTS)}")
    unknown = [str(m) for m in ms if m not in MEASUREMENTS]
    if unknown:
        raise ValueError(f"unknown measurement(s) {', '.join(unknown)}; known: {', '.join(MEASUREMENTS)}")
    return ms


def _sizes(v: Any, lo: int) -> list:
    items = [s.strip() for s in v.split(",") if s.strip()] if isinstance(v, str) else v
    if not isinstance(items, list) or not items:
        raise ValueError("expected a non-empty list of sizes in bytes")
    out = []
    for s in items:
        _num(int, lo, MAX_PAYLOAD, " bytes")(s)
        out.append(int(float(s)))
    twice = next((x for i, x in enumerate(out) if x in out[:i]), None)
    if twice is not None:
        raise ValueError(f"size {twice} is listed twice; give each once")
    return out


def _ping_sizes(v: Any) -> list:
    if v is None or isinstance(v, str):
        v = parse_sizes(v or "default")
    sizes = _sizes(v, 0)
    small = [s for s in sizes if s < MIN_PING_SIZE]
    if small:
        raise ValueError(f"size {small[0]}: ping reports no round-trip time below "
                         f"{MIN_PING_SIZE} bytes of payload")
    return sizes


def _pairs(topo: str, link: Any, v: Any) -> None:
    select_pairs(parse_topology(topo), v)


_TOP: dict = {
    "topo": _topo, "controller": _controller, "link": _link, "of": parse_of,
    "datapath": _choice(DATAPATHS), "switch": _choice(SWITCHES), "reps": _num(int, 1, 1000),
    "measurements": _measurements, "tls_ca": _file("CA certificate that signed the controller's"),
    "tls_cert": _file("switch's certificate"), "tls_key": _file("switch's private key"),
}
_SECTIONS: dict = {
    "ping": {"sizes": _ping_sizes, "count": _num(int, 1, 100000),
             "interval": _num(float, 0.001, 60, " seconds")},
    "tcp": {"duration": _num(float, 1, 86400, " seconds"),
            "interval": _num(float, 0.1, 60, " seconds"),
            "window": _rate("a window size", optional=True), "parallel": _num(int, 1, 128),
            "reverse": _choice((True, False))},
    "udp": {"duration": _num(float, 1, 86400, " seconds"),
            "interval": _num(float, 0.1, 60, " seconds"), "rate": _rate("a bit rate"),
            "length": _num(int, 16, MAX_PAYLOAD, " bytes"), "reverse": _choice((True, False))},
    "ditg": {"protocol": _choice(("UDP", "TCP", "udp", "tcp")), "sizes": lambda v: _sizes(v, 1),
             "rate": _num(int, 1, 1000000, " packets per second"),
             "duration_ms": _num(int, 100, 86400000, " ms"), "meter": _choice(("rttm", "owdm")),
             "interval_ms": _num(int, 1, 3600000, " ms"), "log_dir": _log_dir},
    "first_packet": {"count": _num(int, 2, 100000), "interval": _num(float, 0.001, 60, " seconds")},
}


def validate_param(name: str, value: Any) -> Optional[str]:
    """One cell key of the net parameter model; a backend by the backends' own check."""
    if name == "backend":           # mininet | ssh:INVENTORY (sdnbench.net.backends)
        # here, not at start-up: the backends module imports every backend (Mininet, SSH, cluster)
        from .backends.base import check_spec
        return check_spec(value)
    return check_one(name, value)


def check_cell(params: dict) -> list:
    """Every problem of one net cell's parameters (the same model ``net run`` uses)."""
    try:
        check({k: v for k, v in params.items() if k != "backend"})
    except NetParamsError as e:
        return e.problems
    return []


KIND = Kind("net", "sdnbench.net.runner", "run_net", ("root", "netns", "ovs", "mininet-python"),
            "network experiment on Mininet + Open vSwitch (ping, iperf3, D-ITG, ...)", validate_param, check_cell)
