"""The benchmark kinds a scenario can name, and the runner behind each.

A kind maps to ``module.function(params: dict) -> sdnbench.result.Result`` — one measurement
with the cell's parameters — plus the ``doctor`` checks it needs before anything runs. Runners are
imported only when a campaign uses them, so a part missing from this install is a one-line
``UserError`` naming the kind, not an ImportError.

To plug in a suite (the RFC 8456 suites as ``rfc8456.*``, ``robustness``), add a ``Kind`` to
``KINDS`` below; nothing else in the campaign changes.

Contract for runners: raise ``UserError`` (or return a Result with ``status="failed"``) for a
failed measurement — the cell is recorded as failed with that reason and the campaign goes on;
never swallow ``Interrupted``.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from .. import doctor
from ..controllers.spec import validate_controller_param
from ..discovery import params as discovery_params
from ..engine.params import check as engine_check
from ..errors import UserError
from ..net import params as net_params
from ..rfc8456 import provisioning_params, resilience_params, suite_cell
from ..robustness import cell as robustness_cell
from ..switchtest import cell as switch_cell


@dataclass(frozen=True)
class Kind:
    name: str
    module: str
    function: str
    requires: tuple = ()                         # doctor checks
    description: str = ""
    validate: Optional[Callable[[str, Any], Optional[str]]] = field(default=None, compare=False)
    # whole-cell check (all parameters of one cell): [(field, message)], empty when fine
    check_cell: Optional[Callable[[dict], list]] = field(default=None, compare=False)

    def load(self) -> Callable:
        try:
            mod = importlib.import_module(self.module)
        except ModuleNotFoundError as e:
            if e.name and self.module.startswith(e.name):
                raise UserError(f"benchmark kind {self.name!r} needs {self.module}.{self.function}, "
                                "which this sdnbench install does not have yet")
            raise
        fn = getattr(mod, self.function, None)
        if fn is None:
            raise UserError(f"benchmark kind {self.name!r}: {self.module} has no {self.function}()")
        return fn


def validate_engine_param(name: str, value: Any) -> Optional[str]:
    """The controller spec, then the engine's own parameter check, one key at a time."""
    msg = validate_controller_param(name, value)
    if msg or name == "controller":
        return msg
    try:
        engine_check({name: value})
    except UserError as e:
        return str(e)
    return None


def validate_net_param(name: str, value: Any) -> Optional[str]:
    """One key of the net parameter model (``sdnbench.net.params``)."""
    if name == "backend":           # mininet | ssh:INVENTORY (sdnbench.net.backends)
        # here, not at start-up: the backends module imports every backend (Mininet, SSH, cluster)
        from ..net.backends.base import check_spec
        return check_spec(value)
    return net_params.check_one(name, value)


def check_net_cell(params: dict) -> list:
    """Every problem of one net cell's parameters (the same model ``net run`` uses)."""
    try:
        net_params.check({k: v for k, v in params.items() if k != "backend"})
    except net_params.NetParamsError as e:
        return e.problems
    return []


def validate_switch_param(name: str, value: Any) -> Optional[str]:
    """A switch-under-test cell parameter, checked by the switch test's own rules."""
    return switch_cell.validate_param(name, value)


def validate_robustness_param(name: str, value: Any) -> Optional[str]:
    """A robustness cell parameter (``sdnbench.robustness.cell``)."""
    return robustness_cell.validate_param(name, value)


def validate_discovery_param(name: str, value: Any) -> Optional[str]:
    """A discovery cell parameter (``sdnbench.discovery.params``)."""
    return discovery_params.validate_param(name, value)


def check_discovery_cell(params: dict) -> list:
    """Every problem of one discovery cell's combination of keys."""
    return discovery_params.check_cell(params)


def validate_provisioning_param(name: str, value: Any) -> Optional[str]:
    """A provisioning cell parameter (``sdnbench.rfc8456.provisioning_params``)."""
    return provisioning_params.validate_param(name, value)


def check_provisioning_cell(params: dict) -> list:
    """Every problem of one provisioning cell's combination of keys."""
    return provisioning_params.check_cell(params)


