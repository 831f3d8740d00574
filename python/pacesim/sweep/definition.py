"""What a sweep is: a base scenario, fixed overrides, axes over its keys (or the flows and variant axes) and
seeds, every combination of axis values on every seed one point; read from a sweep file (`load_sweep`, the
format in the package's docstring) and checked as a definition before any point is made: its name, seeds,
overrides (their lists weighed first: `_applied`) and axes, each axis value alone (`_check_axis`, and weighed
first: `_weigh_axis`)."""

from __future__ import annotations

import json
import math
import re
from dataclasses import InitVar, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .. import ENGINE_VERSION, memory
from ..messages import printable, shown
from ..scenario import (Scenario, ScenarioError, check_key, key_path, load_scenario, override_list, overridden, packaged,
                        packaged_names, parse_scenario, plain, read_toml, toml_value)
from ..store import MAX_SEED, key_part, keyed_run, plain_name, run_key
from .scaling import FLOWS, scaled, with_flows

if TYPE_CHECKING:
    from rich.progress import Progress

VARIANT = "variant"
"""An axis that is not a scenario key: names of override sets (`variants`)."""


MAX_POINTS = 10**6
"""The most points a sweep may have. Its points are made, checked and run one at a time, but the store
lists every one (a row each) and the sweep keeps each point's key (16 B) while it runs; checking a combination
of axis values takes about 0.3 ms of CPU (most of it the engine's rules, `check`), and a network's build
for each it has not built, so a sweep this size may be checked for some minutes before its first point runs."""

MAX_AXES = 64
"""The most axes a sweep may have. Each is a column of its points' tables, and each of its values is checked alone
against the whole scenario (`_check_axis`), so a sweep's reading grows as its axes times its scenario (review33i
D4: 1,000 one-value axes over 1,000 UDP sources took 114 s and 762 MB to read, for one 0.6 s point); and at most
19 axes of two values or more fit in `MAX_POINTS`: the rest hold one value, a fixed override, which is `set`'s."""
AXES = "an axis of one value is a fixed override: give it in `set` (set = [\"core.buffer=5KB\"])"

SEEDS = ("a sweep's seeds are its `seeds` list (seeds = [1, 2]), which sets every point's seed; "
         "a seed set otherwise would be replaced")
NO_TRACE = ("a sweep writes no packet traces (its points would share one file); trace one point with "
            "`pacesim run --trace FILE`")


class SweepError(ValueError):
    """A sweep that cannot be run at all (as opposed to one failing point); `status` is the command's exit
    status for it: 2 for what it was given (a definition, a store), 1 if the file system failed the work."""

    def __init__(self, message: str, status: int = 2):
        super().__init__(printable(message))
        self.status = status


def _traces(key: str) -> bool:
    """Whether override key `key` sets the packet trace (`trace`, `trace.file`, ...)."""
    return key.strip().split(".")[0].strip() == "trace"


def _once(where: str, values: list) -> None:
    """A SweepError if a value is given twice in `values` (`where`: the seeds, an axis): the sweep would
    hold that point twice, and the store, which knows a point by its axis values and seed, once."""
    seen: Dict[Union[int, str], int] = {}
    for i, value in enumerate(values):
        # A whole number is its own key (a million seeds' JSON texts took 150 MB); no text equals one.
        text = value if type(value) is int else json.dumps(value, sort_keys=True, default=repr)
        if text in seen:
            raise SweepError(f"{where}[{i}]: {shown(value)} is given twice (also at [{seen[text]}])")
        seen[text] = i


def _check_overrides(where: str, overrides: List[str]) -> None:
    """A SweepError if one of `overrides` (in `where`: `set`, a variant) sets what a sweep may not: the seed
    (each point's comes from `seeds`) or the packet trace."""
    for i, item in enumerate(overrides):
        key = item.partition("=")[0].strip()
        if key == "seed":
            raise SweepError(f"{where}[{i}]: {shown(item)}: {SEEDS}")
        if _traces(key):
            raise SweepError(f"{where}[{i}]: {shown(item)}: {NO_TRACE}")


def _applied(where: str, scenario: Scenario, overrides: List[str], root: Optional[Path],
             limit: Optional[int]) -> Scenario:
    """`scenario` with `overrides` applied (those of `where`: `set`, a variant, `quick.set`), the lists they give
    weighed at `limit` bytes (None: the memory available) before they are checked (`apply_overrides`'s
    `max_memory`), as an axis value is (`_weigh_axis`; review33h D4: 1.6 million pacer names in `set` were checked
    whole, 718 MB under --max-memory 300MB); a SweepError naming `where` if they cannot be applied."""
    try:
        return overridden(scenario.written(), overrides, root, max_memory=limit)
    except ScenarioError as e:
        raise SweepError(f"{where}: {e}") from None


