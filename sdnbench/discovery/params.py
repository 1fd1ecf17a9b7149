"""The parameters of the discovery suite (``controller discovery``, ``topology-change``, the
``discovery`` campaign kind), checked in one place before any controller, engine or network
starts (``check``); campaigns check key by key (``validate_param``) and cell by cell
(``check_cell``), so ``run --dry-run`` refuses what the command line refuses.

The topology is checked by ``sdnbench/net/topology.py`` (the one parser), with this suite's
size limits; a topology without a switch-to-switch link has nothing to discover."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..controllers.kinds import kind_of
from ..controllers.spec import DEFAULT_SPEC, parse_spec, sibling
from ..errors import UserError
from ..kind import Kind
from ..net.engine_network import to_engine_network
from ..northbound.adapter import ADAPTERS
from ..net.topology import ENGINE_MAX_LINKS, parse_topology
from ..paramcheck import Params, choice, number, param, raises, url, whole
from .change import pick_link
from .size import start_size

TESTS = ("discovery", "topology-change")
APIS = tuple(ADAPTERS)          # the northbound registry's names (sdnbench.northbound.adapter)
# Nodes (switches and hosts) a discovery trial builds at most: 100,000 switches with a host each,
# refused before anything starts (building and checking that takes ~12 s here; more would make
# the engine's own config check time out).
MAX_NODES = 200_000


def _topo(v: Any) -> Optional[str]:
    if not isinstance(v, str):
        return f"a topology is text such as ring,10, got {v!r}"
    try:
        t = parse_topology(v, MAX_NODES, ENGINE_MAX_LINKS)
    except UserError as e:
        return str(e)
    if not any(t.is_switch(l.a) and t.is_switch(l.b) for l in t.links):
        return f"topology {v} has no switch-to-switch link: nothing to discover (try ring,10 or linear,4)"
    return None


def _link(v: Any) -> Optional[str]:
    try:
        ends = [[int(x) for x in end.split(":")] for end in str(v).split("-")]
        if len(ends) == 2 and all(len(e) == 2 for e in ends):
            return None
    except ValueError:
        pass
    return f"{v!r} is not DPID:PORT-DPID:PORT"


@dataclass(frozen=True)
class Discovery:
    """The discovery suite's parameters, each once: type, default, rule (its flag when not
    ``--key-with-dashes``). What ``controller discovery`` / ``topology-change``, the
    ``discovery`` kind and the ``rfc8456`` kind's size search build and the trials take."""
    controller: str = param(sibling(DEFAULT_SPEC, "topology"), raises(parse_spec))
    topo: str = param("ring,10", _topo)
    verify: str = param("northbound", choice(("northbound", "southbound")))
    api: Optional[str] = param(None, choice(APIS))
    api_url: Optional[str] = param(None, url)
    poll_s: float = param(3.0, number(0, "of seconds", above=True))
    deadline_s: float = param(60.0, number(0, "of seconds", above=True, hi=86_400))
    stable: int = param(3, whole(2, what="identical answers that end a stalled discovery"))
    of_version: Optional[str] = param(None, choice(("1.0", "1.3")), flag="--of")
    workers: Optional[int] = param(None, whole(1))
    test: str = param("discovery", choice(TESTS), flag="test")
    link: Optional[str] = param(None, _link)
    down_at_s: float = param(10.0, number(0, "of seconds", above=True))
    up_after_s: float = param(10.0, number(0, "of seconds", above=True))
    reps: int = param(3, whole(1, what="trials"), cli_only=True)
    size_search: bool = param(False, cli_only=True)
    max_switches: int = param(100_000, whole(1), cli_only=True)


def _together(p: dict) -> list:
    """The checks that need more than one key (each key is fine on its own)."""
    out = []
    if p["verify"] == "northbound":
        out += _northbound(p)
    if p.get("size_search"):
        try:
            start = start_size(p["topo"])
        except UserError as e:
            return out + [("topo", str(e))]
        if p.get("max_switches", CLI_ONLY["max_switches"]) < start:
            out.append(("max_switches", f"must be at least the starting size {start} of {p['topo']}, "
                                        f"got {p['max_switches']}"))
    if p["test"] == "topology-change" and p["link"]:
        out += _link_in(p)
    return out


def own_api(controller: str) -> Optional[str]:
    """The northbound adapter that reads a launched controller's own view (its kind's record:
    ``osken:topology`` -> ``osken``), or None."""
    try:
        spec = parse_spec(controller)
    except UserError:
        return None
    return kind_of(spec).own_topology_api(spec)


def _northbound(p: dict) -> list:
    """--verify northbound needs an API to read and its URL (known before the controller starts)."""
    spec = parse_spec(p["controller"])
    if p["api"] is None and own_api(p["controller"]) is None:
        return [("api", f"no northbound API is known for {p['controller']}; give --api "
                        f"({', '.join(APIS)}) with --api-url, or use --verify southbound")]
    if p["api_url"] is None and not kind_of(spec).serves_api(spec, p["api"]):
        return [("api_url", f"the {p['api']} API of {p['controller']} has no URL sdnbench knows; "
                            "give --api-url (e.g. http://127.0.0.1:8080) or use --verify southbound")]
    return []


def _link_in(p: dict) -> list:
    net = to_engine_network(parse_topology(p["topo"], MAX_NODES, ENGINE_MAX_LINKS))
    try:
        pick_link(net, p["link"])
    except UserError as e:
        return [("link", str(e))]
    return []


PARAMS = Params.table("discovery", Discovery, _together)
DEFAULTS, CLI_ONLY = PARAMS.defaults, PARAMS.cli_only
build = PARAMS.build
problems, check, validate_param, check_cell = PARAMS.problems, PARAMS.check, PARAMS.validate_param, PARAMS.check_cell

KIND = Kind("discovery", "sdnbench.discovery.cell", "run_discovery", ("engine",),
            "RFC 8456 topology discovery time (§5.1.1) or change detection (§5.1.8) on the emulated network",
            validate_param, check_cell)
