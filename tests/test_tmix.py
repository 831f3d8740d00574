"""Tmix from Python: the vectors file found and decompressed (`pacesim.tmix.vectors_path`), bad files naming
their field and line, one connection on an idle line against times worked by hand, pacesim's own vectors
(`pacesim tmix generate`) and the packaged demo. (The engine's own tests: crates/pacesim-core/tests/tmix.rs and
the parser's and applications' unit tests; ns-2's Tmix beside pacesim's: bench/ns2/tmix.)"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import pacesim
from pacesim.cli import app
from pacesim.scenario import ScenarioError, parse_scenario
from pacesim.tmix import SAMPLES, Mix, generate, vectors_path

ROOT = Path(__file__).resolve().parents[1]
OURS = "# Tmix connection vectors (alternate format) written by pacesim.tmix.generate"
"""The first line of every vectors file `generate` writes."""
NOTICE = "No part of this data may be sold or " + "distributed"
"""A sentence of the notice in Tmix's sample vectors (made of two parts, so that this file does not hold it)."""

ONE = "S 0 1 0 7\nw 65535 65535\nr 20000\nl 0.000000 0.000000\nI 0 0 1000\nA 0 5000 2000\n"


def line(vectors: str, delaybox: bool = True) -> dict:
    """Host a -> router r -> host b, 10 Mb/s and 1 ms each; one cloud a -> b replaying `vectors`."""
    return {"seed": 1, "duration": "3s", "warmup": "1s",
            "topology": {"kind": "graph", "nodes": ["r"], "hosts": ["a", "b"],
                         "links": [{"from": "a", "to": "r", "rate": "10Mbps", "delay": "1ms"},
                                   {"from": "r", "to": "b", "core": True}]},
            "core": {"rate": "10Mbps", "delay": "1ms", "buffer": "10MB"},
            "tcp": {"variant": "newreno", "segment_size": "1460B", "window": 20},
            "traffic": {"start": ["0s", "0s"], "tmix": [{"vectors": vectors, "initiator": "a", "acceptor": "b",
                                                         "delaybox": "r" if delaybox else None}]}}


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PACESIM_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_one_connection_on_an_idle_line_completes_as_worked_by_hand(tmp_path):
    # As crates/pacesim-core/tests/tmix.rs works it out: six crossings of the DelayBox at r (10 ms each),
    # three SYN-and-segment exchanges' worth of 1 ms links at 10 Mb/s, the acceptor's 5 ms of thought: the
    # initiator has the acceptor's 2000 B at 83.256 ms; without the DelayBox, 23.256 ms.
    (tmp_path / "one.cvec").write_text(ONE)
    for delaybox, done in ((True, 0.083256), (False, 0.023256)):
        r = pacesim.run(parse_scenario(line("one.cvec", delaybox), tmp_path), threads=1)
        t = r.tmix
        assert list(t.columns) == ["cloud", "id", "start_s", "receipts", "last_s", "done_s", "init_bytes", "acc_bytes"]
        assert t[["cloud", "id", "receipts", "init_bytes", "acc_bytes"]].values.tolist() == [[0, 7, 2, 1000, 2000]]
        assert t["done_s"].iloc[0] == pytest.approx(done, abs=1e-9)
    assert pacesim.run(parse_scenario({**line("one.cvec"), "traffic": {"start": ["0s", "0s"]}}, tmp_path)).tmix is None


def test_a_bad_line_names_the_file_and_line_and_a_missing_one_is_named_when_run(tmp_path, cache):
    (tmp_path / "bad.cvec").write_text("S 0 1 0 7\nI 0 0 1000\nA 0 x 2000\n")
    with pytest.raises(ScenarioError) as e:
        pacesim.run(parse_scenario(line("bad.cvec"), tmp_path))
    assert e.value.field == "traffic.tmix[0].vectors"
    assert f"{tmp_path / 'bad.cvec'}:3: \"A\": \"x\" is not" in str(e.value)
    # A scenario loads without its vectors; running it names the file it looked for.
    s = parse_scenario(line("nowhere.cvec"), tmp_path)
    with pytest.raises(ScenarioError) as e:
        pacesim.run(s)
    assert e.value.field == "traffic.tmix[0].vectors"
    assert f"{tmp_path / 'nowhere.cvec'}: No such file or directory" in str(e.value)
    (tmp_path / "junk.cvec.gz").write_bytes(b"not gzip")
    with pytest.raises(ScenarioError, match="not a gzip file"):
        parse_scenario(line("junk.cvec.gz"), tmp_path)


def test_a_gz_file_is_read_decompressed_from_a_cache_named_by_its_content(tmp_path, cache):
    (tmp_path / "one.cvec.gz").write_bytes(gzip.compress(ONE.encode()))
    s = parse_scenario(line("one.cvec.gz"), tmp_path)
    plain = Path(s.traffic.tmix[0].vectors)
    assert plain.parent == cache / "tmix" and plain.name.endswith("-one.cvec") and plain.read_text() == ONE
    assert vectors_path("one.cvec.gz", tmp_path) == str(plain), "the same content, the same file"
    (tmp_path / "one.cvec.gz").write_bytes(gzip.compress(ONE.replace("2000", "2001").encode()))
    assert vectors_path("one.cvec.gz", tmp_path) != str(plain), "other content, another file (and run key)"


