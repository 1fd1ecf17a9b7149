"""Topologies from files: a YAML description, or a Mininet ``Topo`` Python file.

YAML (``topo.yaml``)::

    link: fast-ethernet            # optional default for every link (profile or KEY=VALUE list)
    switches:
      - s1                         # dpid defaults to the position (1, 2, ...)
      - {name: s2, dpid: 0x2a, protocols: OpenFlow10}
    hosts: [h1, {name: h2, ip: 10.0.0.2/8}]
    links:
      - [h1, s1]
      - {a: h2, b: s2, loss: 5}    # per-link bw, delay, jitter, loss, queue, profile
      - [s1, s2]

Mininet (``FILE.py:NAME[,ARG...]``): the file defines ``topos = {"NAME": callable}`` like every
``mn --custom`` file; the callable gets the integer/float/string arguments. Link options
``bw``, ``delay``, ``jitter``, ``loss`` and ``max_queue_size`` and node options ``dpid`` and
``protocols`` carry over.
"""

from __future__ import annotations

import runpy
from pathlib import Path

from ..errors import UserError
from .links import LinkParams, params_from_mapping, parse_link
from .topo_model import Host, Link, Switch, Topology


def load(spec: str) -> Topology:
    if ".py" in spec.split(",", 1)[0]:
        return load_mininet(spec)
    return load_yaml(spec)


def load_yaml(spec: str) -> Topology:
    from ..yamlload import YamlError, load

    path = Path(spec)
    try:
        data = load(path.read_text(), f"topology file {path}")
    except FileNotFoundError:
        raise UserError(f"topology file {path}: no such file")
    except (OSError, UnicodeDecodeError) as e:
        raise UserError(f"topology file {path}: cannot be read ({getattr(e, 'strerror', None) or e})")
    except YamlError as e:
        raise UserError(str(e))
    return from_mapping(data, str(path))


def from_mapping(data, where: str) -> Topology:
    if not isinstance(data, dict):
        raise UserError(f"{where}: expected a mapping with switches, hosts and links")
    unknown = set(data) - {"switches", "hosts", "links", "link", "name"}
    if unknown:
        raise UserError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}")
    default = parse_link(str(data["link"])) if data.get("link") else LinkParams()
    switches = [_switch(item, i + 1, where) for i, item in enumerate(_list(data, "switches", where))]
    hosts = [_host(item, where) for item in _list(data, "hosts", where)]
    links = [_link(item, default, where) for item in _list(data, "links", where)]
    return Topology(where, switches, hosts, links)


def _list(data: dict, key: str, where: str) -> list:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise UserError(f"{where}: {key} must be a list")
    return value


def _switch(item, position: int, where: str) -> Switch:
    if isinstance(item, str):
        return Switch(item, dpid=position)
    if not isinstance(item, dict) or "name" not in item:
        raise UserError(f"{where}: a switch must be a name or a mapping with a name, not {item!r}")
    dpid = item.get("dpid", position)
    try:
        dpid = int(dpid, 0) if isinstance(dpid, str) else int(dpid)
    except ValueError:
        raise UserError(f"{where}: switch {item['name']}: bad dpid {dpid!r}")
    return Switch(str(item["name"]), dpid=dpid, protocols=item.get("protocols"),
                  role=item.get("role"))


def _host(item, where: str) -> Host:
    if isinstance(item, str):
        return Host(item)
    if not isinstance(item, dict) or "name" not in item:
        raise UserError(f"{where}: a host must be a name or a mapping with a name, not {item!r}")
    return Host(str(item["name"]), ip=item.get("ip"), mac=item.get("mac"))


def _link(item, default: LinkParams, where: str) -> Link:
    if isinstance(item, list) and len(item) == 2:
        return Link(str(item[0]), str(item[1]), default)
    if isinstance(item, dict) and "a" in item and "b" in item:
        own = {k: v for k, v in item.items() if k not in ("a", "b")}
        params = params_from_mapping(own, f"{where}: link {item['a']}-{item['b']}") if own else default
        return Link(str(item["a"]), str(item["b"]), params)
    raise UserError(f"{where}: a link must be [A, B] or {{a: A, b: B, ...}}, not {item!r}")


def load_mininet(spec: str) -> Topology:
    """``FILE.py:NAME[,ARG...]`` (NAME may be left out when the file defines one topology)."""
    head, _, rest = spec.partition(":")
    parts = rest.split(",") if rest else []
    name, args = (parts[0], parts[1:]) if parts else (None, [])
    path = Path(head)
    if not path.exists():
        raise UserError(f"topology file {path}: no such file")
    try:
        env = runpy.run_path(str(path))
    except SystemExit as e:  # sys.exit() in the file would end sdnbench, whatever its code
        raise UserError(f"topology file {path}: it called sys.exit({e.code!r}) while loading; "
                        "a topology file only defines `topos`") from None
    except Exception as e:  # the user's file: report it in one line
        raise UserError(f"topology file {path}: failed to load: {type(e).__name__}: {e}")
    topos = env.get("topos")
    if not isinstance(topos, dict) or not topos:
        raise UserError(f"topology file {path}: defines no `topos = {{'name': TopoClass}}`")
    if name is None:
        if len(topos) != 1:
            raise UserError(f"topology file {path} defines {', '.join(topos)}: name one as {path}:NAME")
        name = next(iter(topos))
    if name not in topos:
        raise UserError(f"topology file {path}: no topology {name!r}; it defines {', '.join(topos)}")
    try:
        topo = topos[name](*[_arg(a) for a in args])
    except (Exception, SystemExit) as e:
        raise UserError(f"topology {spec}: {type(e).__name__}: {e}")
    return from_mininet_topo(topo, spec)


def _arg(text: str):
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    return text


def from_mininet_topo(topo, spec: str) -> Topology:
    switches = []
    for i, name in enumerate(topo.switches(), start=1):
        info = topo.nodeInfo(name)
        dpid = info.get("dpid")
        dpid = int(str(dpid), 16) if dpid is not None else i
        switches.append(Switch(name, dpid=dpid, protocols=info.get("protocols")))
    hosts = []
    for name in topo.hosts():
        info = topo.nodeInfo(name)
        hosts.append(Host(name, ip=info.get("ip"), mac=info.get("mac")))
    links = []
    for a, b, info in topo.links(sort=True, withInfo=True):
        params = params_from_mapping(info, f"{spec}: link {a}-{b}")
        links.append(Link(a, b, params))
    return Topology(spec, switches, hosts, links)
