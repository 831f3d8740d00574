//! One run: build the world a scenario describes ([`super::build`]), run
//! it on one thread or as two halves, check packet conservation, report
//! ([`super::assemble`]).

use super::assemble::report;
use super::build::{build_network_with, start, world_on, Queues};
pub use super::conservation::RunError;
use super::conservation::Totals;
use super::parallel::run_halves;
use super::partition::Cut;
use crate::report::Report;
use crate::scenario::Scenario;
use crate::sim::time::Time;

/// Run a scenario to completion.
pub fn run(s: &Scenario) -> Result<Report, RunError> {
    run_observed(s, &mut |_| {})
}

/// Run a scenario, calling `progress` now and then with the fraction of
/// simulated time done (for progress bars; it does not affect the run).
pub fn run_observed(s: &Scenario, progress: &mut dyn FnMut(f64)) -> Result<Report, RunError> {
    run_threads(s, 1, progress)
}

/// Run a scenario on up to `threads` threads. A network that splits at
/// its core link runs as two halves ([`partition`]), in parallel given two
/// threads; the report is the same for any number of threads but for its
/// work counters (a split run counts more events, and maybe fewer
/// packet-hops). A run that writes a packet trace runs on one thread
/// (packets are numbered in one creation order), and its trace is written
/// by the time this returns.
pub fn run_threads(s: &Scenario, threads: usize, progress: &mut dyn FnMut(f64)) -> Result<Report, RunError> {
    run_with(s, threads, &|_| None, progress)
}

/// Run a scenario as two halves wherever its network splits, untraced, on
/// `threads` threads: two, or both halves in turn on one (whatever the
/// machine's load; for tests of the split against one world, as
/// tests/split.rs and bench/fuzz/split_graphs.py make).
pub fn run_split(s: &Scenario, threads: usize, progress: &mut dyn FnMut(f64)) -> Result<Report, RunError> {
    run_inner(s, threads, true, &|_| None, progress)
}

/// [`run_threads`] with the queue disciplines `queues` names in place of
/// the scenario's (see [`Queues`]).
pub fn run_with(
    s: &Scenario,
    threads: usize,
    queues: Queues,
    progress: &mut dyn FnMut(f64),
) -> Result<Report, RunError> {
    run_inner(s, threads, false, queues, progress)
}

/// Run `s` on `threads` threads, as two halves if its network splits and
/// it has two threads, or whenever it splits if `split`.
fn run_inner(
    s: &Scenario,
    threads: usize,
    split: bool,
    queues: Queues,
    progress: &mut dyn FnMut(f64),
) -> Result<Report, RunError> {
    s.validate()?;
    let end = s.duration as f64;
    let progress = &mut |t: Time| progress(t as f64 / end);
    let built = build_network_with(s, queues)?;
    let cut = Cut::of(s, &built.0);
    let (mut w, totals) = match cut {
        Some(cut) if (threads >= 2 || split) && s.trace.is_none() => {
            // The second half's network is a copy of the first's, not built
            // again: a build's scratch (a graph's link specs, the router's
            // searches, some 1.9 KB a flow at 100,000 flows) is then never
            // held beside a whole world. The copy shares the first's routes
            // and names, and its world the first's hop words.
            let copy = built.clone();
            let mut w = world_on(s, built, Some((cut.clone(), 0)))?;
            let mut b = world_on(s, copy, Some((cut, 1)))?;
            b.share_routes(&w);
            start(&mut w, s)?;
            start(&mut b, s)?;
            run_halves(&mut w, &mut b, s.duration, threads.min(2), progress);
            w.count_late_arrivals();
            b.count_late_arrivals();
            let totals = Totals::of(&w).and(&Totals::of(&b));
            w.join(&mut b);
            (w, totals)
        }
        cut => {
            let mut w = world_on(s, built, None)?;
            w.cut = cut;
            start(&mut w, s)?;
            w.run(progress);
            w.count_late_arrivals();
            let totals = Totals::of(&w);
            (w, totals)
        }
    };
    for l in &mut w.net.links {
        l.close_window(s.duration);
    }
    totals.check()?;
    let stopped = match w.trace.take() {
        Some(trace) => trace.finish(s.duration)?,
        None => None,
    };
    let mut report = report(s, &w, &totals);
    report.warnings.extend(stopped);
    Ok(report)
}
