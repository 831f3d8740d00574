"""Tests of sweeps, the results store, plots and reproductions."""
