"""Tables against the numbers the studies printed (campus study tables 1 and 3)."""

import pytest

from sdnbench.report.model import fmt_number
from sdnbench.report.tables import (distribution_table, gap_table, per_row_table,
                                    trials_table)

# Campus study, table 1 (latency on Mininet, ms), the 64-byte and 8192-byte columns.
T1_64 = [2.228, 2.341, 2.221, 2.611, 2.288, 2.581, 2.344, 2.731, 2.444, 2.553]
T1_8192 = [9.149, 9.44, 9.765, 9.432, 9.435, 9.444, 9.123, 9.812, 9.456, 9.112]


def test_per_row_table_reproduces_the_campus_studys_avg_stdev_var_rows():
    values = {(sw, 64): [v] for sw, v in enumerate(T1_64, 1)}
    values.update({(sw, 8192): [v] for sw, v in enumerate(T1_8192, 1)})
    t = per_row_table(values, "latency", "switch", "size", "ms")
    assert t.columns == ["switch", "64 byte", "8192 byte"]
    assert [r[0] for r in t.rows] == list(range(1, 11))
    avg, stdev, var = t.summary_rows
    assert [avg[0], stdev[0], var[0]] == ["avg", "stdev", "var"]
    # Published: avg 2,434 / 9,417; stdev 0,177 / 0,243; var 0,031 / 0,059.
    assert [fmt_number(x) for x in avg[1:]] == ["2.434", "9.417"]
    assert [fmt_number(x) for x in stdev[1:]] == ["0.177", "0.243"]
    assert [fmt_number(x) for x in var[1:]] == ["0.031", "0.059"]


def test_per_row_cells_are_the_mean_of_the_repetitions_and_missing_cells_stay_empty():
    t = per_row_table({("s1", 64): [1.0, 3.0], ("s2", 128): [5.0]}, "x", "switch", "size")
    assert t.rows == [["s1", 2.0, None], ["s2", None, 5.0]]
    assert t.summary_rows[0] == ["avg", 2.0, 5.0]
    assert t.summary_rows[1] == ["stdev", None, None]     # one value: no sample stdev


def test_gap_table_is_the_absolute_difference_of_the_averages():
    # Campus study table 3, 64 and 128 bytes: prototype 3.2785/4.8941, Mininet 2.4342/3.5688.
    t = gap_table("Prototype", {64: 3.2785, 128: 4.8941}, "Mininet", {64: 2.4342, 128: 3.5688},
                  "gap", "size", "ms")
    assert t.rows[0][0] == "Avg. Prototype" and t.rows[1][0] == "Avg. Mininet"
    assert t.summary_rows[0][0] == "Gap"
    assert t.summary_rows[0][1:] == pytest.approx([0.8443, 1.3253])


def test_trials_table_has_a_row_per_trial_then_average_and_variance():
    t = trials_table({"a": [1.0, 2.0, 3.0], "b": [10.0, 20.0]}, "trials")
    assert t.columns == ["trial", "a", "b"]
    assert t.rows == [[1, 1.0, 10.0], [2, 2.0, 20.0], [3, 3.0, None]]
    assert t.summary_rows[0] == ["average", 2.0, 15.0]
    assert t.summary_rows[1] == ["variance", 1.0, 50.0]     # n − 1 (RFC 8456 §4.7)


def test_distribution_table_matches_the_controller_studys_table_3_shape():
    t = distribution_table({"Floodlight": [829.0, 869.0, 850.0, 852.0], "Ryu": [1017.0] * 4},
                           "capacity", "switches")
    assert t.columns == ["", "Floodlight", "Ryu"]
    by = {r[0]: r[1:] for r in t.rows}
    assert by["minimum"] == [829.0, 1017.0] and by["maximum"] == [869.0, 1017.0]
    assert by["median"] == [851.0, 1017.0] and by["stdev"][1] == 0.0


def test_numbers_print_like_the_studies():
    assert fmt_number(2.4342) == "2.434"
    assert fmt_number(92097.2) == "92097"
    assert fmt_number(151.419) == "151.4"
    assert fmt_number(None) == "–" and fmt_number(float("nan")) == "–"
    assert fmt_number(3) == "3"
