from pathlib import Path

import pytest

from sdnbench.testing import layers

ROOT = Path(layers.__file__).parent.parent


def test_no_import_goes_up_a_layer_except_the_known_ones():
    found = set(layers.back_edges(ROOT))
    new = sorted(found - set(layers.KNOWN_BACK_EDGES))
    assert not new, f"imports of a higher layer (see sdnbench/testing/layers.py): {new}"


def test_the_known_back_edges_are_all_still_there():
    gone = sorted(set(layers.KNOWN_BACK_EDGES) - set(layers.back_edges(ROOT)))
    assert not gone, f"fixed: remove them from KNOWN_BACK_EDGES: {gone}"


def test_every_part_of_the_package_has_a_layer():
    for part in layers.parts(ROOT):
        layers.layer_of(part)


def test_an_import_up_a_layer_is_found_also_inside_a_function(tmp_path):
    pkg = tmp_path / "sdnbench"
    for sub in ("net", "commands"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "net" / "x.py").write_text("def f():\n    from ..commands import run\n")
    assert layers.back_edges(pkg) == {("sdnbench.net.x", "commands"): 1}


def test_a_part_in_no_layer_is_named():
    with pytest.raises(KeyError, match="sdnbench.nowhere"):
        layers.layer_of("nowhere")
