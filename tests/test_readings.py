"""Each paper's reading (python/pacesim/papers/<x>/reading.toml) is what its sweeps run.

A reading is one set of values for what a paper leaves open, applied to every
figure of the paper. Every setting with a scenario key must hold at every
point (full size and quick) of every sweep file of that paper: setting the
key to the reading's value changes no point's engine scenario. The table's
reading section shows each setting with the line it comes from.
"""

import sys
from pathlib import Path

import pytest

from pacesim.papers import papers
from pacesim.reproduce.figure import scenarios_dir
from pacesim.reproduce.paper_tables import reading_markdown, readings
from pacesim.scenario import apply_overrides
from pacesim.sweep import load_sweep

READINGS = readings()


def _points(paper: str):
    skip = set(READINGS[paper].get("except", []))
    for path in sorted(scenarios_dir().glob(f"{paper.upper()}-*.toml")):
        if path.stem in skip:
            continue
        sweep = load_sweep(path)
        for s in [sweep] + ([sweep.reduced()] if sweep.quick else []):
            yield from ((s.name, p) for p in s.points() if p.scenario is not None)


def _departures(paper: str, points) -> list:
    """(sweep, axes, key) of every point whose engine scenario does not hold a keyed setting's value."""
    keyed = [s for s in READINGS[paper]["set"] if "key" in s]
    out, wanted = [], None
    for name, point in points:
        engine = point.scenario.to_engine()
        if wanted is None:  # each key's engine value, from the reading's value set on one point
            wanted = {s["key"]: _at(apply_overrides(point.scenario, [f"{s['key']}={s['value']}"]).to_engine(),
                                    s["key"]) for s in keyed}
        out += [(name, point.axes, k) for k, v in wanted.items() if _at(engine, k) != v]
    return out


def _at(engine: dict, key: str):
    for part in key.split("."):
        engine = engine[part]
    return engine


@pytest.mark.parametrize("paper", sorted(READINGS))
def test_every_sweep_of_a_paper_runs_its_reading(paper):
    points = list(_points(paper))
    assert len(points) > 100 and any("key" in s for s in READINGS[paper]["set"])
    assert _departures(paper, points) == []


def test_papers_e_and_a_read_ns2s_advertised_window():
    # ns-2's window_ 20 (2.30 for paper A, 2.33 for paper E) where the papers state none.
    for paper in "ea":
        (window,) = [s for s in READINGS[paper]["set"] if s.get("key") == "tcp.window"]
        assert window["value"] == "20" and "window_ 20" in window["from"]


def test_every_paper_has_a_reading_with_sources():
    assert set(READINGS) == set(papers())
    for paper, r in READINGS.items():
        assert r["simulator"] and r["departures"]
        assert all(s["what"] and s["value"] and s["from"] for s in r["set"])
        text = "\n".join(reading_markdown(paper))
        assert text.startswith("## Reading") and r["simulator"] in text
        assert all(s["from"].replace("|", "\\|") in text for s in r["set"])


def test_a_reading_on_a_base_takes_its_settings_first():
    # The experiments beyond the papers ask paper E's question with one thing changed: E's reading, whole.
    assert READINGS["x"]["set"] == READINGS["e"]["set"] and "x" not in {s.get("base") for s in READINGS.values()}


def test_a_point_off_the_reading_is_found():
    points = list(_points("e"))[:3]
    name, p = points[1]
    points[1] = (name, type(p)(p.axes, p.seed, p.key, scenario=apply_overrides(p.scenario, ["tcp.window=1000"])))
    assert _departures("e", points) == [(name, p.axes, "tcp.window")]


@pytest.mark.parametrize("folders, says", [
    ({"zz": ("1", '[("E-fig3", "stolen")]')}, "ids not of paper ZZ: E-fig3"),
    ({"yy": ("1", "[]"), "vv": ("1", "[]")}, "two papers with one ORDER"),
])
def test_discovery_refuses_an_id_of_another_paper_and_a_taken_order(tmp_path, monkeypatch, folders, says):
    # review36 D4: a figure id of paper E in another folder replaced E's figure silently, two papers shared a place.
    import pacesim.papers as found

    for letter, (order, catalogue) in folders.items():
        (tmp_path / letter).mkdir()
        init = f'TITLE = "{letter}"\nORDER = {order}\nCATALOGUE = {catalogue}\n'
        (tmp_path / letter / "__init__.py").write_text(init)
    monkeypatch.setattr(found, "HERE", tmp_path)
    monkeypatch.setattr(found, "__path__", [str(tmp_path)])
    for letter in folders:
        monkeypatch.delitem(sys.modules, f"pacesim.papers.{letter}", raising=False)
    found.papers.cache_clear()
    try:
        with pytest.raises(ValueError, match=says):
            found.papers()
    finally:
        found.papers.cache_clear()
