"""Which sweeps the reproduction tables judge as a figure (outside review of issue 34): only a figure's own
full-size run, every point of it run, whatever else takes its name; and a table never loses the claims it
evaluated unless asked (`reproduce --table --replace`)."""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path

from typer.testing import CliRunner

import pacesim
from pacesim import experiment_commands
from pacesim.cli import app
from pacesim.papers import figures, papers
from pacesim.reproduce.figure import scenarios_dir
from pacesim.reproduce.full_size import differs, full_size
from pacesim.reproduce.paper_tables import rerender
from pacesim.scenario import parse_scenario
from pacesim.store import Store, run_key
from pacesim.sweep import Sweep, run_sweep

from .conftest import TINY

runner = CliRunner()


def _copy(fig_id: str, name: str, more: list) -> Sweep:
    """Figure `fig_id`'s full-size sweep file as a user would copy it, `more` overrides added, named `name`."""
    s = figures()[fig_id].sweep(quick=False)
    return Sweep(name=name, base=s.base, axes=s.axes, seeds=s.seeds, set=s.set + more, variants=s.variants,
                 root=s.root)


def _set_differs(fig_id: str, more: list) -> str:
    """What `differs` says of `_copy(fig_id, ..., more)`."""
    theirs = figures()[fig_id].sweep(quick=False).set
    return f"its set is {theirs + more!r}, the figure's {theirs!r}"


def test_a_definition_is_the_figures_whatever_the_seeds_the_version_or_where_the_package_lay(tmp_path):
    """A stored definition as the figure's (by hand: its spec as JSON has it), read against the figure's."""
    fig = figures()["A-fig2"]  # reads a trace file
    mine = fig.sweep(quick=False).spec()
    assert differs(copy.deepcopy(mine), fig) is None
    theirs = copy.deepcopy(mine)
    theirs["seeds"] = [1, 2, 3, 4, 5]  # `reproduce` added seeds until the verdicts held
    for table in ("codel", "pie", "fq_codel"):  # an earlier version wrote no such tables: the engine's defaults
        theirs["base"]["core"].pop(table, None)
    trace = theirs["base"]["traffic"]["udp"][0]["trace"]
    ran_from = tmp_path / "site-packages" / "pacesim" / "scenarios" / "traces"
    ran_from.mkdir(parents=True)
    shutil.copy(trace["file"], ran_from)  # the package installed elsewhere when it ran
    trace["file"] = str(ran_from / "synthetic-star-wars.txt")
    assert differs(theirs, fig) is None
    shutil.rmtree(ran_from)  # ... and since removed: only its runs can prove it was the figure's (below)
    assert differs(theirs, fig) == (f"its base.traffic.udp[0].trace.file is {trace['file']!r} (no longer there, "
                                    "and no run of it read the figure's bytes), the figure's "
                                    f"{mine['base']['traffic']['udp'][0]['trace']['file']!r}")
    ran_from.mkdir(parents=True)
    (ran_from / "synthetic-star-wars.txt").write_text("0 0.0 I 100\n")  # another trace under the name
    assert differs(theirs, fig) == (f"its base.traffic.udp[0].trace.file is {trace['file']!r}, the figure's "
                                    f"{mine['base']['traffic']['udp'][0]['trace']['file']!r}")
    short = _copy("E-fig3", "E-fig3", ["duration=12s", "warmup=2s"])  # the reviewer's 12-second copy of E-fig3.toml
    assert differs(short.spec(), figures()["E-fig3"]) == _set_differs("E-fig3", ["duration=12s", "warmup=2s"])
    theirs = figures()["E-fig3"].sweep(quick=False).spec()
    theirs["base"].update(duration="12s", warmup="2s")
    assert differs(theirs, figures()["E-fig3"]) == "its base.duration is '12s', the figure's '400s'"
    theirs["axes"]["core.buffer"] = theirs["axes"]["core.buffer"][:2]  # an interrupted run registers all points
    assert differs(theirs, figures()["E-fig3"]).startswith("its axes.core.buffer is ['2KB', '3KB'], the figure's")
    assert differs({"base": "x"}, figures()["E-fig3"]).startswith("its set is not set")


