"""Sweeps held to what they can mean and what fits (issue 33): a seed or a packet trace set per point is
refused rather than silently replaced or shared, a sweep's name is a plain file name, and a sweep too
large is refused at once while one that fits is made, and handed to its executor, a few points at a
time."""

from __future__ import annotations

import json
import os
from concurrent.futures import Executor, Future

import pytest
from typer.testing import CliRunner

import pacesim
from pacesim import scenario as scenario_module
from pacesim.cli import app
from pacesim.store import Store, run_key
from pacesim.sweep import IN_FLIGHT, MAX_POINTS, Sweep, SweepError, load_sweep, run_sweep

TINY = ["topology.edges=2", "topology.hosts_per_edge=2", "duration=2s", "warmup=1s", 'traffic.start=["0s", "0.5s"]']
POISSON = {"kind": "poisson", "rate": "2Mbps", "size": "200B"}
CBR = {"kind": "cbr", "rate": "1Mbps", "size": "200B"}
UDP2 = 'traffic.udp=[{kind="poisson", rate="2Mbps", size="200B"}, {kind="cbr", rate="1Mbps", size="200B"}]'
"""Two UDP sources, as a table each and as an override giving both."""
runner = CliRunner()


@pytest.mark.parametrize("axes, set_, variants, match", [
    ({"seed": [1, 2]}, [], {}, r"axis 'seed': a sweep's seeds are its `seeds` list"),
    ({}, ["seed=5"], {}, r"set\[5\]: 'seed=5': a sweep's seeds are its `seeds` list"),
    ({"variant": ["a"]}, [], {"a": [" seed = 3"]}, r"variants.'a'\[0\]: ' seed = 3': a sweep's seeds"),
    ({"trace.file": ["/tmp/a.tr", "/tmp/b.tr"]}, [], {}, r"axis 'trace.file': a sweep writes no packet traces"),
    ({"trace": [{"file": "/tmp/a.tr"}]}, [], {}, r"axis 'trace': a sweep writes no packet traces"),
    ({"variant": ["t"]}, [], {"t": ['trace.file="/tmp/a.tr"']}, r"variants.'t'\[0\]: .*writes no packet traces"),
])
def test_a_seed_or_a_trace_set_per_point_is_refused(axes, set_, variants, match):
    # An axis `seed = [1, 2]` once ran seed 1 twice (each point's seed replaced it); an axis `trace.file`
    # slipped past "a sweep writes no packet traces".
    with pytest.raises(SweepError, match=match):
        Sweep(name="s", axes=axes, set=TINY + set_, variants=variants)


@pytest.mark.parametrize("name", ["../../x", "/tmp/x", "a/b", ".hidden", "-x", "x\x1b]0;owned\x07", "a b", "",
                                  "x" * 121, "\u00e9" * 61])
def test_a_sweep_name_is_a_plain_file_name(name, tmp_path):
    # `../../x` or an absolute name once put plot's output outside --results.
    with pytest.raises(SweepError, match="^name: .* (is not a plain name|is longer than 120 bytes)") as e:
        Sweep(name=name, set=TINY)
    assert "\x1b" not in str(e.value) and "\x07" not in str(e.value)
    (tmp_path / "s.toml").write_text(f"name = {json.dumps(name)}\nset = {json.dumps(TINY)}\n")
    out = runner.invoke(app, ["sweep", str(tmp_path / "s.toml"), "--results", str(tmp_path / "r"), "--quiet"])
    assert out.exit_code == 2 and "name: " in out.output and "\x1b" not in out.output, out.output
    assert not (tmp_path / "r").exists()
    with Store(tmp_path / "store") as store, pytest.raises(Exception, match="is not a plain name|is longer than"):
        store.register_sweep(name, {}, [])
    for good in ["E-fig3-quick", "buffers_2.5KB+red", "d\u00e9bit"]:
        assert Sweep(name=good, set=TINY).name == good


def test_a_sweep_too_large_is_refused_at_once_naming_its_axes():
    axes = {"core.buffer": [f"{i}KB" for i in range(1, 1001)], "pacing.fraction": [i / 1000 for i in range(1, 1001)]}
    with pytest.raises(SweepError, match=r"^s: 3,000,000 points \(1,000 values of 'core.buffer' x 1,000 values of "
                                         r"'pacing.fraction' x 3 seeds\), more than the 1,000,000 a sweep may have"):
        Sweep(name="s", axes=axes, seeds=[1, 2, 3], set=TINY)
    assert Sweep(name="s", axes=axes, seeds=[1], set=TINY).size == MAX_POINTS


def test_a_sweep_too_large_is_refused_before_its_values_are_checked(monkeypatch):
    # Each axis value was checked (a scenario made of it, ~4 ms) before the size: four axes of 10,000 values
    # took minutes to be refused (session 11, hostile_store.py seed 2403: a hang).
    from pacesim.sweep import definition

    monkeypatch.setattr(definition, "_check_axis", lambda *a: pytest.fail("a value checked"))
    axes = {k: list(range(1, 10_001)) for k in ["tcp.window", "tcp.initial_window", "topology.edges", "core.delay"]}
    with pytest.raises(SweepError, match=r"^s: 10,000,000,000,000,000 points \(10,000 values of 'tcp.window' x"):
        Sweep(name="s", axes=axes, set=TINY)


def test_points_are_made_one_combination_at_a_time(monkeypatch):
    # A 10^6-point sweep once made every point (2.5 GB) before the first ran. Its points are made lazily,
    # each combination of axis values validated once for all its seeds, with the same keys as made alone.
    axes = {"core.buffer": [f"{i}KB" for i in range(1, 1001)], "pacing.fraction": [i / 1000 for i in range(1, 1001)]}
    big = Sweep(name="big", axes=axes, seeds=[1], set=TINY)
    made = []
    real = scenario_module.overridden
    monkeypatch.setattr("pacesim.sweep.definition.overridden", lambda *a, **k: made.append(1) or real(*a, **k))
    points = big.iter_points()
    first, second = next(points), next(points)
    assert len(made) == 2 and (first.axes, second.axes) == ({"core.buffer": "1KB", "pacing.fraction": 0.001},
                                                             {"core.buffer": "1KB", "pacing.fraction": 0.002})
    assert big.axes_at(MAX_POINTS - 1) == ({"core.buffer": "1000KB", "pacing.fraction": 1.0}, 1)
    seeded = Sweep(name="seeded", axes={"core.buffer": ["5KB", "10KB"]}, seeds=[3, 1, 2**63 - 1], set=TINY)
    made.clear()
    points = seeded.points()
    assert len(made) == 2 and len(points) == 6
    for p in points:
        alone = scenario_module.apply_overrides(pacesim.Scenario(), TINY + [f"core.buffer={json.dumps(p.axes['core.buffer'])}",
                                                                            f"seed={p.seed}"])
        assert p.key == run_key(alone.to_engine(), pacesim.ENGINE_VERSION) and p.scenario.seed == p.seed
    assert [seeded.point(i).key for i in range(6)] == [p.key for p in points]


