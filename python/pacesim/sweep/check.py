"""Every point of a sweep checked before any runs, as `pacesim run` checks a scenario before it runs it: a
combination of axis values at a time (its seeds share its validity), validated and its network weighed and built
(`check_points`), made whole (`Sweep._keyed`) or assembled from its axes' values alone (`_Factors`); the run keys
of every point, which the store registers and a point made to run must have again."""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any, Dict, List, Optional, Tuple

from rich.progress import Progress

from .. import ENGINE_VERSION, _core, memory, schema
from ..messages import shown
from ..scenario import ScenarioError
from ..store import key_part, keyed_run
from .definition import VARIANT, Sweep, SweepError, with_value
from .scaling import FLOWS


def check_points(sweep: Sweep, bar: Progress, max_memory: Optional[int] = None) -> bytearray:
    """Every point of `sweep` checked as `pacesim run` checks a scenario before it runs it, a combination of axis
    values at a time (its seeds share its validity): the scenario validated (`Sweep._keyed`, or from its axes'
    values alone, `_Factors`) and its network built (`_built`) if it fits in `max_memory` bytes (default: the
    memory available); their run keys, 16 bytes each in point order. A SweepError naming the invalid
    combinations of axis values (the first three), and the field at fault, if there are any."""
    factors = _Factors.of(sweep)
    task = bar.add_task(f"{sweep.name}: checking points", total=sweep.size, failed="")
    while True:
        try:
            return _check(sweep, bar, task, factors, _Built(max_memory))
        except _Disagree:  # never seen: a key or a verdict made from the axes' values alone is not the whole one
            factors = None
            bar.update(task, completed=0)


class _Disagree(Exception):
    """A combination checked from its axes' values alone (`_Factors`) and made whole disagree."""


@functools.lru_cache(maxsize=None)
def _builds(path: tuple) -> bool:
    """Whether building the network (engine/build.rs: what `_core.describe_json` builds) may refuse a scenario
    for the engine scenario's key at `path`: not for a key the schema marks `x-no-build` (nor one inside it),
    where the engine holds that scenarios differing only in such keys, each valid, are built or refused alike
    (tests/run.rs), so that a sweep of buffers, the papers' usual axis, builds one network for them all; nor for
    the seed (the topology's drawn rates), as a sweep checks its first seed's build as its validity."""
    if path[0] == "seed":
        return False
    node = schema.SCHEMA
    for part in path:
        keys = schema.resolve(node).get("properties", {})
        if part not in keys:  # a list's item, a tagged table's key: read
            return True
        node = keys[part]
        if node.get("x-no-build"):
            return False
    return True


BUILT = 65_536
"""The most networks `_check` remembers as built (a FIFO), so that combinations sharing one build it once."""

SAMPLE = 1009
"""Every this many combinations (and the first and last), one checked from its axes' values alone is made whole
too, and the two compared: their run keys, and their engine scenarios' JSON, read by the engine again (and its
network built again) only where the two texts differ (never seen), so that the engine reads each combination once."""


Keyed = Tuple[dict, Optional[ScenarioError], List[str], str]
"""A combination checked from its axes' values alone (`_Factors.keyed`): its axis values, why it is invalid (None
if it is not), its run keys, its engine scenario's JSON text."""


class _Built(dict):
    """The networks `_check` has built (at most `BUILT`, a FIFO), and the bytes a network may take to be built
    (`limit`; None: the memory available)."""

    def __init__(self, limit: Optional[int]) -> None:
        super().__init__()
        self.limit = limit


