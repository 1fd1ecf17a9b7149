"""A metric's history across the runs of one scenario, with step detection (``sdnbench history``)."""
