"""RFC 8456 test families that need the emulated network: one module per family; and the whole
evaluation (``sdnbench rfc8456``): ``suite`` (the tests as data and their scenario), ``roles``
(which app runs which test, why a test cannot apply), ``suite_cell`` (the cells no other kind
had), ``figures`` (a trial's numbers), ``evaluation`` and ``evaluation_report`` (the RFC's report)."""
