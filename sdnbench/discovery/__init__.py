"""RFC 8456 topology tests on the emulated network: discovery time (§5.1.1), discovery size
(§5.2.2) and topology change detection (§5.1.8).

- ``poller``: pure — a run of northbound polls judged against the emulated links (match, or
  ``stable`` identical answers in a row: incomplete, M of N, missing links named);
- ``engine_run``: the engine in network mode as a background process, stopped on demand, its
  JSON read back (its ``network.discovery`` section: the southbound view);
- ``trial``: one discovery trial = engine + poller; ``change``: a link down/up after discovery;
- ``size``: doubling then bisection over the topology size;
- ``record``: trials → a ``Result`` with the §4.8 fields, mean and variance;
- ``setup``: command-line choices → engine params, adapter and URL (size limit checked first);
- ``cell``: the ``discovery`` campaign kind;
- ``scripted``: a scripted LLDP controller with a fake northbound view (known-answer tests).

Times are CLOCK_MONOTONIC ns (Python's ``time.monotonic_ns()`` is the engine's clock), and every
discovery time is measured from the first switch connecting to the controller.
"""