def validate_resilience_param(name: str, value: Any) -> Optional[str]:
    """A resilience cell parameter (``sdnbench.rfc8456.resilience_params``)."""
    return resilience_params.validate_param(name, value)


def check_resilience_cell(params: dict) -> list:
    """Every problem of one resilience cell's combination of keys."""
    return resilience_params.check_cell(params)


def validate_rfc8456_param(name: str, value: Any) -> Optional[str]:
    """A parameter of the suite's own cells (``sdnbench.rfc8456.suite_cell``)."""
    return suite_cell.validate_param(name, value)


def check_rfc8456_cell(params: dict) -> list:
    """Every problem of one suite cell's combination of keys."""
    return suite_cell.check_cell(params)


KINDS: dict = {k.name: k for k in (
    Kind("controller", "sdnbench.engine.runner", "run_engine", ("engine",),
         "controller benchmark with the Rust load engine (throughput, latency, capacity, ...)",
         validate_engine_param),
    Kind("net", "sdnbench.net.runner", "run_net", ("root", "netns", "ovs", "mininet-python"),
         "network experiment on Mininet + Open vSwitch (ping, iperf3, D-ITG, ...)",
         validate_net_param, check_net_cell),
    Kind("switch", "sdnbench.switchtest.cell", "run_switch", ("root", "netns", "ovs", "switchbench"),
         "switch under test: sdnbench as controller and traffic (insertion, barrier, packet-in/out, ...)",
         validate_switch_param),
    Kind("robustness", "sdnbench.robustness.cell", "run_case", ("engine",),
         "robustness case (issue 16, RFC 8456 §5.3): a verdict for one malformed message or attack",
         validate_robustness_param),
    Kind("discovery", "sdnbench.discovery.cell", "run_discovery", ("engine",),
         "RFC 8456 topology discovery time (§5.1.1) or change detection (§5.1.8) on the emulated network",
         validate_discovery_param, check_discovery_cell),
    Kind("provisioning", "sdnbench.rfc8456.cell", "run_provisioning", ("engine",),
         "RFC 8456 reactive path provisioning time and rate (§5.1.4/§5.1.6) or forwarding-table "
         "capacity (§5.2.3) on the emulated network", validate_provisioning_param, check_provisioning_cell),
    Kind("resilience", "sdnbench.rfc8456.resilience_cell", "run_resilience", ("engine",),
         "RFC 8456 network re-provisioning time (§5.4.2, a link fails) or controller failover time "
         "(§5.4.1, the master is killed) on the emulated network", validate_resilience_param,
         check_resilience_cell),
    Kind("rfc8456", "sdnbench.rfc8456.suite_cell", "run_test", ("engine",),
         "RFC 8456 exception handling (§5.3.1, clean/1%/2% invalid) or network discovery size "
         "(§5.2.2, a size search) as one trial of `sdnbench rfc8456`", validate_rfc8456_param,
         check_rfc8456_cell),
    Kind("synthetic", "sdnbench.campaign.synthetic", "run_synthetic", (),
         "made-up numbers for testing the campaign machinery (never a measurement)",
         None),
)}


def get(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise UserError(f"unknown benchmark kind {name!r}; known: {', '.join(sorted(KINDS))}")


def requirements(scenario) -> list:
    """The doctor checks a scenario needs: each kind's, plus one per controller kind used
    (``controller-osken``, ``controller-ryu``, ``ovs-testcontroller``) when the doctor has it."""
    known = doctor.all_checks()
    names: list = []
    for b in scenario.benchmarks:
        names += [n for n in get(b.kind).requires if n not in names]
        for spec in _controller_specs(b):
            kind = spec.partition(":")[0]
            # The controllers part names its checks controller-osken, controller-ryu, ...;
            # ovs-testcontroller is a plain tool check.
            for name in (f"controller-{kind}", kind):
                if name in known and name not in names:
                    names.append(name)
                    break
    return names


def _controller_specs(bench) -> list:
    vals = bench.matrix.get("controller", [])
    if "controller" in bench.params:
        vals = [bench.params["controller"]]
    return [v for v in vals if isinstance(v, str)]
