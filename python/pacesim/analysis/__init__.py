"""The papers' closed forms and Markov models (docs/papers.md).

One module per model family:

- `pacer`: paper E Sec. 4, the edge pacer's delay against TCP throughput
  (E-model, E-fig10), the load model and the B* fit.
- `effective_buffer`: paper A Sec. III, effective buffers for UDP (A-fig6, A-fig16).
- `bulk_chain`: paper A Sec. IV, the M/M/1/B chain with bulk TCP arrivals
  (A-fig10, A-fig18, A-fig19, A-fig22).
- `md1`: paper A Sec. IV-A, the M/D/1/B queue with bimodal packet sizes (A-md1).
- `qlbp`: paper Q Sec. III, QLBP's delay bound and paced ON-OFF
  auto-covariance (Q-thm1, Q-thm2).
- `sync_loss`: paper W Sec. III, synchronisation throughput loss and
  convergence epochs (W-fig8, W-conv).

And beside them, simulated points:

- `paced_onoff`: Q-thm2 checked against the engine, an ON-OFF source through
  one QLBP pacer, its output's auto-covariance with Bartlett standard errors.
- `overlays`: simulated points in the models' columns, from reproductions'
  points CSVs (A-fig10 from A-fig11, E-fig10 from E-fig11) or `paced_onoff`.

`models.MODELS` maps each experiment id to its computation and plot;
`pacesim model <id>` draws it (`--overlay CSV`, `--simulate`).
"""
