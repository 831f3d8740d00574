//! The Python boundary: a scenario as JSON in, a report as JSON out.
//! Validation errors become `ValueError` naming the field; engine failures
//! (a broken conservation check) become `RuntimeError`.

use pacesim_core::{Report, Scenario};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// Run one scenario given as JSON (SI units) and return the report as JSON.
#[pyfunction]
fn run_json(py: Python<'_>, scenario: &str) -> PyResult<String> {
    let scenario = Scenario::from_json(scenario).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let report: Report = py
        .allow_threads(|| pacesim_core::run(&scenario))
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    serde_json::to_string(&report).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add("ENGINE_VERSION", pacesim_core::ENGINE_VERSION)?;
    Ok(())
}
