"""The writing rules of ``sdnbench.fmt``: digits per column, units, plurals, values, table width."""

from sdnbench import fmt


def test_a_column_shares_its_decimals_and_keeps_three_significant_digits():
    assert fmt.column([2.19883, 456596.1, 11250.0]) == ["2", "456,596", "11,250"]
    assert fmt.column([2.19883, 3.5, 1.126]) == ["2.20", "3.50", "1.13"]
    assert fmt.column([0.0123, 0.5, 0.2]) == ["0.012", "0.500", "0.200"]
    assert fmt.column([12, 1500]) == ["12", "1,500"]
    assert fmt.column([None, 3.0]) == ["—", "3"]


def test_units_are_scaled_and_named():
    assert fmt.scaled(1536, "B") == (1.5, "KiB")
    assert fmt.scaled(52_428_800, "bytes") == (50.0, "MiB")
    v, u = fmt.scaled(0.00042, "s")
    assert u == "µs" and abs(v - 420) < 1e-9
    v, u = fmt.scaled(7573.5, "us")
    assert u == "ms" and abs(v - 7.5735) < 1e-9
    assert fmt.scaled(12, "us") == (12.0, "µs")
    assert fmt.unit_name("us") == "µs"


def test_plurals():
    assert fmt.plural(1, "switch") == "1 switch"
    assert fmt.plural(2, "switch") == "2 switches"
    assert fmt.plural(1, "run") == "1 run" and fmt.plural(0, "run") == "0 runs"
    assert fmt.plural(3, "entry") == "3 entries" and fmt.plural(1500, "flow") == "1,500 flows"


def test_no_python_reprs():
    assert fmt.show(None) == "—"
    assert fmt.show({"quick": True}) == "quick=yes"
    assert fmt.show([1, None]) == "1, —"


def test_tables_fit_the_width_and_align_numbers():
    rows = [["osken:learning", "1,234"], ["cmd:" + "x" * 80, "5"]]
    out = fmt.table(["controller", "flows/s"], rows, width=40)
    lines = out.splitlines()
    assert all(len(line) <= 40 for line in lines), out
    assert lines[3].endswith("…      5") or "…" in lines[3]
    assert lines[2].endswith("1,234") and lines[3].endswith("    5")
    notes = fmt.table(["spec", "notes"], [["ryu:simple_switch_stp_13", "a long free-text note " * 3]],
                      width=50, shrink=[1])
    assert "ryu:simple_switch_stp_13" in notes and all(len(x) <= 50 for x in notes.splitlines())


def test_summary_lines_name_their_mode_and_never_say_plus_minus_zero():
    one = fmt.summary_line(fmt.plural(1, "switch"), "latency mode, answered requests/s", [1234.4])
    assert one == "1 switch  latency mode, answered requests/s: 1,234 (1 run)"
    many = fmt.summary_line("4 switches", "throughput mode", [0.0042, 0.0040, 0.0044], "s")
    assert many == ("4 switches  throughput mode: 4.20 ± 0.20 ms (mean ± σ over 3 runs), "
                    "range 4.00 … 4.40")


def test_plus_minus_writes_the_uncertainty_to_two_digits_and_the_value_to_its_place():
    assert fmt.plus_minus(20.7, 0.632) == "20.70 ± 0.63"
    assert fmt.plus_minus(71783, 5099) == "71,800 ± 5,100"
    assert fmt.plus_minus(1.018, 0.0029) == "1.0180 ± 0.0029"
    assert fmt.plus_minus(469.2, 12.3) == "469 ± 12"
    assert fmt.plus_minus(5, 0) == "5" and fmt.plus_minus(5.5, None) == "5.50"