def _overlapping(axes: Dict[str, list], variants: Dict[str, List[str]],
                 fixed: Sequence[Tuple[str, List[str]]] = ()) -> None:
    """A SweepError naming both where a setting of a point's (an axis, or an override of a variant the sweep runs) is
    overridden unseen by one applied after it, in the order a point applies them (`fixed`'s overrides first: `set`,
    then `[quick]`'s; its axes in order, a variant's overrides at the variant axis; the flows axis last, as
    `with_flows` sets topology.hosts_per_edge once every override is applied): the later sets the same key, or a
    table holding it, or a key inside a table the earlier gives that key (review-hostile33k M4: variant `a` =
    core.buffer=5KB under an axis core.buffer = ["7KB"] ran 7KB labelled `a`; review-hostile33l H6: the flows axis
    sets topology.hosts_per_edge). A later key inside an earlier table that leaves it out refines it: allowed. A
    fixed override labels no point: a later setting may set its key again, but not drop it unseen, as a table that
    leaves it out does (review-hostile33m D5: set core.buffer=3KB under an axis core = [{queue="red"}] ran the
    topology's buffer). `topology.kind` is the table `topology`, as setting it starts the topology from the kind's
    defaults (D2); keys are compared as the places they name (D4: traffic.udp[00] is traffic.udp[0]). Each setting
    is looked up among the earlier in a tree of their keys, not against each (R5: 60,000 overrides of one variant
    took 96 s); the fixed overrides and the axes before the variant axis, the same for every variant, are put in the
    tree once, and each variant's settings and the axes after it are taken out again once judged (review-hostile33n
    M1: `set` walked once per variant, 10,000 overrides x 500 variants took 142 s)."""
    root = _Keys()
    for who, items in fixed:
        for key, path, values in (_setting(item) for item in items):
            root.add(path, (key, who, values), False)
    before: List[Tuple[str, list]] = []
    after: List[Tuple[str, list]] = []
    groups = before
    for axis, values in axes.items():
        if axis == VARIANT:
            groups = after
        elif axis != FLOWS:
            groups.append((f"axis {shown(axis)}", [_placed(axis.strip(), values)]))
    if FLOWS in axes:
        groups.append((f"axis {shown(FLOWS)}", [_placed("topology.hosts_per_edge", axes[FLOWS])]))
    for later, settings in before:
        _judged(root, later, settings, None)
    if VARIANT not in axes:
        return
    for name in axes[VARIANT] or [None]:
        undo: List[Tuple[_Keys, Any]] = []
        _judged(root, f"variants.{name!r}", [_setting(item) for item in variants.get(name, [])], undo)
        for later, settings in after:
            _judged(root, later, settings, undo)
        for node, state in reversed(undo):
            node.restore(state)


def _judged(root: _Keys, later: str, settings: list, undo: Optional[list]) -> None:
    """Each of a point's `settings` (key, place, values; of `later`) judged against those in `root` (`_refuse_overridden`),
    then put there, what it changed appended to `undo` (None: kept)."""
    for key, path, values in settings:
        _refuse_overridden(root, later, key, path, values)
    for key, path, values in settings:
        root.add(path, (key, later, values), True, undo)


def _setting(item: str) -> Tuple[str, Tuple[Union[str, int], ...], list]:
    """Override `item` ("key=value") as `_placed` places it."""
    key, _, text = item.partition("=")
    return _placed(key.strip(), [toml_value(text.strip())])


def _placed(key: str, values: list) -> Tuple[str, Tuple[Union[str, int], ...], list]:
    """(`key`, the place it names, `values`) of a setting; `topology.kind` sets the table `topology` to `{kind = ...}`
    (an override of it starts the topology from the kind's defaults: `overridden`)."""
    path = key_path(key)
    if path == ("topology", "kind"):
        return key, ("topology",), [{"kind": value} for value in values]
    return key, path, values


_SET = object()
"""What `_given` holds where one of the values is no table (a value, a list): every key below it taken as set."""


def _given(values: list) -> Any:
    """The keys any of `values` gives, as a tree of dicts, `_SET` where one of them is no table."""
    tree: Dict[str, Any] = {}
    for value in values:
        if not isinstance(value, dict):
            return _SET
        for key, inner in value.items():
            below = tree.get(key)
            tree[key] = _SET if below is _SET else _given([inner] + ([] if below is None else [below]))
    return tree


