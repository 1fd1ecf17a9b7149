"""cbench, the controller benchmark of the OFLOPS suite (mininet/oflops): the load generator of
the controller study (seeds/002), for running the study's own tool beside sdnbench's engine."""

from ..recipe import Recipe

RECIPE = Recipe(
    name="cbench",
    title="cbench (oflops)",
    url="https://github.com/mininet/oflops",
    pin="b6cbd0246bec8a5454e185b427698bb415c36093",
    pin_note="master, 2023-04-21",
    markers=("oflops.c", "cbench/cbench.c", "cbench/fakeswitch.c"),
    entries={"cbench": "cbench/cbench"},
    copy=("cbench/cbench",),
    on_path=("cbench",),
    needs_build=True,
    build_hint="autotools, libconfig, libsnmp, libpcap and the OpenFlow 1.0 reference headers "
               "(mininet/openflow)",
    libs_checked=("cbench",),
)
