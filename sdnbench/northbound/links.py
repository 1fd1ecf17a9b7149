"""Links as sets of directed ((dpid, port), (dpid, port)) pairs, and comparing two such sets."""

from __future__ import annotations

from typing import Iterable, Tuple

Link = Tuple[Tuple[int, int], Tuple[int, int]]


def directed(a: Tuple[int, int], b: Tuple[int, int]) -> set:
    """Both directions of the link between ends ``a`` and ``b``."""
    return {(a, b), (b, a)}


def emulated_links(network: dict) -> set:
    """The links the engine's network JSON has, both directions each (what discovery must find)."""
    out: set = set()
    for da, pa, db, pb in network.get("links", []):
        out |= directed((int(da), int(pa)), (int(db), int(pb)))
    return out


def missing_and_extra(want: set, seen: set) -> tuple:
    """(links the view lacks, links the view has that the network does not), each sorted."""
    return sorted(want - seen), sorted(seen - want)


def undirected_names(links: Iterable[Link]) -> list:
    """``dpid:port-dpid:port`` per link, each undirected link once (lower end first)."""
    names = {"-".join(f"{d}:{p}" for d, p in sorted(l)) for l in links}
    return sorted(names)
