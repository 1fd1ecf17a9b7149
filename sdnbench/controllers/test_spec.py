"""Spec strings: every documented form parses; every malformed one is a one-line UserError."""

import pytest

from sdnbench.controllers.catalog import OSKEN_APPS
from sdnbench.controllers.kinds.ryu import ryu_module
from sdnbench.controllers.spec import parse_spec, spoken_versions, version_bitmap, wire_version
from sdnbench.errors import UserError


@pytest.mark.parametrize("text,kind,app", [
    ("osken:learning", "osken", "learning"),
    ("osken:multitable", "osken", "multitable"),
    ("ryu:simple_switch_13", "ryu", "simple_switch_13"),
    ("ryu:ryu.app.simple_switch", "ryu", "ryu.app.simple_switch"),
    ("faucet:/tmp/f.yaml", "faucet", "/tmp/f.yaml"),
    ("faucet:auto", "faucet", "auto"),
    ("ovs-testcontroller", "ovs-testcontroller", None),
    ("  osken:hub ", "osken", "hub"),
])
def test_valid_specs(text, kind, app):
    s = parse_spec(text)
    assert (s.kind, s.app) == (kind, app)
    assert s.name == text.strip()


def test_tcp_spec_gives_host_and_port():
    s = parse_spec("tcp:127.0.0.1:6653")
    assert (s.kind, s.host, s.port) == ("tcp", "127.0.0.1", 6653)
    s6 = parse_spec("tcp:[::1]:6633")
    assert (s6.host, s6.port) == ("::1", 6633)


@pytest.mark.parametrize("text,needle", [
    ("", "empty controller spec"),
    ("pox:l2", "unknown controller spec"),
    ("osken:nosuch", "sdnbench ships"),
    ("osken:", "unknown os-ken app"),
    ("ryu:", "bad Ryu app"),
    ("ryu:../evil", "bad Ryu app"),
    ("faucet:", "faucet:auto"),
    ("tcp:127.0.0.1", "tcp:HOST:PORT"),
    ("tcp:127.0.0.1:0", "tcp:HOST:PORT"),
    ("tcp:127.0.0.1:70000", "tcp:HOST:PORT"),
    ("tcp::6653", "tcp:HOST:PORT"),
    ("ovs-testcontroller:x", "takes no argument"),
])
def test_bad_specs_are_one_line_user_errors(text, needle):
    with pytest.raises(UserError) as e:
        parse_spec(text)
    assert needle in str(e.value)
    assert "\n" not in str(e.value)


def test_wire_versions():
    assert wire_version("1.0") == 1
    assert wire_version("1.3") == 4
    with pytest.raises(UserError, match="1.0 or 1.3"):
        wire_version("1.5")


def test_ryu_module_names():
    assert ryu_module("simple_switch_13") == "ryu.app.simple_switch_13"
    assert ryu_module("my.pkg.app") == "my.pkg.app"


def test_catalog_versions():
    assert spoken_versions(parse_spec("osken:multitable")) == ("1.3",)
    assert set(spoken_versions(parse_spec("osken:learning"))) == {"1.0", "1.3"}
    assert spoken_versions(parse_spec("faucet:/x.yaml")) == ("1.3",)
    assert spoken_versions(parse_spec("ryu:some.other.module")) == ()
    assert spoken_versions(parse_spec("ovs-testcontroller")) == ("1.0", "1.3")
    assert spoken_versions(parse_spec("tcp:127.0.0.1:6653")) == ()
    assert spoken_versions(parse_spec("cmd:x --port={port};of=1.0")) == ("1.0",)
    assert OSKEN_APPS["topology"].module_list() == ("topology", "learning")
    assert OSKEN_APPS["hub"].module_list() == ("hub",)


def test_version_bitmap_is_the_engines_encoding():
    # ofwire's Versions: bit n for wire version n (1.0 and 1.3 are 0x12)
    assert version_bitmap(["1.0"]) == 2
    assert version_bitmap(["1.3"]) == 16
    assert version_bitmap(["1.0", "1.3"]) == version_bitmap(("1.3", "1.0", "1.3")) == 0x12
    with pytest.raises(UserError):
        version_bitmap(["1.5"])