class Counting(Executor):
    """Fails each point at once without running it, and records how many points were handed over and not
    yet taken back (`Future.result`) at most."""

    def __init__(self) -> None:
        self.held, self.most = 0, 0

    def submit(self, fn, *args, **kwargs) -> Future:
        pool = self

        class Taken(Future):
            def result(self, timeout=None):
                pool.held -= 1
                return super().result(timeout)

        self.held += 1
        self.most = max(self.most, self.held)
        f = Taken()
        f.set_result({"error": "not run here", "host": None})
        return f


def test_a_sweep_hands_its_points_over_a_window_at_a_time(tmp_path):
    sweep = Sweep(name="many", axes={"core.buffer": [f"{i}KB" for i in range(1, 601)]}, set=TINY)
    pool = Counting()
    with Store(tmp_path) as store:
        run = run_sweep(sweep, store, pool, progress=False)
        assert (run.points, run.ran, run.failed) == (600, 600, 600)
        assert len(store.points("many")) == 600
    assert pool.most <= IN_FLIGHT


def test_points_follow_seeds_added_to_a_sweep():
    # `reproduce` adds seeds to a sweep until its verdicts hold: the combination made last is not reused.
    sweep = Sweep(name="s", axes={"core.buffer": ["5KB", "10KB"]}, seeds=[1], set=TINY)
    assert [p.seed for p in sweep.points()] == [1, 1]
    sweep.seeds = sweep.seeds + [2, 3]
    assert [(p.axes["core.buffer"], p.seed) for p in sweep.points()] == [("5KB", s) for s in (1, 2, 3)] + [
        ("10KB", s) for s in (1, 2, 3)]
    assert [sweep.point(i).scenario.seed for i in range(6)] == [1, 2, 3, 1, 2, 3]


def _dies_writing_its_result() -> None:
    """In a pool worker: write the start of a message of 1000 bytes on the worker's own pipe to the parent (the
    `conn` of `pool._serve`, which calls this), then die as the kernel's OOM killer kills it."""
    import os
    import signal
    import struct
    import sys

    conn = sys._getframe(1).f_locals["conn"]
    os.write(conn.fileno(), struct.pack("!i", 1000) + b"a part")
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_pool_goes_on_when_a_worker_died_writing_its_result():
    # A store failure mid-sweep (a full disk) once hung the sweep in 2 of 7 tries: the workers, killed while
    # one wrote its result, left part of a message in the result pipe the workers shared, and the pool's
    # manager thread waited for the rest for ever; a worker killed by the kernel broke every point after it
    # (BrokenProcessPool). Each worker now has its own pipe: a part and then its end fail its call alone.
    import threading

    from pacesim.pool import WorkerDied
    from pacesim.sweep import executor

    ended = []

    def sweep_that_fails() -> None:
        try:
            with executor(workers=1) as pool:
                died = pool.submit(_dies_writing_its_result).exception(timeout=60)
                assert isinstance(died, WorkerDied) and "killed by SIGKILL (signal 9)" in str(died), died
                assert pool.submit(len, "abc").result(timeout=60) == 3  # on a new worker
                raise RuntimeError("the store failed")
        except RuntimeError:
            ended.append(True)

    t = threading.Thread(target=sweep_that_fails, daemon=True)
    t.start()
    t.join(60)
    assert ended == [True], "the pool's shutdown waits for ever"


@pytest.mark.parametrize("seeds, axes, match", [
    ([1, 2, 1], {}, r"^seeds\[2\]: 1 is given twice \(also at \[0\]\)"),
    ([1], {"core.buffer": ["5KB", "10KB", "5KB"]}, r"^axis 'core.buffer'\[2\]: '5KB' is given twice"),
    # written differently, meaning one buffer (found by the outside review: 3 points, run once, stored once)
    ([1], {"core.buffer": ["3KB", "10KB", "3000B"]}, r"^axis 'core.buffer'\[2\]: '3000B' means what \[0\] '3KB'"),
    ([1], {"duration": ["20s", "20000ms"]}, r"^axis 'duration'\[1\]: '20000ms' means what \[0\] '20s'"),
    # review34e D5: -0.0 ran the 0.0 point again under a key of its own
    ([1], {"pacing.fraction": [0.0, -0.0, 0.5]}, r"^axis 'pacing.fraction'\[1\]: -0.0 means what \[0\] 0.0"),
])
def test_a_point_given_twice_is_refused(seeds, axes, match, tmp_path):
    # Found by bench/fuzz/hostile_store.py: seeds = [1, 1] made a sweep of 2 points that the store listed once.
    with pytest.raises(SweepError, match=match):
        Sweep(name="s", axes=axes, seeds=seeds, set=TINY)



def test_negative_zero_given_through_the_python_api_is_zero():
    """Re-review of issue 34 (rereview34f D5): a dict or `model_validate` with -0.0 kept it (echoed in the
    report), and a Sweep on a base Scenario holding it made other store keys than 0.0's: the store ran it again."""
    import math

    base = pacesim.load_scenario("e-base")
    data = base.model_dump(mode="json", exclude_none=True, by_alias=True)
    data["pacing"]["fraction"] = -0.0
    for read in (scenario_module.parse_scenario(data), type(base).model_validate(data)):
        assert read.pacing.fraction == 0 and math.copysign(1.0, read.pacing.fraction) == 1.0
    keys = {}
    for zero in (-0.0, 0.0):
        data["pacing"]["fraction"] = zero
        sweep = Sweep(name="nz", base=scenario_module.parse_scenario(data), axes={"core.buffer": ["3KB", "10KB"]},
                      set=TINY)
        keys[zero] = [p.key for p in sweep.points()]
    assert keys[-0.0] == keys[0.0]


