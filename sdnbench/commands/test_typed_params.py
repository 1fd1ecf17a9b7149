"""The command line and a campaign cell build the same typed parameters from one table (issue
41): ``controller provisioning`` / ``table-capacity`` / ``reprovisioning`` / ``failover`` /
``discovery`` / ``topology-change`` parsed by the real parser give the same frozen dataclass as
the cell of the same values, and that dataclass is what the trials take (no argparse
``Namespace`` between the suites and their trials)."""

import dataclasses

import pytest

from sdnbench.commands import _resilience, discovery, provisioning
from sdnbench.commands._parser import build_parser
from sdnbench.discovery import params as discovery_params
from sdnbench.rfc8456 import provisioning_params, resilience_params


def _args(*argv):
    return build_parser().parse_args(["controller", *argv])


def test_a_provisioning_command_and_cell_build_the_same_parameters():
    cli = provisioning.build(_args("provisioning", "--flows", "7", "--topo", "linear,3", "--mode", "proactive",
                                   "--controller", "osken:flowpush"), "provisioning-proactive")
    cell = provisioning_params.build({"test": "proactive", "flows": 7, "topo": "linear,3",
                                      "controller": "osken:flowpush"}, cli=False)
    assert cli == cell and isinstance(cli, provisioning_params.Provisioning)
    assert (cli.benchmark, cli.proactive, cli.of_version, cli.timeout_ms) == ("provisioning-proactive", True, None, 1000)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cli.of_version = "1.3"                      # a trial records the negotiated version, never in here
    assert provisioning_params.PARAMS.cell(cli) == {"test": "proactive", "flows": 7, "topo": "linear,3",
                                                    "controller": "osken:flowpush"}, "a plan's cell: what differs"
    capacity = provisioning.build(_args("table-capacity"), "table-capacity-reactive")
    assert (capacity.test, capacity.flows, capacity.concurrency) == ("table-capacity", 2000, 8)  # the command's own


@pytest.mark.parametrize("test, argv, cell", [
    ("reprovisioning", ["--of", "1.3", "--warmup-ms", "1500", "--link", "1-2"], {"warmup_ms": 1500, "link": "1-2"}),
    ("failover", ["--flow-rate", "50", "--after-ms", "700"], {"flow_rate": 50.0, "after_ms": 700}),
])
def test_a_resilience_command_and_cell_build_the_same_parameters(test, argv, cell):
    cli = _resilience.build(_args(test, *argv), test)
    assert cli == resilience_params.build(test, cell, cli=False)
    assert resilience_params.cell(test, cli) == {"test": test, **cell}
    assert type(cli) is resilience_params.TYPES[test]


def test_a_discovery_command_and_cell_build_the_same_parameters():
    cli = discovery.build(_args("discovery", "--poll-s", "0.5", "--topo", "ring,6"), "discovery")
    assert cli == discovery_params.build({"poll_s": 0.5, "topo": "ring,6"}, cli=False)
    change = discovery.build(_args("topology-change", "--down-at-s", "3"), "topology-change")
    assert change == discovery_params.build({"test": "topology-change", "down_at_s": 3.0, "poll_s": 0.5}, cli=False)
    assert change.poll_s == 0.5, "topology-change polls faster: the command's own default"


def test_the_flags_defaults_are_the_table_s():
    """Each default once: a flag's default is read from its suite's table."""
    assert provisioning.build(_args("provisioning"), "provisioning-reactive") == provisioning_params.Provisioning()
    assert _resilience.build(_args("failover"), "failover") == resilience_params.Failover()
    assert discovery.build(_args("discovery"), "discovery") == discovery_params.Discovery()
