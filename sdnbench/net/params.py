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
from dataclasses import MISSING, dataclass, field, fields
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
        problems += [(f"{section}.{k}", f"unknown field; known: {', '.join(defaults)}") for k in given if k not in defaults]
        p[section] = {**defaults, **{k: v for k, v in given.items() if (v is not None or k == "window") and k in defaults}}
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


def _f(default: Any, rule: Optional[Callable] = None, filled: bool = False) -> Any:
    """One field of the model: its default, its rule (raises ``ValueError``/``UserError`` on a bad
    value), and whether ``check`` fills it in when a cell leaves it out (``filled``)."""
    meta = {"rule": rule, "filled": filled}
    if isinstance(default, list):
        return field(default_factory=lambda: list(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Ping:
    sizes: Optional[list] = _f(None, _ping_sizes)
    count: int = _f(10, _num(int, 1, 100000))
    interval: float = _f(0.2, _num(float, 0.001, 60, " seconds"))


@dataclass(frozen=True)
class Tcp:
    duration: float = _f(5, _num(float, 1, 86400, " seconds"))
    interval: float = _f(1, _num(float, 0.1, 60, " seconds"))
    window: Optional[str] = _f(None, _rate("a window size", optional=True))
    parallel: int = _f(1, _num(int, 1, 128))
    reverse: bool = _f(False, _choice((True, False)))


@dataclass(frozen=True)
class Udp:
    duration: float = _f(5, _num(float, 1, 86400, " seconds"))
    interval: float = _f(1, _num(float, 0.1, 60, " seconds"))
    rate: str = _f("50M", _rate("a bit rate"))
    length: int = _f(1470, _num(int, 16, MAX_PAYLOAD, " bytes"))
    reverse: bool = _f(False, _choice((True, False)))


@dataclass(frozen=True)
class Ditg:
    protocol: str = _f("UDP", _choice(("UDP", "TCP", "udp", "tcp")))
    sizes: list = _f([512], lambda v: _sizes(v, 1))
    rate: int = _f(100, _num(int, 1, 1000000, " packets per second"))
    duration_ms: int = _f(5000, _num(int, 100, 86400000, " ms"))
    meter: str = _f("rttm", _choice(("rttm", "owdm")))
    interval_ms: int = _f(1000, _num(int, 1, 3600000, " ms"))
    log_dir: Optional[str] = _f(None, _log_dir)


@dataclass(frozen=True)
class FirstPacket:
    count: int = _f(20, _num(int, 2, 100000))
    interval: float = _f(0.1, _num(float, 0.001, 60, " seconds"))


SECTIONS = {"ping": Ping, "tcp": Tcp, "udp": Udp, "ditg": Ditg, "first_packet": FirstPacket}


@dataclass(frozen=True)
class NetParams:
    """The one definition of a net cell's parameters: each field's type, default and rule (a
    section, such as ``ping``, is a table of its own). ``check`` fills in and checks a dict of
    them; ``build`` gives this typed value, which the ``net`` kind's runner checks a cell into."""
    topo: str = _f(None, _topo)
    controller: str = _f(DEFAULT_SPEC, _controller, filled=True)
    link: Optional[str] = _f(None, _link, filled=True)
    of: str = _f(DEFAULT_OF, parse_of, filled=True)
    datapath: str = _f("auto", _choice(DATAPATHS), filled=True)
    switch: str = _f("ovs", _choice(SWITCHES), filled=True)
    pairs: str = _f("first-last", filled=True)                 # checked against the topology
    reps: int = _f(1, _num(int, 1, 1000), filled=True)
    measurements: list = _f(["ping"], _measurements, filled=True)
    ping: Ping = field(default_factory=Ping)
    tcp: Tcp = field(default_factory=Tcp)
    udp: Udp = field(default_factory=Udp)
    ditg: Ditg = field(default_factory=Ditg)
    first_packet: FirstPacket = field(default_factory=FirstPacket)
    tls_ca: Optional[str] = _f(None, _file("CA certificate that signed the controller's"))
    tls_cert: Optional[str] = _f(None, _file("switch's certificate"))
    tls_key: Optional[str] = _f(None, _file("switch's private key"))
    backend: Optional[str] = None           # where the network is (mininet | ssh:INVENTORY): net.backends
    protocols: str = ""                     # Open vSwitch's spelling of ``of``, derived by ``check``
    log_dir: Optional[str] = None           # where the controller's log is kept

    @classmethod
    def of_checked(cls, p: dict) -> "NetParams":
        """The typed value of params ``check`` returned."""
        top = {k: v for k, v in p.items() if k in KNOWN and k not in SECTIONS}
        return cls(**top, **{name: section(**p[name]) for name, section in SECTIONS.items()})


def _defaults(table: type) -> dict:
    return {f.name: f.default_factory() if f.default is MISSING else f.default for f in fields(table)}


def _rules(table: type) -> dict:
    return {f.name: f.metadata["rule"] for f in fields(table) if f.metadata.get("rule")}


# the model's tables as check reads them, from the dataclasses above
SECTION_DEFAULTS = {name: _defaults(section) for name, section in SECTIONS.items()}
TOP_DEFAULTS = {f.name: v for f, v in zip(fields(NetParams), _defaults(NetParams).values()) if f.metadata.get("filled")}
KNOWN = tuple(f.name for f in fields(NetParams))
_TOP = _rules(NetParams)
_SECTIONS = {name: _rules(section) for name, section in SECTIONS.items()}


def build(params: dict, flags: bool = False, legacy: bool = False) -> NetParams:
    """``params`` checked (``check``: every problem in one ``NetParamsError``), as the typed value."""
    return NetParams.of_checked(check(params, flags, legacy))


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