def test_a_file_no_longer_there_is_the_figures_only_if_its_runs_read_the_same_bytes(tmp_path):
    """The review: a same-named trace whose stored path is gone was taken as the figure's by its name. Now the
    store's runs decide: a run's key covers the digest of the trace it read, so a run made on the figure's
    bytes proves it, and one made on other bytes under the same name does not."""
    fig = figures()["A-fig2"]  # reads a trace file
    theirs = json.loads(json.dumps(fig.sweep(quick=False).spec()))
    trace = theirs["base"]["traffic"]["udp"][0]["trace"]
    figure_trace = Path(trace["file"])
    ran_from = tmp_path / "site-packages" / "pacesim" / "scenarios" / "traces"
    trace["file"] = str(ran_from / figure_trace.name)
    point = figures()["A-fig2"].sweep(quick=False).point(0)
    for content, held in ((figure_trace.read_bytes(), True),
                          (b"".join(figure_trace.read_bytes().splitlines(keepends=True)[1:]), False)):
        ran_from.mkdir(parents=True)
        (ran_from / figure_trace.name).write_bytes(content)  # the package installed elsewhere when it ran
        scenario = point.scenario.model_dump(mode="json", exclude_none=True)
        scenario["traffic"]["udp"][0]["trace"]["file"] = trace["file"]
        scenario.update(duration="12s", warmup="1s")  # 0.07 s of engine: the key is what matters
        result = pacesim.run(parse_scenario(scenario))
        key = run_key(result.scenario.to_engine(), result.engine_version)
        with Store(tmp_path / f"r{held}") as store:
            store.save_ok(key, result, "here")
            store.register_sweep("A-fig2", theirs, [(point.axes, point.seed, key)], "reproduce")
            shutil.rmtree(ran_from)  # ... and since removed
            found = full_size(store)
        wrong = (f"its base.traffic.udp[0].trace.file is {trace['file']!r} (no longer there, and no run of it "
                 f"read the figure's bytes), the figure's {str(figure_trace)!r}")
        assert found == (({"A-fig2"}, {}) if held else (set(), {"A-fig2": wrong}))


def test_a_file_still_there_is_the_figures_only_if_its_runs_read_the_figures_bytes(tmp_path, monkeypatch):
    """Issue 34's outside review: a trace whose stored path was still there was judged on the bytes there now,
    not on those its runs read: the figure's bytes put back at the path after the runs read others, or the
    figure's own file edited since its runs, passed as the figure's. Now the runs' keys decide, whether or not
    the path is there; the figure's file is a copy here (PACESIM_SCENARIOS), so that it can be edited."""
    scenarios = tmp_path / "scenarios"
    shutil.copytree(scenarios_dir(), scenarios)
    monkeypatch.setenv("PACESIM_SCENARIOS", str(scenarios))
    fig = figures()["A-fig2"]  # reads a trace file
    spec = json.loads(json.dumps(fig.sweep(quick=False).spec()))
    figure_trace = Path(spec["base"]["traffic"]["udp"][0]["trace"]["file"])
    assert figure_trace.is_relative_to(scenarios)
    figures_bytes = figure_trace.read_bytes()
    others = b"".join(figures_bytes.splitlines(keepends=True)[1:])  # the trace less its first frame
    elsewhere = tmp_path / "site-packages" / figure_trace.name  # the package installed elsewhere when it ran
    elsewhere.parent.mkdir()

    def judged(at: Path, ran_on: bytes, then: bytes) -> tuple:
        """`full_size` of a store whose A-fig2 sweep read trace `at` holding `ran_on`, `then` put there after."""
        at.write_bytes(ran_on)
        point = fig.sweep(quick=False).point(0)
        scenario = point.scenario.model_dump(mode="json", exclude_none=True)
        scenario["traffic"]["udp"][0]["trace"]["file"] = str(at)
        scenario.update(duration="12s", warmup="1s")  # 0.07 s of engine: the key is what matters
        result = pacesim.run(parse_scenario(scenario))
        key = run_key(result.scenario.to_engine(), result.engine_version)
        theirs = copy.deepcopy(spec)
        theirs["base"]["traffic"]["udp"][0]["trace"]["file"] = str(at)
        with Store(tmp_path / f"r{len(list(tmp_path.glob('r*')))}") as store:
            store.save_ok(key, result, "here")
            store.register_sweep("A-fig2", theirs, [(point.axes, point.seed, key)], "reproduce")
            at.write_bytes(then)
            found = full_size(store)
        figure_trace.write_bytes(figures_bytes)
        return found

    at = "its runs read other bytes at its base.traffic.udp[0].trace.file"
    assert judged(elsewhere, others, figures_bytes) == (set(), {"A-fig2": (
        f"{at}, {str(elsewhere)!r}, than the figure's {str(figure_trace)!r} holds")})
    assert judged(elsewhere, figures_bytes, others) == ({"A-fig2"}, {})  # its runs read the figure's bytes
    assert judged(figure_trace, figures_bytes, figures_bytes) == ({"A-fig2"}, {})
    assert judged(figure_trace, figures_bytes, others) == (set(), {"A-fig2": (
        f"{at}, {str(figure_trace)!r}, than the file holds now (changed since they ran)")})


