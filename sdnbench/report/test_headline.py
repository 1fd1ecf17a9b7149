"""The headline: who won each metric, by how much, whether it is significant; merged notes."""

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
    assert "ryu:simple_switch is best with" in thr and "flows/s, against" in thr
    assert "× higher; significant" in thr and thr.endswith("best scenario: 4 switches.")
    lat = next(t for t in top.text if t.startswith("latency:"))
    assert "µs" in lat and "lower" in lat and "us " not in lat


def test_notes_differing_only_in_numbers_are_merged_with_a_count():
    notes = [f"controller CPU reached {p}% in {n} of 11 samples" for p, n in ((99, 3), (97, 2), (98, 5))]
    assert merge_notes(notes + ["loss 2%"]) == [
        "controller CPU reached 99% in 3 of 11 samples (×3, first shown)", "loss 2%"]
