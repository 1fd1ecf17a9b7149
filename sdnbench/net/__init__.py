"""Network experiments on Mininet + Open vSwitch (the data-plane studies).

Layers, from pure to I/O:

- ``topology``, ``topofile``, ``links``, ``pairs``: what to build and between which hosts (pure data);
- ``pcap``, and the parsers in ``ping``, ``iperf``, ``ditg``, ``first_packet``, ``summary`` (pure);
- ``backend.MininetNetwork``: builds a topology with a run-unique name prefix and always takes it
  down; ``stale``: prefixes, claims and ``sdnbench net clean``;
- the ``measure_*`` functions: run tools inside the hosts, add raw ``Series`` to a ``Result``;
- ``runner.run_net(params) -> Result``: controller + fresh network per repetition + measurements.
"""
