//! The Python boundary: a scenario as JSON in, a report as JSON out.
//! Validation errors become `ValueError` with the field's path, the value
//! the scenario gives it and the message as attributes `field`, `value` and
//! `message` (its text "field: message" for whoever prints it), so the front
//! never parses it back. A scenario is read once: `validate_json` returns
//! it read and checked (`Checked`), which `describe_json` and `run_json`
//! take in place of its JSON. An output file
//! the run could not write (a full disk) `OSError` with its `errno` and
//! `filename`; engine failures (a broken conservation check, a panic)
//! `RuntimeError`.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};

use pacesim_core::engine::parallel::spare_core;
use pacesim_core::spec::InvalidField;
use pacesim_core::{Report, RunError, Scenario};
use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;

/// Run one scenario, given as JSON (SI units) or as `validate_json` read
/// it, and return the report as JSON.
/// `progress`, if given, is called now and then with the fraction of
/// simulated time done; `threads` 2 runs a network that splits at its core
/// link as two halves in parallel (the report is the same but for its work
/// counters) if the machine
/// has a core to spare as the run starts, else as one world on one thread.
/// `force_split` runs a network that splits as two halves whatever the
/// machine's load, on two threads or, with `threads` 1, in turn on one
/// (tests of the split against one world).
///
/// At each progress point the run also takes Python's pending signals: an
/// error from them or from `progress` (Ctrl-C's `KeyboardInterrupt`) stops
/// the run, both halves of a split one, and is raised here. An engine panic
/// becomes a `RuntimeError` with its message.
#[pyfunction]
#[pyo3(signature = (scenario, progress=None, threads=1, force_split=false))]
fn run_json(
    py: Python<'_>,
    scenario: &Bound<'_, PyAny>,
    progress: Option<PyObject>,
    threads: usize,
    force_split: bool,
) -> PyResult<String> {
    let given = Given::of(py, scenario)?;
    let scenario = given.scenario();
    let threads = if threads >= 2 && !force_split && !spare_core() { 1 } else { threads };
    let ran = py.allow_threads(|| {
        panic::catch_unwind(AssertUnwindSafe(|| {
            let run = if force_split { pacesim_core::run_split } else { pacesim_core::run_threads };
            run(scenario, threads, &mut |done| {
                let heard = Python::with_gil(|py| match &progress {
                    Some(f) => f.call1(py, (done,)).map(|_| ()),
                    None => py.check_signals(),
                });
                if let Err(e) = heard {
                    // Unwinds without the panic hook's message.
                    panic::resume_unwind(Box::new(Stopped(e)));
                }
            })
        }))
    });
    let report: Report = match ran {
        Ok(report) => report.map_err(|e| match e {
            RunError::Invalid(e) => invalid(py, e, serde_json::to_value(scenario).ok()),
            RunError::Write(w) => os_error(py, &w.file, &w.error),
            other => PyRuntimeError::new_err(other.to_string()),
        })?,
        Err(payload) => return Err(stopped_or_panic(payload)),
    };
    serde_json::to_string(&report).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// A scenario read and checked by `validate_json`, to describe or run
/// without reading its JSON again.
#[pyclass(frozen, module = "pacesim._core")]
struct Checked(Scenario);

/// The scenario a function was given: one `validate_json` read, or JSON
/// read now.
enum Given<'py> {
    Checked(Bound<'py, Checked>),
    Read(Scenario),
}

impl<'py> Given<'py> {
    fn of(py: Python<'py>, scenario: &Bound<'py, PyAny>) -> PyResult<Self> {
        match scenario.downcast::<Checked>() {
            Ok(checked) => Ok(Given::Checked(checked.clone())),
            Err(_) => Ok(Given::Read(parse(py, &scenario.extract::<PyBackedStr>()?)?)),
        }
    }

    fn scenario(&self) -> &Scenario {
        match self {
            Given::Checked(checked) => &checked.get().0,
            Given::Read(scenario) => scenario,
        }
    }
}

/// The scenario of JSON `text`, read and checked (`Scenario::from_json`).
fn parse(py: Python<'_>, text: &str) -> PyResult<Scenario> {
    Scenario::from_json(text).map_err(|e| invalid(py, e, serde_json::from_str(text).ok()))
}

/// `ValueError("field: message")` with attributes `field`, `message` and
/// `value`: what `wire`, the scenario's JSON, holds at the field (as Python
/// reads that JSON), None where it holds nothing there.
fn invalid(py: Python<'_>, e: InvalidField, wire: Option<serde_json::Value>) -> PyErr {
    let given = wire.as_ref().and_then(|wire| e.value_in(wire)).map(|v| v.to_string());
    let err = PyValueError::new_err(e.to_string());
    let set = |attrs: &Bound<'_, PyAny>| -> PyResult<()> {
        let value = match given {
            Some(json) => py.import("json")?.call_method1("loads", (json,))?.unbind(),
            None => py.None(),
        };
        attrs.setattr("field", e.field)?;
        attrs.setattr("message", e.message)?;
        attrs.setattr("value", value)
    };
    match set(err.value(py).as_any()) {
        Ok(()) => err,
        Err(failed) => failed,
    }
}