def test_only_a_figures_own_full_size_run_every_point_run_counts(tmp_path, pool):
    q9 = figures()["Q-fig9"].sweep(quick=False)  # 2 points of 30 s, one flow: 0.1 s of engine
    with Store(tmp_path) as store:
        run_sweep(q9, store, pool, progress=False)
        own = _copy("Q-fig11", "Q-fig11", ["duration=12s"])  # one's own copy of Q-fig11.toml, run under its name
        run_sweep(own, store, pool, progress=False)
        assert full_size(store) == ({"Q-fig9"}, {"Q-fig11": _set_differs("Q-fig11", ["duration=12s"])})
        q9.seeds = [1, 2]  # `reproduce` adding a seed, interrupted before it ran any
        store.register_sweep(q9.name, q9.spec(), ((p.axes, p.seed, p.key) for p in q9.iter_points()))
        held, others = full_size(store)
    assert held == set() and others["Q-fig9"] == ("2 of its 4 points have not run (an interrupted run: "
                                                  "`pacesim reproduce Q-fig9` resumes it)")


def test_a_figures_run_with_damaged_points_is_not_judged_and_says_so(tmp_path, pool):
    # Review 33d: with one point's stored table changed the sweep counted as the figure's full-size run (and
    # judging it failed on that table); with every point's tables gone the reason given was "none of its points
    # ran without an error", which is not what happened.
    with Store(tmp_path) as store:
        run_sweep(figures()["Q-fig9"].sweep(quick=False), store, pool, progress=False)  # 2 points, 0.1 s of engine
        files = store.db.execute("SELECT key, path FROM run_tables ORDER BY key, name").fetchall()
    first = tmp_path / files[0][1]
    data = bytearray(first.read_bytes())
    data[len(data) // 2] ^= 1
    first.write_bytes(bytes(data))
    why = ("{} of its 2 points {} damaged (a stored run's row or table file is not the one committed: `pacesim "
           "results Q-fig9` names each; `pacesim reproduce Q-fig9` runs {} again)")
    with Store(tmp_path, read_only=True) as store:
        assert full_size(store) == (set(), {"Q-fig9": why.format(1, "is", "it")})
    for _, rel in files:
        (tmp_path / rel).unlink()
    with Store(tmp_path, read_only=True) as store:
        assert full_size(store) == (set(), {"Q-fig9": why.format(2, "are", "them")})


def test_a_sweep_of_ones_own_under_a_figures_name_is_not_judged_as_it(tmp_path, pool):
    """The review: E-base named W-s1 made `reproduce --table` fail with a KeyError in W-s1's derived table."""
    results, record = tmp_path / "r", tmp_path / "record"
    with Store(results) as store:
        run_sweep(Sweep(name="W-s1", seeds=[1], set=TINY), store, pool, progress=False)
    record.mkdir()
    for p in set(papers()) - {"w"}:
        (record / f"paper_{p}.md").write_text("the record\n")
    out = runner.invoke(app, ["reproduce", "--table", "--results", str(results), "--tables", str(record)])
    assert out.exit_code == 0 and out.exception is None, out.output
    said = " ".join(out.output.split())
    assert f"warning: {results}: the sweep W-s1 is not figure W-s1's full-size run, so it is not judged: its set" in said
    assert re.findall(r"^wrote (.+)$", out.output, flags=re.M) == [f"{record}/paper_w.md"]
    assert "| W-s1 | W-s1: no full-size run in the store (its sweep W-s1 is not one: its set is" in (
        record / "paper_w.md").read_text()


def test_table_refuses_to_lose_claims_it_evaluated_unless_replace(tmp_path, pool):
    """The review: a store holding some of a paper's figures (here Q-fig11, and one's own 12 s copy of
    Q-fig9 under its name) replaced the table, Q-fig9 judged on 12 s runs and the five figures the store
    lacks turned "not evaluated", exit 0."""
    results, record = tmp_path / "r", tmp_path / "record"
    with Store(results) as store:
        run_sweep(figures()["Q-fig11"].sweep(quick=False), store, pool, progress=False)  # judged in 0.5 s
        run_sweep(_copy("Q-fig9", "Q-fig9", ["duration=12s"]), store, pool, progress=False)
    record.mkdir()
    for p in set(papers()) - {"q"}:  # kept: the store holds none of their figures
        (record / f"paper_{p}.md").write_text("the record\n")
    table = "".join(f"| {f}/{int(f[5:]) + 1} | `pacesim reproduce {f}`: 2 of 2 points | 2 of 2 reproduced | - |\n"
                    for f in ("Q-fig9", "Q-fig11"))
    (record / "paper_q.md").write_text(table)
    args = ["reproduce", "--table", "--results", str(results), "--tables", str(record)]
    out = runner.invoke(app, args)
    said = " ".join(out.output.split())
    assert out.exit_code == 2 and not isinstance(out.exception, KeyError), out.output
    assert (f"error: --tables {record}: nothing written: {record}/paper_q.md evaluated Q-fig9, of which the store "
            f"{results} holds no full-size run") in said and "--replace" in said
    assert (f"warning: {results}: the sweep Q-fig9 is not figure Q-fig9's full-size run, so it is not judged: "
            + _set_differs("Q-fig9", ["duration=12s"])) in said
    assert (record / "paper_q.md").read_text() == table and "wrote" not in out.output
    out = runner.invoke(app, args + ["--replace"])
    assert out.exit_code == 0, out.output
    assert re.findall(r"^wrote (.+)$", out.output, flags=re.M) == [f"{record}/paper_q.md"]
    written = (record / "paper_q.md").read_text()
    assert "| Q-fig11/12 | `pacesim reproduce Q-fig11`: 2 of 2 points |" in written
    assert (f"| Q-fig9/10 | Q-fig9: no full-size run in the store (its sweep Q-fig9 is not one: "
            f"{_set_differs('Q-fig9', ['duration=12s'])}) |") in written
    # Its judgement record beside it gives the table back without the store.
    assert rerender(record) == [record / "paper_q.md"] and (record / "paper_q.md").read_text() == written


def test_table_refuses_to_turn_settled_verdicts_unsettled_unless_replace(tmp_path, pool):
    # The second review: Q-tab2's own sweep file (one seed) run with `pacesim sweep` into a store, then --table
    # over a table whose Q-tab2 verdicts were settled on three seeds: exit 0, no warning, "3 unsettled".
    results, record = tmp_path / "r", tmp_path / "record"
    with Store(results) as store:
        run_sweep(figures()["Q-tab2"].sweep(quick=False), store, pool, progress=False)
    record.mkdir()
    settled = "| Q-tab2 | `pacesim reproduce Q-tab2`: 24 of 24 points | 1 of 1 reproduced | - |\n" \
              "| Q-tab2.1 | a | b | c | d | **reproduced** |\n"
    (record / "paper_q.md").write_text(settled)
    args = ["reproduce", "--table", "--results", str(results), "--tables", str(record)]
    out = runner.invoke(app, args)
    said = " ".join(out.output.split())
    assert out.exit_code == 2 and "Q-tab2.1 'reproduced' would read 'unsettled: more seeds wanted'" in said, said
    assert (record / "paper_q.md").read_text() == settled and "wrote" not in out.output
    out = runner.invoke(app, args + ["--replace"])
    assert out.exit_code == 0 and "**unsettled: more seeds wanted**" in (record / "paper_q.md").read_text()


def test_reproduce_does_not_redefine_ones_own_sweep_under_a_figures_name(tmp_path, monkeypatch):
    """The review: a sweep of one's own named Q-fig9 (`pacesim sweep` of one's file) was silently redefined as the
    figure by `pacesim reproduce Q-fig9`. Refused (exit 2, naming it and what to do), the store's definition kept;
    a definition `reproduce` registered, or one registered before origins were kept, or the figure's own sweep
    file run with `pacesim sweep`, is the figure's, which `reproduce` replaces when the figure's changed."""
    mine, results = tmp_path / "mine.toml", tmp_path / "r"
    mine.write_text('name = "Q-fig9"\nset = ["topology.edges=1", "topology.hosts_per_edge=2", "duration=2s", '
                    "\"warmup=1s\", 'traffic.start=[\"0s\", \"1s\"]']\n[axes]\n\"core.buffer\" = [\"5KB\"]\n")
    out = runner.invoke(app, ["sweep", str(mine), "--results", str(results), "--quiet", "--workers", "1"])
    assert out.exit_code == 0, out.output
    with Store(results, read_only=True) as store:
        before = store.spec("Q-fig9")
    said = f"--results {results}: the sweep Q-fig9 there is your own (`pacesim sweep {mine.resolve()}`), not figure Q-fig9's"
    out = runner.invoke(app, ["reproduce", "Q-fig9", "--results", str(results), "--workers", "1"])
    assert out.exit_code == 2 and said in " ".join(out.output.split()), out.output
    assert "give --results another store, or give your sweep another name" in " ".join(out.output.split())
    monkeypatch.setattr(experiment_commands, "_runnable", lambda: [figures()["Q-fig9"]])  # --all, Q-fig9 alone
    out = runner.invoke(app, ["reproduce", "--all", "--results", str(results), "--workers", "1"])
    assert out.exit_code == 2 and said in " ".join(out.output.split()), out.output
    with Store(results, read_only=True) as store:
        assert store.spec("Q-fig9") == before and len(store.points("Q-fig9")) == 1
    assert before["origin"] == f"sweep {mine.resolve()}"
    # The figure's: an earlier version's definition (here with a set the figure lost) under each origin
    # reproduce takes as the figure's.
    q9 = _copy("Q-fig9", "Q-fig9", ["duration=12s"])
    figure_file = scenarios_dir() / "Q-fig9.toml"
    for origin in (None, "reproduce", f"sweep {figure_file.resolve()}"):
        with Store(results) as store:
            store.register_sweep(q9.name, q9.spec(), ((p.axes, p.seed, p.key) for p in q9.iter_points()), origin)
        out = runner.invoke(app, ["reproduce", "Q-fig9", "--results", str(results), "--workers", "1",
                                  "--out", str(tmp_path / "out")])
        assert out.exit_code == 0, (origin, out.output)
        with Store(results, read_only=True) as store:
            now = store.spec("Q-fig9")
        assert now["origin"] == "reproduce" and differs(now, figures()["Q-fig9"]) is None
    # The third review: one's own copy of the figure's file that differs in its seeds alone was redefined.
    s = figures()["Q-fig9"].sweep(quick=False)
    seeds_only = Sweep(name=s.name, base=s.base, axes=s.axes, seeds=[7], set=s.set, variants=s.variants, root=s.root)
    with Store(results) as store:
        store.register_sweep(seeds_only.name, seeds_only.spec(),
                             ((p.axes, p.seed, p.key) for p in seeds_only.iter_points()), f"sweep {mine.resolve()}")
    out = runner.invoke(app, ["reproduce", "Q-fig9", "--results", str(results), "--workers", "1",
                              "--out", str(tmp_path / "out")])
    assert out.exit_code == 2 and "its seeds are [7], the figure's [1]" in " ".join(out.output.split()), out.output
    with Store(results, read_only=True) as store:
        assert store.spec("Q-fig9")["seeds"] == [7]