class _Keys:
    """A tree of the keys set so far, by the parts of their places: at each, the first setting of a point's there
    (`here`: key, who, values; a variant may set it twice), and the first of a point's and of a fixed override's at
    it or below; `fixed_below`, the parts below holding a fixed override."""

    def __init__(self) -> None:
        self.below: Dict[Union[str, int], _Keys] = {}
        self.fixed_below: Dict[Union[str, int], _Keys] = {}
        self.here: Optional[Tuple[str, str, list]] = None
        self.given: Any = None  # `_given` of `here`'s values, made when first asked for
        self.labelled: Optional[Tuple[str, str, list]] = None
        self.fixed: Optional[Tuple[str, str, list]] = None

    def add(self, path: Tuple[Union[str, int], ...], setting: Tuple[str, str, list], labels: bool,
            undo: Optional[list] = None) -> None:
        """Put `setting` at `path`, a point's if `labels`, else a fixed override's; what a point's changes is
        appended to `undo` (None: kept) for `restore`."""
        node = self
        for part in path:
            if labels:
                node.mark(setting, undo)
            else:
                node.fixed = node.fixed or setting
            inner = node.below.get(part)
            if inner is None:
                inner = node.below[part] = _Keys()
                if undo is not None:
                    undo.append((node, part))
            if not labels:
                node.fixed_below[part] = inner
            node = inner
        if labels:
            node.mark(setting, undo)
            if node.here is None:
                node.here = (setting[0], setting[1], list(setting[2]))
            elif node.here[1] == setting[1]:
                node.here[2].extend(setting[2])
        else:
            node.fixed = node.fixed or setting

    def mark(self, setting: Tuple[str, str, list], undo: Optional[list]) -> None:
        """`setting`, a point's, is at this place or below: its state kept in `undo` first."""
        if undo is not None:
            undo.append((self, (self.labelled, self.here, self.given)))
        self.labelled = self.labelled or setting

    def restore(self, state: Any) -> None:
        """Undo one change `add` appended: a part made below (its key), or this node's earlier state (a `here` only
        one who extends, and the same who's first setting of it is undone after)."""
        if isinstance(state, tuple):
            self.labelled, self.here, self.given = state
        else:
            del self.below[state]

    def dropped(self, value: Any) -> Optional[Tuple[Tuple[str, str, list], str]]:
        """The first fixed override below this place that `value`, set here, leaves out, and how: a key a table
        leaves out, or an element past a list's end or one its table at that index leaves out (review-hostile33n M2:
        set traffic.udp[1].rate under an axis traffic.udp of one source ran no udp[1])."""
        if isinstance(value, dict):
            for part, node in self.fixed_below.items():
                if isinstance(part, int):
                    continue
                found = (node.fixed, "its table leaves it out, for the default") if part not in value else \
                    node.dropped(value[part])
                if found is not None:
                    return found
        elif isinstance(value, list):
            for part, node in self.fixed_below.items():
                if not isinstance(part, int):
                    continue
                found = (node.fixed, "its list has no element there") if part >= len(value) else \
                    node.dropped(value[part])
                if found is not None:
                    return found
        return None


def _refuse_overridden(root: _Keys, later: str, key: str, path: Tuple[Union[str, int], ...], values: list) -> None:
    """A SweepError if setting `key` (at `path`, of `values`, by `later`) overrides unseen one set before it (`root`;
    `_overlapping`'s rules)."""
    def refuse(who: str, both: str, why: str = "") -> None:
        raise SweepError(f"{who} and {later} both set {shown(both)}: {later}, applied after, would override it "
                         f"unseen{why}; set it in one place")

    node = root
    for depth, part in enumerate(path):
        if node.here is not None:  # an earlier table holding this key: does it give it?
            if node.given is None:
                node.given = _given(node.here[2])
            tree = node.given
            for step in path[depth:]:
                if tree is _SET or isinstance(step, int):
                    break
                tree = tree.get(step) if isinstance(tree, dict) else None
                if tree is None:
                    break
            else:
                tree = _SET
            if tree is _SET:
                refuse(node.here[1], key)
        inner = node.below.get(part)
        if inner is None:
            return
        node = inner
    if node.labelled is not None:  # an earlier point's setting of this key or one inside it
        refuse(node.labelled[1], node.labelled[0])
    for value in values:
        dropped = node.dropped(value)
        if dropped is not None:
            (earlier, who, _), why = dropped
            refuse(who, earlier, f" ({why})")


def _too_many_axes(count: int) -> str:
    """Why a sweep of `count` axes, more than `MAX_AXES`, is refused."""
    return f"axes: {count:,} axes, more than the {MAX_AXES} a sweep may have: {AXES}"


def _too_many(name: str, axes: dict, seeds: list) -> Optional[str]:
    """Why sweep `name`, of `axes` (key -> list of values) on `seeds`, has too many points (more than
    `MAX_POINTS`); None if it has not. Counted from the lists' lengths alone, before any of their values is read."""
    size = math.prod(len(v) for v in axes.values()) * len(seeds)
    if size <= MAX_POINTS:
        return None
    sizes = " x ".join([f"{len(v):,} values of {shown(k)}" for k, v in axes.items()] + [f"{len(seeds):,} seeds"])
    return (f"{name}: {size:,} points ({sizes}), more than the {MAX_POINTS:,} a sweep may have; split it into "
            "several sweeps")


def _flow_counts(values: list) -> None:
    """A SweepError naming the flows axis and the index of the first of its `values` that is no number of flows (a
    whole number, 1 or more), whatever the topology (review33h D6: a list was taken for a count, "[1, 2] flows
    cannot be spread evenly", and one of 1.9 million names read whole); whether a count can be spread over
    E-base's edges is each point's to say (`with_flows`), as an axis or a variant may set the topology."""
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise SweepError(f"axis {FLOWS!r}[{i}]: {shown(value)} is not a number of flows (a whole number, "
                             "1 or more)")


