"""The results format round-trips through JSON and refuses what it is not."""

import json

import pytest

from sdnbench.errors import UserError
from sdnbench.result import SCHEMA, Result, Series


def test_round_trip(tmp_path):
    r = Result(kind="net", benchmark="ping", params={"sizes": [64, 128]})
    r.add("rtt", "ms", [0.1, 0.2, 0.3], t=[0.0, 1.0, 2.0], size=64, src="h1", dst="h2")
    r.resources.append(Series("cpu_percent", "%", [10.0, 20.0], {"process": "controller"}, [0, 1]))
    r.counters["sent"] = 3
    r.finish()
    path = tmp_path / "r.json"
    r.write_json(path)
    back = Result.read_json(path)
    assert back == r
    assert back.find("rtt", size=64)[0].values == [0.1, 0.2, 0.3]
    assert back.find("rtt", size=128) == []
    assert json.loads(path.read_text())["schema"] == SCHEMA


def test_series_times_must_match_values():
    with pytest.raises(ValueError):
        Series("rtt", "ms", [1, 2], t=[0])


def test_wrong_schema_and_bad_json_are_user_errors(tmp_path):
    p = tmp_path / "x.json"
    p.write_text('{"schema": "other/1"}')
    with pytest.raises(UserError, match="not an sdnbench result"):
        Result.read_json(p)
    p.write_text("{nope")
    with pytest.raises(UserError, match="not valid JSON"):
        Result.read_json(p)
    with pytest.raises(UserError, match="no such file"):
        Result.read_json(tmp_path / "missing.json")


def test_machine_is_recorded():
    r = Result(kind="controller", benchmark="throughput")
    assert r.machine["cores"] >= 1 and r.machine["kernel"]
