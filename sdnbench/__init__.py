"""sdnbench: benchmarks for SDN controllers, OpenFlow switches and whole networks.

Layers, from the edges in:
- ``cli`` and ``commands/``: argument parsing, one module per subcommand, one-line user errors.
- ``controllers/``: controllers under test, launched and measured.
- ``net/``: data-plane experiments on Mininet and Open vSwitch.
- ``engine/``: the Python side of the Rust load engine.
- ``campaign/``, ``store/``, ``stats/``, ``report/``: scenarios, the SQLite store, statistics, reports.
- ``result``: the one results format every benchmark produces.
"""

__version__ = "0.1.0"