@pytest.mark.skipif(not (SAMPLES / "sample-alt.cvec.gz").is_file(), reason="Debian's ns2-examples not installed")
def test_debians_samples_are_found_by_name_and_both_formats_give_the_same_connections(tmp_path, cache):
    alt, orig = (Path(vectors_path(f"sample-{f}.cvec.gz", tmp_path)) for f in ("alt", "orig"))
    assert alt.parent == cache / "tmix"
    runs = [pacesim.run(parse_scenario({**line(str(p)), "duration": "20s"}), threads=1).tmix for p in (alt, orig)]
    assert len(runs[0]) == 340
    assert runs[0].equals(runs[1]), "the orig file read as ns-2 reads it is the alt file"


def test_generated_vectors_are_reproducible_and_drawn_from_the_stated_distributions(tmp_path):
    a, b = generate(tmp_path / "a.cvec", 2000, seed=3), generate(tmp_path / "b.cvec", 2000, seed=3)
    assert a.read_text() == b.read_text() != generate(tmp_path / "c.cvec", 2000, seed=4).read_text()
    heads = [line.split() for line in a.read_text().splitlines() if line[:2] in ("S ", "C ")]
    starts = np.array([int(h[1]) for h in heads]) / 1e6
    mix = Mix()
    # Poisson starts at 50/s: mean gap 20 ms; 2000 gaps have a standard error of 20 ms / sqrt(2000) = 0.45 ms.
    assert np.diff(starts).mean() == pytest.approx(1 / mix.rate, abs=5 * 0.02 / np.sqrt(2000))
    assert 0.03 < np.mean([h[0] == "C" for h in heads]) < 0.07  # 5 %: sd sqrt(0.05 x 0.95 / 2000) = 0.5 %
    # Requests Pareto(1.5) of mean 800 B: median x_m 2^(1/1.5), x_m = 800 / 3 B; of n draws the share below
    # the median has sd sqrt(0.25 / n).
    text = generate(tmp_path / "seq.cvec", 2000, seed=3, mix=Mix(concurrent=0.0)).read_text().splitlines()
    requests = np.array([int(line.split()[3]) for line in text if line.startswith("I ")])
    median = 800 / 3 * 2 ** (1 / 1.5)
    assert abs(np.mean(requests <= median) - 0.5) < 5 * np.sqrt(0.25 / len(requests))
    # The packaged demo's vectors are these, 500 of seed 1.
    s = pacesim.load_scenario("tmix-demo")
    assert Path(s.traffic.tmix[0].vectors).read_text() == generate(tmp_path / "d.cvec", 500, seed=1).read_text()


def test_the_demo_runs_and_the_command_line_writes_vectors(tmp_path):
    r = pacesim.run("tmix-demo", set=["duration=20s", "warmup=5s"], threads=1)
    t = r.tmix
    assert set(t["cloud"]) == {0, 1} and len(t) == 1000
    early = t[t["start_s"] < 5]
    assert early["done_s"].notna().mean() > 0.95, "connections started in the first 5 s are done 15 s later"
    assert 0 < r.links.loc["core", "throughput_mbps"] < 100
    out = CliRunner().invoke(app, ["tmix", "generate", str(tmp_path / "v.cvec"), "--connections", "20", "--seed", "2"])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "v.cvec").read_text() == generate(tmp_path / "w.cvec", 20, seed=2).read_text()


def test_vectors_are_read_within_limits_and_a_missing_sample_says_where_it_comes_from(tmp_path, cache, monkeypatch):
    import pacesim.tmix as tmix

    # A gzip bomb: refused at the limit, nothing written to the cache.
    monkeypatch.setattr(tmix, "MAX_BYTES", 1000)
    (tmp_path / "bomb.cvec.gz").write_bytes(gzip.compress(b"\0" * 100_000))
    with pytest.raises(ScenarioError, match="more than 1000 bytes once decompressed"):
        parse_scenario(line("bomb.cvec.gz"), tmp_path)
    assert not (cache / "tmix").exists() or not any((cache / "tmix").iterdir())
    # Not a regular file: the engine refuses it, naming the field.
    with pytest.raises(ScenarioError) as e:
        pacesim.run(parse_scenario(line("/dev/zero"), tmp_path))
    assert e.value.field == "traffic.tmix[0].vectors" and "/dev/zero: not a regular file" in str(e.value)
    # One of Tmix's samples, not installed: one line naming it and the package.
    with pytest.raises(ScenarioError) as e:
        pacesim.run(parse_scenario(line("/nowhere/sample-alt.cvec.gz"), tmp_path))
    assert str(e.value).endswith("sample-alt.cvec.gz, Tmix's sample vectors, is not installed "
                                 "(Debian: apt-get install ns2-examples)")


