"""The catalogue's claims on the analytical models, judged.

Each model carries its claims (`Model.claims`, in its paper's package): each quotes docs/experiments.md for
a model id and checks the model's own numbers (its tables at the papers' parameters) by the rules of
`pacesim.reproduce.claims` ("about", orderings, "linear"). `pacesim model ID` prints them; the per-paper
reproduction tables take them from here, so every catalogue id has its verdicts in one place.
"""

from __future__ import annotations

from typing import List, Optional, Sequence, Tuple

import numpy as np

from ..reproduce.claims import Claim
from ..reproduce.verdicts import NOT_EVALUATED, Judged, claim_ids, judge
from .models import Model, Output


def monotone_steps(ys: Sequence[float], rising: bool) -> bool:
    """Every step in the direction (exact model numbers: no margin)."""
    d = np.diff(np.asarray(ys, dtype=float))
    return bool(np.all(d > 0) if rising else np.all(d < 0))


def catalogue_id(model_id: str) -> str:
    """"a-fig18" -> "A-fig18", "e-model" -> "E-model"."""
    return model_id[0].upper() + model_id[1:]


def evaluate(claim: Claim, output: Output) -> Tuple[str, str]:
    """`claim`'s outcome and numbers on `output`, made with the user's parameters (`pacesim model --set`):
    "not evaluated" where it lacks a column the claim reads (a-fig22's `udp_loss_ratio10` with
    ratios=20,1)."""
    try:
        return claim.evaluate(output)
    except KeyError as e:
        return NOT_EVALUATED, f"these parameters give no {e.args[0]}, which the claim reads"


def judge_model(model: Model, output: Optional[Output] = None) -> List[Judged]:
    """`model`'s claims judged on its output (built at the papers' parameters unless given, where every
    column a claim reads must be there)."""
    out = output if output is not None else model.build(dict(model.defaults))
    return [judge(cid, c.expect, c.test, *(c.evaluate(out) if output is None else evaluate(c, out)),
                  sentence=c.sentence)
            for cid, c in zip(claim_ids(catalogue_id(model.id), model.claims), model.claims)]
