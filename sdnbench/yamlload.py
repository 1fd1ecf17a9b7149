"""YAML that a user hands sdnbench, read with limits (issue 40): a scenario, an inventory, a
topology file, a study's figures. PyYAML's safe loader alone lets an alias bomb (``a: &a [x, x]``,
``b: &b [*a, *a]``, ...) grow without bound in everything that walks the document, and lets a
duplicate key silently replace the first.

- ``MAX_BYTES``: a file larger than this is refused unread;
- ``MAX_NODES``: the document, with every alias expanded, has at most this many nodes;
- ``MAX_DEPTH``: mappings and sequences nest at most this deep (the parser and every walk of the
  data recurse); a control character, which YAML forbids, is one line with its line too;
- a key that appears twice in one mapping is refused with both lines.

``compose(text, source)`` returns the checked node graph (for callers that want every node's
line), ``load(text, source)`` the Python data. Both raise ``YamlError``, one line with
``source:line``."""

from __future__ import annotations

import yaml

from .errors import UserError

MAX_BYTES = 1 << 20
MAX_NODES = 100_000
MAX_DEPTH = 100


class YamlError(UserError):
    """The text is not YAML sdnbench will read; the message names the file and line."""


class _Loader(yaml.SafeLoader):
    def construct_mapping(self, node, deep=False):
        if isinstance(node, yaml.MappingNode):
            _no_duplicate_keys(node)
        return super().construct_mapping(node, deep=deep)


def _no_duplicate_keys(node: yaml.MappingNode) -> None:
    seen: dict = {}
    for k, _ in node.value:
        if not isinstance(k, yaml.ScalarNode) or k.tag == "tag:yaml.org,2002:merge":
            continue
        if k.value in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {k.value!r} (first on line {seen[k.value]})", k.start_mark)
        seen[k.value] = k.start_mark.line + 1


_TOO_DEEP = object()


def deeper_than(node: yaml.Node, limit: int) -> bool:
    """Whether mappings and sequences nest more than ``limit`` deep (no recursion; a node reached
    again is walked again only when reached deeper, so an alias bomb costs ``limit`` walks at most)."""
    seen: dict = {}
    stack = [(node, 0)]
    while stack:
        n, d = stack.pop()
        if d > limit:
            return True
        if seen.get(id(n), -1) >= d:
            continue
        seen[id(n)] = d
        if isinstance(n, yaml.MappingNode):
            stack.extend((x, d + 1) for kv in n.value for x in kv)
        elif isinstance(n, yaml.SequenceNode):
            stack.extend((x, d + 1) for x in n.value)
    return False


def expanded_size(node: yaml.Node, limit: int = MAX_NODES) -> int:
    """How many nodes the document has with every alias expanded, counting each shared node as
    often as it is reached (memoised, so an alias bomb is measured in linear time); stops counting
    past ``limit``."""
    memo: dict = {}

    def size(n: yaml.Node) -> int:
        if id(n) in memo:
            return memo[id(n)]
        memo[id(n)] = limit + 1          # a cycle (a recursive alias) counts as too large
        if isinstance(n, yaml.MappingNode):
            total = 1 + sum(size(k) + size(v) for k, v in n.value)
        elif isinstance(n, yaml.SequenceNode):
            total = 1 + sum(size(v) for v in n.value)
        else:
            total = 1
        memo[id(n)] = min(total, limit + 1)
        return memo[id(n)]
    return size(node)


def _where(source: str, e: yaml.YAMLError) -> str:
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    return f"{source}:{mark.line + 1}" if mark else source


def compose(text: str, source: str):
    """The checked node graph of ``text`` (``None`` for an empty document)."""
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise YamlError(f"{source}: larger than {MAX_BYTES >> 20} MiB; sdnbench reads no YAML that large")
    try:
        loader = _Loader(text)           # the reader refuses control characters here
    except yaml.reader.ReaderError as e:
        line = text[:e.position].count("\n") + 1
        raise YamlError(f"{source}:{line}: not valid YAML: control character U+{e.character:04X} "
                        "(YAML allows tab, newline and printable text only)") from None
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as e:
        raise YamlError(f"{_where(source, e)}: not valid YAML: {e.problem or e.context}")
    except yaml.YAMLError as e:
        raise YamlError(f"{source}: not valid YAML: {' '.join(str(e).split())}")
    except RecursionError:
        node = _TOO_DEEP
    finally:
        loader.dispose()
    if node is _TOO_DEEP or node is not None and deeper_than(node, MAX_DEPTH):
        raise YamlError(f"{source}: nested deeper than {MAX_DEPTH} levels; sdnbench reads no YAML that deep")
    if node is not None and expanded_size(node) > MAX_NODES:
        raise YamlError(f"{source}: its aliases expand to more than {MAX_NODES:,} nodes; "
                        "write the values out or use fewer nested aliases")
    return node


def construct(node, source: str):
    """The Python data of a node graph from ``compose``."""
    if node is None:
        return None
    loader = _Loader("")
    try:
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as e:
        raise YamlError(f"{_where(source, e)}: {e.problem or e.context}")
    finally:
        loader.dispose()


def load(text: str, source: str):
    return construct(compose(text, source), source)
