"""pacesim: a packet-level simulator of small-buffer networks.

`run(scenario, set=[...])` (`pacesim.engine`) validates a scenario (a TOML path, a packaged
scenario's name, a dict in human units or a `Scenario`) with its overrides,
hands it to the Rust engine in SI units and returns a `Result`. The
submodules (`pacesim.store`, `pacesim.sweep`, `pacesim.plot`,
`pacesim.reproduce`, `pacesim.analysis`, ...) load on first use, so that
`import pacesim` stays light.
"""

from __future__ import annotations

import importlib

from . import _core

__all__ = [
    "ENGINE_VERSION",
    "RecordingStopped",
    "Result",
    "SlowRun",
    "Scenario",
    "ScenarioError",
    "apply_overrides",
    "load_scenario",
    "parse_scenario",
    "run",
]

ENGINE_VERSION: str = _core.ENGINE_VERSION

SUBMODULES = (
    "analysis", "cli", "engine", "memory", "metrics", "panels", "papers", "plot", "report_tables", "reproduce", "result",
    "scenario", "store", "sweep", "topology", "units",
)
"""Imported on first attribute access (PEP 562): pandas and matplotlib only when asked for."""

NAMES = {name: "scenario" for name in ("Scenario", "ScenarioError", "apply_overrides", "load_scenario", "parse_scenario")}
NAMES.update(Result="result", run="engine", RecordingStopped="engine", SlowRun="engine", THREADS="engine")
"""Exported names and their submodules, also imported on first access: pydantic only when a scenario is read,
so that `pacesim --version` starts in the time of Python and the CLI library."""


def __getattr__(name: str):
    if name in SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    if name in NAMES:
        return getattr(importlib.import_module(f".{NAMES[name]}", __name__), name)
    raise AttributeError(f"module 'pacesim' has no attribute {name!r}")