def _check(sweep: Sweep, bar: Progress, task, factors: Optional[_Factors], built: _Built) -> bytearray:
    keys = bytearray()
    invalid: List[str] = []
    count = 0
    seeds, n = len(sweep.seeds), sweep.size // len(sweep.seeds)
    # The axes with a list or a table among their values: where two have, their values' lists are weighed together.
    lists = [k for k, values in sweep.axes.items() if k not in (FLOWS, VARIANT) and any(isinstance(v, (list, dict))
                                                                                       for v in values)]
    written = sweep._fixed.model_dump(mode="json", exclude_none=True, by_alias=True) if len(lists) > 1 else None
    for c in range(n):
        heavy = _weighed(sweep, c, lists, written, built.limit) if written is not None else None
        fast = factors.keyed(c, built) if factors is not None and heavy is None else None
        if heavy is not None:
            axes, made, each = heavy
        elif fast is None or c % SAMPLE == 0 or c == n - 1:
            axes, made, each = _whole(sweep, c, built, fast)
            if fast is not None and ((fast[1] is None) != (made is None) or made is None and fast[2] != each):
                raise _Disagree
        else:
            axes, made, each, _ = fast
        keys += bytes.fromhex("".join(each))
        if isinstance(made, ScenarioError):
            count += 1
            if len(invalid) < 3:
                invalid.append(f"{', '.join(f'{k}={shown(v)}' for k, v in axes.items())}: {made}")
        if (c + 1) * seeds // 1000 > c * seeds // 1000:
            bar.update(task, completed=(c + 1) * seeds)
    bar.update(task, completed=sweep.size)
    if count:
        raise SweepError(f"{sweep.name}: {count} combination(s) of axis values are invalid, nothing was run; "
                         + "; ".join(invalid) + ("; ..." if count > 3 else ""))
    return keys


def _weighed(sweep: Sweep, c: int, lists: List[str], written: dict, limit: Optional[int]) -> Optional[
        Tuple[dict, ScenarioError, List[str]]]:
    """Combination `c` refused, before it is made or read, if the values of its axes `lists` (those that hold lists
    or tables) put together in `written` (the scenario as TOML gives it, `set` applied) take more than `limit`
    bytes (None: the memory available) by their lists (`memory.check_data`, as `pacesim run` weighs a scenario;
    `Sweep` weighs each value alone): its axis values, why, and placeholders for its keys, never registered
    (the sweep is refused). None if it is not."""
    axes, _ = sweep.axes_at(c * len(sweep.seeds))
    data = written
    for key in lists:
        if isinstance(axes[key], (list, dict)):
            data = with_value(data, key, axes[key]) or data
    try:
        memory.check_data(data, limit)
    except ScenarioError as e:
        return axes, e, [bytes(16).hex()] * len(sweep.seeds)
    return None


def _whole(sweep: Sweep, c: int, built: _Built, fast: Optional[Keyed] = None) -> Tuple[dict, Optional[ScenarioError],
                                                                                       List[str]]:
    """Combination `c` made whole (`Sweep._keyed`) and its network built: its axis values, why it is invalid
    (None if it is not), its run keys. Where the engine has read it from its axes' values alone (`fast`,
    `_Factors.keyed`) as the same JSON text, that reading's verdict, not read again."""
    axes, made, keys = sweep._keyed(c, engine=False)  # the engine reads it once, in `_built`
    if isinstance(made, ScenarioError):
        return axes, made, keys
    engine = made.to_engine()
    text = json.dumps(engine)
    if fast is not None and fast[3] == text:
        return axes, fast[1], keys
    read = {k: v for k, v in engine.items() if _builds((k,))}
    read["core"] = {k: v for k, v in engine["core"].items() if _builds(("core", k))}
    network = hashlib.sha256(json.dumps(read, sort_keys=True).encode()).digest()
    return axes, _built(text, network, built, valid=False), keys


