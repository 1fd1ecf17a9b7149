"""Named controllers in a scenario: define a long spec once, use its name everywhere.

```yaml
controllers:
  pox: "cmd:python3 ${POX_DIR}/pox.py openflow.of_01 --address={host} --port={port} forwarding.l2_learning;of=1.0;name=pox"
benchmarks:
  - kind: net
    matrix: {controller: [pox, ryu:simple_switch]}
```

Every ``controller`` value (in ``params``, ``matrix`` and the ``quick:`` block) that is a name in
the mapping becomes its spec; other values are kept as they are.
"""

from __future__ import annotations

from typing import Any

from ..errors import UserError


def resolve_named(data: Any, source: str = "<scenario>") -> Any:
    """The scenario data with ``controllers:`` taken out and its names replaced by specs."""
    if not isinstance(data, dict) or "controllers" not in data:
        return data
    named = data["controllers"]
    if not isinstance(named, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                              for k, v in named.items()):
        raise UserError(f"{source}: controllers: expected a mapping of names to controller specs, "
                        "e.g. {pox: 'cmd:python3 ${POX_DIR}/pox.py ... --port={port} ...'}")
    bad = [k for k in named if ":" in k]
    if bad:
        raise UserError(f"{source}: controllers: a name cannot contain ':' ({bad[0]!r}); "
                        "names are short labels such as pox or floodlight")
    out = {k: v for k, v in data.items() if k != "controllers"}
    return _substitute(out, named)


def _substitute(node: Any, named: dict) -> Any:
    if isinstance(node, dict):
        return {k: (_value(v, named) if k == "controller" else _substitute(v, named))
                for k, v in node.items()}
    if isinstance(node, list):
        return [_substitute(v, named) for v in node]
    return node


def _value(v: Any, named: dict) -> Any:
    if isinstance(v, list):
        return [named.get(x, x) if isinstance(x, str) else x for x in v]
    return named.get(v, v) if isinstance(v, str) else v