def test_a_users_negative_zero_is_zero(tmp_path):
    """Review of issue 34 (review34e D5): -0.0 written in a sweep file or given to --set was kept: an axis
    [0.0, -0.0, 0.5] ran one point twice under two keys, `results` printed -0.0 and `run --json` echoed it.
    Read as 0.0 wherever a user's number is read (TOML: files and --set values), sign and all."""
    import math

    def positive_zero(x) -> bool:
        return x == 0 and math.copysign(1.0, x) == 1.0

    base = pacesim.load_scenario("e-base")
    assert positive_zero(scenario_module.apply_overrides(base, ["pacing.fraction=-0.0"]).pacing.fraction)
    (tmp_path / "nz.toml").write_text(f'name = "nz"\nset = {json.dumps(TINY)}\n[axes]\n'
                                      '"pacing.fraction" = [-0.0, 0.5]\n')
    axis = load_sweep(tmp_path / "nz.toml").axes["pacing.fraction"]
    assert positive_zero(axis[0]) and axis[1] == 0.5
    (tmp_path / "nz.toml").write_text(f'name = "nz"\nset = {json.dumps(TINY)}\n[axes]\n'
                                      '"pacing.fraction" = [0.0, -0.0, 0.5]\n')
    with pytest.raises(SweepError, match=r"^axis 'pacing.fraction'\[1\]: 0.0 is given twice \(also at \[0\]\)"):
        load_sweep(tmp_path / "nz.toml")
    (tmp_path / "s.toml").write_text('[pacing]\nscheme = "host"\nfraction = -0.0\n')
    assert positive_zero(pacesim.load_scenario(tmp_path / "s.toml").pacing.fraction)

def test_checking_a_sweep_off_a_terminal_writes_its_progress_as_lines(monkeypatch, capsys):
    # The issue 33 review: a 10^6-point sweep is checked for most of an hour, and printed nothing into a log
    # file or a pipe (rich draws its bar only on a terminal).
    from pacesim.sweep import progress
    from pacesim.sweep.check import check_points

    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 0.0)  # a line at every update of the bar
    sw = Sweep(name="lines", axes={"core.buffer": ["3KB", "4KB", "5KB"]}, seeds=[1, 2], set=TINY)
    with progress.bar(True) as bar:
        check_points(sw, bar)
    err = capsys.readouterr().err
    assert "lines: checking points: 6 of 6 (100 %), 0 s\n" in err, err
    with progress.bar(False) as bar:  # --quiet: nothing
        check_points(sw, bar)
    assert capsys.readouterr().err == ""


def test_an_axis_of_tables_is_applied_as_its_tables(tmp_path):
    # review33f: an axis of `traffic.udp` lists was passed on as JSON text, which TOML does not read, and every
    # point but the empty list was refused ("Input should be a valid list (got '[{"kind": ...').
    path = tmp_path / "udp.toml"
    path.write_text("""name = "udp"
scenario = "a-base"
seeds = [1]
set = ["duration=2s", "warmup=0s", "topology.tcp_hosts=1", 'traffic.start=["0s", "0s"]']
[axes]
"traffic.udp" = [[], [{kind="cbr", rate="1Kbps", size="100B"}, {kind="cbr", rate="2Kbps", size="100B"}]]
""")
    out = CliRunner().invoke(app, ["sweep", str(path), "--results", str(tmp_path / "r"), "--workers", "1"])
    assert out.exit_code == 0, out.output
    with Store(tmp_path / "r") as store:
        udp = sorted(len(json.loads(s).get("traffic", {}).get("udp", []))
                     for (s,) in store.db.execute("SELECT scenario FROM runs"))
    assert udp == [0, 2]


def _names_axis(tmp_path, names: int, key: str = "pacing.links") -> str:
    """A sweep file (review33f's sweep/gen.py, smaller) whose axis `key` holds no names, then `names` of them."""
    path = tmp_path / "names.toml"
    path.write_text('name = "names"\nscenario = "a-base"\nseeds = [1]\n'
                    'set = ["duration=2s", "warmup=0s", "traffic.start=[\\"0s\\", \\"0s\\"]", "topology.tcp_hosts=1"]\n'
                    f'[axes]\n"{key}" = [[], {json.dumps(["core"] * names)}]\n')
    return str(path)


def test_an_axis_value_is_weighed_before_it_is_read(tmp_path, monkeypatch):
    # review33f #5: an axis value of 1.9 million pacer names (a 13 MB sweep file) was read whole (written as JSON,
    # read back as TOML, validated, read by the engine) and refused for its names, 968 MB under --max-memory 300MB,
    # with a 15 MB message holding the whole list; `pacesim run` refuses the same list before reading it
    # (`memory.check_data`: 384 B a name). 200,000 names: 76.8 MB, with the interpreter's 64 MiB past 100 MB.
    from pacesim.sweep import definition

    monkeypatch.setattr(definition, "_check_axis", lambda *a: pytest.fail("a value read"))
    with pytest.raises(SweepError) as e:
        load_sweep(_names_axis(tmp_path, 200_000), max_memory=100 * 10**6)
    assert str(e.value) == ("axis 'pacing.links'[1]: pacing.links: the run needs an estimated 144 MB of memory "
                            "(76.8 MB for this), more than the limit (100 MB); lower it, or allow more with "
                            "--max-memory (max_memory=)")
    out = runner.invoke(app, ["sweep", _names_axis(tmp_path, 200_000), "--results", str(tmp_path / "r"),
                              "--max-memory", "100MB", "--quiet"])
    assert out.exit_code == 2 and "axis 'pacing.links'[1]: pacing.links: the run needs" in out.output, out.output
    assert not (tmp_path / "r").exists()
    # The quick version keeps the bound.
    monkeypatch.undo()
    path = tmp_path / "quick.toml"
    path.write_text(open(_names_axis(tmp_path, 10)).read() + '[quick]\nset = ["duration=1s"]\n')
    quick = load_sweep(path, max_memory=200 * 10**6).reduced()
    assert quick.max_memory == 200 * 10**6


def test_an_invalid_combination_names_a_long_axis_value_cut(tmp_path):
    # review33f #5: the invalid combination's message held its axis value whole (15 MB for 1.9 million names).
    with pytest.raises(SweepError) as e:
        run_sweep(load_sweep(_names_axis(tmp_path, 5_000)), Store(tmp_path / "r"), progress=False)
    text = str(e.value)
    assert text.startswith("names: 1 combination(s) of axis values are invalid, nothing was run; pacing.links=['core', ")
    assert "...: pacing.links[1]: " in text and len(text) < 400, text


