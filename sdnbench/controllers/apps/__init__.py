"""os-ken apps that sdnbench ships, plus their launcher.

These files run inside the os-ken virtualenv (``launcher.py`` puts this directory on
``sys.path``), never in sdnbench's own interpreter; only ``topology_view`` is pure and is
imported by sdnbench's tests.
"""
