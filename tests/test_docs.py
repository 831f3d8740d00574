"""The documentation: the scenario reference is the one the models generate, every key is described, and
the mkdocs site builds with --strict (no broken link, no missing page, no docstring it cannot read)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from pacesim.scenario import Scenario
from pacesim.scenario_reference import field_docs, render, tables, type_text

ROOT = Path(__file__).resolve().parents[1]


def python_blocks(page: Path) -> list:
    """The ```python blocks of a markdown page, in order, as written."""
    return re.findall(r"^```python\n(.*?)^```$", page.read_text(encoding="utf-8"), flags=re.M | re.S)


def test_the_tutorials_python_blocks_run_as_written(tmp_path, monkeypatch):
    """Review of issue 34: section 6's block failed, "warmup: 100s must be before the end of the run" (a 30 s
    run of e-base, whose warmup is 100 s). Every Python block of the tutorial runs, in order, in one namespace
    (a block uses the names those before it made), and gives what its comments say."""
    monkeypatch.chdir(tmp_path)
    blocks = python_blocks(ROOT / "docs" / "tutorial.md")
    assert len(blocks) >= 2
    names: dict = {}
    for i, block in enumerate(blocks):
        exec(compile(block, f"docs/tutorial.md, Python block {i + 1}", "exec"), names)
    r, cwnd = names["r"], names["cwnd"]
    assert r.scenario.duration == 30e9  # ns: the run section 6 asks for
    assert len(cwnd) > 0 and set(cwnd["entity"]) == {"flow.0"} and set(cwnd["series"]) == {"cwnd"}
    assert cwnd["time_s"].between(0, 30).all()


def test_the_committed_scenario_reference_is_current():
    committed = (ROOT / "docs" / "reference" / "scenario.md").read_text(encoding="utf-8")
    assert committed == render(), "run: python -m pacesim.scenario_reference docs/reference/scenario.md"


def test_each_reproduction_table_says_what_its_record_and_todays_causes_say(tmp_path):
    """A paper's table (docs/reproduction/paper_<x>.md) is its judgement record (paper_<x>.json: the outcomes the
    store gave) rendered with the causes, readings and references as they are now: a causes.toml edit that did
    not reach the table fails here."""
    from pacesim.reproduce.paper_tables import rerender

    committed = sorted((ROOT / "docs" / "reproduction").glob("paper_*.md"))
    assert [p.stem for p in committed] == ["paper_a", "paper_e", "paper_q", "paper_w", "paper_x"]
    for md in committed:
        (tmp_path / md.name).write_bytes(md.read_bytes())
        (tmp_path / f"{md.stem}.json").write_bytes(md.with_suffix(".json").read_bytes())
    assert sorted(p.name for p in rerender(tmp_path)) == [p.name for p in committed]
    for md in committed:
        assert (tmp_path / md.name).read_text() == md.read_text(), (
            f"{md.name} is not its record with today's causes: python -m pacesim.reproduce.paper_tables "
            "docs/reproduction")


def test_the_reference_speaks_in_the_scenarios_words():
    """The descriptions come from the engine's doc comments: no Rust path (`net::red`), type (`TcpVariant`)
    or constant (`MAX_SAMPLES`) of the engine's may leak into the user's reference."""
    text = (ROOT / "docs" / "reference" / "scenario.md").read_text(encoding="utf-8")
    leaks = re.findall(r"`[A-Za-z_]+::[A-Za-z_:]+`|`[A-Z][a-z]+(?:[A-Z][a-z]+)+`|`[A-Z][A-Z]+_[A-Z_]+`", text)
    assert leaks == [], leaks


def test_every_scenario_key_has_a_description_and_a_type():
    found = list(tables(Scenario, "", "Top level"))
    assert {h for h, _ in found} >= {"`[core.red]`", "`[[traffic.udp]]`", "`[traffic.udp.trace]`",
                                      '`[topology]` kind = "graph"', "`[pacing]`"}
    for heading, model in found:
        hints = typing.get_type_hints(model, include_extras=True)
        docs = field_docs(model)
        for name, field in model.model_fields.items():
            assert docs.get(name), f"{heading} {name}: no docstring"
            assert type_text(hints[name]) and "typing" not in type_text(hints[name]), f"{heading} {name}"


def test_type_names_follow_the_field_types():
    hints = typing.get_type_hints(Scenario, include_extras=True)
    assert type_text(hints["duration"]) == "time > 0" and type_text(hints["warmup"]) == "time"
    assert type_text(hints["seed"]) == "integer >= 0, < 2^64"
    from pacesim.scenario import Core, Tcp
    assert type_text(typing.get_type_hints(Core, include_extras=True)["queue"]) == "one of `droptail`, `red`, `codel`, `fq_codel`, `pie`"
    assert type_text(typing.get_type_hints(Tcp, include_extras=True)["window"]) == "integer > 0"


def jupyter_path() -> list:
    """Where nbconvert looks for its templates (the notebooks' pages use its `lab` template): Jupyter's own
    search path, and the base interpreter's share/jupyter in a venv made with --system-site-packages, whose
    nbconvert (and its templates) comes from the base interpreter while Jupyter looks under the venv's
    prefix alone (issue 34 review: "No template sub-directory with name 'lab'")."""
    from jupyter_core.paths import jupyter_path as search

    inherited = Path(sys.base_prefix) / "share" / "jupyter"
    return search() + ([str(inherited)] if sys.prefix != sys.base_prefix and inherited.is_dir() else [])


def test_mkdocs_builds_strict(tmp_path):
    paths = jupyter_path()
    if not any((Path(p) / "nbconvert" / "templates" / "lab").is_dir() for p in paths):
        pytest.skip(f"nbconvert's 'lab' template is in none of {paths}: nbconvert is installed without its "
                    "templates, and the notebooks' pages cannot be built")
    env = {**os.environ, "JUPYTER_PATH": os.pathsep.join(paths)}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    api = (tmp_path / "site" / "reference" / "api" / "index.html").read_text(encoding="utf-8")
    assert "pacesim.run" in api and "apply_overrides" in api, "the API page holds the docstrings"
    assert (tmp_path / "site" / "img" / "report-index.png").is_file()


def test_each_figure_the_docs_draw_is_the_file_their_command_writes():
    """Review of issue 34 (D8): docs/img's figure for a paper is what the command shown beside it writes
    (`pacesim plot ... --format F --out docs/img/NAME`, run on the tutorial's sweep): each format asked for is
    a file there, and the page links or shows every one, by that name."""
    from matplotlib.image import imread

    from pacesim.plot import SIZES, dpi_of

    commands = 0
    for page in (ROOT / "docs").glob("*.md"):
        text = page.read_text(encoding="utf-8").replace("\\\n", " ")
        for command in re.findall(r"pacesim plot [^\n]*--out docs/img/[^\s]+", text):
            commands += 1
            stem = re.search(r"--out docs/img/(\S+)", command)[1]
            formats = re.findall(r"--format (\w+)", command) or ["png", "svg"]
            for f in formats:
                assert (ROOT / "docs" / "img" / f"{stem}.{f}").is_file(), (page.name, stem, f)
                assert f"(img/{stem}.{f})" in text, (page.name, stem, f)
            size = re.search(r"--size (\S+)", command)
            if "png" in formats and size:  # drawn at the size the command asks for
                width = imread(ROOT / "docs" / "img" / f"{stem}.png").shape[1]
                assert width == round(SIZES[size[1]].width * dpi_of(size[1])), (stem, width)
    assert commands >= 1
