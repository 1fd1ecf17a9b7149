"""Beacon, the Java/OSGi controller of the controller study (seeds/002 ran Beacon 1.0.4 with its
``configurationSwitch``). Its public history (bigswitch/BeaconMirror, 2011) builds with Maven and
Tycho into ``net.beaconcontroller.product``; a built product has a ``beacon`` launcher."""

from ..recipe import Recipe

RECIPE = Recipe(
    name="beacon",
    title="Beacon",
    url="https://github.com/bigswitch/BeaconMirror",
    pin="ffa179b80cdba6a197209a9556e787ff6038b146",
    pin_note="master, 2011-05-16",
    markers=("net.beaconcontroller.core/src/main/java/net/beaconcontroller/core/IOFSwitch.java",
             "net.beaconcontroller.parent/pom.xml"),
    entries={"beacon": "net.beaconcontroller.product/target/products/beacon/linux/gtk/x86_64/beacon"},
    copy=("net.beaconcontroller.product/target/products/beacon/linux/gtk/x86_64",),
    variable=("BEACON_DIR", "net.beaconcontroller.product/target/products/beacon/linux/gtk/x86_64"),
    needs_build=True,
    build_hint="Maven with Tycho 0.10 and its p2 target platform",
)
