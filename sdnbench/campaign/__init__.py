"""Campaigns: a scenario file → a plan of cells → measurements committed one by one to the store.

- ``scenario``: the YAML format and its validation (errors name file, line and field);
- ``kinds``: benchmark kind → runner (``controller`` → the engine, ``net`` → Mininet, ...);
- ``plan``: the matrix × repetitions, in a seeded random order, each cell with a stable key
  (``one_benchmark``: a command's plan);
- ``executor``: the one orchestration, shared with the CLI commands: cells measured in order
  (``measure``: every failure a failed Result), each handed to its sinks (``store_sink``: the
  per-cell commit; the progress display; a command's ``-o`` file);
- ``runner``: ``start`` (plan into the store) and ``execute`` (measure what is left; resume);
- ``progress``: the live (TTY) or plain progress display;
- the test-only ``synthetic`` kind (``sdnbench.testing.synthetic``) exercises the machinery;
- ``examples/``: runnable scenarios.
"""
