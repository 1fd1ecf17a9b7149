"""From command-line choices to a trial ``Setup``: the topology (``sdnbench/net/topology.py``),
the engine params (checked by the engine), and the northbound adapter for the controller."""

from __future__ import annotations

import math
import time
import urllib.error
import urllib.request
from typing import Optional

from ..controllers.negotiation import session_version
from ..engine.params import check
from ..errors import UserError
from ..redact import request
from ..net.engine_network import to_engine_network
from ..net.topology import ENGINE_MAX_LINKS, parse_topology
from ..northbound import adapter_for, emulated_links
from .params import APIS, MAX_NODES, own_api
from .trial import Setup

ANSWER_WITHIN_S = 5.0     # a URL the user gave must answer (any HTTP status) this soon


def api_for(spec: str, api: Optional[str], api_url: Optional[str], ctl_api_url: Optional[str],
            verify: str) -> tuple:
    """(adapter or None, base URL or None) for ``--verify`` (``params.check`` made sure that
    both are known). A URL the user gave must answer before the engine starts: one line naming
    it, not a trial that falls back to southbound-only and waits out its deadline."""
    if verify == "southbound":
        return None, None
    name = api or own_api(spec)
    if name is None:
        raise UserError(f"--verify northbound: no northbound API known for {spec}; give --api "
                        f"({', '.join(APIS)}) and --api-url, or use --verify southbound")
    url = api_url or ctl_api_url
    if not url:
        raise UserError(f"--verify northbound: no URL for the {name} API of {spec}; give --api-url")
    if api_url:
        answers(api_url, "--api-url")
    return adapter_for(name), url


def answers(url: str, flag: str, within_s: float = ANSWER_WITHIN_S) -> None:
    """``url`` answers HTTP at all (any status), else a ``UserError`` naming ``flag``."""
    until = time.monotonic() + within_s
    while True:
        try:
            urllib.request.urlopen(request(url), timeout=2).close()
            return
        except urllib.error.HTTPError:
            return                                  # it answered, if only with an error status
        except (urllib.error.URLError, OSError, ValueError) as e:
            why = getattr(e, "reason", e)
            if time.monotonic() >= until:
                raise UserError(f"{flag} {url}: nothing answers there ({why}); check the URL, "
                                "or use --verify southbound") from None
        time.sleep(0.25)


def engine_params(topo: str, controller: str, of_version: Optional[str], deadline_s: float,
                  workers: Optional[int] = None, events: Optional[list] = None) -> dict:
    net = to_engine_network(parse_topology(topo, MAX_NODES, ENGINE_MAX_LINKS), events=events)
    p = {"controller": controller, "mode": "network", "network": net, "switches": len(net["switches"]),
         # the engine runs past the deadline; the trial stops it when it has its answer
         "loops": int(math.ceil(deadline_s)) + 5, "loop_ms": 1000, "warmup": 0, "settle_ms": 0}
    if of_version:
        p["of_version"] = of_version
    if workers:
        p["workers"] = workers
    return check(p)


def agree_version(p: dict, ctl, forced: Optional[str]) -> tuple:
    """(params, controller info) at the OpenFlow version the switches and the launched
    controller agree on (``controllers.negotiation``; ``--of``: checked, a mismatch is one line
    naming it). The info records that version, not the one the controller was launched for."""
    v = session_version(ctl.host, ctl.port, forced, ctl.info.get("name") or p["controller"])
    info = dict(ctl.info, of_version=v or ctl.info.get("of_version"))
    return (dict(p, of_version=v) if v else p), info


def make_setup(p: dict, adapter, url, poll_s: float, deadline_s: float, stable: int, quiet: bool) -> Setup:
    """The trial's setup (the values were checked by ``params.check`` before anything started)."""
    return Setup(params=p, want=frozenset(emulated_links(p["network"])), adapter=adapter, api_url=url,
                 poll_s=poll_s, deadline_s=deadline_s, stable=stable, quiet=quiet)
