"""``sdnbench install`` on small fake trees made here (CI has no network and none of the real
sources): the tree check, the manifest, ``--list``, the pinned clone from a local repository, no
network as one line, and how controller specs and PATH find what was installed."""

import json
import os
import shutil
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from sdnbench import install
from sdnbench.cli import main
from sdnbench.controllers.catalog import EXTERNAL
from sdnbench.controllers.cmdplan import cmd_plan
from sdnbench.controllers.spec import parse_spec
from sdnbench.install.recipe import Recipe
from sdnbench.install.recipes import RECIPES

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Every test installs into its own state directory."""
    monkeypatch.setenv("SDNBENCH_HOME", str(tmp_path / "home"))
    for k, v in GIT_ENV.items():
        monkeypatch.setenv(k, v)
    return tmp_path / "home"


def fake_tree(recipe: Recipe, root: Path, built: bool = True, git: bool = True) -> Path:
    """A directory with the recipe's marker files and (when ``built``) executable entry points."""
    for m in recipe.markers:
        (root / m).parent.mkdir(parents=True, exist_ok=True)
        (root / m).write_text(f"fake {m}\n")
    if built:
        for rel in recipe.entries.values():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text("#!/bin/sh\necho fake\n")
            (root / rel).chmod(0o755)
    if git:
        subprocess.run(["git", "init", "-q", str(root)], check=True)
        subprocess.run(["git", "-C", str(root), "add", "-A"], check=True)
        subprocess.run(["git", "-C", str(root), "commit", "-qm", "fake"], check=True)
    return root


def head(tree: Path) -> str:
    return subprocess.run(["git", "-C", str(tree), "rev-parse", "HEAD"], capture_output=True, text=True,
                          check=True).stdout.strip()


def run_cli(capsys, *argv) -> tuple:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_every_recipe_pins_a_public_commit_and_is_refused_without_one():
    assert set(RECIPES) == {"pox", "cbench", "cpqd", "nox", "beacon"}
    for r in RECIPES.values():
        assert r.url.startswith("https://github.com/") and len(r.pin) == 40 and r.markers and r.entries
    with pytest.raises(ValueError, match="40-hex"):
        replace(RECIPES["pox"], pin="gar-experimental")
    with pytest.raises(ValueError, match="not one of its entries"):
        replace(RECIPES["cpqd"], on_path=("ofswitch",))


def test_from_dir_installs_a_copy_and_its_manifest(tmp_path, home, capsys):
    tree = fake_tree(RECIPES["pox"], tmp_path / "pox")
    code, out, err = run_cli(capsys, "install", "pox", "--from", str(tree))
    assert code == 0, err
    dest = home / "installed" / "pox"
    assert (dest / "pox.py").is_file() and (dest / "pox" / "core.py").is_file()
    assert not (dest / ".git").exists()
    m = json.loads((dest / "manifest.json").read_text())
    assert m["name"] == "pox" and m["version"] == head(tree) and m["pinned"] is False
    assert m["pin"] == RECIPES["pox"].pin and m["source"] == str(tree.resolve())
    assert m["entries"] == {"pox.py": str(dest / "pox.py")} and m["variable"] == ["POX_DIR", str(dest)]
    assert m["installed_at"].endswith("+00:00") and m["copy_seconds"] >= 0
    assert f"not the pinned {RECIPES['pox'].pin[:12]}" in out


def test_the_pinned_commit_is_recorded_as_pinned(tmp_path, monkeypatch):
    tree = fake_tree(RECIPES["pox"], tmp_path / "pox")
    m = install.install_from(replace(RECIPES["pox"], pin=head(tree)), tree)
    assert m.pinned is True and install.read("pox").pinned is True


def test_a_wrong_tree_is_refused_with_one_line_and_nothing_installed(tmp_path, home, refused):
    other = fake_tree(RECIPES["cpqd"], tmp_path / "ofsoftswitch13")
    line = refused(["install", "pox", "--from", str(other)])
    assert line == (f"sdnbench: error: install pox: {other} is not a POX tree (no pox.py); "
                    "give a checkout of https://github.com/noxrepo/pox")
    assert not (home / "installed" / "pox").exists()
    assert "is not a directory" in refused(["install", "pox", "--from", str(tmp_path / "nowhere")])
    assert "no recipe for it" in refused(["install", "floodlight", "--from", str(other)])


