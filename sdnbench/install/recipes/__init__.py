"""One module per system sdnbench can install; ``RECIPES`` maps each name to its recipe."""

from __future__ import annotations

from ...errors import UserError
from ..recipe import Recipe
from . import beacon, cbench, cpqd, nox, pox

RECIPES: dict = {r.name: r for r in (pox.RECIPE, cbench.RECIPE, cpqd.RECIPE, nox.RECIPE, beacon.RECIPE)}


def recipe(name: str) -> Recipe:
    try:
        return RECIPES[name]
    except KeyError:
        raise UserError(f"install {name}: no recipe for it; known: {', '.join(RECIPES)}") from None


def by_variable(variable: str) -> Recipe | None:
    """The recipe whose install a ``${VARIABLE}`` of a cmd: spec names, if any."""
    return next((r for r in RECIPES.values() if r.variable and r.variable[0] == variable), None)