def _weigh_axis(written: dict, key: str, values: list, limit: Optional[int], where: str = "") -> None:
    """A SweepError naming axis `key` (after `where`), the value and the key of its largest part if one of `values`
    that is a list or a table, put at `key` in the scenario `written` (the base with `set` applied, as TOML gives
    it, or a variant's), makes its lists take more than `limit` bytes (None: the memory available):
    `memory.check_data`, as `pacesim run` weighs a scenario before the front reads it (review33f #5: an axis value of
    1.9 million pacer names was read whole, written as JSON, read back as TOML and refused by the engine, 968 MB
    under --max-memory 300MB, with a 15 MB message). Every other value adds no list to weigh."""
    if key in (FLOWS, VARIANT):
        return
    for i, value in enumerate(values):
        data = with_value(written, key, value) if isinstance(value, (list, dict)) else None
        if data is None:
            continue
        try:
            memory.check_data(data, limit)
        except ScenarioError as e:
            raise SweepError(f"{where}axis {shown(key)}[{i}]: {e}") from None


def _weigh_with_variant(name: str, variant: Scenario, axes: dict, limit: Optional[int]) -> None:
    """`_weigh_axis` of every axis on variant `name`'s scenario (`set` and its overrides applied): the variant and
    an axis value, each fitting alone, are read together when their point is made (review33i)."""
    if any(isinstance(value, (list, dict)) for key, values in axes.items() if key not in (FLOWS, VARIANT)
           for value in values):
        written = variant.written()
        for key, values in axes.items():
            _weigh_axis(written, key, values, limit, f"variants.{name!r} with ")


def with_value(data: dict, key: str, value: Any) -> Optional[dict]:
    """Scenario `data`, as TOML gives it, with `value` at dotted `key` (`traffic.udp[0].sizes` for a key of a
    list's element), as an override sets it: the tables and lists on the way copied, the rest shared; None where
    `key` names no place for a value in it (the error is `check_key`'s)."""
    out = dict(data)
    node: Any = out
    parts = [part.strip() for part in key.split(".")]
    for depth, part in enumerate(parts):
        written = re.fullmatch(r"(\w+)(?:\[(\d+)\])?", part)  # name or name[index]
        if written is None or (depth == len(parts) - 1 and written[2] is not None):
            return None
        steps: List[Union[str, int]] = [written[1]] + ([int(written[2])] if written[2] is not None else [])
        for step in steps:
            if isinstance(step, str) != isinstance(node, dict) or isinstance(step, int) and step >= len(node):
                return None
            if depth == len(parts) - 1:
                node[step] = value
                return out
            child = node.get(step, {}) if isinstance(step, str) else node[step]
            if not isinstance(child, (dict, list)):
                return None
            node[step] = child = dict(child) if isinstance(child, dict) else list(child)
            node = child
    return None


def _check_axis(base: Scenario, key: str, values: list, variants: dict, root: Optional[Path] = None) -> List[Any]:
    """A SweepError naming axis `key` if it is no scenario key (nor the flows or variant axis), names an
    unknown variant, or holds two values that mean one thing ("3KB" and "3000B": one point run twice, and
    stored once). Else what each value changes of `base`'s engine scenario alone (`_changes`; None for a
    value invalid alone, whose points say why when they are made; False for the flows and variant axes,
    whose values are no keys' or are checked with the variants)."""
    if key == FLOWS:
        return [False] * len(values)
    if key == VARIANT:
        unknown = [v for v in values if not isinstance(v, str) or v not in variants]
        if unknown:
            raise SweepError(f"variant axis names {unknown}, not defined under [variants] ({', '.join(variants)})")
        return [False] * len(values)
    try:
        check_key(base, key)
    except ScenarioError as e:
        raise SweepError(f"axis {key!r} is not a scenario key (nor {FLOWS!r}): {e.message}") from None
    meant: Dict[str, int] = {}
    changes: List[Any] = []
    was = base.to_engine()
    for i, value in enumerate(values):
        try:
            alone = overridden(base.written(), [f"{key}={json.dumps(value)}"], root)
        except ScenarioError:
            changes.append(None)
            continue
        engine = alone.to_engine()
        changes.append(_changes(was, engine, ()) if alone.trace is None else None)
        text = json.dumps(engine, sort_keys=True)
        if text in meant:
            j = meant[text]
            raise SweepError(f"axis {shown(key)}[{i}]: {shown(value)} means what [{j}] {shown(values[j])} means; "
                             "the sweep would run that point twice")
        meant[text] = i
    return changes


@dataclass(frozen=True)
class Point:
    """One run of a sweep: its axis values and seed, and either the scenario or why it is invalid."""

    axes: dict
    seed: int
    key: str
    scenario: Optional[Scenario] = None
    error: Optional[str] = None

    def named(self) -> str:
        return named(self.axes, self.seed)


