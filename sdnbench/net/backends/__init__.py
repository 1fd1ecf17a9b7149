"""Network backends behind one interface (``base.Network``): Mininet on this machine
(``mininet``), or real hosts reached over SSH (``ssh``, described by an ``inventory`` file)."""