def test_an_unbuilt_tree_is_refused_naming_the_missing_binary(tmp_path, refused):
    tree = fake_tree(RECIPES["cpqd"], tmp_path / "cpqd", built=False)
    line = refused(["install", "cpqd", "--from", str(tree)])
    assert "is a CPqD ofsoftswitch13 tree but udatapath/ofdatapath is missing: build it first" in line


def test_a_binary_whose_library_is_missing_is_refused(tmp_path, refused):
    cc = shutil.which("cc")
    if not cc:
        pytest.skip("needs a C compiler (cc) to make a binary linked to a library")
    lib, tree = tmp_path / "lib", fake_tree(RECIPES["cbench"], tmp_path / "oflops", git=False)
    lib.mkdir()
    (lib / "f.c").write_text("int f(void) { return 1; }\n")
    (lib / "m.c").write_text("int f(void);\nint main(void) { return f() - 1; }\n")
    subprocess.run([cc, "-shared", "-fPIC", "-o", str(lib / "libsdnbfake.so"), str(lib / "f.c")], check=True)
    subprocess.run([cc, "-o", str(tree / "cbench" / "cbench"), str(lib / "m.c"), f"-L{lib}", "-lsdnbfake"],
                   check=True)
    line = refused(["install", "cbench", "--from", str(tree)])
    assert "cbench/cbench needs libsdnbfake.so, which the loader does not find" in line


def test_list_shows_installed_and_missing(tmp_path, home, capsys):
    fake_tree(RECIPES["cpqd"], tmp_path / "cpqd")
    assert run_cli(capsys, "install", "cpqd", "--from", str(tmp_path / "cpqd"))[0] == 0
    code, out, _ = run_cli(capsys, "install", "--list", "--json")
    rows = {r["name"]: r for r in json.loads(out)}
    assert code == 0 and set(rows) == set(RECIPES)
    assert rows["cpqd"]["installed"] is True and rows["cpqd"]["entries"]["ofdatapath"] == \
        str(home / "installed" / "cpqd" / "udatapath" / "ofdatapath")
    assert rows["pox"] == {"name": "pox", "installed": False, "pin": RECIPES["pox"].pin,
                           "url": RECIPES["pox"].url}
    code, out, _ = run_cli(capsys, "install", "--list")
    line = next(ln for ln in out.splitlines() if ln.startswith("cpqd"))
    assert str(home / "installed" / "cpqd") in line
    assert "not installed (pin 5f82461e01f8)" in next(ln for ln in out.splitlines() if ln.startswith("pox"))


def test_no_network_is_one_line(tmp_path, monkeypatch, refused):
    monkeypatch.setitem(RECIPES, "pox", replace(RECIPES["pox"], url=str(tmp_path / "unreachable")))
    line = refused(["install", "pox"])
    assert line.startswith(f"sdnbench: error: install pox: cannot reach {tmp_path / 'unreachable'} (no network")
    assert "give --from DIR" in line


def test_without_from_the_pinned_commit_is_cloned_and_installed(tmp_path, home, monkeypatch, capsys):
    upstream = fake_tree(RECIPES["pox"], tmp_path / "upstream")
    pin = head(upstream)
    (upstream / "pox.py").write_text("a later commit\n")
    subprocess.run(["git", "-C", str(upstream), "commit", "-qam", "later"], check=True)
    monkeypatch.setitem(RECIPES, "pox", replace(RECIPES["pox"], url=str(upstream), pin=pin))
    code, out, err = run_cli(capsys, "install", "pox")
    assert code == 0, err
    m = install.read("pox")
    assert m.version == pin and m.pinned and m.source == str(upstream)
    assert (home / "installed" / "pox" / "pox.py").read_text().startswith("#!/bin/sh")  # the pin, not HEAD
    monkeypatch.setitem(RECIPES, "pox", replace(RECIPES["pox"], url=str(upstream), pin="0" * 40))
    assert run_cli(capsys, "install", "pox")[2].startswith(f"sdnbench: error: install pox: {upstream} has no "
                                                           "commit 000000000000")


