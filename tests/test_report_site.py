"""`pacesim report`: the reproduction site, loaded in a real headless browser (Debian's chromium and chromedriver).

A small store is made here: Q-tab2 and W-s5 at full size (8 + 4 points, a few
seconds), each through `pacesim reproduce`, which judges the claims on the
points it has just run and draws the figures. The site is built from the store
alone; the browser then loads every page it links, and every image must be
decoded, every local link and fragment must exist, and the index's and paper
pages' counts must match what `reproduce` judged and what the store holds.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from urllib.parse import unquote, urlparse

import numpy as np
import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from typer.testing import CliRunner

from pacesim.cli import app
from pacesim.papers import CATALOGUE, papers
from pacesim.reproduce.catalogue import figures_of
from pacesim.papers import FIGURES
from pacesim.reproduce.runner import reproduce
from pacesim.reproduce.verdicts import NOT_EVALUATED, REPRODUCED, paper_of
from pacesim.store import Store
from pacesim.sweep import executor

RAN = ("Q-tab2", "W-s5")
runner = CliRunner()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """(store root, site dir, {figure id: what `reproduce` judged})."""
    root = tmp_path_factory.mktemp("results")
    with executor(workers=2) as pool:
        judged = {f: reproduce(f, root, root / "reproduce" / f, pool=pool, progress=False).claims for f in RAN}
    out = tmp_path_factory.mktemp("site")
    result = runner.invoke(app, ["report", "--results", str(root), "--out", str(out)])
    assert result.exit_code == 0, result.output
    return root, out, judged


@pytest.fixture(scope="module")
def browser():
    """Headless chromium through its own driver (neither is fetched at run time: Debian's packages)."""
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium and driver, "the browser test needs Debian's chromium and chromium-driver (see the README's test command)"
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(arg)
    with webdriver.Chrome(service=Service(driver), options=options) as b:
        yield b


PAGE = """return {title: document.title,
    links: Array.from(document.querySelectorAll("a[href]"), a => a.href),
    images: Array.from(document.images, i => [i.src, i.complete && i.naturalWidth > 0]),
    ids: Array.from(document.querySelectorAll("[id]"), e => e.id)};"""
"""What a loaded page holds, as the browser resolved it: links, images (and whether each was decoded), ids."""


def _crawl(browser, index: Path) -> dict:
    """Every page reachable from `index` by local links: {path: what `PAGE` found there}."""
    seen, todo = {}, [index.resolve()]
    while todo:
        page = todo.pop()
        if page in seen:
            continue
        browser.get(page.as_uri())
        seen[page] = browser.execute_script(PAGE)
        todo += [Path(unquote(urlparse(h).path)) for h in seen[page]["links"]
                 if h.startswith("file:") and h.split("#")[0].endswith(".html")]
    return seen


def test_every_page_loads_and_every_image_and_link_resolves(site, browser):
    _, out, _ = site
    pages = _crawl(browser, out / "index.html")
    assert set(pages) == {(out / n).resolve() for n in ["index.html"] + [f"paper_{p}.html" for p in papers()]}
    images = [(page, src, ok) for page, found in pages.items() for src, ok in found["images"]]
    assert len(images) == len(RAN), "one figure per run figure"
    for page, src, ok in images:
        assert ok, f"{page.name}: image {src} not decoded"
    for page, found in pages.items():
        assert found["title"], f"{page.name}: no title"
        for href in found["links"]:
            url = urlparse(href)
            assert url.scheme == "file", f"{page.name}: link off the site: {href}"
            target = Path(unquote(url.path))
            assert target.is_file(), f"{page.name}: broken link {href}"
            if url.fragment:
                assert unquote(url.fragment) in pages[target.resolve()]["ids"], f"{page.name}: no #{url.fragment} in {target.name}"


CATALOGUE_ROWS = """return Array.from(document.querySelectorAll("#catalogue tr[data-id]"), r => [r.dataset.id, r.innerText,
    Object.fromEntries(Array.from(r.querySelectorAll("td[data-count]"), td => [td.dataset.count, Number(td.innerText)]))]);"""
"""The index's catalogue table: (id, the row's text, {verdict class or "total": the count shown}) per row."""

CLAIM_ROWS = """return Array.from(document.querySelectorAll("table.claims tbody tr"),
    r => [r.id, r.querySelector("td.verdict").dataset.verdict]);"""
"""A paper page's claims: (claim id, verdict shown) per row."""


def test_the_counts_match_the_store_and_the_judged_claims(site, browser):
    root, out, judged = site
    browser.get((out / "index.html").resolve().as_uri())
    rows = {cid: (text, counts) for cid, text, counts in browser.execute_script(CATALOGUE_ROWS)}
    assert list(rows) == [cid for cid, _ in CATALOGUE]
    with Store(root, read_only=True) as store:
        for fid in RAN:
            text, counts = rows[fid]
            assert counts["total"] == len(FIGURES[fid].claims)
            assert counts["reproduced"] == sum(j.verdict == REPRODUCED for j in judged[fid])
            assert sum(v for k, v in counts.items() if k != "total") == counts["total"]
            n = len(store.points(fid))
            assert f"{n} of {n} points" in text
    for cid, _ in CATALOGUE:  # every other figure has no run in this store: all its claims not evaluated
        direct, _ = figures_of(cid)
        if direct and not {f.id for f in direct} & set(RAN):
            counts = rows[cid][1]
            assert counts["not-evaluated"] == counts["total"] == sum(len(f.claims) for f in direct), cid
    for paper in {paper_of(f) for f in RAN}:
        browser.get((out / f"paper_{paper}.html").resolve().as_uri())
        shown = dict(browser.execute_script(CLAIM_ROWS))
        for fid in RAN:
            if paper_of(fid) != paper:
                continue
            assert {j.id: shown.get(j.id) for j in judged[fid]} == {j.id: j.verdict for j in judged[fid]}
            for j in judged[fid]:
                if j.cause:  # a recorded miss shows its cause and every piece of evidence
                    text = browser.find_element(By.ID, f"cause-{j.id}").text
                    assert all(" ".join(e.split()).replace("`", "") in " ".join(text.split()) for e in j.evidence)
    assert NOT_EVALUATED not in {j.verdict for js in judged.values() for j in js}, "the runs judged every claim"


def test_a_paper_figures_page_and_report_say_where_its_flows_are(site):
    # Per-flow statistics are summarised for one's own sweeps only (docs/guide/sweeps.md says why): a paper
    # figure's page and report.md name the call that gives its flows, and that call gives them.
    root, out, _ = site
    with Store(root, read_only=True) as store:
        for fid, flows in [("W-s5", 160), ("Q-tab2", 0)]:  # 4 points of 40 flows; Q-tab2's queues carry no TCP
            call = f'Store(RESULTS).rows("{fid}", "flows")'
            page = " ".join((out / f"paper_{paper_of(fid)}.html").read_text().split())
            report = (root / "reproduce" / fid / "report.md").read_text()
            assert (call in page, call in report, f"{flows:,} flows with ns-3 FlowMonitor's" in page) == (flows > 0,) * 3
            rows = store.rows(fid, "flows")
            assert len(rows) == flows and rows["goodput_kbps"].notna().all(), fid


def test_bad_stores_are_errors_naming_the_option(tmp_path):
    missing = runner.invoke(app, ["report", "--results", str(tmp_path / "none"), "--out", str(tmp_path / "s")])
    assert missing.exit_code == 2 and "--results" in missing.output and "no results store" in missing.output
    Store(tmp_path / "empty").close()
    empty = runner.invoke(app, ["report", "--results", str(tmp_path / "empty"), "--out", str(tmp_path / "s")])
    assert empty.exit_code == 2 and "--results" in empty.output and "holds no sweep" in empty.output
    (tmp_path / "garbage").mkdir()
    (tmp_path / "garbage" / "pacesim.sqlite").write_text("not a database")
    garbage = runner.invoke(app, ["report", "--results", str(tmp_path / "garbage"), "--out", str(tmp_path / "s")])
    assert garbage.exit_code == 2 and "--results" in garbage.output and "not a results store" in garbage.output
    (tmp_path / "file").write_text("")
    into_file = runner.invoke(app, ["report", "--results", str(tmp_path / "empty"), "--out", str(tmp_path / "file")])
    assert into_file.exit_code == 2 and "--out" in into_file.output
    assert not any(r.exception and not isinstance(r.exception, SystemExit) for r in (missing, empty, garbage, into_file))


def test_a_store_of_ones_own_sweeps_gets_a_site_listing_them(tmp_path):
    """Issue 34: `pacesim report` refused a store holding only the user's sweeps. Now the catalogue shows
    nothing run, and the sweeps are listed with their points, axes and the PNGs `pacesim plot` drew."""
    from pacesim.sweep import Sweep, run_sweep

    sweep = Sweep(name="mine", axes={"core.buffer": ["3KB", "10KB"]}, seeds=[1, 2],
                  set=["topology.edges=2", "topology.hosts_per_edge=2", "duration=5s", "warmup=1s",
                       "traffic.start=['0s', '1s']"])
    with Store(tmp_path / "r") as store:
        run_sweep(sweep, store, None, progress=False)
    drawn = runner.invoke(app, ["plot", "mine", "--results", str(tmp_path / "r"), "--format", "png"])
    assert drawn.exit_code == 0, drawn.output
    out = runner.invoke(app, ["report", "--results", str(tmp_path / "r"), "--out", str(tmp_path / "s")])
    assert out.exit_code == 0, out.output
    index = (tmp_path / "s" / "index.html").read_text()
    row = index[index.index('<tr data-sweep="mine">'):].split("</tr>")[0]
    assert "<code>core.buffer</code>: 3KB, 10KB" in row and ">4<" in row and ">1, 2<" in row
    (png,) = (tmp_path / "s" / "sweeps" / "0").iterdir()
    assert png.name == "mine-goodput_kbps_mean-vs-core.buffer.png" and f'src="sweeps/0/{png.name}"' in index
    assert png.read_bytes() == (tmp_path / "r" / "plots" / png.name).read_bytes()
    # Review of issue 34: the per-flow statistics were in the API only. The index has each statistic's spread
    # over the 16 flows (4 points x 4 flows) as Store.rows gives them, the first 5 flows and the 5 worst served.
    with Store(tmp_path / "r", read_only=True) as store:
        flows = store.rows("mine", "flows")

    def table(part: str) -> list:
        body = index[index.index(f'data-sweep="mine" data-part="{part}"'):].split("</table>")[0]
        return [re.findall(r"<td[^>]*>([^<]*)</td>", r) for r in body.split("<tr>")[2:]]

    assert "its 16 flows over 4 finished points" in " ".join(index.split())
    spread = {r[0]: [float(v.replace(",", "")) for v in r[1:]] for r in table("spread")}
    assert set(spread) == {"goodput, Kb/s", "throughput, Kb/s", "lost packets", "loss %"}  # no [transit]
    for column, label, k in [("goodput_kbps", "goodput, Kb/s", 1), ("loss_rate", "loss %", 100)]:
        expected = np.percentile(flows[column] * k, [0, 10, 50, 90, 100])
        assert spread[label] == pytest.approx(expected, rel=5e-3, abs=1e-9)
    first, worst = table("first"), table("worst")
    assert [(r[0], int(r[1]), int(r[2])) for r in first] == [
        (f"core.buffer={b}", seed, flow) for b, seed, flow in
        [("3KB", 1, 0), ("3KB", 1, 1), ("3KB", 1, 2), ("3KB", 1, 3), ("3KB", 2, 0)]]
    least = sorted(flows["goodput_kbps"])[:5]
    assert [float(r[3].replace(",", "")) for r in worst] == pytest.approx(least, rel=5e-3)


def test_a_sweeps_plots_are_its_own_and_no_empty_directory_is_made(tmp_path):
    """Issue 34 review: sweep `units` listed `units-2`'s plots (a match on `units-`), and a sweep without
    plots made an empty `sweeps/<i>/` directory."""
    from pacesim.site.pages import write_site
    from pacesim.site.record import OwnSweep, Record, plots_of

    plots = tmp_path / "plots"
    plots.mkdir()
    names = ["units-goodput_kbps_mean-vs-core.buffer.png", "units-2-goodput_kbps_mean-vs-core.buffer.png",
             "units-2-core.buffer=3KB-seed1-cwnd.png", "units-core.buffer=3KB-seed1-cwnd.png", "other-x.png"]
    for n in names:
        (plots / n).write_bytes(b"")
    found = plots_of(plots, ["units", "units-2", "unit"])
    assert [p.name for p in found["units"]] == ["units-core.buffer=3KB-seed1-cwnd.png",
                                               "units-goodput_kbps_mean-vs-core.buffer.png"]
    assert [p.name for p in found["units-2"]] == ["units-2-core.buffer=3KB-seed1-cwnd.png",
                                                 "units-2-goodput_kbps_mean-vs-core.buffer.png"]
    assert found["unit"] == []
    bare = OwnSweep("units", 1, 1, 0, 0, 0.1, "2026-12-05 04:00:00", [("core.buffer", "3KB")], "1", [])
    write_site(Record(tmp_path, [], "0", "now", False, [bare]), tmp_path / "site")
    assert not (tmp_path / "site" / "sweeps").exists()


def test_counts_for_people_have_thousands_separators(tmp_path):
    """Review of issue 34: the site wrote "18000 flows"; counts read as the command line writes them."""
    from pacesim.site.pages import write_site
    from pacesim.site.record import FlowStats, OwnSweep, Record

    row = ["", "1", "0", "1"]
    flows = FlowStats(18000, 1, [("goodput, Kb/s", ["1"] * 5)], ["point", "seed", "flow", "goodput"], [row], [row])
    big = OwnSweep("big", 12345, 12000, 345, 0, 0.1, "2026-12-05 04:00:00", [], "1", [], flows)
    write_site(Record(tmp_path, [], "0", "now", False, [big]), tmp_path / "site")
    index = " ".join((tmp_path / "site" / "index.html").read_text().split())
    assert "its 18,000 flows over 1 finished point:" in index
    assert '<td class="num">12,345</td><td class="num">12,000</td><td class="num">345</td>' in index