def _built(engine: str, network: Any, built: _Built, valid: bool = True) -> Optional[ScenarioError]:
    """Why the scenario of engine JSON `engine` cannot run, or None: its network weighed (`memory.check_network`:
    one that would not fit in `built.limit` is refused naming its key, as `pacesim run` refuses it, not built)
    and built (as `pacesim run` builds it before it runs: RED on a graph's link, a pacer in front of a queue
    that holds its packets, a topology that paces no link by default), unless `built` holds `network` (what
    the build reads of it, which is all the weighing reads), and, unless `valid`, the engine's rules checked."""
    try:
        if network not in built:
            read = json.loads(engine)
            small = _smaller(read, sum(memory.check_network(read, built.limit).parts.values()))
            if small is not None:  # the engine's rules of the whole, then the build's on the smaller network
                _core.validate_json(engine)
                try:
                    _core.describe_json(small, 0)
                except ValueError:  # a name the smaller network lacks (`burstiness.link` at host 39,999): whole
                    small = None
            if small is None:
                _core.describe_json(engine, 0)  # the engine's rules too
            built[network] = None
            if len(built) > BUILT:
                del built[next(iter(built))]
        elif not valid:
            _core.validate_json(engine)
    except ScenarioError as e:
        return e
    except ValueError as e:
        return ScenarioError.from_engine(e)
    return None


BUILT_BYTES = 16 * 2**20
"""The largest network (`memory.network`'s parts: its flows, hosts and links) a sweep's check builds whole (about
3,000 TCP flows; the papers' have 1,000 at most); a larger one of a topology that scales by its hosts (`x-scale`)
is built with one host where that changes no verdict (`_smaller`). Checking X-scale's sweep file peaked at 172
MiB (202 MiB with its 10,000-flow networks built whole; every network whole: GBs and minutes at 1M flows)."""


def _smaller(engine: dict, size: int) -> Optional[str]:
    """The engine scenario `engine` with one host in place of its topology's (`x-scale`'s `hosts` key: one per
    edge on E-base), as JSON, when its network would take `size` bytes, more than `BUILT_BYTES`, and nothing of
    the scenario names a host, a link, a flow or a pacer of it (`memory.NAMED_LISTS`, a UDP source's hosts, a
    Tmix cloud): building it then meets the build's rules (pacers, queues, routes) as the whole network would,
    which repeats every host alike, while X-scale's million flows would take 2.8 GB and minutes each. None
    otherwise. A key naming a part of the whole that is not listed here (`burstiness.link`) makes the smaller
    build fail; `_built` then builds the whole, so the smaller one only ever passes what the whole passes."""
    t, traffic = engine["topology"], engine["traffic"]
    scale = schema.table("topology", t["kind"]).get("x-scale")
    if scale is None or not isinstance(t.get(scale["hosts"]), int) or t[scale["hosts"]] <= 1:
        return None
    if size <= BUILT_BYTES or traffic.get("tmix"):
        return None
    named = any((engine.get(table) or {}).get(key) for table, key in (k.split(".") for k in memory.NAMED_LISTS))
    if named or any((u.get("from"), u.get("to")) != ("s-udp", "d-udp") for u in traffic.get("udp") or ()):
        return None
    return json.dumps({**engine, "topology": {**t, scale["hosts"]: 1}})


