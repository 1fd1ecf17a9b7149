"""Known answer for issue 27, item 1, on the real engine: a controller that sizes its 1.3
table-miss entries by the announced table count (Floodlight's rule, ``tablemiss.py``) learns
both link directions of linear,2, because the emulated switches announce 254 tables as Open
vSwitch does; with one table announced it put no entry anywhere and learned nothing."""

from ..discovery.engine_run import EngineRun
from ..discovery.setup import engine_params
from ..engine.params import config
from ..engine.result_types import engine_result
from sdnbench.testing.peers.tablemiss import TableMissController


def test_rule_gives_no_table_for_one_and_four_for_ovs():
    c = TableMissController.__new__(TableMissController)
    c.max_table = 4
    assert c.miss_tables(1) == [] and c.miss_tables(254) == [0, 1, 2, 3] and c.miss_tables(3) == [0, 1]


def test_table_miss_in_four_tables_then_lldp_learns_every_link_on_the_engine():
    with TableMissController() as ctl:
        p = engine_params("linear,2", f"tcp:{ctl.address}", "1.3", 6.0)
        with EngineRun(config(p, ctl.address)) as run:
            learned = ctl.wait_learned(2, 5.0)
            doc = run.stop()
    assert learned, (ctl.learned, ctl.n_tables, ctl.errors)
    assert ctl.learned == {((1, 2), (2, 2)), ((2, 2), (1, 2))}
    assert ctl.n_tables == {1: 254, 2: 254} and ctl.tables == {1: [0, 1, 2, 3], 2: [0, 1, 2, 3]}
    assert not ctl.errors, "every table-miss entry taken"
    assert set(ctl.reasons) == {0} and set(ctl.table_ids) == {0}, "NO_MATCH from table 0, as OVS"
    raised = engine_result(doc).network.lldp_raised_per_link
    assert len(raised) == 1 and min(raised[0]) > 0, f"the engine saw the probes raised both ways: {raised}"
