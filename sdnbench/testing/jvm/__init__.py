"""The test suite's JVM controller (issue 47): a small OpenFlow 1.0/1.3 learning switch in Java on
netty, our own code (this folder's Maven project, ``src/main/java/sdnbench/jvm``), built by
``make setup`` (``scripts/setup.d/52-jvm-peer.sh``) into ``target/`` as one runnable jar.

It is started as a user starts a Java controller, with the JVM's defaults: told to listen on
127.0.0.1, a dual-stack JVM listens on an IPv6 socket bound to ``::ffff:127.0.0.1`` (a
``/proc/net/tcp6`` line, not a ``tcp`` one), as Floodlight, ONOS and OpenDaylight do. Its start
(about a second or more on a loaded machine) fits the ``cmd:`` spec's ``ready`` default.

``JAR`` and ``VERSION`` are read from ``pom.xml`` (its ``finalName`` and ``version``);
``spec()`` is its ``cmd:`` controller spec; ``command(port)`` its command line.
"""

from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
NAME = "jvm-learning"
_POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def _pom(path: str) -> str:
    return ET.parse(HERE / "pom.xml").getroot().find(path, _POM_NS).text.strip()


VERSION = _pom("m:version")
JAR = HERE / "target" / f"{_pom('m:build/m:finalName')}.jar"


def missing() -> str | None:
    """Why the jar cannot run, one line, or None when it is there."""
    if JAR.is_file():
        return None
    return f"{JAR} is missing: `make setup` builds it (scripts/setup.d/52-jvm-peer.sh: Maven, JDK 17)"


def _java() -> list:
    return ["java", "-jar", str(JAR)]            # no -D flag: the JVM's defaults are the point


def command(port: int) -> list:
    """Its command line, listening on 127.0.0.1:``port``."""
    return _java() + [str(port)]


def spec() -> str:
    """Its ``cmd:`` controller spec (sdnbench picks the port; the ``ready`` default covers the JVM)."""
    return f"cmd:{shlex.join(_java())} {{port}};name={NAME};version={VERSION};of=1.0,1.3"