def named(axes: dict, seed: int) -> str:
    """A point for a person: its axis values (each as an error shows a value, `shown`: a long list cut) and seed
    ("point core.buffer='3KB', seed 2")."""
    return "point " + "".join(f"{a}={shown(v)}, " for a, v in axes.items()) + f"seed {seed}"


@dataclass(frozen=True)
class Made:
    """What the points of one combination of axis values share: its axis values, its scenario on the sweep's first
    seed (or why it is invalid) and what its run key is made of (`key`), so that a point is made for its seed
    alone, when it is asked for."""

    axes: dict
    scenario: Union[Scenario, ScenarioError]
    # A valid scenario's key parts but the seed's (`store.key_part`, by top-level key of its engine form); an
    # invalid one's base, overrides, axes and scale.
    keyed: dict

    def key(self, seed: int) -> str:
        """The run key of this combination's point on `seed`: `store.run_key` of its engine scenario with that
        seed (made from the parts the seed leaves as they were, `store.keyed_run`), or of what an invalid one was
        made of, the seed's override added."""
        if isinstance(self.scenario, ScenarioError):
            return run_key({**self.keyed, "overrides": self.keyed["overrides"] + [f"seed={seed}"]}, ENGINE_VERSION)
        return keyed_run({**self.keyed, "seed": key_part("seed", seed)}, ENGINE_VERSION)

    def point(self, seed: int) -> Point:
        """This combination's point on `seed`: its scenario a copy of the first seed's with that seed."""
        s = self.scenario
        if isinstance(s, ScenarioError):
            return Point(self.axes, seed, self.key(seed), error=f"ScenarioError: {s}")
        return Point(self.axes, seed, self.key(seed),
                     scenario=s if seed == s.seed else s.model_copy(update={"seed": seed}, deep=True))


