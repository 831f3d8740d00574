//! The Python boundary: a scenario as JSON in, a report as JSON out.
//! Validation errors become `ValueError` naming the field; engine failures
//! (a broken conservation check) become `RuntimeError`.

use pacesim_core::{Report, RunError, Scenario};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

/// Run one scenario given as JSON (SI units) and return the report as JSON.
/// `progress`, if given, is called now and then with the fraction of
/// simulated time done; `threads` 2 runs a network that splits at its core
/// link as two halves in parallel (the report is the same).
#[pyfunction]
#[pyo3(signature = (scenario, progress=None, threads=1))]
fn run_json(py: Python<'_>, scenario: &str, progress: Option<PyObject>, threads: usize) -> PyResult<String> {
    let scenario = Scenario::from_json(scenario).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let report: Report = py
        .allow_threads(|| {
            pacesim_core::run_threads(&scenario, threads, &mut |done| {
                if let Some(f) = &progress {
                    // A failing callback must not stop the run: it only reports.
                    Python::with_gil(|py| f.call1(py, (done,)).map(|_| ()).unwrap_or_default());
                }
            })
        })
        .map_err(|e| match e {
            RunError::Invalid(field) => PyValueError::new_err(field.to_string()),
            other => PyRuntimeError::new_err(other.to_string()),
        })?;
    serde_json::to_string(&report).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Describe a scenario's network (nodes, links, `examples` flows' routes)
/// as JSON, without running it.
#[pyfunction]
#[pyo3(signature = (scenario, examples=3))]
fn describe_json(scenario: &str, examples: usize) -> PyResult<String> {
    let scenario = Scenario::from_json(scenario).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let d = pacesim_core::describe(&scenario, examples).map_err(|e| PyValueError::new_err(e.to_string()))?;
    serde_json::to_string(&d).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(describe_json, m)?)?;
    m.add("ENGINE_VERSION", pacesim_core::ENGINE_VERSION)?;
    Ok(())
}