/// `OSError(errno, strerror, file)` for writing `file` failing with
/// `error`, as Python's own writes raise it: the caller tells a full disk
/// from a bad place by its `errno` (0 for an error of no OS code).
fn os_error(py: Python<'_>, file: &str, error: &std::io::Error) -> PyErr {
    let code = error.raw_os_error().unwrap_or(0);
    let strerror = match error.raw_os_error() {
        Some(code) => {
            py.import("os").and_then(|os| os.call_method1("strerror", (code,))?.extract::<String>())
        }
        None => Ok(error.to_string()),
    };
    match strerror {
        Ok(strerror) => PyOSError::new_err((code, strerror, file.to_string())),
        Err(e) => e,
    }
}

/// The Python error that stopped a run from its progress callback.
struct Stopped(PyErr);

/// The error a run that unwound with `payload` raises: the callback's own,
/// or a `RuntimeError` with the panic's message.
fn stopped_or_panic(payload: Box<dyn Any + Send>) -> PyErr {
    let payload = match payload.downcast::<Stopped>() {
        Ok(stopped) => return stopped.0,
        Err(other) => other,
    };
    let message = (payload.downcast_ref::<String>().map(String::as_str))
        .or_else(|| payload.downcast_ref::<&str>().copied())
        .unwrap_or("(no message)");
    PyRuntimeError::new_err(format!("engine panic: {message}"))
}

/// Describe a scenario's network (nodes, links, `examples` flows' routes),
/// given as JSON or as `validate_json` read it, as JSON, without running it.
#[pyfunction]
#[pyo3(signature = (scenario, examples=3))]
fn describe_json(py: Python<'_>, scenario: &Bound<'_, PyAny>, examples: usize) -> PyResult<String> {
    let given = Given::of(py, scenario)?;
    let scenario = given.scenario();
    let d = pacesim_core::describe(scenario, examples)
        .map_err(|e| invalid(py, e, serde_json::to_value(scenario).ok()))?;
    serde_json::to_string(&d).map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

/// Read and check a scenario given as JSON (SI units) without running it:
/// the scenario read (`Checked`, for `describe_json` and `run_json`), or a
/// `ValueError` naming the field (`tcp.min_rto: ...`) if the engine
/// refuses it.
#[pyfunction]
fn validate_json(py: Python<'_>, scenario: &str) -> PyResult<Checked> {
    parse(py, scenario).map(Checked)
}

/// The JSON Schema of the scenario the engine reads (`Scenario::schema`).
#[pyfunction]
fn scenario_schema() -> String {
    Scenario::schema().to_string()
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(describe_json, m)?)?;
    m.add_function(wrap_pyfunction!(validate_json, m)?)?;
    m.add_function(wrap_pyfunction!(scenario_schema, m)?)?;
    m.add_class::<Checked>()?;
    m.add("ENGINE_VERSION", pacesim_core::ENGINE_VERSION)?;
    // The engine's clock bound, ns: the most any time of a scenario may be.
    m.add("MAX_TIME", pacesim_core::scenario::MAX_TIME)?;
    // The largest files the engine reads, bytes: a UDP source's trace (read
    // whole) and a Tmix cloud's connection vectors. The front refuses a
    // bigger one as it loads the scenario.
    m.add("MAX_TRACE_FILE", pacesim_core::traffic::frame_trace::MAX_FILE)?;
    m.add("MAX_VECTORS_FILE", pacesim_core::traffic::tmix::cvec::MAX_FILE)?;
    Ok(())
}