@dataclass
class Sweep:
    """A base scenario, fixed overrides, axes (key -> values) and seeds; `scale` != 1
    shrinks every point with `scaled`."""

    name: str
    base: Scenario = field(default_factory=Scenario)
    axes: dict = field(default_factory=dict)
    seeds: List[int] = field(default_factory=lambda: [1])
    set: List[str] = field(default_factory=list)
    scale: float = 1.0
    variants: Dict[str, List[str]] = field(default_factory=dict)
    # The reduced version: more `set`, a `scale`, other `seeds` (see `reduced`).
    quick: Optional[Dict[str, Any]] = None
    # Where relative file names in overrides are from (the sweep file's directory).
    root: Optional[Path] = None
    # The bytes a point may take (None: the memory available), against which each axis value that is a list or a
    # table (`_weigh_axis`) and the lists `set`, a variant and `[quick]`'s `set` give (`_applied`) are weighed
    # before they are read, as `pacesim run --max-memory` weighs a scenario.
    max_memory: Optional[int] = field(default=None, repr=False, compare=False)
    # Where the check of the variants shows its progress, if anywhere (`progress.bar`): each is validated whole, 1-2
    # ms of CPU a variant over a small scenario, 0.13 s over 3,000 UDP sources (review-hostile33o M2: 20,000 variants
    # were read for 40 s in silence; review-hostile33p M3: 99 such variants for 22 s).
    bar: InitVar[Optional[Progress]] = None
    # The last combination of axis values made (`_combination`): its index, whether the engine checked it, and
    # what its points share (`Made`): a point of it is made for its seed when asked for, never all of them at
    # once (review33i D3: 100,000 seeds made 100,000 points of ~12 KB each, 1.40 GB under --max-memory 300MB).
    _made: Optional[Tuple[int, bool, Made]] = field(default=None, init=False, repr=False, compare=False)
    # The base with `set` applied (`__post_init__`): every point's overrides start from it.
    _fixed: Optional[Scenario] = field(default=None, init=False, repr=False, compare=False)
    # By axis and value: what the value changes of `_fixed`'s engine scenario alone (`_check_axis`).
    _alone: List[List[Any]] = field(default_factory=list, init=False, repr=False, compare=False)

    def __post_init__(self, bar: Optional[Progress]) -> None:
        why = plain_name(self.name)
        if why:
            raise SweepError(f"name: {why}")
        if not isinstance(self.seeds, list) or not self.seeds:
            raise SweepError("seeds: a sweep needs a list of at least one seed")
        # The shapes a sweep file's reader guarantees, checked for a Sweep made in Python (review-hostile33k H5:
        # AttributeErrors and TypeErrors): a table of axes by key, lists of overrides.
        if not isinstance(self.axes, dict) or not all(isinstance(key, str) for key in self.axes):
            raise SweepError(f"axes: {shown(self.axes)} is not a table of axes, key = [values] "
                             '({"core.buffer": ["5KB", "10KB"]})')
        if not isinstance(self.variants, dict) or not all(isinstance(name, str) for name in self.variants):
            raise SweepError(f"variants: {shown(self.variants)} is not a table of variants, name = [overrides]")
        for where, overrides in [("set", self.set)] + [(f"variants.{n!r}", o) for n, o in self.variants.items()]:
            try:
                override_list(overrides)
            except ScenarioError as e:
                raise SweepError(f"{where}{e.field[3:]}: {e.message}") from None
        try:  # values given in Python as plain JSON values, as a file's reader gives them (`plain`; review-hostile33k
            # H1, review-hostile33l H8: numpy's numbers, Decimals; review-hostile33m D3: an Enum, a set, a date)
            self.seeds = plain(self.seeds, ("seeds",))
        except ScenarioError as e:
            raise SweepError(str(e)) from None
        try:
            self.axes = {str.__str__(key): plain(values, (key,)) if isinstance(values, list) else values
                         for key, values in self.axes.items()}
        except ScenarioError as e:
            raise SweepError(f"axis {e}") from None
        if len(self.axes) > MAX_AXES:
            raise SweepError(_too_many_axes(len(self.axes)))
        for key, values in self.axes.items():
            if not isinstance(values, list) or not values:
                raise SweepError(f"axis {shown(key)} needs a non-empty list of values")
        too_many = _too_many(self.name, self.axes, self.seeds)
        if too_many:  # counted before any value is read (review33i: 1.6 million seeds took 433 MB to refuse)
            raise SweepError(too_many)
        for i, seed in enumerate(self.seeds):
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
                raise SweepError(f"seeds[{i}]: {shown(seed)} is not a whole number from 0 to 2^63 - 1 "
                                 "(the seeds a results store holds)")
        _once("seeds", self.seeds)
        if isinstance(self.scale, bool) or not isinstance(self.scale, (int, float)) or not 0 < self.scale < math.inf:
            raise SweepError(f"scale {self.scale!r}: expected a finite number above zero")
        try:  # a base changed unchecked (`model_copy`) is held to a file's rules (review-hostile33l H5, M4)
            self.base = self.base.rechecked()
        except ScenarioError as e:
            raise SweepError(f"base scenario: {e}") from None
        fixed = self._fixed = _applied("set", self.base, self.set, self.root, self.max_memory)  # axes: keys of it
        if fixed.trace is not None:
            raise SweepError(f"trace: {NO_TRACE}")
        _check_overrides("set", self.set)
        written = fixed.written()
        for key, values in self.axes.items():
            if key == FLOWS:
                _flow_counts(values)
            _weigh_axis(written, key, values, self.max_memory)
            _once(f"axis {shown(key)}", values)
            if key.strip() == "seed":
                raise SweepError(f"axis 'seed': {SEEDS}")
            if _traces(key):
                raise SweepError(f"axis {shown(key)}: {NO_TRACE}")
        self._alone = [_check_axis(fixed, key, values, self.variants, self.root) for key, values in self.axes.items()]
        alone = {}
        fixed_engine = fixed.to_engine()
        if bar is not None:
            from rich.progress import Progress

            if not isinstance(bar, Progress):  # review-hostile33p L4: True gave an AttributeError
                raise SweepError(f"bar: {shown(bar)} is not a rich Progress (progress.bar) to show the variants' check on")
        shown_on = bar if self.variants else None  # no line for no variants (review-hostile33q L2)
        if shown_on is not None:
            task = shown_on.add_task(f"{self.name}: checking variants", total=len(self.variants), failed="")
        for name, overrides in self.variants.items():
            for i, item in enumerate(overrides):
                if not item.partition("=")[0].strip() or "=" not in item:
                    raise SweepError(f"variants.{name!r}[{i}]: {shown(item)} is not an override; an override is "
                                     "key=value, e.g. core.buffer=5KB")
            _check_overrides(f"variants.{name!r}", overrides)
            variant = _applied(f"variants.{name!r}", fixed, overrides, self.root, self.max_memory)
            if variant.trace is not None:
                raise SweepError(f"variants.{name!r}: {NO_TRACE}")
            alone[name] = _changes(fixed_engine, variant.to_engine(), ())
            if VARIANT in self.axes and name in self.axes[VARIANT]:
                _weigh_with_variant(name, variant, self.axes, self.max_memory)
            if shown_on is not None:
                shown_on.update(task, advance=1)
        if VARIANT in self.axes:
            self._alone[list(self.axes).index(VARIANT)] = [alone[v] for v in self.axes[VARIANT]]
        _overlapping(self.axes, self.variants, [("set", self.set)])
        unknown = set(self.quick or {}) - {"set", "scale", "seeds"}
        if unknown:
            raise SweepError(f"[quick] has unknown keys {sorted(unknown)}; it takes set, scale, seeds")

    @property
    def size(self) -> int:
        """How many points the sweep has: every combination of axis values, times the seeds."""
        return math.prod(len(v) for v in self.axes.values()) * len(self.seeds)

    def reduced(self, bar: Optional[Progress] = None) -> Sweep:
        """The quick version this sweep defines, named `<name>-quick` (its variants' check shown on `bar`)."""
        if self.quick is None:
            raise SweepError(f"sweep {self.name!r} defines no [quick] version")
        more = self.quick.get("set", [])
        _check_overrides("quick.set", more)
        _applied("quick.set", self._fixed, more, self.root, self.max_memory)  # what fails there, named for [quick]
        _overlapping(self.axes, self.variants, [("set", self.set), ("quick.set", more)])
        return Sweep(name=f"{self.name}-quick", base=self.base, axes=self.axes, variants=self.variants,
                     set=self.set + more, scale=self.quick.get("scale", self.scale),
                     seeds=self.quick.get("seeds", self.seeds), root=self.root, max_memory=self.max_memory, bar=bar)

    def spec(self) -> dict:
        """The definition as JSON-able data (stored with the sweep)."""
        return {"base": self.base.model_dump(mode="json", exclude_none=True), "set": self.set,
                "axes": self.axes, "seeds": self.seeds, "scale": self.scale, "variants": self.variants}

    def points(self) -> List[Point]:
        """Every (axes, seed) combination, axes varying slowest first, seeds fastest (`iter_points`, held)."""
        return list(self.iter_points())

    def iter_points(self) -> Iterator[Point]:
        """`points` one at a time: each combination of axis values is made and checked once, its seeds
        are copies of it (a point's validity does not depend on its seed), each made as it is yielded."""
        for c in range(self.size // len(self.seeds)):
            made = self._combination(c)
            for seed in self.seeds:
                yield made.point(seed)

    def axes_at(self, i: int) -> Tuple[dict, int]:
        """Point `i`'s axis values and seed (its place in `points`), without making its scenario."""
        c, seed = divmod(i, len(self.seeds))
        axes = {}
        for key, values in reversed(list(self.axes.items())):  # the last axis varies fastest
            c, at = divmod(c, len(values))
            axes[key] = values[at]
        return {k: axes[k] for k in self.axes}, self.seeds[seed]

    def point(self, i: int, engine: bool = True) -> Point:
        """Point `i` of `points`; `engine` False leaves out the engine's rules (`parse_scenario`), for a point
        of a combination the engine has checked (`_check`)."""
        c, seed = divmod(i, len(self.seeds))
        return self._combination(c, engine).point(self.seeds[seed])

    def _combination(self, c: int, engine: bool = True) -> Made:
        """Combination `c` of axis values, held to the engine's rules if `engine` (`_made`, whatever the seeds:
        `reproduce` adds seeds to a sweep, and what a combination's points share does not depend on them)."""
        if self._made is None or self._made[:2] != (c, engine):
            self._made = (c, engine, self._make(c, engine))
        return self._made[2]

    def _overrides(self, key: str, value: Any) -> List[str]:
        """The overrides that value `value` of axis `key` stands for (none for the flows axis, applied after them)."""
        if key == VARIANT:
            return list(self.variants[value])
        return [] if key == FLOWS else [f"{key}={json.dumps(value)}"]

    def _keyed(self, c: int, engine: bool = True) -> Tuple[dict, Union[Scenario, ScenarioError], List[str]]:
        """Combination `c`'s axis values, its scenario on the first seed (or why it is invalid) and its run key on
        each seed (`_make`)."""
        made = self._make(c, engine)
        return made.axes, made.scenario, [made.key(seed) for seed in self.seeds]

    def _make(self, c: int, engine: bool = True) -> Made:
        """Combination `c`: one validation and one conversion to the engine's form for all its seeds (the seed is
        a key of that form, and changes nothing else), on `set` applied once (`_fixed`); the engine reads it once,
        at the end, if `engine` (its steps leave out the engine's rules). Its lists are weighed together first,
        at `max_memory`, as `pacesim run` weighs a scenario (`apply_overrides`): a variant's and an axis value's,
        each weighed alone when the sweep was read, may not fit together."""
        axes, _ = self.axes_at(c * len(self.seeds))
        overrides = [o for k, v in axes.items() for o in self._overrides(k, v)]
        try:
            s = overridden(self._fixed.written(), overrides + [f"seed={self.seeds[0]}"], self.root, engine=False,
                           max_memory=self.max_memory)
            if FLOWS in axes:
                s = with_flows(s, axes[FLOWS])
            s = scaled(s, self.scale, engine=False)
            if s.trace is not None:
                raise ScenarioError("trace", NO_TRACE)
            if engine:
                s.engine_checked()
        except ScenarioError as e:
            invalid = {"base": self.base.to_engine(), "overrides": self.set + overrides, "axes": axes, "scale": self.scale}
            return Made(axes, e, invalid)
        engine_form = s.to_engine()
        return Made(axes, s, {k: part for k, v in engine_form.items() if k != "seed"
                              for part in [key_part(k, v)] if part is not None})


Scale = Annotated[float, Field(gt=0.0, allow_inf_nan=False)]
Seed = Annotated[int, Field(ge=0, le=MAX_SEED)]


class _Quick(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    set: List[str] = []
    scale: Optional[Scale] = None
    seeds: Optional[Annotated[List[Seed], Field(min_length=1)]] = None


class _SweepFile(BaseModel):
    """The keys of a sweep file and their types (see the module docstring)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: Optional[Annotated[str, Field(min_length=1)]] = None
    scenario: Union[str, Dict[str, Any]] = {}
    seeds: Annotated[List[Seed], Field(min_length=1)] = [1]
    set: List[str] = []
    axes: Dict[str, Annotated[List[Any], Field(min_length=1)]] = {}
    scale: Scale = 1.0
    variants: Dict[str, List[str]] = {}
    quick: Optional[_Quick] = None


def _base_file(path: Path, name: str) -> Path:
    """The scenario file a sweep file `path` names in `scenario`: a file relative to the sweep file's
    directory, else a packaged scenario of that name (as `pacesim run` takes it), else a SweepError."""
    try:
        if (path.parent / name).is_file():
            return path.parent / name
    except OSError:  # a name the file system refuses (too long, ...)
        pass
    found = packaged(name) if len(name) <= 255 else None
    if found is None:
        named = path.parent / name if len(name) <= 255 else f"{name[:80]}... ({len(name)} characters)"
        raise SweepError(f"{path}: scenario: no file {named}, and no packaged scenario named {name!r} "
                         f"({packaged_names()})")
    return found


def _counted(path: Path, data: Any) -> None:
    """A SweepError naming the sweep file `path`, as TOML gives it (`data`), if it has more axes than `MAX_AXES`, or
    more points than `MAX_POINTS` (or its `[quick]` version has), counted from its lists' lengths before any of their
    values is checked or its base scenario is read (`_too_many`); what is no list is `_SweepFile`'s to refuse."""
    if not isinstance(data, dict):
        return
    axes = data.get("axes", {})
    quick = data.get("quick")
    if isinstance(axes, dict) and len(axes) > MAX_AXES:  # review-hostile33j: named no file, after the base loaded
        raise SweepError(f"{path}: {_too_many_axes(len(axes))}")
    if not isinstance(axes, dict) or not all(isinstance(v, list) for v in axes.values()):
        return
    name = data.get("name") if isinstance(data.get("name"), str) and not plain_name(data["name"]) else path.stem
    for which, seeds in [("", data.get("seeds", [1])), ("[quick] ", quick.get("seeds") if isinstance(quick, dict)
                                                         else None)]:
        too_many = _too_many(name, axes, seeds) if isinstance(seeds, list) else None
        if too_many:
            raise SweepError(f"{path}: {which}{too_many}")


def load_sweep(path: Union[str, Path], max_memory: Optional[int] = None, bar: Optional[Progress] = None) -> Sweep:
    """Read a sweep TOML file (see the module docstring); a base scenario whose graph alone needs more than
    `max_memory` bytes (default: the memory available) is refused, as `parse_scenario` refuses it (its error naming
    the sweep file and its `scenario`), and so are an axis value and overrides whose lists would (`Sweep.max_memory`).
    A sweep of more than `MAX_POINTS` points is refused as its file is read, counted before its values are checked.
    The check of many variants is shown on `bar` (`Sweep.bar`)."""
    path = Path(path)
    data = read_toml(path)
    _counted(path, data)
    try:
        f = _SweepFile.model_validate(data)
    except ValidationError as e:
        error = e.errors()[0]  # a list's element as in every other message, seeds[0] (review-hostile33k L3)
        where = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in error["loc"]).lstrip(".")
        raise SweepError(f"{path}: {where}: {error['msg']} (got {shown(error['input'])})") from None
    del data
    try:
        if isinstance(f.scenario, str):
            base = _base_file(path, f.scenario)
            where = f"scenario {base}"
            scenario = load_scenario(base, max_memory)
        else:
            where = "[scenario]"
            scenario = parse_scenario(f.scenario, path.parent, max_memory=max_memory)
    except ScenarioError as e:  # which key of which file: the sweep's base, not the sweep file itself
        if e.field == "max_memory":  # the limit itself, below what any scenario takes
            raise
        raise SweepError(f"{path}: {where}: {e}") from None
    quick = f.quick.model_dump(exclude_none=True) if f.quick is not None else None
    return Sweep(name=f.name or path.stem, base=scenario, axes=f.axes, seeds=f.seeds, set=f.set, scale=f.scale,
                 variants=f.variants, quick=quick, root=path.parent, max_memory=max_memory, bar=bar)

def _changes(base: dict, new: dict, path: tuple) -> Union[dict, bool]:
    """The keys (paths) of engine scenario `new` whose values differ from `base`'s, with their values in `new` (a
    list changed whole); False if `new` lacks a key `base` has (no assignment of keys removes one)."""
    out: dict = {}
    for k, value in new.items():
        was = base.get(k, _ABSENT)
        if isinstance(value, dict) and isinstance(was, dict):
            inner = _changes(was, value, path + (k,))
            if inner is False:
                return False
            out.update(inner)
        elif type(value) is not type(was) or value != was or (
                isinstance(value, (list, tuple)) and json.dumps(value) != json.dumps(was)):  # [1] == [1.0]
            out[path + (k,)] = value
    return False if set(base) - set(new) else out


_ABSENT = object()

