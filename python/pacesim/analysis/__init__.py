"""The papers' analytical models, what they share (docs/papers.md).

- `models`: what a model is (`Model`: its builder, defaults, claims, rules across its parameters, simulated
  points), its parameters' domains and the grid it computes on;
- `draw`: how a model is drawn (`render`: CSV, PNG and SVG, simulated points beside it);
- `model_claims`: the models' claims judged;
- `overlays`: simulated points beside a model (`Overlay`).

The models themselves, closed forms and Markov chains, are their papers' (`pacesim.papers.<x>.models` and
the modules beside them: `e.pacer`, `a.effective_buffer`, `a.bulk_chain`, `a.md1`, `q.qlbp`,
`q.paced_onoff`, `w.sync_loss`); `pacesim.papers.models()` finds them, and `pacesim model <id>` draws one
(`--overlay CSV`, `--simulate`).
"""