class _Factors:
    """A sweep's combinations checked and keyed from its axes' values alone, without making each scenario
    whole (pydantic's validation, 0.6 ms of CPU a combination): where every axis value is an assignment of
    keys that no other axis changes, a combination's engine scenario is the base's (`set` applied) with each
    of its values' changes, and its run key is made from the parts of it that changed (`store.keyed_run`).
    Each value is validated alone, as `Sweep._check_axis` does; each combination is still held to the
    engine's rules (`_core.validate_json`: those across keys) and has its network built (`_built`). `_check`
    compares one combination in `SAMPLE` with the one made whole; one that disagrees, never seen, makes every
    combination whole."""

    def __init__(self, sweep: Sweep, base: dict, changes: List[List[Optional[dict]]]) -> None:
        self.sweep = sweep
        self.sizes = [len(v) for v in sweep.axes.values()]
        self.changes = changes  # by axis and value: {engine path: value}, None if the value alone is invalid
        self.base = base
        self.texts = {k: json.dumps(v) for k, v in base.items()}
        self.names = {k: json.dumps(k) for k in base}
        self.parts = {k: key_part(k, v) for k, v in base.items()}
        self.seeds = [key_part("seed", seed) for seed in sweep.seeds]
        # Each top-level key an axis changes, with the axes that change it; the axes that change what a build reads.
        self.tables: Dict[str, List[int]] = {}
        for a, values in enumerate(changes):
            for top in sorted({path[0] for change in values if change for path in change}):
                self.tables.setdefault(top, []).append(a)
        self.network = [a for a, values in enumerate(changes) if any(_builds(p) for c in values if c for p in c)]
        self.made: Dict[Tuple[str, tuple], Tuple[str, Optional[str]]] = {}

    @classmethod
    def of(cls, sweep: Sweep) -> Optional[_Factors]:
        """The factors of `sweep`, or None if its combinations must be made whole: it is scaled (`scaled` reads
        the whole scenario) or has a flows axis (hosts from flows and edges), an axis sets a topology's kind
        (which starts the topology anew) or a table at once (each of its keys), removes a key, or two axes
        change one key."""
        if sweep.scale != 1 or FLOWS in sweep.axes:
            return None
        for key, values in sweep.axes.items():
            for value in values:
                for item in sweep._overrides(key, value):
                    name, _, text = item.partition("=")
                    if name.strip() == "topology.kind" or text.strip().startswith("{") or isinstance(value, dict):
                        return None
        if any(change is False for values in sweep._alone for change in values):
            return None
        touched = [{path for change in values if change for path in change} for values in sweep._alone]
        for a, paths in enumerate(touched):
            for other in touched[a + 1:]:
                if any(p[:len(q)] == q or q[:len(p)] == p for p in paths for q in other):
                    return None
        base = sweep._fixed.to_engine()
        base["seed"] = sweep.seeds[0]  # no axis sets it, and each point's own replaces it in its key
        return cls(sweep, base, sweep._alone)

    def keyed(self, c: int, built: _Built) -> Optional[Keyed]:
        """Combination `c`'s axis values, why it is invalid (None if it is not), its run keys and its engine
        scenario's JSON (as `json.dumps` writes the whole); None if one of its values is invalid alone (the
        combination is made whole, and says why)."""
        at = []
        for size in reversed(self.sizes):  # the last axis varies fastest
            c, i = divmod(c, size)
            at.append(i)
        at.reverse()
        if any(self.changes[a][i] is None for a, i in enumerate(at)):
            return None
        texts, parts = dict(self.texts), dict(self.parts)
        for top, axes in self.tables.items():
            texts[top], parts[top] = self._table(top, tuple((a, at[a]) for a in axes))
        engine = "{" + ", ".join(f"{self.names[k]}: {v}" for k, v in texts.items()) + "}"
        why = _built(engine, tuple(at[a] for a in self.network), built, valid=False)
        parts = {k: v for k, v in parts.items() if v is not None}
        keys = [keyed_run({**parts, "seed": seed}, ENGINE_VERSION) for seed in self.seeds]
        return {k: v[i] for (k, v), i in zip(self.sweep.axes.items(), at)}, why, keys, engine

    def _table(self, top: str, values: tuple) -> Tuple[str, Optional[str]]:
        """Top-level key `top` of the engine's scenario with the changes of `values` ((axis, value index) of the
        axes that change it): its JSON and its part of a run's key (`store.key_part`)."""
        made = self.made.get((top, values))
        if made is None:
            table = self.base[top]
            for a, i in values:
                for path, value in self.changes[a][i].items():
                    if path[0] == top:
                        table = _assigned(table, path[1:], value) if len(path) > 1 else value
            made = self.made[(top, values)] = (json.dumps(table), key_part(top, table))
            if len(self.made) > BUILT:
                del self.made[next(iter(self.made))]
        return made


def _assigned(table: Any, path: tuple, value: Any) -> Any:
    """`table` with the key at `path` (a tuple of keys) set to `value`: the tables on the path copied, the rest
    shared."""
    if len(path) == 1:
        return {**table, path[0]: value}
    return {**table, path[0]: _assigned(table[path[0]], path[1:], value)}


