"""``faucet:CONFIG.yaml`` and ``faucet:auto``: Faucet with that config file, or with one
generated for the network (``faucet_config``), run by osken-manager in the ``faucet`` virtualenv.
Its logs, config-stat files and exception log go to the state directory, its Prometheus exporter
onto loopback, through its environment variables."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from ...errors import UserError
from .. import envs
from ..faucet_config import faucet_config_for
from ..launchplan import HOST, LaunchPlan, base_env
from ..ofhello import free_port
from ..parsed import ControllerSpec
from ..tlsfiles import osken_listen
from .base import ControllerKind, installed_row

VERSIONS = ("1.3",)


def parse(text: str, rest) -> ControllerSpec:
    if not rest:
        raise UserError("faucet needs a config: faucet:PATH.yaml, or faucet:auto for one "
                        "generated from the network's topology")
    return ControllerSpec(text, "faucet", app=rest)


def resolve(parsed: ControllerSpec, topology) -> ControllerSpec:
    """``faucet:auto`` -> ``faucet:<generated config>``, keeping the spec text the user wrote."""
    if parsed.app != "auto":
        return parsed
    if topology is None:
        raise UserError("faucet:auto generates Faucet's config from the network, but no topology "
                        "was given; use faucet:PATH.yaml to run Faucet on its own")
    if isinstance(topology, str):       # a bug of the caller's: the spec is parsed above this layer
        raise TypeError(f"launch(topology={topology!r}): pass the parsed Topology (net.topology.parse_topology)")
    return dataclasses.replace(parsed, app=str(faucet_config_for(topology)))  # text and tls kept


def plan(spec: ControllerSpec, port: int, of_version: str, scratch: Path) -> LaunchPlan:
    manifest = envs.require("faucet")
    config = Path(spec.app).expanduser().resolve()
    if not config.is_file():
        raise UserError(f"{spec.text}: no such config file {config}")
    empty = scratch / "os_ken.conf"
    argv = [str(envs.bin_path("faucet", "osken-manager")), "--config-file", str(empty),
            "--ofp-listen-host", HOST, *osken_listen(spec, port), "faucet.faucet"]
    env = base_env(envs.venv_dir("faucet") / "bin")
    prometheus = free_port(HOST)
    env.update(faucet_env(config, scratch, prometheus))
    return LaunchPlan("faucet", manifest["version"], str(config), argv, env, files={empty: ""},
                      metrics_port=prometheus)


def faucet_env(config: Path, scratch: Path, prometheus_port: int) -> dict:
    """Faucet's settings, all inside sdnbench's state directory or on loopback. Its logs go to
    stdout/stderr, which sdnbench captures in the controller log."""
    return {
        "FAUCET_CONFIG": str(config),
        "FAUCET_CONFIG_STAT_RELOAD": "0",
        "FAUCET_LOG": "STDOUT",
        "FAUCET_EXCEPTION_LOG": "STDERR",
        "FAUCET_EVENT_SOCK": "0",
        "FAUCET_PROMETHEUS_ADDR": HOST,
        "FAUCET_PROMETHEUS_PORT": str(prometheus_port),
        "GAUGE_CONFIG": str(scratch / "gauge.yaml"),
        "GAUGE_LOG": str(scratch / "gauge.log"),
        "GAUGE_EXCEPTION_LOG": str(scratch / "gauge_exception.log"),
        "GAUGE_PROMETHEUS_ADDR": HOST,
    }


def inventory() -> list:
    return [installed_row("faucet:CONFIG.yaml", "Faucet", "faucet", VERSIONS, "Faucet with your config file"),
            installed_row("faucet:auto", "Faucet", "faucet", VERSIONS,
                          "Faucet with a generated config: L2 on one VLAN across every port of the topology")]


KIND = ControllerKind(
    "faucet", "faucet:CONFIG.yaml", parse, plan, versions=lambda spec: VERSIONS, inventory=inventory,
    # Faucet takes only the packet-ins its own pipeline raises (docs/robustness.md "Faucet")
    traffic="faucet", resolve=resolve, doctor="controller-faucet",
)
