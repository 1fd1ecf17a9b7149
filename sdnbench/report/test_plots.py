import struct

from sdnbench.report import plots


def _size(png: bytes) -> tuple:
    return struct.unpack(">II", png[16:24])


def test_every_plot_kind_renders_a_png_of_the_fixed_size():
    figs = [
        plots.lines({"a": {64: [1.0, 1.2], 128: [2.0, 2.1]}, "b": {64: [1.5], 128: [2.5]}},
                    "t", "packet size (bytes)", "rtt (ms)", log2_x=True),
        plots.boxplots({"a": {1: [1.0, 2.0, 3.0]}, "b": {1: [2.0, 3.0], 2: [4.0, 5.0]}},
                       "t", "number of switches", "throughput (flows/s)"),
        plots.gap_bars("A", {64: 1.0, 128: 2.0}, "B", {64: 1.5, 128: 1.0}, "t", "x", "y (ms)"),
        plots.cdf({"a": [1.0, 2.0, 3.0, 4.0]}, "t", "latency (us)"),
        plots.resources({"c": {"cpu": ([0, 1, 2], [10, 50, 20]), "rss": ([0, 1, 2], [1e6, 2e6, 3e6])}}, "t"),
    ]
    assert [f.kind for f in figs] == ["lines", "boxplot", "gap", "cdf", "resources"]
    for f in figs:
        assert _size(f.png) == (plots.WIDTH_PX, plots.HEIGHT_PX) == (f.width_px, f.height_px)


def test_lines_differ_by_more_than_colour():
    # Grayscale and colour-blind readers: each of the first eight lines has its own marker and
    # its own dash pattern, not only its own (Okabe–Ito) colour.
    styles = [plots.style(i) for i in range(8)]
    assert len({s["marker"] for s in styles}) == 8
    assert len({str(s["linestyle"]) for s in styles}) >= 7
    assert len(set(plots.HATCHES)) == len(plots.HATCHES)
    assert set(plots.OKABE_ITO) >= {s["color"] for s in styles}


def test_axis_labels_carry_units():
    assert plots.ylabel("tcp_throughput", "Mbit/s") == "tcp throughput (Mbit/s)"


def test_robust_points_are_medians_with_quartile_bars_and_never_dip_below_the_data():
    skewed = [1.0, 1.0, 2.0, 3.0, 100.0]          # one slow first packet
    y, (down, up) = plots.centre_and_bars([skewed], robust=True)
    assert y == [2.0] and down == [1.0] and up == [1.0]
    y, err = plots.centre_and_bars([skewed], robust=False)
    assert y == [21.4] and y[0] - err[0] < 0          # what mean ± stdev would have drawn
