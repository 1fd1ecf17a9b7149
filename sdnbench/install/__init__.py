"""External systems of the seed studies that sdnbench installs from a tree the user has.

``sdnbench install NAME --from DIR`` checks DIR against the recipe (``recipes/``: one module per
system, with the public repository and the commit tested here), copies what runs into
``<state dir>/installed/NAME`` and writes a manifest there; ``sdnbench install --list`` lists
them. ``lookup`` is how scenarios and controller specs find them without a variable.
"""

from .fetch import fetch_pinned, source_dir
from .installer import bin_dir, install_from
from .lookup import variables, with_installed_path
from .manifest import Manifest, install_dir, installed, read
from .recipes import RECIPES, by_variable, recipe

__all__ = ["RECIPES", "Manifest", "bin_dir", "by_variable", "fetch_pinned", "install_dir", "install_from",
           "installed", "read", "recipe", "source_dir", "variables", "with_installed_path"]
