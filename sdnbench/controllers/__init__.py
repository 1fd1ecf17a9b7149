"""Controllers under test: named by one spec string, installed, launched, measured, always stopped.

Public API (what the rest of sdnbench codes against):

    from sdnbench.controllers import launch, ControllerDied, parse_spec, sample_resources

    with launch("osken:learning", of_version="1.3") as ctl:      # or port=6653, log_dir=...
        net = MininetNetwork(topo, controller=(ctl.host, ctl.port))
        with ctl.sample_resources(0.5) as sampler:              # or sample_resources(ctl.pid, 0.5)
            ...                                                 # run the benchmark
            ctl.check_alive()                                   # ControllerDied with its log tail
        ctl.record(result, sampler)      # result.controller = ctl.info (spec, name, version, app,
                                         # of_version, pid, ...); result.resources += cpu_percent,
                                         # rss_bytes, threads; a note if the CPU saturated

Specs: ``osken:learning`` (``DEFAULT_SPEC``), ``osken:APP``, ``ryu:APP``, ``faucet:CONFIG.yaml``,
``ovs-testcontroller``, ``tcp:HOST:PORT``, ``cmd:COMMAND``: one record each in ``kinds/``. See
``spec`` for the grammar, ``kinds/`` for each controller's command line, ``envs`` for the
per-controller virtualenvs, ``lifecycle`` for start, readiness and stop, ``resources`` for the sampler and ``apps/`` for the os-ken apps we ship.
"""

from .faucet_config import faucet_config, faucet_config_for
from .lifecycle import Controller, ControllerDied, launch
from .resources import ResourceSampler, sample_resources, saturation_note
from .spec import DEFAULT_SPEC, ControllerSpec, parse_spec

__all__ = [
    "DEFAULT_SPEC", "Controller", "ControllerDied", "ControllerSpec", "ResourceSampler",
    "faucet_config", "faucet_config_for", "launch", "parse_spec", "sample_resources",
    "saturation_note",
]