def test_axis_values_whose_lists_fit_alone_but_not_together_are_refused_unread(tmp_path, monkeypatch):
    # Two axes of UDP packet sizes (192 B a listed size): 2,000 sizes fit a limit 600,000 B past the interpreter's
    # 64 MiB with one source's list, not with both; the combination holding both is refused before the engine
    # reads it, as `pacesim run` refuses it, the others run.
    from pacesim import _core

    read = []
    validate = _core.validate_json
    sizes = lambda text: sum(len(u["size"].get("list", [])) for u in json.loads(text)["traffic"]["udp"])  # noqa: E731
    monkeypatch.setattr(_core, "validate_json", lambda text: read.append(sizes(text)) or validate(text))
    udp = '{kind = "cbr", rate = "1Kbps", sizes = ["100B"]}'
    sw = Sweep(name="sizes", base=pacesim.load_scenario("a-base"), seeds=[1],
               set=["duration=1s", "warmup=0s", 'traffic.start=["0s", "0s"]', "topology.tcp_hosts=1",
                    f"traffic.udp=[{udp}, {udp}]"],
               axes={"traffic.udp[0].sizes": [["100B"], ["100B"] * 2000],
                     "traffic.udp[1].sizes": [["100B"], ["100B"] * 2000]},
               max_memory=64 * 2**20 + 600_000)
    with pytest.raises(SweepError) as e, Store(tmp_path / "r") as store:
        run_sweep(sw, store, progress=False, max_memory=sw.max_memory)
    assert str(e.value).startswith(
        "sizes: 1 combination(s) of axis values are invalid, nothing was run; traffic.udp[0].sizes=['100B', '100B', ")
    assert "traffic.udp[0].sizes: the run needs an estimated 67.9 MB of memory (384 KB for this), more than the " \
           "limit (67.7 MB)" in str(e.value), str(e.value)
    assert max(read) < 3000, "the engine never read both lists"


def _listed(tmp_path, where: str, names: list) -> str:
    """A sweep file (review33h's sweep/gen.py, smaller) whose pacer names `names` are set in `where`: `set`, the
    variant `big` of the variant axis, or `[quick]`'s `set`."""
    override = json.dumps(f"pacing.links={json.dumps(names)}")
    head = ('name = "names"\nscenario = "a-base"\nseeds = [1]\n'
            'set = ["duration=2s", "warmup=0s", "traffic.start=[\\"0s\\", \\"0s\\"]", "topology.tcp_hosts=1"{}]\n')
    text = {"set": head.format(f", {override}") + '[axes]\n"core.buffer" = ["5KB"]\n',
            "variants": head.format("") + f'[variants]\nbig = [{override}]\nsmall = ["core.buffer=5KB"]\n'
                                          '[axes]\nvariant = ["small", "big"]\n',
            "quick": head.format("") + f'[axes]\n"core.buffer" = ["5KB"]\n[quick]\nset = [{override}]\n'}[where]
    path = tmp_path / f"{where}.toml"
    path.write_text(text)
    return str(path)


NAMED = {"set": "set", "variants": "variants.'big'", "quick": "quick.set"}


@pytest.mark.parametrize("where", list(NAMED))
def test_a_list_in_set_a_variant_or_quick_is_weighed_before_it_is_read(where, tmp_path, monkeypatch):
    # review33h D4: 1.6 million pacer names in `set`, a variant or `[quick]`'s `set` (a 14 MB sweep file) were
    # validated whole and refused by the engine's "named twice", 718 MB under --max-memory 300MB; an axis value
    # is weighed first (384 B a name): 200,000 names, 76.8 MB with the interpreter's 64 MiB, past 100 MB.
    validate = scenario_module.Scenario.model_validate

    def unread(data, **kw):
        if len(data.get("pacing", {}).get("links", [])) > 2:
            pytest.fail("the list read")
        return validate(data, **kw)

    monkeypatch.setattr(scenario_module.Scenario, "model_validate", unread)
    quick = ["--quick"] if where == "quick" else []
    out = runner.invoke(app, ["sweep", _listed(tmp_path, where, ["core"] * 200_000), "--results",
                              str(tmp_path / "r"), "--max-memory", "100MB", "--quiet"] + quick)
    assert out.exit_code == 2, out.output
    assert " ".join(out.output.split()) == (
        f"error: {NAMED[where]}: pacing.links: the run needs an estimated 144 MB of memory (76.8 MB for this), "
        "more than the limit (100 MB); lower it, or allow more with --max-memory (max_memory=)")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("where", list(NAMED))
def test_an_error_in_a_variant_or_quick_names_it(where, tmp_path):
    # review33h D5: a variant's invalid override was named as if it stood alone ('pacing.links[1]: "core" is
    # named twice'), and one of `[quick]`'s as `set`'s.
    with pytest.raises(SweepError) as e:
        load_sweep(_listed(tmp_path, where, ["core", "core"])).reduced()  # `set` and a variant fail as it is read
    assert str(e.value) == f'{NAMED[where]}: pacing.links[1]: "core" is named twice'


def test_a_seed_set_by_quick_is_named_there(tmp_path):
    path = tmp_path / "seed.toml"
    path.write_text(open(_listed(tmp_path, "quick", [])).read().replace("pacing.links=[]", "seed=3"))
    with pytest.raises(SweepError, match=r"^quick\.set\[0\]: 'seed=3': a sweep's seeds are its `seeds` list"):
        load_sweep(path).reduced()  # was set[2]: the quick version's `set` is the sweep's and quick's


@pytest.mark.parametrize("kind", ["e-base", "a-base"])
@pytest.mark.parametrize("value, shown", [("[1, 2]", "[1, 2]"), ("{a = 1}", "{'a': 1}"), ("true", "True"),
                                          ("2.5", "2.5"), ("0", "0"), ('"20"', "'20'")])
def test_a_flows_value_that_is_no_count_is_refused_naming_its_index(kind, value, shown, tmp_path):
    # review33h D6: a list or a table was taken for a count of flows ("flows: [1, 2] flows cannot be spread evenly
    # over 10 edges"), each its point's error, or, on A-base, said to be on "a a-base topology".
    path = tmp_path / "flows.toml"
    path.write_text(f'name = "flows"\nscenario = "{kind}"\nseeds = [1]\n[axes]\nflows = [10, {value}]\n')
    with pytest.raises(SweepError) as e:
        load_sweep(path)
    assert str(e.value) == f"axis 'flows'[1]: {shown} is not a number of flows (a whole number, 1 or more)"


def test_a_long_list_as_a_flows_value_is_refused_unread(tmp_path, monkeypatch):
    # review33h D6: a flows value of 1.9 million names (flows.toml) was not weighed (the flows axis holds no
    # list to weigh) but compared with the axis's other values and put in each point's message, 324 MB under
    # --max-memory 300MB.
    from pacesim.sweep import definition

    once = definition._once
    monkeypatch.setattr(definition, "_once", lambda where, values: pytest.fail("the value read") if any(
        isinstance(v, list) and len(v) > 2 for v in values) else once(where, values))
    path = tmp_path / "flows.toml"
    path.write_text('name = "flows"\nscenario = "a-base"\nseeds = [1]\n'
                    f'[axes]\nflows = [1, {json.dumps(["core"] * 200_000)}]\n')
    out = runner.invoke(app, ["sweep", str(path), "--results", str(tmp_path / "r"), "--max-memory", "100MB", "--quiet"])
    assert out.exit_code == 2, out.output
    assert " ".join(out.output.split()) == ("error: axis 'flows'[1]: ['core', 'core', 'core', 'core', 'core', 'core', "
                                            "'core', 'core', 'core', 'cor... is not a number of flows (a whole "
                                            "number, 1 or more)")


