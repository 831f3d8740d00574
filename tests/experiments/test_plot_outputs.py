"""What `pacesim plot` and `reproduce --table` write, and where (issue 34): names that carry --by and
--where, so that two filters never overwrite each other; series plots named and titled by their point and
run, with a time window; figures for a paper (PDF with its fonts embedded, a column's width, a title of
one's own); the per-paper tables under the results directory, never the checkout's record unless asked."""

from __future__ import annotations

import hashlib
import re
import xml.etree.ElementTree as ET

import pytest
from typer.testing import CliRunner

from pacesim.cli import app
from pacesim.panels import file_name
from pacesim.papers import papers
from pacesim.store import Store
from pacesim.sweep import Sweep, run_sweep

from .conftest import TINY

runner = CliRunner()


def ok(args) -> list:
    """Run `pacesim ARGS`; the files it says it wrote."""
    out = runner.invoke(app, [str(a) for a in args])
    assert out.exit_code == 0, out.output
    return re.findall(r"^wrote (.+)$", out.output, flags=re.M)


def test_where_and_by_are_in_the_figures_name(tiny_store):
    root = tiny_store[0].root
    base = ["plot", "tiny", "--results", root, "--format", "svg"]
    none = ok(base + ["--where", "pacing.scheme=none"])
    edge = ok(base + ["--where", "pacing.scheme=edge"])
    both = ok(base + ["--by", "pacing.scheme"])
    assert none == [f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-pacing.scheme=none.svg"]
    assert edge == [f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-pacing.scheme=edge.svg"]
    assert both == [f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-by-pacing.scheme.svg"]
    # without --by the series come from every axis left with several values, and the name says so
    assert ok(base) == both
    # a paper's size keeps its own file: the screen's figure drawn after it does not overwrite it
    column = ok(base + ["--by", "pacing.scheme", "--size", "one-column"])
    assert column == [f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-by-pacing.scheme-one-column.svg"]


def test_where_values_a_file_name_cannot_hold_keep_their_own_files(tmp_path, pool):
    """Review of issue 34: `--where variant=a/b` and `--where variant=a_b` both wrote
    `...-variant=a_b.png`, the second over the first. A name that had to be changed ends in a hash of the
    whole text."""
    text = "coll-goodput_kbps_mean-vs-core.buffer-variant=a/b"
    hashed = f"a_b-{hashlib.sha256(text.encode()).hexdigest()[:16]}"  # the name a/b's file is given
    variants = {"a/b": ["pacing.scheme=edge"], "a_b": [], hashed: ["pacing.scheme=edge", "pacing.delay=40ms"],
                "a_b-logy": []}
    sweep = Sweep(name="coll", axes={"core.buffer": ["3KB", "10KB"], "variant": list(variants)}, seeds=[1], set=TINY,
                  variants=variants)
    with Store(tmp_path) as store:
        run_sweep(sweep, store, pool, progress=False)
    base = ["plot", "coll", "--results", tmp_path, "--format", "svg"]
    (slash,) = ok(base + ["--where", "variant=a/b"])
    (under,) = ok(base + ["--where", "variant=a_b"])
    assert under == f"{tmp_path}/plots/coll-goodput_kbps_mean-vs-core.buffer-variant=a_b.svg"  # unchanged: as typed
    assert slash == f"{tmp_path}/plots/coll-goodput_kbps_mean-vs-core.buffer-variant={hashed}.svg"
    # re-review of issue 34: a variant literally named as a/b's file shared it; a name ending as a hashed one
    # does is hashed too
    (literal,) = ok(base + ["--where", f"variant={hashed}"])
    assert literal != slash and literal.startswith(f"{tmp_path}/plots/coll-goodput_kbps_mean-vs-core.buffer-"
                                                   f"variant={hashed}-")
    texts = {open(p).read() for p in (slash, under, literal)}
    assert len(texts) == 3  # all kept: the paced points, the unpaced ones and those paced with d = 40 ms
    # ... and a value holding the `-` that joins the name's parts: a variant named a_b-logy, and a_b --logy
    (dash,) = ok(base + ["--where", "variant=a_b-logy"])
    (log,) = ok(base + ["--where", "variant=a_b", "--logy"])
    assert log == f"{tmp_path}/plots/coll-goodput_kbps_mean-vs-core.buffer-variant=a_b-logy.svg" != dash


def test_logy_keeps_its_own_file(tiny_store):
    """Review of issue 34: `--logy` wrote over the linear figure of the same name. Re-review: on a loss rate,
    always on a log axis, it drew the same figure again under another name; it is refused, saying why."""
    root = tiny_store[0].root
    base = ["plot", "tiny", "--results", root, "--by", "pacing.scheme", "--format", "svg"]
    (linear,) = ok(base)
    (log,) = ok(base + ["--logy"])
    assert log == f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-by-pacing.scheme-logy.svg" != linear
    assert open(linear).read() != open(log).read()
    out = runner.invoke(app, [str(a) for a in base + ["--y", "core_loss_rate", "--logy"]])
    assert out.exit_code == 2 and "--logy: core_loss_rate is a loss rate, always drawn on a logarithmic axis" \
        in out.output, out.output
    assert not list((root / "plots").glob("*core_loss_rate*"))


def test_a_pdf_at_one_column_embeds_its_fonts_and_is_a_column_wide(tiny_store, tmp_path):
    """... and its PNG is print quality (review of issue 34: 420 x 312 pixels): 3.5 inches at 300 an inch."""
    (pdf, png) = ok(["plot", "tiny", "--results", tiny_store[0].root, "--by", "pacing.scheme", "--size", "one-column",
                     "--format", "pdf", "--format", "png", "--out", tmp_path / "f"])
    head = open(png, "rb").read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == 3.5 * 300
    data = open(pdf, "rb").read()
    assert data.startswith(b"%PDF")
    assert b"/FontFile2" in data and b"/Type3" not in data  # TrueType embedded whole, not Type 3 procedures
    width = float(re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", data).group(1))
    assert width == pytest.approx(3.5 * 72)


def test_a_quick_runs_figure_says_so_in_its_title(tmp_path, pool):
    """Review of issue 34: `pacesim plot E-fig3-quick` was titled as the paper's figure. Two points (20 s,
    10 flows), stored under the quick name and the paper's: only the quick one's title says it."""
    with Store(tmp_path) as store:
        for name in ("E-fig3-quick", "E-fig3"):
            run_sweep(Sweep(name=name, axes={"core.buffer": ["3KB", "10KB"]}, seeds=[1], set=TINY), store, pool,
                      progress=False)
    titles = {}
    for name in ("E-fig3-quick", "E-fig3"):
        (svg,) = ok(["plot", name, "--results", tmp_path, "--format", "svg", "--out", tmp_path / name])
        titles[name] = _texts(svg)
    assert "Paper E, Fig. 3" in titles["E-fig3"] and "quick run" not in titles["E-fig3"]
    assert "Paper E, Fig. 3" in titles["E-fig3-quick"] and "(quick run: a demo)" in titles["E-fig3-quick"]


def _texts(svg: str) -> str:
    """The words an SVG's text elements carry as comments (matplotlib writes each text as paths)."""
    return " ".join(c for c in re.findall(r"<!-- (.*?) -->", open(svg).read()))



def test_a_where_figures_default_title_says_what_where_kept(tiny_store):
    """Review of issue 34 (review34e L4): a --where figure was titled as the whole sweep's; its default title
    now says which values it keeps (a title of one's own is left as written)."""
    base = ["plot", "tiny", "--results", tiny_store[0].root, "--format", "svg"]
    (kept,) = ok(base + ["--where", "pacing.scheme=edge"])
    assert "tiny" in _texts(kept) and "where pacing.scheme = edge" in _texts(kept)
    (both,) = ok(base + ["--where", "pacing.scheme=none,edge", "--by", "pacing.scheme", "--where",
                         "core.buffer=3KB,10KB"])
    assert "where pacing.scheme = edge or none; core.buffer = 3KB or 10KB" in _texts(both)
    (whole,) = ok(base + ["--by", "pacing.scheme"])
    (own,) = ok(base + ["--where", "pacing.scheme=edge", "--title", "Mine"])
    assert "where" not in _texts(whole) and "where" not in _texts(own)

@pytest.fixture(scope="module")
def series_store(tmp_path_factory, pool):
    """One tiny sweep whose runs record flow 0's window and the core's queue every 100 ms."""
    root = tmp_path_factory.mktemp("series")
    sweep = Sweep(name="ser", axes={"pacing.scheme": ["none", "edge"]}, seeds=[1],
                  set=TINY + ["series.flows=[0]", "series.links=['core']", "series.interval=100ms"])
    with Store(root) as store:
        run_sweep(sweep, store, pool, progress=False)
        key = store.points("ser").set_index("pacing.scheme").loc["edge", "key"]
    return root, key


def test_a_series_plot_names_its_point_and_run(series_store):
    root, key = series_store
    (svg,) = ok(["plot", "ser", "--results", root, "--series", "cwnd", "--where", "pacing.scheme=edge",
                 "--format", "svg"])
    assert svg == f"{root}/plots/ser-pacing.scheme=edge-seed1-cwnd.svg"
    assert f"ser: pacing.scheme=edge, seed 1 (run {key[:12]})" in _texts(svg)


def test_series_plots_of_other_flows_or_links_keep_their_own_files(series_store):
    root, _ = series_store
    common = ["plot", "ser", "--results", root, "--where", "pacing.scheme=edge", "--format", "svg"]
    (flow,) = ok(common + ["--series", "cwnd", "--flows", "0"])
    (link,) = ok(common + ["--series", "queue", "--links", "core"])
    assert flow == f"{root}/plots/ser-pacing.scheme=edge-seed1-cwnd-of-flow.0.svg"
    assert link == f"{root}/plots/ser-pacing.scheme=edge-seed1-queue_bytes-of-core.svg"
    out = runner.invoke(app, common + ["--series", "cwnd", "--seed", "7"])
    assert out.exit_code == 2 and "--seed 7; their finished seeds: 1" in out.output, out.output


def test_a_title_of_ones_own_or_none_each_in_its_own_file(tiny_store, series_store):
    root = tiny_store[0].root
    base = ["plot", "tiny", "--results", root, "--by", "pacing.scheme", "--format", "svg"]
    stem = f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-by-pacing.scheme"
    (svg,) = ok(base + ["--title", "Goodput at small buffers"])
    assert svg == f"{stem}-title=Goodput_at_small_buffers.svg" and "Goodput at small buffers" in _texts(svg)
    (svg,) = ok(base + ["--title", ""])  # none
    assert svg == f"{stem}-untitled.svg" and "tiny" not in _texts(svg)
    # characters a file name cannot hold (or a title cut to 40 characters): a hash of the whole title follows,
    # so that "paced/unpaced" and "paced unpaced" keep their own files
    (odd,) = ok(base + ["--title", "Goodput: paced/unpaced"])
    assert odd == f"{stem}-title=Goodput_paced_unpaced-{hashlib.sha256(b'Goodput: paced/unpaced').hexdigest()[:8]}.svg"
    assert "Goodput: paced/unpaced" in _texts(odd)
    # re-review of issue 34: a title written as that tag is (its hash typed in) keeps its own file too
    (typed,) = ok(base + ["--title", f"Goodput paced unpaced-{hashlib.sha256(b'Goodput: paced/unpaced').hexdigest()[:8]}"])
    assert typed != odd and open(typed).read() != open(odd).read()
    root, _ = series_store
    (series,) = ok(["plot", "ser", "--results", root, "--series", "cwnd", "--where", "pacing.scheme=edge",
                    "--format", "svg", "--title", "cwnd"])
    assert series == f"{root}/plots/ser-pacing.scheme=edge-seed1-cwnd-title=cwnd.svg"


def test_a_series_window_draws_only_those_seconds(series_store, tmp_path):
    root, _ = series_store
    from pacesim.panels import in_window
    import pandas as pd

    rows = pd.DataFrame({"time_s": [0.0, 1.0, 2.0, 3.0, 0.5, 2.5], "entity": ["q"] * 4 + ["core"] * 2,
                         "series": ["queue_bytes"] * 4 + ["drops"] * 2, "value": [1.0, 2.0, 3.0, 4.0, 1.0, 1.0]})
    kept = in_window(rows, 1.5, 3.0)
    # the queue's level at 1.5 s is its value since 1 s; drops before the window are not carried in
    assert kept.sort_values(["entity", "time_s"]).values.tolist() == [
        [2.5, "core", "drops", 1.0], [1.5, "q", "queue_bytes", 2.0], [2.0, "q", "queue_bytes", 3.0],
        [3.0, "q", "queue_bytes", 4.0]]
    (svg,) = ok(["plot", "ser", "--results", root, "--series", "queue", "--where", "pacing.scheme=none",
                 "--window", "10:12", "--format", "svg", "--out", tmp_path / "w"])
    ns = {"svg": "http://www.w3.org/2000/svg"}
    assert ET.parse(svg).getroot().find(".//svg:g", ns) is not None
    out = runner.invoke(app, ["plot", "ser", "--results", str(root), "--series", "queue", "--where",
                              "pacing.scheme=none", "--window", "100:200"])
    assert out.exit_code == 2 and "recorded nothing" in out.output


def test_reproduce_table_writes_under_the_results_directory(tmp_path, monkeypatch, pool):
    """... and never replaces a paper's table with one from a store holding no full-size run of that paper
    (review of issue 34: a store of quick runs rewrote the four committed tables, +204 / -911, exit 0)."""
    monkeypatch.chdir(tmp_path)
    record = tmp_path / "docs" / "reproduction"
    record.mkdir(parents=True)
    with Store(tmp_path / "r") as store:  # one point of a quick run's sweep: no figure has a full-size run
        run_sweep(Sweep(name="E-fig3-quick", axes={"core.buffer": ["3KB"]}, seeds=[1], set=TINY), store, pool,
                  progress=False)
    written = ok(["reproduce", "--table", "--results", tmp_path / "r"])
    assert written == [f"{tmp_path / 'r'}/reproduction/paper_{p}.md" for p in papers()]
    assert not list(record.iterdir())  # the checkout's record is left alone
    for p in "ea":  # kept; Q, W and X (cheap to judge: A's models are not) written
        (record / f"paper_{p}.md").write_text("the record\n")
    out = runner.invoke(app, ["reproduce", "--table", "--results", str(tmp_path / "r"), "--tables", str(record)])
    said = " ".join(out.output.split())
    assert out.exit_code == 0, out.output
    assert re.findall(r"^wrote (.+)$", out.output, flags=re.M) == [f"{record}/paper_{p}.md" for p in papers()
                                                                   if p not in "ea"]
    for p in "ea":  # kept, and the warning names the paper and the store
        assert (record / f"paper_{p}.md").read_text() == "the record\n"
        assert (f"{record}/paper_{p}.md: kept as it was: the store {tmp_path / 'r'} holds no full-size run of "
                f"paper {p.upper()}") in said
    before = {f.name: f.read_text() for f in record.iterdir()}
    out = runner.invoke(app, ["reproduce", "--table", "--results", str(tmp_path / "r"), "--tables", str(record)])
    assert out.exit_code == 2 and "nothing written" in out.output and "wrote" not in out.output, out.output
    assert {f.name: f.read_text() for f in record.iterdir()} == before


def test_where_on_the_x_axis_keeps_two_values_or_more(tiny_store):
    """Review of issue 34: --x core.buffer --where core.buffer=3KB was drawn, every series one point; refused
    naming the axis, as --by on the x axis is. Two of its values still draw."""
    root = tiny_store[0].root
    base = ["plot", "tiny", "--results", root, "--by", "pacing.scheme", "--format", "svg"]
    for where in ("core.buffer=3KB", "core.buffer=3kB,3000"):
        refused = runner.invoke(app, [str(a) for a in base + ["--where", where]])
        said = " ".join(refused.output.split())
        assert refused.exit_code == 2 and "wrote" not in said, said
        assert f"error: --where {where}: core.buffer is the x axis (--x), and one value of it" in said
    assert ok(base + ["--where", "core.buffer=3KB,10KB"]) == [
        f"{root}/plots/tiny-goodput_kbps_mean-vs-core.buffer-by-pacing.scheme-core.buffer=3KB,10KB.svg"]


def test_where_takes_an_axis_value_as_the_api_gives_it(tiny_store):
    """Review of issue 34: --where core.buffer=3000 (bytes, as Store.points gives the axis) was refused; it
    keeps the points --where core.buffer=3KB keeps, and names the same file (3000, 3kB and 3KB named three),
    from the value as the sweep wrote it; a value no point has is refused naming the values."""
    root = tiny_store[0].root
    base = ["plot", "tiny", "--results", root, "--x", "pacing.scheme", "--format", "svg"]
    (number,) = ok(base + ["--where", "core.buffer=3000"])
    drawn = _texts(number)
    (written,) = ok(base + ["--where", "core.buffer=3kB,3000B"])
    assert number == written == f"{root}/plots/tiny-goodput_kbps_mean-vs-pacing.scheme-core.buffer=3KB.svg"
    assert _texts(written) == drawn
    refused = runner.invoke(app, [str(a) for a in base + ["--where", "core.buffer=3001"]])
    assert refused.exit_code != 0 and "its values: 3KB, 10KB" in " ".join(refused.output.split())
    refused = runner.invoke(app, [str(a) for a in base + ["--where", "pacing.scheme=host"]])  # sorted, not none, edge
    assert refused.exit_code != 0 and "its values: edge, none" in " ".join(refused.output.split())


def test_series_flows_and_links_the_run_did_not_record_are_refused(series_store):
    """Review of issue 34 (review34c D5): `--links core,bogus` and `--flows 0,99` drew the recorded ones, exit 0,
    in a file named for the ones that were not there."""
    root, _ = series_store
    common = ["plot", "ser", "--results", str(root), "--where", "pacing.scheme=edge", "--format", "svg"]
    for extra, unknown in ((["--series", "queue", "--links", "core,bogus"], "bogus"),
                           (["--series", "cwnd", "--flows", "0,99"], "flow.99")):
        out = runner.invoke(app, common + extra)
        assert out.exit_code == 2 and "recorded no" in out.output and unknown in out.output, out.output


def test_two_series_windows_apart_by_less_than_a_microsecond_keep_their_own_files(series_store):
    """Review of issue 34 (review34c D6): the window's ends were named at 6 significant digits, so 21.0000001:25
    and 21:25 wrote one file with two figures."""
    root, _ = series_store
    common = ["plot", "ser", "--results", root, "--series", "queue", "--where", "pacing.scheme=none",
              "--format", "svg"]
    (near,) = ok(common + ["--window", "10.0000001:12"])
    (whole,) = ok(common + ["--window", "10:12"])
    assert near.endswith("-t10.0000001-12s-queue_bytes.svg") and whole.endswith("-t10-12s-queue_bytes.svg")


def test_a_value_holding_a_comma_is_chosen_whole(tmp_path, pool):
    """Review of issue 34 (review34c D3): a variant named `c,d` was accepted by the sweep and offered by
    completion, but `--where variant=c,d` read it as c or d and refused."""
    sweep = Sweep(name="comma", axes={"core.buffer": ["3KB", "10KB"], "variant": ["c,d", "c"]}, seeds=[1], set=TINY,
                  variants={"c,d": ["pacing.scheme=edge"], "c": []})
    with Store(tmp_path) as store:
        run_sweep(sweep, store, pool, progress=False)
    base = ["plot", "comma", "--results", tmp_path, "--format", "svg"]
    (whole,) = ok(base + ["--where", "variant=c,d"])
    (one,) = ok(base + ["--where", "variant=c"])
    assert whole != one and open(whole).read() != open(one).read()


def test_one_value_holding_a_comma_and_two_values_keep_their_own_files(tmp_path, pool):
    """Review of issue 34 (review34e D1): `--where variant=a,b` (the one variant named `a,b`, chosen whole) and
    `--where variant=b,a` (the variants a and b) both wrote `...-variant=a,b.svg`, the second over the first."""
    variants = {"a": [], "b": ["pacing.scheme=edge"], "a,b": ["pacing.scheme=edge", "pacing.delay=40ms"]}
    sweep = Sweep(name="commas", axes={"core.buffer": ["3KB", "10KB"], "variant": list(variants)}, seeds=[1],
                  set=TINY, variants=variants)
    with Store(tmp_path) as store:
        run_sweep(sweep, store, pool, progress=False)
    base = ["plot", "commas", "--results", tmp_path, "--format", "svg", "--by", "variant"]
    (whole,) = ok(base + ["--where", "variant=a,b"])
    (two,) = ok(base + ["--where", "variant=b,a"])
    assert two == f"{tmp_path}/plots/commas-goodput_kbps_mean-vs-core.buffer-by-variant-variant=a,b.svg"  # as typed
    assert whole != two and whole.startswith(f"{tmp_path}/plots/commas-goodput_kbps_mean-vs-core.buffer-by-variant-")
    legends = [re.findall(r"<!-- (a|b|a,b) -->", open(p).read()) for p in (whole, two)]
    assert legends == [["a,b"], ["a", "b"]]  # each file still holds its own figure
    # two selections that both have to be hashed, with one text: the hash tells their parts apart
    assert file_name("s-variant=a,b,c", ["a,b", "c"]) != file_name("s-variant=a,b,c", ["a", "b,c"])
