"""os-ken's OpenFlow Switch Test Tool against a switch (``sdnbench switch conformance``,
docs/switch-conformance.md): the tool as ``make setup`` installs it (``os_ken/tests/switch``, its
``tester.py`` and JSON patterns, never copied here), a target switch and a tester switch joined
by three links, per test OK or ERROR with the tool's own reason.

- ``patterns``: the installed patterns per OpenFlow version, their categories, the selection;
- ``logparse``: the tool's log → per-test results (pure);
- ``pairs``: the target and the tester switch (two OVS bridges on three veth pairs; two
  emulated switches on three emulated links; the CPqD switch or a remote one beside an OVS
  tester), always taken down;
- ``runner``: one run (the tool under ``osken_tester.py`` in the os-ken environment, a pair,
  progress, clean-up) and its Result;
- ``report``: summaries by category and version, two targets side by side (pure).
"""
