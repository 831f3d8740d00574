"""The figures (pacesim.plot): confidence intervals against a hand computation,
categorical axes without joining lines, loss in percent on log axes, n in
every legend, a (colour, marker) pair per series, titles that name the
paper's figure, no axis averaged over silently; checked on hand-made frames,
on every reproduce figure's sweep (synthetic numbers in its real axes) and on
every analytical model."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.text import Text

from pacesim import schema
from pacesim.analysis.models import model_ref
from pacesim.panels import Panel, matches, numeric, paper_ref, summarise, unaveraged
from pacesim.plot import figure, render
from pacesim.papers import FIGURES, MODELS

# t_{0.975,k} from a printed Student t table (k = 1, 2, 3, 9)
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 9: 2.262}


def _frame(values: dict, x="core.buffer", by="pacing.scheme", metric="goodput_kbps_mean") -> pd.DataFrame:
    """Points: {(by value, x value): [one value per seed]}."""
    rows = [{by: b, x: xv, "seed": i + 1, "status": "ok", metric: v}
            for (b, xv), vs in values.items() for i, v in enumerate(vs)]
    return pd.DataFrame(rows)


def _series_lines(ax):
    """The data lines errorbar drew (one per series), not its caps."""
    return [c.lines[0] for c in ax.containers]


def _legend_text(ax) -> str:
    leg = ax.get_legend()
    return " | ".join([leg.get_title().get_text()] + [t.get_text() for t in leg.get_texts()])


def test_confidence_interval_is_student_t_over_seeds():
    df = _frame({("edge", "5KB"): [1.0, 2.0, 3.0, 4.0], ("edge", "10KB"): [10.0, 12.0], ("edge", "20KB"): [7.0]})
    s = summarise(df, "core.buffer", "goodput_kbps_mean", ["pacing.scheme"]).set_index("core.buffer")
    # by hand: s = sqrt(sum (x - mean)^2 / (n - 1))
    sd4 = np.sqrt(((np.array([1, 2, 3, 4]) - 2.5) ** 2).sum() / 3)
    assert s.loc["5KB", "ci"] == pytest.approx(T975[3] * sd4 / 2, rel=1e-3)
    assert s.loc["10KB", "ci"] == pytest.approx(T975[1] * np.sqrt(2) / np.sqrt(2), rel=1e-3)
    assert np.isnan(s.loc["20KB", "ci"])  # one seed: no interval


def test_error_bars_drawn_are_the_intervals_and_absent_for_one_seed():
    df = _frame({("edge", "5KB"): [1.0, 2.0, 3.0, 4.0], ("edge", "10KB"): [7.0]})
    fig = render(df, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.scheme"])])
    ax = fig.axes[0]
    (bars,) = ax.containers[0].lines[2]  # the vertical bars, one segment per point that has an interval
    segments = [seg for seg in bars.get_segments() if len(seg)]
    assert len(segments) == 1
    (x0, lo), (_, hi) = segments[0]
    assert (x0, (hi - lo) / 2) == pytest.approx((5.0, T975[3] * np.sqrt(5 / 3) / 2), rel=1e-3)
    assert "n=1-4 seeds" in _legend_text(ax)


def test_legend_gives_n_once_when_every_series_has_it_and_says_no_ci_for_one_seed():
    three = _frame({(s, b): [1.0, 2.0, 4.0] for s in ["none", "edge"] for b in ["5KB", "10KB"]})
    ax = render(three, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.scheme"])]).axes[0]
    assert ax.get_legend().get_title().get_text() == "Pacing (n=3 seeds, 95% CI)"  # the series variable, then n
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["none", "edge"]
    one = _frame({("edge", "5KB"): [1.0], ("edge", "10KB"): [2.0]})
    ax = render(one, [Panel("core.buffer", "goodput_kbps_mean", [])]).axes[0]
    assert "n=1 seed, no CI" in _legend_text(ax)
    assert not [seg for c in ax.containers for bars in c.lines[2] for seg in bars.get_segments() if len(seg)]


def test_a_series_with_no_value_says_n_0_in_its_legend():
    """Re-review of issue 34: a series whose metric is over nothing at every point (the paced flows' goodput
    where no flow is paced) was drawn with no point under "none, n=1 seed, no CI", a count of 0 read as 1. It
    says it has no value, n=0; one with no value at some points counts from 0."""
    nan = float("nan")
    df = _frame({("none", "5KB"): [nan, nan], ("none", "10KB"): [nan, nan],
                 ("edge", "5KB"): [1.0, 2.0], ("edge", "10KB"): [nan, 3.0],
                 ("wei", "5KB"): [1.0, 2.0], ("wei", "10KB"): [3.0, 5.0]}, metric="goodput_kbps_paced")
    ax = render(df, [Panel("core.buffer", "goodput_kbps_paced", ["pacing.scheme"])]).axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "none, no value, n=0", "edge, n=1-2 seeds, 95% CI", "wei, n=2 seeds, 95% CI"]
    one = _frame({("edge", "5KB"): [nan], ("edge", "10KB"): [2.0]})
    ax = render(one, [Panel("core.buffer", "goodput_kbps_mean", [])]).axes[0]
    assert "n=0-1 seeds, no CI" in _legend_text(ax)


def test_a_panel_whose_selection_holds_no_point_is_drawn_saying_so():
    """Session 30's record: a figure drawn while a second process registered its sweep anew found a panel's
    selection empty, and its legend's seed count (the minimum of no counts, NaN) ended in a ValueError."""
    df = _frame({("edge", "5KB"): [1.0, 2.0], ("edge", "10KB"): [2.0, 3.0]})
    ax = render(df, [Panel("core.buffer", "goodput_kbps_mean", [], where={"core.buffer": "50KB"})]).axes[0]
    assert _legend_text(ax) == " | no value, n=0"  # no legend title; the one series


