"""Switch under test: sdnbench is the controller and the traffic, the switch is what is measured.

Layering:
- ``wiring``: veth pairs from a switch's ports to network namespaces sdnbench creates (no
  Mininet), checksum offload off, always removed again;
- ``targets``: the switches behind one interface (``ovs``, ``cpqd``, ``remote:PORT,IF1,IF2``),
  each a context manager that builds, connects to our controller port and cleans up;
- ``driver``: runs ``sdnbench-switch`` (``crates/switchbench``), which listens for the switch,
  speaks OpenFlow through ``crates/ofcontroller`` and sends/captures probe frames with kernel
  timestamps, and reads its ``sdnbench.switch/1`` document;
- ``convert``: that document -> one ``Result`` per test (raw series, counters, the switch's
  DESC identity in ``topology``);
- ``runner``: one bench run, from target spec and options to Results;
- ``scripted_switch``: a switch with known delays, for the known-answer tests.
"""