def test_the_mixs_capped_means_in_closed_form():
    from pacesim.tmix import capped_mean

    # Pareto of scale 1 and shape 2 (mean 2) capped at 4: 1 + the integral of x^-2 from 1 to 4 = 1.75.
    assert capped_mean(2.0, 2.0, 4.0) == pytest.approx(1.75, rel=1e-12)
    m = Mix()
    assert round(capped_mean(m.response_mean, m.response_shape, m.max_bytes)) == 8537  # as Mix's docstring says
    assert round(capped_mean(m.request_mean, m.request_shape, m.max_bytes)) == 797
    assert round(capped_mean(m.conc_mean, m.response_shape, m.max_bytes)) == 1788
    assert capped_mean(m.think_mean, m.wait_shape, m.max_wait) == pytest.approx(0.950, abs=5e-4)
    assert capped_mean(m.server_mean, m.wait_shape, m.max_wait) == pytest.approx(0.0199, abs=5e-5)


def test_a_tmix_only_run_prints_its_connections_and_may_be_shorter_than_the_flows_start(tmp_path):
    # tmix-demo has no flows: traffic.start's default (up to 10 s) is no reason to refuse a 3 s run.
    out = CliRunner().invoke(app, ["run", "tmix-demo", "--set", "duration=3s", "--set", "warmup=1s", "--json",
                                   str(tmp_path / "r.json")], env={"COLUMNS": "200"})
    assert out.exit_code == 0, out.output
    assert "mean goodput per flow" not in out.output and "nan" not in out.output
    r = pacesim.run("tmix-demo", set=["duration=3s", "warmup=1s"])
    for cloud, c in r.tmix.groupby("cloud"):
        done = c[c["done_s"].notna()]
        mean = (done["done_s"] - done["start_s"]).mean()
        row = rf"│\s*{cloud}\s*│\s*{len(c):,}\s*│\s*{len(done):,}\s*│\s*{mean:.3f}\s*│"
        assert len(done) and re.search(row, out.output), out.output


def test_q_tmix_delayboxes_are_lossless_as_the_ns2_manuals_script():
    # Paper Q ran the ns-2 manual's Tmix script "exactly": its two DelayBoxes `set-lossless` (tmix.tex).
    s = pacesim.load_scenario("q-tmix")
    assert [(t.delaybox, t.lossless) for t in s.traffic.tmix] == [("r0", True), ("r1", True)]


def test_q_fig16_with_no_finished_run_derives_an_empty_table():
    # Without Debian's ns2-examples every point of Q-fig16 fails (their error names the missing sample): the
    # figure's derived table is then empty, not a KeyError.
    import pandas as pd

    from pacesim.papers.q.figures import log2_cv

    t = log2_cv({"burstiness": pd.DataFrame()})
    assert t.empty and {"k", "log2_cv"} <= set(t.columns)


def test_q_fig16_without_the_samples_says_which_and_where_from_in_one_line(tmp_path, monkeypatch):
    import pacesim.tmix as tmix

    monkeypatch.setattr(tmix, "SAMPLES", tmp_path / "no-ns2-examples")
    out = CliRunner().invoke(app, ["reproduce", "Q-fig16", "--quick", "--results", str(tmp_path / "r")],
                             env={"COLUMNS": "300"})
    # pacesim --help: "1 the work failed (a point or the engine failed ...)": here every point (5f951a4).
    assert out.exit_code == 1 and "Traceback" not in out.output and out.exc_info[0] is SystemExit, out.output
    assert ("error: Q-fig16: every point failed: ScenarioError: traffic.tmix[0].vectors: sample-alt.cvec.gz, "
            "Tmix's sample vectors, is not installed (Debian: apt-get install ns2-examples)") in out.output


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_the_repository_and_the_wheel_hold_no_vectors_but_pacesims_own():
    # The samples' licence forbids redistribution (pacesim.tmix): every vectors file committed or packaged is
    # one `generate` wrote, and no file carries the samples' notice.
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    vectors = [f for f in tracked.decode().split("\0") if f.endswith((".cvec", ".cvec.gz"))]
    assert vectors == ["python/pacesim/scenarios/traces/tmix-demo.cvec"]
    assert (ROOT / vectors[0]).read_text().startswith(OURS)
    found = subprocess.run(["git", "grep", "-l", "-I", "-F", "-e", NOTICE], cwd=ROOT, capture_output=True)
    assert found.returncode == 1 and found.stdout == b"", found.stdout  # 1: no file matched
    wheel = os.environ.get("PACESIM_WHEEL")
    if wheel:
        with zipfile.ZipFile(wheel) as z:
            packaged = [n for n in z.namelist() if n.endswith((".cvec", ".cvec.gz"))]
            assert packaged == ["pacesim/scenarios/traces/tmix-demo.cvec"]
            assert z.read(packaged[0]).decode().startswith(OURS)
            # Every member but the engine's shared library (text is what a vectors file would be).
            assert not [n for n in z.namelist() if not n.endswith(".so") and NOTICE.encode() in z.read(n)]
