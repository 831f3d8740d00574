"""Which figures a results store holds at full size: the runs the reproduction tables judge.

A stored sweep is figure ID's full-size run when it is named ID, its definition is the figure's own at
full size (`scenarios/ID.toml` without its [quick] table; any seeds: `reproduce` adds seeds until the
verdicts hold) and every one of its points has run and is stored whole (none damaged, `Store.check`). A
name alone proves nothing (issue 34): an interrupted `pacesim reproduce ID`, a 12 s copy of the figure's
sweep file run with `pacesim sweep`, or E-base run under W-s1's name all take the figure's name, and judging
them as the figure gave verdicts on runs the paper never made, or failed on the tables they do not have.

A definition stored by an earlier version of pacesim is read by this one: a scenario key added since takes
its default (the engine's behaviour before the key came). A file the scenario reads (a trace, connection
vectors), at the figure's path or another (the package was installed elsewhere when it ran), is the figure's
own if it has the same name and its runs read the figure's bytes: a run's key covers the digest of each file
it read (`_ran_on`), whether or not the path is still there, since the bytes there now need not be those the
runs read. Only a sweep none of whose runs has finished is judged on the bytes at its path now.
"""

from __future__ import annotations

import filecmp
import json
from pathlib import Path
from typing import Any, Callable, Dict, Optional, Set, Tuple

from ..messages import printable
from ..papers import figures
from ..scenario import ScenarioError, parse_scenario
from ..store import ORIGIN, Store, run_key
from .figure import Figure, scenarios_dir

REPRODUCE = "reproduce"
"""The origin (`store.ORIGIN`) `reproduce` registers a figure's sweep with; `pacesim sweep` registers
"sweep FILE"."""
MISSING = object()
"""A key one definition has and the other has not."""


def full_size(store: Store) -> Tuple[Set[str], Dict[str, str]]:
    """(held, not held): the figures whose full-size run `store` holds, and for every other figure a sweep
    of the store is named after, why that sweep is not its full-size run (a quick run, `ID-quick`, is
    named otherwise and is neither)."""
    sweeps = store.sweeps().set_index("sweep")
    held, others = set(), {}
    for fid, fig in figures().items():
        if fid not in sweeps.index:
            continue
        row = sweeps.loc[fid]
        why = differs(store.spec(fid), fig, store=store)
        if why is None and row["pending"]:
            why = (f"{row['pending']:,} of its {row['points']:,} points have not run (an interrupted run: "
                   f"`pacesim reproduce {fid}` resumes it)")
        elif why is None and row["damaged"]:  # what they stored is not what they ran: not judged, but run again
            n = row["damaged"]
            why = (f"{n:,} of its {row['points']:,} points {'is' if n == 1 else 'are'} damaged (a stored run's row "
                   f"or table file is not the one committed: `pacesim results {fid}` names each; `pacesim reproduce "
                   f"{fid}` runs {'it' if n == 1 else 'them'} again)")
        elif why is None and not row["ok"]:
            why = "none of its points ran without an error"
        if why is None:
            held.add(fid)
        else:
            others[fid] = why
    return held, others


def ones_own(store: Store, fig: Figure, quick: bool = False) -> Optional[str]:
    """Why running `fig` (full size, or its quick version) into `store` would redefine a sweep of the user's
    own, None if it would not. A sweep is the user's own when `pacesim sweep` registered it from a file other
    than the figure's sweep file (its origin, `store.ORIGIN`) and its definition is not the figure's (`differs`,
    or other seeds);
    one `reproduce` registered, or registered before origins were kept, is the figure's: its definition may
    be an earlier version of the figure's, which `reproduce` replaces."""
    name = fig.sweep(quick).name
    try:
        spec = store.spec(name)
    except KeyError:
        return None
    origin = spec.get(ORIGIN) if isinstance(spec, dict) else None
    if not isinstance(origin, str) or not origin.startswith("sweep "):
        return None
    file = origin.removeprefix("sweep ")
    if Path(file) == (scenarios_dir() / f"{fig.id}.toml").resolve():
        return None
    # A sweep of one's own is redefined by other seeds too (`reproduce` would register the figure's seeds).
    seeds = fig.sweep(quick).spec()["seeds"]
    why = differs(spec, fig, quick, store) or (
        None if spec.get("seeds") == seeds else f"its seeds are {_value(spec.get('seeds', MISSING))}, the figure's "
                                                f"{_value(seeds)}")
    if why is None:
        return None
    return (f"--results {store.root}: the sweep {name} there is your own (`pacesim sweep {printable(file)}`), not "
            f"figure {fig.id}'s ({why}); reproducing {fig.id} there would redefine it: give --results another "
            f"store, or give your sweep another name (its file's `name`) and run it again")