CHECK_XSCALE = """
import json
from pacesim import _core
from pacesim.papers import figures
from pacesim.sweep import check
from pacesim.sweep.progress import bar

built = []
describe = _core.describe_json
_core.describe_json = lambda text, examples: built.append(json.loads(text)["topology"]["hosts_per_edge"]) or \\
    describe(text, examples)
sweep = figures()["X-scale"].sweep(False)
keys = check.check_points(sweep, bar(False))
# The peak of this process's own memory (VmHWM): ru_maxrss keeps the forking process's across exec (pytest's worker)
peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:"))
print(json.dumps({"keys": len(keys) // 16, "points": sweep.size, "largest": max(built), "rss": peak * 1024}))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="the peak is read from Linux's /proc")
def test_checking_a_sweep_of_a_million_flows_builds_no_network_of_them():
    """Issue 38: checking X-scale's points built each network whole before any ran, 2.8 GB and minutes at 1M flows
    (its 100k points: 17 s for 12). A network past `check.BUILT_BYTES` of a topology that scales by its hosts, naming
    none of them, is built with one host an edge; the engine's rules are still read of the whole scenario."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", CHECK_XSCALE], capture_output=True, text=True, check=True, timeout=600)
    done = json.loads(out.stdout)
    assert done["keys"] == done["points"] == 360
    assert done["largest"] == 100  # 1k flows built whole; 10k, 100k and 1M flows with one host an edge
    assert done["rss"] < 300 * 2**20, done["rss"] / 2**20


def test_a_large_network_naming_its_hosts_is_built_whole():
    # One host an edge would have no link access.99999.up: a network naming one of its links is built whole, and
    # refused where the whole is (here: the pacer in front of a host's link that does not exist).
    from pacesim.sweep import check

    engine = pacesim.apply_overrides(pacesim.Scenario(), ["topology.hosts_per_edge=100000"]).to_engine()
    assert check._smaller(engine, 2**30) is not None
    assert check._smaller(engine, check.BUILT_BYTES) is None  # small enough to build whole
    named = pacesim.apply_overrides(pacesim.Scenario(), ["topology.hosts_per_edge=100000",
                                                         'series.links=["access.99999.up"]', "series.interval=1s"])
    assert check._smaller(named.to_engine(), 2**30) is None


def test_a_large_network_naming_a_host_outside_the_lists_is_checked_whole():
    # review-scale38b D1: `burstiness.link` names a host's link but is none of the lists `_smaller` reads, so the
    # one-host network lacked access.39999.up and the valid sweep was refused; the smaller build's failure now
    # builds the whole, which passes, and a name the whole lacks too is still refused naming the key.
    from pacesim.sweep import Sweep, check
    from pacesim.sweep.definition import SweepError
    from pacesim.sweep.progress import bar

    setting = ["topology.hosts_per_edge=4000", "duration=2s", "warmup=1s", "traffic.start=[\"0s\", \"1s\"]"]
    good = Sweep(name="burst", axes={"core.buffer": ["5KB", "10KB"]}, seeds=[1],
                 set=[*setting, 'burstiness={link = "access.39999.up", bin = "10ms", scales = 4}'])
    assert len(check.check_points(good, bar(False))) == 2 * 16
    bad = Sweep(name="burst", axes={"core.buffer": ["5KB", "10KB"]}, seeds=[1],
                set=[*setting, 'burstiness={link = "access.40000.up", bin = "10ms", scales = 4}'])
    with pytest.raises(SweepError, match="burstiness.link"):
        check.check_points(bad, bar(False))


def test_a_point_of_a_combination_of_many_seeds_is_made_alone(monkeypatch):
    # review33i D3: a combination's points were made all at once, one per seed, ~12 KB each (a deep copy of its
    # scenario): 100,000 seeds of one axis value took the sweep's parent to 1.40 GB under --max-memory 300MB as its
    # first point ran. A point is made for its own seed, when asked for, with the key of its scenario alone.
    import tracemalloc

    seeds = list(range(3000))
    sweep = Sweep(name="seeds", axes={"core.buffer": ["5KB"]}, seeds=seeds, set=TINY)
    copies = []
    copy = pacesim.Scenario.model_copy
    monkeypatch.setattr(pacesim.Scenario, "model_copy", lambda *a, **k: copies.append(1) or copy(*a, **k))
    tracemalloc.start()
    try:
        late = sweep.point(2999, engine=False)
        first = next(sweep.iter_points())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(copies) <= 2 and peak < 3 * 10**6, (len(copies), peak)  # 3,000 points took 37 MB
    alone = scenario_module.apply_overrides(pacesim.Scenario(), TINY + ["core.buffer=5KB", "seed=2999"])
    assert (late.seed, late.scenario.seed, late.key) == (2999, 2999, run_key(alone.to_engine(), pacesim.ENGINE_VERSION))
    assert (first.seed, first.scenario.seed) == (0, 0)


class Running(Executor):
    """Runs each point in the calling thread (`simulate`, as a worker runs it)."""

    def submit(self, fn, *args, **kwargs) -> Future:
        f = Future()
        f.set_result(fn(*args, **kwargs))
        return f


def test_a_sweep_reads_which_points_are_done_a_bounded_share_at_a_time(tmp_path, monkeypatch):
    # review33i D3: the sweep held a set of every finished point's key and a dict of every point to run (its
    # parent grew with the sweep). Which are done is read `CHECKED` points at a time; what a rerun skips, what
    # it runs (a run key once, for two points that are one run) and the store's rows are as before.
    from pacesim.sweep import run

    asked = []
    check = Store.check
    monkeypatch.setattr(Store, "check", lambda self, keys: asked.append(len(keys := list(keys))) or check(self, keys))
    monkeypatch.setattr(run, "CHECKED", 3)
    variants = {"a": ["core.buffer=5KB"], "same": ["core.buffer=5KB"], "b": ["core.buffer=10KB"]}
    with Store(tmp_path) as store:
        first = run_sweep(Sweep(name="s", axes={"variant": ["a", "b"]}, seeds=[1, 2], variants=variants, set=TINY),
                          store, Running(), progress=False)
        assert (first.points, first.skipped, first.ran, first.failed) == (4, 0, 4, 0)
        more = Sweep(name="s", axes={"variant": ["a", "same", "b"]}, seeds=[1, 2, 3], variants=variants, set=TINY)
        again = run_sweep(more, store, Running(), progress=False)
        # Seed 3 of `a` and of `b` run; `same` is `a`'s run on each seed.
        assert (again.points, again.skipped, again.ran, again.failed) == (9, 7, 2, 0)
        assert max(asked) <= 3
        points = store.points("s")
        assert len(points) == 9 and set(points["status"]) == {"ok"}
        assert list(points["key"]) == [p.key for p in more.points()]
        assert run.unwritten(more, store, progress=False) is None


