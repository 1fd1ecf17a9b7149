"""Robustness of a controller (issue 16, RFC 8456 §5.3): named malformed-message and
southbound-attack cases (defined once, in ``crates/ofmutate``; listed by
``sdnbench-engine robust-cases``), played by one emulated switch while the others keep a
measured background load; a verdict per case from what was observed.

``cases`` reads the catalogue, ``verdicts`` judges one run (pure; ``change`` is its
significance test over the loops), ``stable`` makes one verdict of a case's repetitions,
``version`` negotiates the OpenFlow version per launch, ``runner`` runs cases against a
managed or ``tcp:`` controller (a fresh launch per repetition) and restarts it after a crash
or hang, ``table`` prints the cases × controllers table.
"""