def differs(spec: dict, fig: Figure, quick: bool = False, store: Optional[Store] = None) -> Optional[str]:
    """How the stored sweep definition `spec` (`Sweep.spec`) differs from `fig`'s at full size (or its quick
    version), seeds aside: the first key that differs with both values; None when it is the figure's. A file
    it names is the figure's only if the finished runs of the sweep in `store` read the figure's bytes
    (`_ran_on`); without a store, or before any of its runs finished, if the bytes at its path are the
    figure's now."""
    sweep = fig.sweep(quick)
    mine = json.loads(json.dumps(sweep.spec()))  # as the store holds it: JSON's types
    if not isinstance(spec, dict):
        return "its definition is not a table"
    for key in ("set", "axes", "variants", "scale"):
        found = _first_difference(spec.get(key, MISSING), mine[key], key)
        if found:
            return found
    try:
        read = _ran_on(store, sweep.name) if store is not None else lambda theirs, mine: None
        other: list = []
        relocated = _relocated(spec.get("base", {}), mine["base"], read, "base", other)
        if other:
            return other[0]
        base = parse_scenario(relocated).model_dump(mode="json", exclude_none=True)
    except ScenarioError as e:
        return f"its base scenario is not one this version reads ({e})"
    return _first_difference(base, mine["base"], "base")


def _first_difference(theirs: Any, mine: Any, at: str) -> Optional[str]:
    """The first place where `theirs` differs from `mine` (JSON data), as "its KEY is X, the figure's Y"."""
    if isinstance(theirs, dict) and isinstance(mine, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            found = _first_difference(theirs.get(key, MISSING), mine.get(key, MISSING), f"{at}.{key}")
            if found:
                return found
        return None
    if isinstance(theirs, list) and isinstance(mine, list) and len(theirs) == len(mine):
        for i, (t, m) in enumerate(zip(theirs, mine)):
            found = _first_difference(t, m, f"{at}[{i}]")
            if found:
                return found
        return None
    if theirs == mine and type(theirs) is type(mine):
        return None
    return f"its {at} is {_value(theirs)}, the figure's {_value(mine)}"


def _value(v: Any) -> str:
    return "not set" if v is MISSING else printable(repr(v))


def _relocated(theirs: Any, mine: Any, read: Callable[[str, str], Optional[bool]], at: str, other: list) -> Any:
    """`theirs` with each absolute path to a file that is `mine`'s file (the same name and the same bytes)
    replaced by `mine`'s, so that a figure run from a package installed elsewhere reads as the figure's. The
    bytes are those its runs read, as `read` judges (True: the figure's; False: others), whether the path is
    still there or not; if no run read it (None), those at the path now. A path whose runs read other bytes, or
    which is no longer there and no run proves, is added to `other` as what differs."""
    if isinstance(theirs, dict) and isinstance(mine, dict):
        return {k: _relocated(v, mine.get(k), read, f"{at}.{k}", other) for k, v in theirs.items()}
    if isinstance(theirs, list) and isinstance(mine, list):
        return [_relocated(t, m, read, f"{at}[{i}]", other) for i, (t, m) in enumerate(zip(theirs, mine))] + \
            theirs[len(mine):]
    if not (isinstance(theirs, str) and isinstance(mine, str) and Path(mine).is_absolute()):
        return theirs
    was, now = Path(theirs), Path(mine)
    if not now.is_file() or was.name != now.name:
        return theirs
    figures_bytes = read(theirs, mine)
    if figures_bytes is None:  # no run read it: the file as it is now
        if theirs == mine or (was.is_file() and filecmp.cmp(was, now, shallow=False)):
            return mine
        if was.exists():
            return theirs  # what differs is the path: its KEY is X, the figure's Y
    elif figures_bytes:
        return mine
    if not was.exists():
        other.append(f"its {at} is {_value(theirs)} (no longer there, and no run of it read the figure's bytes), "
                     f"the figure's {_value(mine)}")
    elif theirs == mine:
        other.append(f"its runs read other bytes at its {at}, {_value(theirs)}, than the file holds now (changed "
                     "since they ran)")
    else:
        other.append(f"its runs read other bytes at its {at}, {_value(theirs)}, than the figure's {_value(mine)} "
                     "holds")
    return theirs


def _ran_on(store: Store, name: str) -> Callable[[str, str], Optional[bool]]:
    """Whether the file at path `theirs`, which the runs of sweep `name` in `store` read, held the bytes of
    `mine` then (there or elsewhere; `theirs` may be `mine`, and it may be gone): a run's key covers the digest
    of each file its scenario reads (`store.key_form`), so the key of a finished run that read it, made again
    with `mine` in its place, is the run's own exactly when the bytes are the same. One run answers for the
    sweep: its points are keyed together when it is registered, on the bytes there then. None when no
    finished run read it; False when its scenario is not one this version reads."""

    def read(theirs: str, mine: str) -> Optional[bool]:
        points = store.points(name, written=True)
        for key in points.loc[points["status"] == "ok", "key"]:
            run = store.report(key)
            scenario, swapped = _swapped(run["scenario"], theirs, mine)
            if not swapped:
                continue
            try:
                engine = parse_scenario(scenario).to_engine()
            except ScenarioError:
                return False
            return run_key(engine, run["engine_version"]) == key
        return None

    return read


def _swapped(value: Any, theirs: str, mine: str) -> Tuple[Any, int]:
    """`value` (JSON data) with every string equal to `theirs` made `mine`, and how many were."""
    if isinstance(value, dict):
        done = {k: _swapped(v, theirs, mine) for k, v in value.items()}
        return {k: v for k, (v, _) in done.items()}, sum(n for _, n in done.values())
    if isinstance(value, list):
        done = [_swapped(v, theirs, mine) for v in value]
        return [v for v, _ in done], sum(n for _, n in done)
    return (mine, 1) if value == theirs else (value, 0)
