"""Environment bookkeeping: manifests gate "installed", the Ryu fix is idempotent, and missing
environments produce a one-line instruction. (The real installs run in ``make setup`` and are
exercised by the integration tests that launch each controller.)"""

import json

import pytest

from sdnbench.controllers import envs
from sdnbench.errors import UserError


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SDNBENCH_HOME", str(tmp_path))
    return tmp_path


def _fake_install(name):
    d = envs.venv_dir(name)
    (d / "bin").mkdir(parents=True)
    (d / "bin" / "python").write_text("")
    data = {"name": name, "version": "9.9", "fingerprint": envs.recipe(name).fingerprint(),
            "packages": {"os_ken": "4.2.2", "Eventlet": "0.41.3"}, "path": str(d), "python": "3.11"}
    (d / envs.MANIFEST).write_text(json.dumps(data))
    return d


def test_missing_environment_says_how_to_install(home):
    assert envs.manifest("osken") is None
    with pytest.raises(UserError) as e:
        envs.require("osken")
    assert "sdnbench controllers install osken" in str(e.value)


def test_manifest_must_match_the_recipe(home):
    d = _fake_install("osken")
    assert envs.require("osken")["version"] == "9.9"
    assert envs.version_of("os-ken", "osken") == "4.2.2"         # names compare normalised
    assert envs.version_of("eventlet", "osken") == "0.41.3"
    data = json.loads((d / envs.MANIFEST).read_text())
    data["fingerprint"] = "stale"
    (d / envs.MANIFEST).write_text(json.dumps(data))
    assert envs.manifest("osken") is None


def test_half_written_manifest_is_not_installed(home):
    d = _fake_install("ryu")
    (d / envs.MANIFEST).write_text("{trunc")
    assert envs.manifest("ryu") is None


def test_unknown_environment(home):
    with pytest.raises(UserError, match="installable: osken, ryu, faucet"):
        envs.install("pox")


def test_ryu_eventlet_fix_is_idempotent(tmp_path):
    target = tmp_path / "lib" / "python3.11" / "site-packages" / "ryu" / "app" / "wsgi.py"
    target.parent.mkdir(parents=True)
    original = ("class _AlreadyHandledResponse(Response):\n"
                "    # XXX: Eventlet API should not be used directly.\n"
                "    from eventlet.wsgi import ALREADY_HANDLED\n"
                "    _ALREADY_HANDLED = ALREADY_HANDLED\n")
    target.write_text(original)
    assert envs.fix_ryu_eventlet(tmp_path).startswith("applied")
    fixed = target.read_text()
    assert "from eventlet.wsgi import" not in fixed
    assert "    ALREADY_HANDLED = []" in fixed
    assert "_ALREADY_HANDLED = ALREADY_HANDLED" in fixed
    assert "already applied" in envs.fix_ryu_eventlet(tmp_path)
    assert target.read_text() == fixed
    ns: dict = {"Response": object}
    exec(compile(fixed, str(target), "exec"), ns)
    assert ns["_AlreadyHandledResponse"]._ALREADY_HANDLED == []


def test_ryu_fix_refuses_unknown_content(tmp_path):
    target = tmp_path / "lib" / "python3.11" / "site-packages" / "ryu" / "app" / "wsgi.py"
    target.parent.mkdir(parents=True)
    target.write_text("something else\n")
    with pytest.raises(UserError, match="unexpected content"):
        envs.fix_ryu_eventlet(tmp_path)


def test_recipes_are_pinned_and_faucet_stays_out_of_etc():
    for r in envs.RECIPES.values():
        assert any(f"=={r.version}" in arg for step in r.steps for arg in step), r.name
    assert envs.RECIPES["faucet"].env == {"DEBINSTALL": "1"}
    ryu_steps = envs.RECIPES["ryu"].steps
    assert "setuptools<67" in ryu_steps[0] and "--no-build-isolation" in ryu_steps[1]
