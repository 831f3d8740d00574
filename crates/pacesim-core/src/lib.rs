//! pacesim-core: a packet-level discrete-event simulator of small-buffer
//! networks, with TCP as ns-2 simulates it and pacing at hosts and edges.
//!
//! Folders follow what they model:
//! - [`sim`]: the kernel: time, the event queue, timers, named random streams;
//! - [`net`]: packets, links and their queues;
//! - [`topology`]: graphs of nodes and links, routes, the papers' builders;
//! - [`tcp`]: one-way TCP senders, congestion control, sinks;
//! - [`pacing`]: pacers in front of links (edge, QLBP) and at hosts;
//! - [`traffic`]: applications that drive the senders;
//! - [`metrics`]: what a run measures;
//! - [`engine`]: the world a scenario describes, the run loop, the split
//!   into two halves, and the report.
//!
//! The boundary to the outside is [`scenario::Scenario`] in, [`report::Report`] out.

pub mod engine;
pub mod metrics;
pub mod net;
pub mod pacing;
pub mod report;
pub mod scenario;
pub mod sim;
pub mod spec;
pub mod tcp;
pub mod topology;
pub mod traffic;

pub use engine::describe::{describe, Description};
pub use engine::run::{run, run_observed, run_split, run_threads, run_with, RunError};
pub use engine::ENGINE_VERSION;
pub use report::Report;
pub use scenario::Scenario;

/// Property tests run from a fixed seed, so a test run (and CI) is
/// reproducible; failures found are kept in `proptest-regressions/`.
#[cfg(test)]
pub(crate) fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    proptest::test_runner::Config {
        rng_seed: proptest::test_runner::RngSeed::Fixed(0x0070_6163_6573_696d),
        ..proptest::test_runner::Config::with_cases(cases)
    }
}