def test_categorical_x_is_points_not_joined_lines():
    df = _frame({(p, v): [1.0 + i, 2.0 + i] for i, v in enumerate(["unpaced", "QLBP 10", "QLBP 20"])
                 for p in [1, 2]}, x="variant", by="topology.pacers", metric="burstiness_cov")
    ax = render(df, [Panel("variant", "burstiness_cov", ["topology.pacers"])]).axes[0]
    for line in ax.get_lines():
        if len(line.get_xdata()) > 1:
            assert line.get_linestyle() == "None", "a line joins categories"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["unpaced", "QLBP 10", "QLBP 20"]
    # the two series sit side by side around each category, not on top of each other
    xs = [tuple(np.round(np.asarray(line.get_xdata(), dtype=float), 3)) for line in _series_lines(ax)]
    assert xs[0] != xs[1] and all(abs(a - round(a)) < 0.5 for x in xs for a in x)


def test_numeric_x_joins_points():
    df = _frame({("edge", b): [1.0, 2.0] for b in ["5KB", "10KB", "20KB"]})
    ax = render(df, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.scheme"])]).axes[0]
    (line,) = _series_lines(ax)
    assert line.get_linestyle() == "-" and list(line.get_xdata()) == [5.0, 10.0, 20.0]


def test_loss_axis_is_log_in_percent_with_readable_ticks_and_zero_on_the_floor():
    df = _frame({("edge", b): [v, v] for b, v in [("2KB", 0.0), ("5KB", 2e-4), ("10KB", 0.003), ("20KB", 0.02)]},
                metric="core_udp_loss_rate")
    fig = render(df, [Panel("core.buffer", "core_udp_loss_rate", ["pacing.scheme"])])
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    assert ax.get_yscale() == "log"
    fmt = ax.yaxis.get_major_formatter()
    assert [fmt(v) for v in (0.01, 0.001, 0.5, 1e-4)] == ["1%", "0.1%", "50%", "0.01%"]
    shown = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
    assert shown and all(t.endswith("%") and "e" not in t and "times" not in t for t in shown)
    assert ax.get_ylabel().endswith("(%)")
    floor = ax.get_ylim()[0]
    zeros = [line for line in ax.get_lines() if line.get_marker() == "v" and len(line.get_xdata()) == 1]
    assert [(line.get_xdata()[0], line.get_ydata()[0]) for line in zeros] == [(2.0, floor)]


@pytest.mark.parametrize("lo, hi", [(0.05, 0.2), (0.055, 0.14), (0.055, 0.06), (0.003, 0.02), (1e-4, 0.02),
                                    (1e-7, 0.5), (0.2, 0.9), (0.0501, 0.05012), (0.0123, 0.0124)])
def test_a_loss_axis_labels_at_least_three_ticks_over_any_range(lo, hi):
    """Issue 34: a loss axis over 5-20 % showed one label. Every range gets three to ten labels inside it, each
    its tick's value (review: 5.01-5.012 % labelled six ticks "5.01%")."""
    df = _frame({("edge", b): [v, v] for b, v in [("5KB", lo), ("10KB", hi)]}, metric="core_loss_rate")
    fig = render(df, [Panel("core.buffer", "core_loss_rate", ["pacing.scheme"])])
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    bottom, top = ax.get_ylim()
    inside = [t for t in ax.yaxis.get_major_ticks() if bottom <= t.get_loc() <= top and t.label1.get_text()]
    assert 3 <= len(inside) <= 10, [t.label1.get_text() for t in inside]
    assert all(t.label1.get_text().endswith("%") for t in inside)
    labels = [t.label1.get_text() for t in inside]
    assert len(set(labels)) == len(labels), labels
    for t in inside:  # a decimal label reads back as its tick's own value (powers of ten are written as such)
        if "$" not in t.label1.get_text():
            assert float(t.label1.get_text().rstrip("%").replace(",", "")) / 100 == pytest.approx(t.get_loc(), rel=1e-9)


@pytest.mark.parametrize("lo, hi, lowest", [(3e-5, 0.2, "0.002%"), (6e-5, 0.2, "0.005%")])
def test_a_loss_axis_over_decades_labels_every_decade_it_shows(lo, hi, lowest):
    """Review of issue 34: at a column's width the part-decade below the first power of ten had no label
    (0.002-0.01 % bare below "0.01%"), and matplotlib's LogLocator labels every other decade on a short
    axis. Each decade in view is labelled: its power of ten, and the part-decade below at 2 or 5 times."""
    df = _frame({("edge", b): [v, v] for b, v in [("5KB", lo), ("10KB", hi)]}, metric="core_loss_rate")
    fig = render(df, [Panel("core.buffer", "core_loss_rate", ["pacing.scheme"])], size="one-column")
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    bottom, top = ax.get_ylim()
    labelled = [t.get_loc() for t in ax.yaxis.get_major_ticks() if bottom <= t.get_loc() <= top and t.label1.get_text()]
    decades = np.arange(np.floor(np.log10(bottom)), np.floor(np.log10(top)) + 1)
    assert sorted({np.floor(np.log10(v) + 1e-9) for v in labelled}) == list(decades), labelled
    assert [t.label1.get_text() for t in ax.yaxis.get_major_ticks() if t.get_loc() == min(labelled)] == [lowest]


@pytest.mark.parametrize("lo, hi, top", [(1e-7, 1.0, 1.0), (3e-5, 0.2, None)])
def test_a_loss_axis_writes_its_labels_in_one_form_and_ends_at_100_percent(lo, hi, top):
    """Review of issue 34: over 1e-7 to 1 the lowest decade read "$10^{-5}$%" beside "0.0001%", ..., "100%",
    and the axis ran on to 224 % unlabelled. Every label in one form (powers of ten when one needs it, else
    decimals); a loss axis ends at 100 %, its point there drawn whole."""
    df = _frame({("edge", b): [v, v] for b, v in [("5KB", lo), ("10KB", hi)]}, metric="core_loss_rate")
    fig = render(df, [Panel("core.buffer", "core_loss_rate", ["pacing.scheme"])])
    FigureCanvasAgg(fig).draw()
    ax = fig.axes[0]
    bottom, upper = ax.get_ylim()
    labels = [t.label1.get_text() for t in ax.yaxis.get_major_ticks() if bottom <= t.get_loc() <= upper
              and t.label1.get_text()]
    powers = lo < 1e-6  # 1e-4 % and below: beyond the decimals
    assert len(labels) >= 3 and all(("$" in t) == powers for t in labels), labels
    if powers:
        first = int(np.ceil(np.log10(bottom) - 1e-9)) + 2  # in percent
        assert labels == [f"$10^{{{e}}}$%" for e in range(first, first + len(labels))]
    if top is not None:
        assert upper == top and labels[-1] == "$10^{2}$%"  # 100 %
        assert not _series_lines(ax)[0].get_clip_on()


def test_a_legend_names_each_series_variable():
    df = pd.DataFrame([{"pacing.scheme": s, "core.buffer": b, "pacing.delay": d, "seed": 1, "status": "ok",
                        "goodput_kbps_mean": 1.0} for s in ["none", "edge"] for b in ["5KB", "10KB"]
                       for d in ["1ms", "10ms"]])
    ax = render(df, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.scheme", "pacing.delay"])]).axes[0]
    assert ax.get_legend().get_title().get_text() == "Pacing, Pacer delay d (n=1 seed, no CI)"
    assert [t.get_text() for t in ax.get_legend().get_texts()][:2] == ["none, d=1ms", "none, d=10ms"]


def test_every_scenario_key_a_figure_plots_is_named_by_the_engine():
    """Each scenario key a paper's figure draws along its x axis or as its series' variable is named by its
    `title` in the engine's schema (no figure falls back on the key's words), and the topology kinds that share
    a key give it one name (an axis's key names no kind)."""
    drawn = {k for f in FIGURES.values() for p in f.panels
             for k in [getattr(p, "x", None), *(getattr(p, "by", ()) or ())]}
    keys = {k for k in drawn if k and k.split(".")[0].split("[")[0] in schema.SCHEMA["properties"]}
    assert {"core.buffer", "pacing.scheme", "topology.pacers", "traffic.udp[0].size"} <= keys
    assert {k: schema.title(k) for k in keys if not schema.title(k)} == {}
    for kind in schema.kinds():
        for name, node in schema.table("topology", kind)["properties"].items():
            assert node.get("title") in (None, schema.title(f"topology.{name}")), (kind, name)


def test_each_series_has_its_own_colour_and_marker():
    # A-fig4's percentiles: two variants x three metrics, six series
    df = pd.DataFrame([{"variant": v, "core.buffer": b, "seed": 1, "status": "ok", m: 1.0 + i}
                       for v in ["1000 flows", "200 flows"] for b in ["2KB", "5KB"]
                       for i, m in enumerate(["mean_cwnd_p05", "mean_cwnd_p50", "mean_cwnd_p95"])])
    df = df.groupby(["variant", "core.buffer", "seed", "status"], as_index=False).first()
    ax = render(df, [Panel("core.buffer", ["mean_cwnd_p05", "mean_cwnd_p50", "mean_cwnd_p95"], ["variant"])]).axes[0]
    pairs = [(to_hex(line.get_color()), line.get_marker()) for line in _series_lines(ax)]
    assert len(pairs) == 6 and len(set(pairs)) == 6
    assert len(ax.get_legend().get_texts()) == 6


def test_a_series_keeps_its_colour_from_panel_to_panel():
    # W-s5: "Paced flows" is goodput in one panel and retransmissions in the next
    df = pd.DataFrame([{"variant": v, "seed": 1, "status": "ok", "goodput_kbps_paced": 1.0, "goodput_kbps_unpaced": 2.0,
                        "retransmit_rate_paced": 0.02, "retransmit_rate_unpaced": 0.002} for v in ["Reno", "SACK"]])
    fig = render(df, [Panel("variant", ["goodput_kbps_paced", "goodput_kbps_unpaced"]),
                      Panel("variant", ["retransmit_rate_paced", "retransmit_rate_unpaced"])])
    colours = [[to_hex(line.get_color()) for line in _series_lines(ax)] for ax in fig.axes]
    assert colours[0] == colours[1] and colours[0][0] != colours[0][1]


def test_titles_name_the_papers_figures():
    assert paper_ref("E-fig3") == "Paper E, Fig. 3"
    assert paper_ref("Q-tab2") == "Paper Q, Table II"
    assert paper_ref("Q-tab3", "Q-fig19") == "Paper Q, Table III and Fig. 19"
    assert paper_ref("W-s6", "W-s7") == "Paper W, scenarios 6 and 7"
    assert paper_ref("q-thm1") == "Paper Q, Theorem 1"
    assert paper_ref("X-transports") == "Beyond the papers, X-transports"  # ids beyond the papers: no paper X


def test_no_axis_is_averaged_over_silently():
    # the values an axis is refused with are sorted, not in the file's order (review of issue 34)
    df = _frame({(s, b): [1.0] for s in ["none", "edge"] for b in ["10KB", "5KB"]})
    assert unaveraged(df, ["core.buffer", "pacing.scheme"], Panel("core.buffer", "goodput_kbps_mean")) == {
        "pacing.scheme": ["edge", "none"]}
    assert unaveraged(df, ["core.buffer", "pacing.scheme"], Panel("pacing.scheme", "goodput_kbps_mean")) == {
        "core.buffer": ["5KB", "10KB"]}
    assert unaveraged(df, ["core.buffer", "pacing.scheme"],
                      Panel("core.buffer", "goodput_kbps_mean", where={"pacing.scheme": "edge"})) == {}
    with pytest.raises(ValueError, match="axis 'pacing.scheme' has values edge, none"):
        render(df, [Panel("core.buffer", "goodput_kbps_mean")], axes=["core.buffer", "pacing.scheme"])


def test_an_axis_where_keeps_several_values_of_is_not_averaged_over():
    # --where core.delay=5ms,1s keeps two values of an axis that is neither x nor by: averaging them would
    # label the two delays' points as seeds of one
    df = _frame({(d, b): [1.0] for d in ["5ms", "1s", "2s"] for b in ["5KB", "10KB"]}, by="core.delay")
    axes = ["core.buffer", "core.delay"]
    two = Panel("core.buffer", "goodput_kbps_mean", where={"core.delay": ["5ms", "1s"]})
    assert unaveraged(df, axes, two) == {"core.delay": ["5ms", "1s"]}
    with pytest.raises(ValueError, match="axis 'core.delay' has values 5ms, 1s"):
        render(df, [two], axes=axes)
    # one value kept (even written two ways), or the axis drawn as series: nothing averaged
    assert unaveraged(df, axes, Panel("core.buffer", "goodput_kbps_mean", where={"core.delay": ["1s", "1000ms"]})) == {}
    assert unaveraged(df, axes, Panel("core.buffer", "goodput_kbps_mean", ["core.delay"], {"core.delay": ["5ms", "1s"]})) == {}


def test_points_are_joined_and_series_listed_in_ascending_value_not_file_order():
    # a sweep file listing 3KB, 20KB, 10KB and delays 20ms, 5ms (unit strings, as `Store.points(written=True)`)
    df = _frame({(d, b): [float(len(b))] for d in ["20ms", "5ms"] for b in ["3KB", "20KB", "10KB"]},
                by="pacing.delay")
    s = summarise(df, "core.buffer", "goodput_kbps_mean", ["pacing.delay"])
    assert list(zip(s["pacing.delay"], s["core.buffer"])) == [
        ("5ms", "3KB"), ("5ms", "10KB"), ("5ms", "20KB"), ("20ms", "3KB"), ("20ms", "10KB"), ("20ms", "20KB")]
    ax = render(df, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.delay"])]).axes[0]
    assert [list(line.get_xdata()) for line in _series_lines(ax)] == [[3.0, 10.0, 20.0]] * 2
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["d=5ms", "d=20ms"]
    # plain numbers too (9 before 10), categories keep their first appearance
    n = _frame({("edge", b): [1.0] for b in [10, 9, 100]})
    assert list(summarise(n, "core.buffer", "goodput_kbps_mean", ["pacing.scheme"])["core.buffer"]) == [9, 10, 100]


def test_a_stem_with_dots_keeps_them(tmp_path):
    df = _frame({("edge", "5KB"): [1.0]})
    paths = figure(df, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.scheme"])], tmp_path / "g-vs-pacing.scheme")
    assert [p.name for p in paths] == ["g-vs-pacing.scheme.png", "g-vs-pacing.scheme.svg"]


def test_user_text_is_drawn_literally_not_as_mathtext(tmp_path):
    """Review of issue 34 (D4): matplotlib typesets what lies between two `$` as mathtext, so a --title or a
    variant named `$\\foo$` was a traceback (an unknown command) and "cost $5 or $6" silently became math.
    Titles, legend entries and category ticks made of what a user wrote are drawn as written: in an SVG that
    keeps text as text, each appears whole, character for character."""
    import matplotlib

    odd = ["$\\foo$", "cost $5 or $6", "a\\$b"]
    df = _frame({(v, b): [1.0] for v in odd for b in ("5KB", "10KB")}, by="variant")
    panels = [Panel("core.buffer", "goodput_kbps_mean", ["variant"]), Panel("variant", "goodput_kbps_mean", [])]
    fig = render(df, panels, "$\\foo$ and cost $5")
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        fig.savefig(tmp_path / "f.svg")
    svg = (tmp_path / "f.svg").read_text()
    drawn = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    for text in [*odd, "$\\foo$ and cost $5"]:
        assert drawn.count(text) >= 1, (text, drawn)


def test_a_matplotlibrc_asking_for_latex_does_not_reach_pacesims_figures(tmp_path):
    """Review of issue 34 (review34e K1): with `text.usetex: True` in a user's matplotlibrc and no LaTeX
    installed, every figure ended in a traceback (and with LaTeX, '$' and '_' of what a user wrote would be
    TeX). pacesim's figures are drawn and saved without it, every text of them plain; the user's setting is
    theirs again after."""
    import matplotlib

    df = _frame({(v, b): [1.0] for v in ("a_b", "50% $x$") for b in ("5KB", "10KB")}, by="variant")
    with matplotlib.rc_context({"text.usetex": True}):
        paths = figure(df, [Panel("core.buffer", "goodput_kbps_mean", ["variant"])], tmp_path / "f", title="t_1 $2")
        fig = render(df, [Panel("core.buffer", "goodput_kbps_mean", ["variant"])], "t_1 $2")
        FigureCanvasAgg(fig).draw()
        assert matplotlib.rcParams["text.usetex"]
    assert all(p.stat().st_size > 1000 for p in paths)
    texts = fig.findobj(Text)
    assert len(texts) > 10 and not any(t.get_usetex() for t in texts)


def test_a_long_title_is_wrapped_before_its_dollars_are_escaped():
    """Review of issue 34 (review34e D2): a --title word longer than a line was cut between the `\\` and the
    `$` it escaped, leaving a stray `\\` at the end of one line and a bare `$` at the start of the next.
    Each line drawn is plain text to matplotlib (its own test for math, which it makes line by line), and
    what it draws of the lines, joined, is the title as written."""
    title = "a" * 45 + "$" + "b" * 44 + "$c"
    df = _frame({("edge", b): [1.0] for b in ("5KB", "10KB")})
    fig = render(df, [Panel("core.buffer", "goodput_kbps_mean", ["pacing.scheme"])], title, size="one-column")
    drawn = [Text()._preprocess_math(line) for line in fig.get_suptitle().split("\n")]  # (text drawn, math?)
    assert len(drawn) > 1 and not any(math for _, math in drawn), drawn  # wrapped, and no line is math
    assert "".join(text for text, _ in drawn) == title


def _texts(fig) -> list:
    FigureCanvasAgg(fig).draw()
    return [t.get_text() for t in fig.findobj(Text) if t.get_text() and "$" not in t.get_text()]


@pytest.mark.parametrize("fig_id", list(FIGURES))
def test_every_reproduce_figure_on_its_sweep_axes(fig_id):
    """Synthetic numbers in the figure's real sweep axes, two seeds: no axis
    left to average over, no raw underscore, categories unjoined, loss in
    percent, distinct series."""
    fig = FIGURES[fig_id]
    sweep = fig.sweep(False)
    panels = [p for p in fig.panels if isinstance(p, Panel)]
    if not panels:
        pytest.skip("drawn from run tables only")
    metrics = {m for p in panels for m in (p.y if isinstance(p.y, list) else [p.y])}
    rng = np.random.default_rng(1)
    rows = [{**pt.axes, "seed": seed, "status": "ok", **{m: rng.uniform(0.001, 0.1) for m in metrics}}
            for pt in sweep.points() if pt.seed == sweep.seeds[0] for seed in (1, 2)]
    points, axes = fig.split(pd.DataFrame(rows), sweep)  # a variant's parts as axes (X-scale's)
    drawn = render(points, panels, f"{paper_ref(fig.id, *fig.also)}: {fig.caption}", axes=axes)
    texts = _texts(drawn)
    assert not [t for t in texts if "_" in t], f"raw underscores in {fig_id}"
    assert re.match(r"(Paper [A-Z], (Figs?\.|Tables?|scenarios?)|Beyond the papers, X-[a-z]+:) ", drawn.get_suptitle())
    for ax, panel in zip(drawn.axes, panels):
        assert "n=2 seeds, 95% CI" in _legend_text(ax)
        pairs = [(to_hex(line.get_color()), line.get_marker()) for line in _series_lines(ax)]
        assert len(set(pairs)) == len(pairs), f"{fig_id} {panel.title}: two series look alike"
        if numeric(points[panel.x])[0] is None:  # categories
            assert all(line.get_linestyle() == "None" for line in _series_lines(ax))
        ys = panel.y if isinstance(panel.y, list) else [panel.y]
        if all("loss_rate" in m or "retransmit_rate" in m for m in ys):
            assert ax.get_yscale() == "log" and ax.yaxis.get_major_formatter()(0.01) == "1%"


@pytest.mark.parametrize("model_id", list(MODELS))
def test_every_model_figure(model_id):
    model = MODELS[model_id]
    out = model.build(dict(model.defaults))
    drawn = render(None, out.panels, f"{model_ref(model)}: {model.title}", out.tables)
    assert re.match(r"Paper [A-Z], (Fig\. \d+|Theorem \d|Sec\. )", drawn.get_suptitle())
    assert not [t for t in _texts(drawn) if "_" in t], f"raw underscores in {model_id}"
    for ax, panel in zip(drawn.axes, out.panels):
        pairs = [(to_hex(line.get_color()), line.get_marker()) for line in ax.get_lines() if line.get_label()[:1] != "_"
                 and line.get_marker() not in ("None", None, "")]
        assert len(set(pairs)) == len(pairs) == len(panel.series)
        if panel.loss:
            assert ax.get_yscale() == "log" and ax.yaxis.get_major_formatter()(0.001) == "0.1%"


@pytest.mark.parametrize("written, wanted, kept", [
    (["3KB", "10KB", "3000B"], ["3000"], [True, False, True]),  # bytes
    (["5ms", "1s"], ["0.005", "1"], [True, True]),  # seconds
    (["1Mbps", "2.5Mbps"], ["2500000"], [False, True]),  # bit/s
    (["3KB", "10KB"], ["3KB", "3"], [True, False]),  # 3 is 3 bytes, not 3 KB
    (["none", "edge"], ["3000"], [False, False]),  # no unit: a number matches no category
])
def test_a_number_matches_an_axis_in_units_in_its_base_unit(written, wanted, kept):
    """Review of issue 34: --where core.buffer=3000 was refused while Store.points gives that axis as 3000.0
    bytes; a plain number is the axis's value in bytes, seconds or bit/s."""
    assert list(matches(pd.Series(written), wanted)) == kept
