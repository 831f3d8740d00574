"""Every reproducible figure, by catalogue id (the panels and claims of each
paper's module; the sweeps in `scenarios/<id>.toml`)."""

from __future__ import annotations

from typing import Dict

from . import paper_a, paper_e, paper_q, paper_w
from .figure import Figure

FIGURES: Dict[str, Figure] = {
    f.id: f
    for module in (paper_e, paper_a, paper_q, paper_w)
    for f in vars(module).values()
    if isinstance(f, Figure)
}