def test_a_sweep_too_large_is_refused_before_its_file_is_checked(tmp_path, monkeypatch):
    # review33i: 1.6 million seeds (a 12 MB sweep file; or in [quick]; or 1.5 million values of an axis) were read
    # and checked, 433-496 MB under --max-memory 300MB, before "more than the 1,000,000 a sweep may have".
    from pacesim.sweep import definition

    monkeypatch.setattr(definition._SweepFile, "model_validate", lambda *a, **k: pytest.fail("the file checked"))
    monkeypatch.setattr(definition, "_once", lambda *a: pytest.fail("the values read"))
    axis = '[axes]\n"core.buffer" = [' + ", ".join(f'"{i}KB"' for i in range(1, 1002)) + "]\n"
    seeds = json.dumps(list(range(1000)))
    for text, said in [(f"seeds = {seeds}\n{axis}", ""), (f"{axis}[quick]\nseeds = {seeds}\n", "[quick] ")]:
        (tmp_path / "big.toml").write_text('name = "big"\n' + text)
        with pytest.raises(SweepError) as e:
            load_sweep(tmp_path / "big.toml")
        assert str(e.value) == (f"{tmp_path / 'big.toml'}: {said}big: 1,001,000 points (1,001 values of 'core.buffer' "
                                "x 1,000 seeds), more than the 1,000,000 a sweep may have; split it into several "
                                "sweeps")


@pytest.mark.parametrize("inline", [False, True])
def test_an_error_in_a_sweeps_base_scenario_names_its_file(inline, tmp_path):
    # review33i: 1.6 million pacer names in the sweep's own scenario file (big-base.toml) were refused as
    # "pacing.links: ...", naming neither the sweep's `scenario` nor that file.
    names = json.dumps(["core"] * 200_000)
    (tmp_path / "big-base.toml").write_text(f'[topology]\nkind = "a-base"\n[pacing]\nlinks = {names}\n')
    scenario = f'[scenario]\ntopology = {{ kind = "a-base" }}\npacing = {{ links = {names} }}\n' if inline else \
        'scenario = "big-base.toml"\n'
    path = tmp_path / "base.toml"
    path.write_text(f'seeds = [1]\n{scenario}[axes]\n"core.buffer" = ["5KB"]\n')
    with pytest.raises(SweepError) as e:
        load_sweep(path, max_memory=100 * 10**6)
    where = "[scenario]" if inline else f"scenario {tmp_path / 'big-base.toml'}"
    assert str(e.value).startswith(f"{path}: {where}: pacing.links: the run needs an estimated 144 MB"), str(e.value)


def test_a_variant_and_an_axis_value_whose_lists_fit_alone_but_not_together_are_refused(tmp_path):
    # The variant's list and the axis value's were each weighed alone (on the base with `set`), never together:
    # two lists of 2,000 UDP packet sizes (384 KB each) fit a limit 600,000 B past the interpreter's 64 MiB alone.
    udp = '{kind = "cbr", rate = "1Kbps", sizes = ["100B"]}'
    sizes = json.dumps(["100B"] * 2000)
    with pytest.raises(SweepError) as e:
        Sweep(name="pair", base=pacesim.load_scenario("a-base"), seeds=[1],
              set=["duration=1s", "warmup=0s", 'traffic.start=["0s", "0s"]', "topology.tcp_hosts=1",
                   f"traffic.udp=[{udp}, {udp}]"],
              variants={"small": [], "big": [f"traffic.udp[0].sizes={sizes}"]},
              axes={"variant": ["small", "big"], "traffic.udp[1].sizes": [["100B"], ["100B"] * 2000]},
              max_memory=64 * 2**20 + 600_000)
    assert str(e.value).startswith("variants.'big' with axis 'traffic.udp[1].sizes'[1]: traffic.udp["), str(e.value)
    assert "more than the limit (67.7 MB)" in str(e.value)


def test_more_axes_than_a_sweep_may_have_are_refused_naming_axes():
    # review33i D4: 1,000 one-value axes over 1,000 UDP sources took 114 s and 762 MB to read (each value checked
    # alone against the whole scenario), then 902 pandas warnings, for one 0.6 s point.
    from pacesim.sweep import MAX_AXES

    udp = ", ".join(['{kind = "cbr", rate = "1Kbps", size = "40B"}'] * (MAX_AXES + 1))
    fixed = TINY + [f"traffic.udp=[{udp}]"]
    axes = {f"traffic.udp[{i}].rate": ["2Kbps"] for i in range(MAX_AXES + 1)}
    with pytest.raises(SweepError) as e:
        Sweep(name="axes", axes=axes, set=fixed)
    assert str(e.value) == (f"axes: {MAX_AXES + 1} axes, more than the {MAX_AXES} a sweep may have: an axis of one "
                            'value is a fixed override: give it in `set` (set = ["core.buffer=5KB"])')
    axes.pop(f"traffic.udp[{MAX_AXES}].rate")
    assert Sweep(name="axes", axes=axes, set=fixed).size == 1


def test_a_sweep_file_of_too_many_axes_is_refused_naming_it_before_its_base_is_read(tmp_path):
    # review-hostile33j: the error named no file and came after the base scenario loaded (6.4 s for 1,000 UDP
    # sources). A base that does not exist shows the count comes first.
    from pacesim.sweep import MAX_AXES

    path = tmp_path / "wide.toml"
    axes = "".join(f'"traffic.udp[{i}].rate" = ["2Kbps"]\n' for i in range(MAX_AXES + 1))
    path.write_text(f'scenario = "no-such-base.toml"\n[axes]\n{axes}')
    with pytest.raises(SweepError) as e:
        load_sweep(path)
    assert str(e.value) == f"{path}: axes: {MAX_AXES + 1} axes, more than the {MAX_AXES} a sweep may have: " \
                           'an axis of one value is a fixed override: give it in `set` (set = ["core.buffer=5KB"])'


