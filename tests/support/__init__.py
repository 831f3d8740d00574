"""Code that tests and the scripts under bench/ share.

Tests import it as `support.<module>` (pytest puts tests/ on sys.path); a bench script puts the repository's
tests/ on sys.path first. Nothing here is a test, and nothing here loads code from bench/: a comparison a
test makes on a few points and a bench script on every point is written once, here, and the bench script
adds only its command line and its tables. Each module reads its reference rows where bench/ committed them
(tests/README.md lists them).

- `ns2_ebase`: pacesim against stock ns-2 2.35 on E-base and paper W scenario 4 (bench/ns2/results/), and the
  engine issue's tolerances every comparison here holds to; bench/ns2/fidelity.py, tests/test_fidelity_ns2.py.
- `ns2_paced_host`: host pacing against ns-2 with tcp-paced.cc (bench/ns2/paced/results/);
  bench/ns2/paced/fidelity.py, tests/test_fidelity_ns2_paced_host.py.
- `ns2_paced_edge`: the edge pacer and QLBP against ns-2 with the project's C++ pacers (bench/ns2/paced/
  results/); bench/ns2/paced/compare.py, tests/test_fidelity_ns2_paced_edge.py.
- `ns2_wei`: Wei's pacer against ns-2 with Wei's patch (bench/ns2/wei/results/), and the traced W dumbbell;
  bench/ns2/wei/compare_pacesim.py and trace_wdumbbell.py, tests/test_fidelity_ns2_wei.py.
- `ns2_tmix`: Tmix against ns-2's (bench/ns2/tmix/results/); bench/ns2/tmix/compare.py,
  tests/test_fidelity_ns2_tmix.py.
- `ns2_refs`: the ns-2 references beyond E-base and at the claims' own setups (bench/ns2/results/refs/): each
  setup's grid, pacesim overrides, metrics and tolerances; bench/ns2/refs.py (which adds the ns-2 command
  lines), run_refs.py and claim_refs.py, tests/test_fidelity_ns2_refs.py and test_fidelity_ns2_claims.py.
- `ns3_refs`: the ns-3 references (bench/ns3/results/): the dumbbells, pacesim's side of a point and the
  tolerance rule on a row; bench/ns3/compare.py, tests/test_fidelity_ns3.py.
- `fuzz_input`, `fuzz_store`, `fuzz_cli`, `fuzz_split_graphs`: the hostile-input harnesses (cases, classes,
  workers) of bench/fuzz/hostile.py, hostile_store.py, cli_args.py and split_graphs.py (their command lines
  and long runs), tests/test_fuzz.py, test_fuzz_store.py, test_fuzz_cli.py and test_split_graphs.py;
  `fuzzing`, what they share: `fuzz(harness, strategy, cases, seed)`, the forked `Worker`, the `Tally`.
- `wheel_venv`: a venv with Rust out of reach for the wheel check; bench/wheel/fresh_venv.py,
  tests/test_wheel.py.
"""
