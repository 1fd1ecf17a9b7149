"""Beacon 1.0.4, the Java/OSGi controller of the controller study (seeds/002 ran it with
``./beacon -configuration configurationSwitch``). Its 1.0.x history is public in a copy of the
original repository (chinmaymhatre91/beacon; "Bumped to version 1.0.4", 2013-09-12); Maven with
Tycho 0.15 and the Eclipse Helios target platform build it into ``net.beaconcontroller.product``,
whose ``beacon-all`` product has the ``beacon`` launcher. Not built here (docs/install.md says
where it failed), so the product path is upstream's layout, unverified on this machine."""

from ..recipe import Recipe

_PRODUCT = "net.beaconcontroller.product/target/products/beacon-all/linux/gtk/x86_64"

RECIPE = Recipe(
    name="beacon",
    title="Beacon",
    url="https://github.com/chinmaymhatre91/beacon",
    pin="bf930f10847e626eaa3dc90eb4252f5573d8428e",
    pin_note="1.0.4, 2013-09-12",
    markers=("net.beaconcontroller.core/src/main/java/net/beaconcontroller/core/IOFSwitch.java",
             "net.beaconcontroller.parent/pom.xml", "net.beaconcontroller.product/beacon.product"),
    entries={"beacon": f"{_PRODUCT}/beacon"},
    copy=(_PRODUCT,),
    variable=("BEACON_DIR", _PRODUCT),
    needs_build=True,
    build_hint="Maven with Tycho 0.15, a Java 6-8 JDK and the Eclipse Helios p2 repository",
)