def test_a_fetched_tree_that_needs_a_build_says_so(tmp_path, monkeypatch, refused):
    upstream = fake_tree(RECIPES["cpqd"], tmp_path / "upstream", built=False)
    monkeypatch.setitem(RECIPES, "cpqd", replace(RECIPES["cpqd"], url=str(upstream), pin=head(upstream)))
    line = refused(["install", "cpqd"])
    assert "udatapath/ofdatapath is missing: build it first" in line
    assert str(install.source_dir(RECIPES["cpqd"])) in line


def test_controller_specs_find_installed_pox_with_no_variable(tmp_path, home, monkeypatch):
    pox_spec = parse_spec(next(spec for name, _, spec, _ in EXTERNAL if name == "POX"))
    monkeypatch.delenv("POX_DIR", raising=False)
    with pytest.raises(Exception, match="POX_DIR is not set.*sdnbench install pox --from DIR"):
        cmd_plan(pox_spec, 6653)
    install.install_from(RECIPES["pox"], fake_tree(RECIPES["pox"], tmp_path / "pox"))
    assert cmd_plan(pox_spec, 6653).cwd == home / "installed" / "pox"
    mine = fake_tree(RECIPES["pox"], tmp_path / "mine", git=False)
    monkeypatch.setenv("POX_DIR", str(mine))                  # the user's variable still wins
    assert cmd_plan(pox_spec, 6653).cwd == mine


def test_installed_commands_are_on_the_cli_path(tmp_path, home, monkeypatch):
    install.install_from(RECIPES["cpqd"], fake_tree(RECIPES["cpqd"], tmp_path / "cpqd"))
    path = install.with_installed_path("/usr/bin")
    assert path == f"/usr/bin{os.pathsep}{home / 'installed' / 'bin'}"
    assert install.with_installed_path(path) == path
    found = shutil.which("ofprotocol", path=path)
    assert found and Path(found).resolve() == home / "installed" / "cpqd" / "secchan" / "ofprotocol"


def test_a_reinstall_replaces_the_old_copy(tmp_path, home):
    first = fake_tree(RECIPES["pox"], tmp_path / "a")
    (first / "old-only.txt").write_text("x")
    install.install_from(RECIPES["pox"], first)
    install.install_from(RECIPES["pox"], fake_tree(RECIPES["pox"], tmp_path / "b"))
    assert not (home / "installed" / "pox" / "old-only.txt").exists()
    assert sorted(p.name for p in (home / "installed").iterdir()) == ["bin", "pox"]


def test_a_binary_that_cannot_start_is_refused_with_its_error(tmp_path, refused):
    tree = fake_tree(RECIPES["cpqd"], tmp_path / "cpqd", git=False)
    (tree / "udatapath" / "ofdatapath").write_text(
        "#!/bin/sh\necho \"Error initializing the NetBee Library; Exception during parsing: unable to open "
        "primary document entity '/usr/local/share/openflow/customnetpdl.xml'.\"\necho ofdatapath 1.3.0\n")
    line = refused(["install", "cpqd", "--from", str(tree)])
    assert line.startswith("sdnbench: error: install cpqd: udatapath/ofdatapath -V fails: Error initializing "
                           "the NetBee Library; Exception during parsing")
    assert "the datapath cannot find customnetpdl.xml: see ofsoftswitch13's README (Building)" in line
    (tree / "udatapath" / "ofdatapath").write_text("#!/bin/sh\nexit 3\n")
    assert "udatapath/ofdatapath -V fails: exit 3" in refused(["install", "cpqd", "--from", str(tree)])


def test_the_command_line_needs_a_name_or_list(refused):
    assert refused(["install"]) == ("sdnbench: error: install: name a system (pox, cbench, cpqd, nox, beacon) "
                                    "or give --list")
    assert refused(["install", "--list", "pox"]) == "sdnbench: error: install --list takes no NAME or --from"
