"""The parameters of the provisioning suite (``controller provisioning``, ``table-capacity``, the
``provisioning`` campaign kind), checked in one place before any controller or engine starts
(``check``); campaigns check key by key (``validate_param``) and cell by cell (``check_cell``).

The topology is checked by building the trial's network (``provisioning.trial_network``, pure),
so a topology the trial could not use is refused here, not after the controller started."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from ..controllers.kinds import with_role
from ..controllers.spec import DEFAULT_SPEC, parse_spec
from ..errors import UserError
from ..kind import Kind
from ..paramcheck import Params, choice, number, param, raises, url, whole
from . import flow_push
from .provisioning import trial_network

TESTS = {"reactive": "provisioning-reactive", "proactive": "provisioning-proactive",
         "table-capacity": "table-capacity-reactive", "table-capacity-proactive": "table-capacity-proactive"}
FLOW_APIS = tuple(flow_push.FLOW_APIS)      # the registry's names
MAX_FLOWS = 1 << 20


def _topo(v: Any) -> None:
    if not isinstance(v, str):
        raise UserError(f"a topology is text such as linear,2, got {v!r}")
    trial_network(v, 1)


@dataclass(frozen=True)
class Provisioning:
    """The provisioning suite's parameters, each once: type, default, rule (its flag when not
    ``--key-with-dashes``) and its flag's help (the flag is generated, ``paramcheck.add_flags``). What ``controller provisioning`` / ``table-capacity`` and the
    ``provisioning`` kind build and the trial takes."""
    controller: str = param(DEFAULT_SPEC, raises(parse_spec))
    of_version: Optional[str] = param(None, choice(("1.0", "1.3")), flag="--of")
    topo: str = param("linear,2", raises(_topo), help="topology spec; the farthest host pairs are used (%(default)s)")
    flows: int = param(100, whole(1, MAX_FLOWS, "new flows per trial"), help="new flows per trial (%(default)s)")
    concurrency: int = param(1, whole(1), help="flows waiting for their path at once (%(default)s)")
    rate: float = param(0.0, number(0, "of new paths per second (0: as fast as --concurrency allows)"),
                        help="new flows/s at most (0: as --concurrency allows)")
    timeout_ms: int = param(1000, whole(1, what="ms"), help="a flow not across by then is not provisioned (%(default)s)")
    announce_ms: int = param(1000, number(0, "of ms"),        # the flag takes whole ms (the engine's)
                             help="time after the destinations announce themselves (%(default)s)")
    deadline: float = param(30.0, number(0, "of seconds", above=True, hi=86_400),
                            help="a trial stops after this many seconds (%(default)g)")
    table_size: int = param(0, whole(0, what="0: unlimited"), help="flow entries per emulated switch (0: unlimited)")
    test: str = param("reactive", choice(tuple(TESTS)), flag="--mode")
    api: Optional[str] = param(None, choice(FLOW_APIS),
                               help="proactive with a controller sdnbench does not launch (tcp:/cmd:): its flow API")
    api_url: Optional[str] = param(None, url, help="proactive: the flow API's base URL (with --api)")
    reps: int = param(3, whole(1, what="trials"), cli_only=True, help="trials (%(default)s)")

    @property
    def benchmark(self) -> str:
        return TESTS[self.test]

    @property
    def proactive(self) -> bool:
        return "proactive" in self.test


def _proactive(p: dict) -> bool:
    return "proactive" in p["test"]


def _together(p: dict) -> list:
    """A proactive run needs a flow API it can reach: the managed controller's own
    (``ryu:*``, ``osken:flowpush``) or ``--api`` with ``--api-url``."""
    if not _proactive(p):
        return [(k, "is for --mode proactive only") for k in ("api", "api_url") if p[k] is not None]
    if p["api"] is not None and p["api_url"] is None:
        return [("api_url", f"--api {p['api']} needs it (the flow API's base URL, e.g. http://127.0.0.1:8080)")]
    if flow_push.own_api(p["controller"]) is None and p["api"] is None:
        return [("api", f"{p['controller']} has no flow API sdnbench knows; give --api "
                        f"({', '.join(FLOW_APIS)}) with --api-url, or use "
                        f"{' or '.join(with_role('proactive'))}")]
    return []


PARAMS = Params.table("provisioning", Provisioning, _together)
DEFAULTS, CLI_ONLY = PARAMS.defaults, PARAMS.cli_only
build = PARAMS.build
problems, check, validate_param, check_cell = PARAMS.problems, PARAMS.check, PARAMS.validate_param, PARAMS.check_cell

KIND = Kind("provisioning", "sdnbench.rfc8456.provisioning_cell", "run_provisioning", ("engine",),
            "RFC 8456 reactive path provisioning time and rate (§5.1.4/§5.1.6) or forwarding-table "
            "capacity (§5.2.3) on the emulated network", validate_param, check_cell)
