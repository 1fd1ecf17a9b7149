"""The headline: who won each metric, by how much, whether it is significant; merged notes."""

import re

from sdnbench.report.builder import build
from sdnbench.report.conftest import controller_run
from sdnbench.report.headline import merge_notes


def test_headline_names_winner_size_significance_and_best_scenario():
    report = build([controller_run(switch_counts=(1, 2, 4), reps=3)], with_plots=False)
    top = report.sections[0]
    assert top.title == "Headline" and report.sections[-2].title == "Runs and metadata"
    assert report.sections[-1].title == "The study and this run"    # a seed scenario's report ends with it
    text = "\n".join(top.text)
    assert text.startswith("2 set-ups compared: osken:learning, ryu:simple_switch; ")
    thr = next(t for t in top.text if t.startswith("throughput:"))
    # the finding, hyperfine's way: who, how many times ± what, the means with their intervals, how sure
    assert re.search(r"ryu:simple_switch is \d\.\d\d ± 0\.\d\d times higher than osken:learning \(", thr), thr
    assert "flows/s, mean ± 95% interval; significant, " in thr and "n = 9 vs 9" in thr
    # the best scenario by the study's walk, with the test that chose it
    assert "best scenario: 4 switches (" in thr and "better than its neighbours (2: " in thr, thr
    lat = next(t for t in top.text if t.startswith("latency:"))
    assert "µs" in lat and "times lower than" in lat and "us " not in lat


def test_one_set_up_states_its_mean_with_its_interval_and_a_tie_says_so():
    one = controller_run(controllers=("osken:learning",), switch_counts=(1, 2), reps=3)
    text = "\n".join(build([one], with_plots=False).sections[0].text)
    assert re.search(r"throughput: [\d,.]+ ± [\d,.]+ flows/s \(mean ± 95% interval, n = 6\)", text), text


def test_no_significant_difference_is_a_finding_too():
    from sdnbench.report.headline import _Shown, _versus
    a, b = [100.0, 104.0, 96.0], [101.0, 97.0, 103.0]
    line = _versus("A", "B", {"A": a, "B": b}, True, _Shown([100.0, 100.3], "flows/s"))
    # by hand: means 100 and 100.33; s = 4 and 3.055; t(0.975, 2) = 4.303: ± 9.94 and ± 7.59;
    # ratio 0.9967, relative errors² 5.33e-4 + 3.09e-4, ν = 3.74, t = 2.85: ± 0.083
    assert line.startswith("no significant difference between A and B (100.0 ± 9.9 against 100.3 ± 7.6 flows/s, "
                           "mean ± 95% interval; ratio 0.997 ± 0.083; welch-t p = 0.91, n = 3 vs 3)"), line


def test_notes_differing_only_in_numbers_are_merged_with_a_count():
    notes = [f"controller CPU reached {p}% in {n} of 11 samples" for p, n in ((99, 3), (97, 2), (98, 5))]
    assert merge_notes(notes + ["loss 2%"]) == [
        "controller CPU reached 99% in 3 of 11 samples (×3, first shown)", "loss 2%"]
