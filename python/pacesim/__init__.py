"""pacesim: a packet-level simulator of small-buffer networks.

`run(scenario)` validates a scenario (a TOML path, a dict in human units or
a `Scenario`), hands it to the Rust engine in SI units and returns a `Result`.
"""

from __future__ import annotations

import json
import os
import time
from typing import Callable, Optional, Union

from . import _core, memory
from .result import Result
from .scenario import Scenario, ScenarioError, apply_overrides, load_scenario, parse_scenario

__all__ = [
    "ENGINE_VERSION",
    "Result",
    "Scenario",
    "ScenarioError",
    "apply_overrides",
    "load_scenario",
    "parse_scenario",
    "run",
]

ENGINE_VERSION: str = _core.ENGINE_VERSION


def run(
    scenario: Union[Scenario, dict, str, os.PathLike],
    seed: Optional[int] = None,
    progress: Optional[Callable[[float], None]] = None,
    threads: int = 1,
    max_memory: Optional[int] = None,
) -> Result:
    """Simulate `scenario`, with its seed replaced by `seed` when given;
    `progress` is called now and then with the fraction of simulated time done.
    With `threads=2` a network that splits at its core link (the papers'
    dumbbells) runs as two halves in parallel; the result is the same.

    Raises ScenarioError (naming the field) for an invalid scenario and
    RuntimeError when the engine itself fails (e.g. a conservation check).
    A run whose estimated memory (`memory.estimate`) exceeds `max_memory` bytes,
    by default the machine's available memory, is refused with a ScenarioError.
    """
    if isinstance(scenario, (str, os.PathLike)):
        scenario = load_scenario(scenario)
    elif isinstance(scenario, dict):
        scenario = parse_scenario(scenario)
    elif not isinstance(scenario, Scenario):
        raise TypeError(f"expected a Scenario, a dict or a TOML path, got {type(scenario).__name__}")
    if seed is not None:
        scenario = apply_overrides(scenario, [f"seed={seed}"])
    memory.check(scenario, max_memory)
    request = json.dumps(scenario.to_engine())
    t0 = time.perf_counter()
    try:
        report = _core.run_json(request, progress, threads)
    except ValueError as e:
        raise ScenarioError.from_engine(e) from None
    wall_s = time.perf_counter() - t0
    return Result(json.loads(report), scenario, wall_s)
