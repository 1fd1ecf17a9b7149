"""``run_engine(params) -> Result``: one engine measurement against one controller, for the
campaign runner and the ``sdnbench controller`` commands.

The controller is launched (``sdnbench.controllers.launch``) for the measurement and always
stopped; its CPU and memory are sampled by the controllers' sampler, and its PID is given to
the engine too, so the engine's own JSON carries both sides.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..controllers import launch
from ..controllers.spec import needed_traffic
from ..errors import Interrupted
from ..result import Result
from . import driver
from .convert import to_result
from .result_check import as_json
from .result_types import EngineResult
from .controller_params import build
from .params import (check, config, engine_args, engine_defaults, launch_of_version, launch_spec, launch_tls,
                     with_resolved)


def measure(p: dict, ctl, live: bool = False) -> Result:
    """One engine run against a launched controller ``ctl`` (params ``p`` as ``check`` resolved
    them): one call of the engine, given the resolved config with the controller's address. The
    Result's params are ``p`` with what the engine reports it ran (its ``params``: the same
    values, by construction)."""
    cfg = config(p, ctl.target)
    if ctl.pid:
        cfg["controller_pid"] = ctl.pid
    args = engine_args(p)
    interval = max(0.1, min(1.0, (p.get("loop_ms") or engine_defaults()["loop_ms"]) / 2000))
    with ctl.sample_resources(interval) as sampler:
        try:
            doc = driver.run(args, live=live, config=cfg)
        except driver.EngineInterrupted as e:
            r = _result(p, e.doc)
            ctl.record(r, sampler)
            e.result = r
            raise
    r = _result(p, doc)
    ctl.check_alive()
    ctl.record(r, sampler)
    needed = needed_traffic(p.get("controller", ""))
    if r.status == "failed" and "nothing measured" in (r.error or "") and needed and p.get("traffic") != needed:
        r.error += (f"; Faucet takes only the packet-ins its own pipeline raises, not {p.get('traffic')!r} "
                    f"traffic: use --traffic {needed} (docs/robustness.md, \"Faucet\")")
    return r


def _result(p: dict, doc: dict) -> Result:
    """The Result of the engine's document ``doc``, its params ``p`` with what the engine ran."""
    res = EngineResult.from_json(doc)
    return to_result(res, with_resolved(p, as_json(res.params)))


def run_engine(params: dict, live: bool = False, port: Optional[int] = None) -> Result:
    """The campaign kind's runner: a controller launched for this one measurement, with the
    cell's typed parameters (``controller_params.build``: every key known, the engine's check)."""
    p = build(params).params
    with launch(launch_spec(p), of_version=launch_of_version(p), port=port, tls=launch_tls(p)) as ctl:
        return measure(p, ctl, live=live)


def against(ctl, live: bool = False) -> Callable[[dict], Result]:
    """The runner of a command that launched ``ctl`` once for all its cells: params checked
    (the engine is asked once per distinct config; ``check`` remembers) and measured."""
    return lambda params: measure(check(params), ctl, live=live)


__all__ = ["run_engine", "against", "measure", "Interrupted"]