@pytest.mark.parametrize("kw, said", [
    ({"axes": [("core.buffer", ["5KB"])]}, "axes: "),
    ({"axes": {1: ["5KB", "6KB"]}}, "axes: "),
    ({"set": TINY + [None]}, f"set[{len(TINY)}]: None is not an override"),
    ({"variants": {"a": None}, "axes": {"variant": ["a"]}}, "variants.'a': None: overrides are a list"),
    ({"variants": {"a": ["core.buffer=5KB"]}, "axes": {"variant": ["a"], "core.buffer": ["7KB"]}},
     "variants.'a' and axis 'core.buffer' both set 'core.buffer': axis 'core.buffer', applied after, would override"),
    ({"axes": {"core": [{"buffer": "5KB"}], "core.buffer": ["7KB"]}},
     "axis 'core' and axis 'core.buffer' both set 'core.buffer'"),
    ({"axes": {"flows": [4], "topology.hosts_per_edge": [1, 3]}},  # the flows axis is applied last (`with_flows`)
     "axis 'topology.hosts_per_edge' and axis 'flows' both set 'topology.hosts_per_edge': axis 'flows', applied after"),
    ({"axes": {"tcp.window": [5, float("nan")]}}, "axis \"tcp.window\"[1]: nan is not a number (NaN)"),
])
def test_a_sweep_made_in_python_of_the_wrong_shapes_or_overlapping_keys_is_refused_naming_them(kw, said):
    # review-hostile33k H5: AttributeErrors and TypeErrors; M4: a variant's key under an axis of the same key ran
    # the axis's value labelled with the variant, and an axis under its parent table's axis likewise.
    kw = {"set": TINY, **kw}
    with pytest.raises(SweepError) as e:
        Sweep(name="shapes", **kw)
    assert str(e.value).startswith(said), str(e.value)


def test_numpy_axis_values_are_the_python_values_they_hold():
    # review-hostile33k H1: an axis of numpy integers ended in "Object of type int64 is not JSON serializable".
    import numpy as np

    python = Sweep(name="np", set=TINY, axes={"tcp.window": [5, 6]})
    numpy = Sweep(name="np", set=TINY, axes={"tcp.window": list(np.array([5, 6]))})
    assert [p.key for p in numpy.points()] == [p.key for p in python.points()]


@pytest.mark.parametrize("axes, variants, refused", [
    ({"core.red": [{"max_p": 0.5}], "core.red.w_q": [0.01]}, {}, False),  # the later refines the earlier's table
    ({"core.red.w_q": [0.01], "core.red": [{"max_p": 0.5}]}, {}, True),  # the later table wipes the earlier key
    ({"variant": ["a"], "core.red.w_q": [0.01]}, {"a": ["core.red={max_p=0.5}"]}, False),
    ({"variant": ["a"], "core.red.max_p": [0.2]}, {"a": ["core.red={max_p=0.5}"]}, True),
    ({"traffic.udp[0].rate": ["1Mbps"], "traffic.udp[1].rate": ["2Mbps"]}, {}, False),
])
def test_a_setting_overridden_by_one_applied_after_it_is_refused_and_a_refinement_is_not(axes, variants, refused):
    # review-hostile33l M1: a table given first and a key inside it after keeps both, and was refused.
    from pacesim.sweep.definition import _overlapping

    if refused:
        with pytest.raises(SweepError, match="applied after, would override it unseen"):
            _overlapping(axes, variants)
    else:
        _overlapping(axes, variants)


def _objects() -> dict:
    """Values Python holds that no sweep file can: review-hostile33m D3's."""
    import datetime
    import enum
    from fractions import Fraction

    import pandas as pd

    class Colour(enum.Enum):
        RED = "5KB"

    return {"Enum": (Colour.RED, "an object of type Colour"), "Fraction": (Fraction(1, 3), "is no float exactly"),
            "set": ({1}, "an object of type set"), "frozenset": (frozenset(), "an object of type frozenset"),
            "range": (range(2), "an object of type range"), "complex": (1j, "an object of type complex"),
            "timedelta": (datetime.timedelta(1), "an object of type timedelta"),
            "pd.NA": (pd.NA, "an object of type NAType"), "object": (object(), "an object of type object"),
            "tuple key": ({(1,): "x"}, "a table's keys are text; (1,) is of type tuple")}


@pytest.mark.parametrize("name", list(_objects()))
@pytest.mark.parametrize("key", ["core.buffer", "core"])
def test_an_axis_value_no_file_can_hold_is_refused_naming_the_axis(name, key):
    # review-hostile33m D3: a TypeError from json ("Object of type E is not JSON serializable").
    value, said = _objects()[name]
    with pytest.raises(SweepError) as e:
        Sweep(name="o", set=TINY, axes={key: ["5KB" if key == "core.buffer" else {}, value]})
    assert str(e.value).startswith(f"axis {json.dumps(key) if '.' in key else key}[1]: ") and said in str(e.value), \
        str(e.value)


def test_seeds_and_axis_values_given_as_python_subclasses_are_the_plain_values_they_hold():
    import enum

    import numpy as np

    class Window(enum.IntEnum):
        SMALL = 5

    sweep = Sweep(name="p", set=TINY, axes={"tcp.window": [Window.SMALL, np.int64(6)]}, seeds=[np.uint8(1)])
    assert [type(v) for v in sweep.axes["tcp.window"]] == [int, int] and type(sweep.seeds[0]) is int
    assert [p.key for p in sweep.points()] == [p.key for p in Sweep(name="p", set=TINY,
                                                                     axes={"tcp.window": [5, 6]}).points()]


@pytest.mark.parametrize("kw, said", [
    # review-hostile33m D2: a later topology.kind starts the topology from its defaults: edges 3 and 5 both ran 10.
    ({"axes": {"topology.edges": [3, 5], "topology.kind": ["e-base"]}},
     "axis 'topology.edges' and axis 'topology.kind' both set 'topology.edges'"),
    ({"axes": {"topology.edges": [3, 5], "variant": ["a"]}, "variants": {"a": ["topology.kind=e-base"]}},
     "axis 'topology.edges' and variants.'a' both set 'topology.edges'"),
    # D4: one element spelled twice; an Arabic-Indic zero (Python's \d) is no index.
    ({"set": TINY + ['traffic.udp=[{kind="cbr", rate="1Mbps", size="200B"}]'],
      "axes": {"traffic.udp[0].rate": ["1Mbps", "2Mbps"], "traffic.udp[00].rate": ["3Mbps"]}},
     "axis 'traffic.udp[0].rate' and axis 'traffic.udp[00].rate' both set 'traffic.udp[0].rate'"),
    ({"set": TINY + ['traffic.udp=[{kind="cbr", rate="1Mbps", size="200B"}]'],
      "axes": {"traffic.udp[0].rate": ["1Mbps", "2Mbps"], "traffic.udp[\u0660].rate": ["3Mbps"]}},
     "axis 'traffic.udp[\u0660].rate' is not a scenario key"),
    # D5: a value of `set` dropped by an axis's or a variant's table that leaves it out.
    ({"set": TINY + ["core.buffer=3KB"], "axes": {"core": [{"queue": "red"}, {"queue": "droptail"}]}},
     "set and axis 'core' both set 'core.buffer': axis 'core', applied after, would override it unseen (its table "
     "leaves it out, for the default)"),
    ({"set": TINY + ["core.red.w_q=0.01"], "axes": {"variant": ["a"]}, "variants": {"a": ["core.red={max_p=0.5}"]}},
     "set and variants.'a' both set 'core.red.w_q'"),
    # review-hostile33n M2 (o20, o33): an axis of lists of tables dropping a `set` value on an element: its table
    # leaves the key out (udp[0] ran start 0), or the list ends before the element (no udp[1] ran at all).
    ({"set": TINY + [UDP2, 'traffic.udp[0].start="0.3s"'], "axes": {"traffic.udp": [[POISSON]]}},
     "set and axis 'traffic.udp' both set 'traffic.udp[0].start': axis 'traffic.udp', applied after, would override "
     "it unseen (its table leaves it out, for the default)"),
    ({"set": TINY + [UDP2, 'traffic.udp[1].rate="3Mbps"'], "axes": {"traffic.udp": [[POISSON, CBR], [POISSON]]}},
     "set and axis 'traffic.udp' both set 'traffic.udp[1].rate': axis 'traffic.udp', applied after, would override "
     "it unseen (its list has no element there)"),
])
def test_a_setting_a_later_one_drops_unseen_is_refused(kw, said):
    kw = {"set": TINY, **kw}
    with pytest.raises(SweepError) as e:
        Sweep(name="d", **kw)
    assert str(e.value).startswith(said), str(e.value)


