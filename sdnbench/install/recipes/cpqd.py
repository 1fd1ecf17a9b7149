"""CPqD ofsoftswitch13, the OpenFlow 1.3 user switch of the OVS-vs-CPqD study (seeds/004):
``ofdatapath`` (the datapath), ``ofprotocol`` (its secure channel) and ``dpctl``. Mininet's
``--switch user`` and ``switch bench --target cpqd`` run them by these names from PATH. The
datapath links NetBee (netgroup-polito/netbee), whose libraries must be where the loader finds
them (ofsoftswitch13's README installs them in /usr/local/lib)."""

from ..recipe import Recipe

RECIPE = Recipe(
    name="cpqd",
    title="CPqD ofsoftswitch13",
    url="https://github.com/CPqD/ofsoftswitch13",
    pin="aaebdbce3dae0f3d9af62f059e3ec5a2813469c4",
    pin_note="master, 2020-05-22",
    markers=("udatapath/datapath.c", "secchan/secchan.c", "oflib/ofl-messages.c"),
    entries={"ofdatapath": "udatapath/ofdatapath", "ofprotocol": "secchan/ofprotocol",
             "dpctl": "utilities/dpctl"},
    copy=("udatapath/ofdatapath", "secchan/ofprotocol", "utilities/dpctl"),
    on_path=("ofdatapath", "ofprotocol", "dpctl"),
    needs_build=True,
    build_hint="Getting Started; it needs the NetBee library, netgroup-polito/netbee",
    libs_checked=("ofdatapath", "ofprotocol", "dpctl"),
    # NetBee reads the packet description customnetpdl.xml at a path fixed by the build; without
    # it the datapath prints this error and parses nothing
    smoke=("ofdatapath", "-V"),
    smoke_error="Error initializing the NetBee Library",
    smoke_fix="the datapath cannot find customnetpdl.xml: see ofsoftswitch13's README (Building)",
)
