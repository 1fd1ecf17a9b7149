"""Inventory files: a good one becomes hosts and a topology; every error names file and line."""

import pytest

from sdnbench.errors import UserError

from . import inventory
from .base import parse_backend
from .ssh_backend import SSHBackend

GOOD = """\
controller: 127.0.0.1:6653
defaults: {user: lab, key: id}
switches:
  - s1
  - {name: s2, dpid: 0x2a}
links: [[s2, s1]]
hosts:
  - {name: h1, ssh: 10.9.0.1, switch: s1, intf: eth1, ip: 10.0.0.1}
  - {name: h2, ssh: 10.9.0.2, port: 2222, user: root, switch: s2, ip: 10.0.0.2, path: /usr/local/bin}
"""


def _write(tmp_path, text: str):
    (tmp_path / "id").write_text("not really a key")
    p = tmp_path / "lab.yaml"
    p.write_text(text)
    return p


def test_good_inventory(tmp_path):
    inv = inventory.load(_write(tmp_path, GOOD))
    assert inv.controller == ("127.0.0.1", 6653)
    h1, h2 = inv.hosts
    assert (h1.user, h1.port, h1.key, h1.intf) == ("lab", 22, str(tmp_path / "id"), "eth1")
    assert (h2.user, h2.port, h2.path) == ("root", 2222, "/usr/local/bin")
    t = inv.topology()
    assert t.switch_names() == ["s1", "s2"] and t.switches[1].dpid == 0x2a
    assert t.hosts_on("s2") == ["h2"] and len(t.switch_links()) == 1
    assert h2.where() == "host h2 (root@10.9.0.2:2222)"


@pytest.mark.parametrize("change, where", [
    (("  - {name: h1, ssh: 10.9.0.1, switch: s1,", "  - {name: h1, ssh: 10.9.0.1, switch: s9,"),
     ":8: host h1: no switch 's9' in switches"),
    (("ip: 10.0.0.2,", "ip: ten,"), ":9: host h2: ip 'ten' is not an IP address"),
    (("port: 2222", "port: http"), ":9: host h2: bad port 'http'"),
    (("links: [[s2, s1]]", "links: [[s2, s3]]"), ":6: link s2-s3: no switch 's3' in switches"),
    (("controller: 127.0.0.1:6653", "controller: 127.0.0.1"), ":1: controller '127.0.0.1': use ADDRESS:PORT"),
    (("defaults: {user: lab, key: id}", "defaults: {user: lab, key: nokey}"),
     "does not exist"),
    (("  - s1\n", "  - s1\n  - s1\n"), "name 's1' used twice"),
    (("intf: eth1,", "intf: eth1, colour: red,"), ":8: a host: unknown key 'colour'"),
    (("hosts:", "hosts: ["), "not valid YAML"),
])
def test_errors_name_file_and_line(tmp_path, change, where):
    p = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(inventory.InventoryError) as e:
        inventory.load(p)
    assert str(e.value).startswith(str(p)) and where in str(e.value), str(e.value)
    with pytest.raises(UserError, match=r"^inventory .*lab\.yaml"):      # as the backend says it
        SSHBackend(str(p))


def test_missing_file_and_bad_backend_spec(tmp_path):
    with pytest.raises(inventory.InventoryError, match="no such inventory file"):
        inventory.load(tmp_path / "none.yaml")
    assert str(parse_backend("ssh:lab.yaml")) == "ssh:lab.yaml" and parse_backend(None).kind == "mininet"
    with pytest.raises(UserError, match="use mininet or ssh:INVENTORY"):
        parse_backend("docker")


def test_a_backend_is_one_line_of_kinds(monkeypatch):
    from . import base
    monkeypatch.setitem(base.NET_BACKENDS, "docker", base.Kind(lambda arg: ("docker", arg), "HOSTS", "a hosts file"))
    assert base.open_backend("docker:h.yaml") == ("docker", "h.yaml")
    assert base.check_spec("mininet") is None and "docker:HOSTS (a hosts file)" in base.check_spec("docker:")
    assert "use mininet or" in base.check_spec("mininet:x")


def test_scenarios_take_a_backend_key():
    from sdnbench.net.params import check_cell as check_net_cell, validate_param as validate_net_param

    assert validate_net_param("backend", "ssh:lab.yaml") is None
    assert validate_net_param("backend", "mininet") is None
    assert "use mininet or ssh:INVENTORY" in validate_net_param("backend", "vagrant")
    assert check_net_cell({"topo": "star,3,2", "backend": "ssh:lab.yaml"}) == []