@pytest.mark.parametrize("kw", [
    {"set": TINY[2:], "axes": {"variant": ["a"], "topology.edges": [3, 5]},
     "variants": {"a": ["topology.kind=e-base", "topology.hosts_per_edge=2"]}},
    {"set": TINY[2:], "axes": {"flows": [10, 20], "topology.kind": ["e-base"]}},  # the flows axis is applied last
    {"set": TINY + ["core.buffer=3KB"], "axes": {"core.buffer": ["4KB", "5KB"]}},  # `set` labels no point
    {"set": TINY + ["core.buffer=3KB"], "axes": {"core": [{"queue": "red", "buffer": "3KB"}]}},
    {"set": TINY + ["core.buffer=3KB"], "axes": {"core.queue": ["red", "droptail"]}},
    # an element's key given again by every list of the axis; one variant's setting is no other's
    {"set": TINY + [UDP2, 'traffic.udp[1].rate="3Mbps"'],
     "axes": {"traffic.udp": [[POISSON, CBR], [CBR, {**POISSON, "rate": "1Mbps"}]]}},
    {"axes": {"variant": ["a", "b"], "tcp.window": [10, 20]},
     "variants": {"a": ["core.buffer=5KB"], "b": ["core.buffer=6KB"]}},
])
def test_a_setting_refined_or_set_again_where_its_point_says_so_is_not_refused(kw):
    kw = {"set": TINY, **kw}
    sweep = Sweep(name="r", **kw)
    assert all(p.scenario is not None for p in sweep.points())


def test_a_quick_set_value_dropped_by_an_axis_table_is_refused_naming_quick_set():
    # review-hostile33m D5 (k13): [quick] set core.buffer=3KB under an axis core = [{queue = "red"}].
    sweep = Sweep(name="q", set=TINY, axes={"core": [{"queue": "red"}, {"queue": "droptail"}]},
                  quick={"set": ["core.buffer=3KB"]})
    with pytest.raises(SweepError, match="^quick.set and axis 'core' both set 'core.buffer'"):
        sweep.reduced()


def test_overlapping_settings_are_found_in_time_linear_in_a_variants_overrides():
    # review-hostile33m R5: every pair of one variant's overrides was compared: 20,000 took 6.7 s, 60,000 96 s.
    import time

    from pacesim.sweep.definition import _overlapping

    variants = {"a": [f"core.red.max_p={0.01 + j * 1e-6:.6f}" for j in range(40_000)]}
    axes = {"variant": ["a"], "core.delay": ["1ms", "2ms"], "tcp.window": [10, 20]}
    t = time.process_time()
    _overlapping(axes, variants, [("set", ["core.buffer=5KB"] * 1000)])
    assert time.process_time() - t < 10  # 1.2 s here; compared pairwise, some 27 s


def test_overlapping_settings_are_found_in_time_linear_in_set_and_the_variants():
    # review-hostile33n M1: `set` was walked once per variant: 10,000 overrides x 500 variants took 142 s.
    import time

    from pacesim.sweep.definition import _overlapping

    fixed = [f"core.red.max_p={0.01 + j * 1e-6:.6f}" for j in range(5_000)]
    variants = {f"v{i}": [f"tcp.window={10 + i}"] for i in range(300)}
    t = time.process_time()
    _overlapping({"variant": list(variants), "core.delay": ["1ms", "2ms"]}, variants, [("set", fixed)])
    assert time.process_time() - t < 3  # 0.1 s here; once per variant, some 40 s


def test_reading_a_sweep_shows_its_variants_check(tmp_path, monkeypatch, capsys):
    # review-hostile33o M2: each variant is validated whole as the sweep is read (1-2 ms of CPU a variant over a
    # small scenario, 0.13 s over 3,000 UDP sources: review-hostile33p M3), and 20,000 variants were read for 40 s
    # with nothing shown; `pacesim sweep` now shows that check as it shows the points' (lines off a terminal), and
    # nothing under --quiet; a bar that is no bar is named (review-hostile33p L4: an AttributeError).
    from pacesim.sweep import progress

    monkeypatch.setattr(progress, "PROGRESS_EVERY_S", 0.0)
    n = 120
    variants = "\n".join(f'v{i} = ["core.buffer={3000 + i}B"]' for i in range(n))
    names = ", ".join(f'"v{i}"' for i in range(n))
    set_ = ", ".join(json.dumps(item) for item in TINY)
    (tmp_path / "many.toml").write_text(f'name = "many"\nset = [{set_}]\n[axes]\nvariant = [{names}]\n'
                                        f'[variants]\n{variants}\n')
    with progress.bar(True) as bar:
        sw = load_sweep(tmp_path / "many.toml", None, bar)
    assert len(sw.variants) == n
    assert f"many: checking variants: {n} of {n} (100 %)" in capsys.readouterr().err
    with progress.bar(False) as bar:
        load_sweep(tmp_path / "many.toml", None, bar)
    assert "checking variants" not in capsys.readouterr().err
    with pytest.raises(SweepError, match="bar: True is not a rich Progress"):
        load_sweep(tmp_path / "many.toml", None, True)
    (tmp_path / "none.toml").write_text(f'name = "none"\nset = [{set_}]\n[axes]\n"core.buffer" = ["3KB", "4KB"]\n')
    with progress.bar(True) as bar:  # no variants: no line (review-hostile33q L2: "0/0")
        load_sweep(tmp_path / "none.toml", None, bar)
        assert not bar.tasks
