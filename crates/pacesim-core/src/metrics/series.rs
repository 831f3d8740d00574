//! Time series of a run's state (`[series]`): chosen flows' congestion
//! window, slow-start threshold, smoothed RTT and retransmission timeout,
//! chosen links' queue and drops, chosen pacers' backlog and rate; every
//! change, or sampled on a grid of `interval` from time 0.
//!
//! A [`Track`] is one quantity of one entity over [0, duration). It is told
//! of every change in time order (a level's new value, or a count's
//! increment) and keeps either
//! - every change: the value after the last change at each instant at which
//!   it changed (a level) or the sum of the increments at that instant (a
//!   count), from an initial point at time 0; or
//! - samples at t = 0, interval, 2 interval, ... <= duration: a level's
//!   value after every change at or before t, a count's increments over
//!   [t - interval, t) (0 at t = 0).
//!
//! A track's points depend only on its own changes, so a network split in
//! two halves records each track in the half that simulates its entity and
//! the join takes it from there: the same points as one world.
//!
//! Size: a run holds at most `max_points` points, by default and at most
//! `SeriesSpec::MAX_SAMPLES` (16 B each in the engine, 2^26 of them 1 GiB).
//! Sampled tracks are bounded up front: a spec whose grid would exceed it is
//! refused naming `series.interval`. How often a quantity changes is known
//! only by running, so every-change tracks are capped instead: each holds at
//! most its share, `max_points` over the number of tracks, and stops
//! recording at the first change past it (the report says which track
//! stopped when). A per-track share keeps a track's
//! points a function of its own changes, so a split run stops at the same point.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::Time;
use crate::spec::{bad, first_repeat, InvalidField};

/// Time series of chosen state (`Result.series`, the store's `series`
/// table; long form: time_s, entity, series, value): each flow of `flows`
/// records its congestion window `cwnd` and `ssthresh` (packets), smoothed
/// RTT `srtt_ms` and retransmission timeout `rto_ms`; each link of `links`
/// its queue `queue_bytes` and `queue_packets` (waiting, the packet on the
/// wire not counted), its `drops` and its `arrivals` (packets offered to
/// its queue, dropped ones included); each pacer of `pacers` (named by the
/// link it sits in front of) its `backlog_packets` and `rate_mbps`. Without
/// `interval`, every change: a value from the instant it changes (the last
/// value of an instant), drops counted per instant. With `interval`,
/// samples at 0, interval, 2 interval, ... up to the end: the value then,
/// and the drops and arrivals of the interval before each sample. A link with series is
/// also reported in `Result.links`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeriesSpec {
    /// Sample at this interval from time 0, ns (at most 2^26 samples in all);
    /// absent: record every change.
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub interval: Option<Time>,
    /// TCP flows by index (0 is the first) whose cwnd, ssthresh, srtt and RTO are recorded.
    #[serde(default)]
    pub flows: Vec<u32>,
    /// Links by name (core, core.rev, edge_in.3, ...) whose queue in bytes
    /// and packets and drops are recorded.
    #[serde(default)]
    pub links: Vec<String>,
    /// Pacers, by the name of the link they sit in front of (edge_in.0,
    /// ...), whose backlog and rate are recorded.
    #[serde(default)]
    pub pacers: Vec<String>,
    /// The most points kept in all (default and at most 2^26, 1 GiB in
    /// memory). Sampled, a grid past it is refused naming
    /// `series.interval`; every change, each track keeps its share
    /// (max_points over the number of tracks) and stops at the first change
    /// past it, the run's report warning when.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = SeriesSpec::MAX_SAMPLES))]
    pub max_points: Option<u64>,
}

/// The quantities a flow, a link and a pacer record, in this order; their
/// names in the report (units in the name where there is one).
pub const FLOW_SERIES: [&str; 4] = ["cwnd", "ssthresh", "srtt_ms", "rto_ms"];
pub const LINK_SERIES: [&str; 4] = ["queue_bytes", "queue_packets", "drops", "arrivals"];
pub const PACER_SERIES: [&str; 2] = ["backlog_packets", "rate_mbps"];

impl SeriesSpec {
    /// Most points a sampled run may record (samples x tracks).
    pub const MAX_SAMPLES: u64 = 1 << 26;

    /// Check what needs no network past the schema's bounds (`spec::bounds`,
    /// the interval's within the clock's): at least one entity, none named twice.
    pub fn validate(&self) -> Result<(), InvalidField> {
        if self.flows.is_empty() && self.links.is_empty() && self.pacers.is_empty() {
            return Err(bad("series", "name at least one of flows, links or pacers to record"));
        }
        twice("series.flows", &self.flows)?;
        twice("series.links", &self.links)?;
        twice("series.pacers", &self.pacers)
    }

    /// How many tracks the spec records.
    pub fn tracks(&self) -> usize {
        self.flows.len() * FLOW_SERIES.len()
            + self.links.len() * LINK_SERIES.len()
            + self.pacers.len() * PACER_SERIES.len()
    }

    /// The most points the run keeps in all: `max_points`, else `MAX_SAMPLES`.
    pub fn most_points(&self) -> u64 {
        self.max_points.unwrap_or(Self::MAX_SAMPLES)
    }

    /// The most points an every-change track keeps: its share of `most_points`.
    pub fn track_limit(&self) -> usize {
        (self.most_points() as usize / self.tracks().max(1)).max(1)
    }

    /// Check that sampling stays within `most_points` over `duration`.
    pub fn check_samples(&self, duration: Time) -> Result<(), InvalidField> {
        let Some(interval) = self.interval else { return Ok(()) };
        let points = (duration / interval + 1).saturating_mul(self.tracks() as u64);
        if points > self.most_points() {
            let message = format!(
                "{points} samples exceed {} (series.max_points): sample less often",
                self.most_points()
            );
            return Err(bad("series.interval", message));
        }
        Ok(())
    }

    /// An empty track of a level starting at `value`, or of a count.
    pub fn level(&self, value: f64) -> Track {
        Track::new(self.interval, Kind::Level, value, self.track_limit())
    }

    pub fn count(&self) -> Track {
        Track::new(self.interval, Kind::Count, 0.0, self.track_limit())
    }
}

/// An error naming `field[i]` if its i-th item repeats an earlier one.
fn twice<T: Eq + std::hash::Hash + std::fmt::Debug>(field: &str, items: &[T]) -> Result<(), InvalidField> {
    match first_repeat(items) {
        Some((i, x)) => Err(bad(&format!("{field}[{i}]"), format!("{x:?} is listed twice"))),
        None => Ok(()),
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// A value held until it changes (a window, a queue length).
    Level,
    /// Events counted (drops).
    Count,
}

/// One quantity of one entity over time.
#[derive(Debug, Clone)]
pub struct Track {
    kind: Kind,
    /// Sampling interval; None: every change.
    interval: Option<Time>,
    points: Vec<(Time, f64)>,
    /// A level's current value; a sampled count's increments since its last sample.
    held: f64,
    /// The next sample's time, when sampled.
    next: Time,
    /// Most points kept when every change is (`SeriesSpec::track_limit`).
    limit: usize,
    /// When every change is kept: the time of the first change not kept, past `limit`.
    stopped: Option<Time>,
}

impl Track {
    fn new(interval: Option<Time>, kind: Kind, value: f64, limit: usize) -> Self {
        let points = if interval.is_none() && kind == Kind::Level { vec![(0, value)] } else { Vec::new() };
        Track { kind, interval, points, held: value, next: 0, limit, stopped: None }
    }

    /// Whether an every-change track is full at `t`: it has stopped, or a new
    /// point would pass its limit (then it stops at `t`).
    #[inline]
    fn full(&mut self, t: Time) -> bool {
        let full = self.stopped.is_some()
            || (self.points.len() >= self.limit && self.points.last().is_some_and(|last| last.0 != t));
        if full {
            self.stopped.get_or_insert(t);
        }
        full
    }

    /// A level's value is `value` from `t` on (t no earlier than the last change).
    #[inline]
    pub fn set(&mut self, t: Time, value: f64) {
        debug_assert_eq!(self.kind, Kind::Level);
        if value == self.held {
            return;
        }
        if self.interval.is_none() && self.full(t) {
            self.held = value;
            return;
        }
        match self.interval {
            Some(interval) => self.sample_before(t, interval),
            None => match self.points.last_mut() {
                Some(last) if last.0 == t => {
                    last.1 = value;
                    // Back to the value before this instant: no change at it.
                    let n = self.points.len();
                    if n >= 2 && self.points[n - 2].1 == value {
                        self.points.pop();
                    }
                }
                _ => self.points.push((t, value)),
            },
        }
        self.held = value;
    }

    /// A count rises by `n` at `t` (t no earlier than the last change).
    #[inline]
    pub fn add(&mut self, t: Time, n: f64) {
        debug_assert_eq!(self.kind, Kind::Count);
        if self.interval.is_none() && self.full(t) {
            return;
        }
        match self.interval {
            Some(interval) => {
                self.sample_through(t, interval);
                self.held += n;
            }
            None => match self.points.last_mut() {
                Some(last) if last.0 == t => last.1 += n,
                _ => self.points.push((t, n)),
            },
        }
    }

    /// Emit the samples due before `t` (a level's: the value held then).
    fn sample_before(&mut self, t: Time, interval: Time) {
        while self.next < t {
            self.points.push((self.next, self.held));
            self.next += interval;
        }
    }

    /// Emit the samples due at or before `t` (a count's: what it counted in
    /// the interval before each), starting each interval's count afresh.
    fn sample_through(&mut self, t: Time, interval: Time) {
        while self.next <= t {
            self.points.push((self.next, self.held));
            self.held = 0.0;
            self.next += interval;
        }
    }

    /// The track's points, in time order, for a run ending at `end`: its
    /// changes before `end`, or its samples up to and including `end`.
    pub fn points(&self, end: Time) -> impl Iterator<Item = (Time, f64)> + '_ {
        let sampled = self.interval.is_some();
        let kept = self.points.iter().copied().filter(move |&(t, _)| t < end || (sampled && t == end));
        kept.chain(self.samples_due(end))
    }

    /// The samples not yet emitted that are due up to `end` (none when
    /// every change is kept): a level's value, a count's increments since
    /// its last sample and then nothing.
    fn samples_due(&self, end: Time) -> Vec<(Time, f64)> {
        let Some(interval) = self.interval else { return Vec::new() };
        let (mut t, mut v) = (self.next, self.held);
        let mut due = Vec::new();
        while t <= end {
            due.push((t, v));
            if self.kind == Kind::Count {
                v = 0.0;
            }
            t += interval;
        }
        due
    }

    /// How many points it holds so far.
    pub fn recorded(&self) -> usize {
        self.points.len()
    }

    /// When an every-change track stopped recording (its first change past
    /// its limit) if it did before `end`.
    pub fn stopped(&self, end: Time) -> Option<Time> {
        self.stopped.filter(|&t| t < end)
    }
}

/// A link's queue, bytes and packets waiting (the packet on the wire not
/// counted, as in the link's time averages), and its drops.
#[derive(Debug, Clone)]
pub struct QueueTracks {
    pub bytes: Track,
    pub packets: Track,
    pub drops: Track,
    pub arrivals: Track,
}

impl QueueTracks {
    pub fn new(spec: &SeriesSpec) -> Self {
        QueueTracks {
            bytes: spec.level(0.0),
            packets: spec.level(0.0),
            drops: spec.count(),
            arrivals: spec.count(),
        }
    }

    /// From `t` on, `packets` packets of `bytes` in all wait.
    #[inline]
    pub fn queue(&mut self, t: Time, packets: usize, bytes: u64) {
        self.bytes.set(t, bytes as f64);
        self.packets.set(t, packets as f64);
    }

    /// The queue drops a packet at `t`.
    #[inline]
    pub fn dropped(&mut self, t: Time) {
        self.drops.add(t, 1.0);
    }

    /// A packet arrives at the queue at `t` (admitted or not).
    #[inline]
    pub fn arrived(&mut self, t: Time) {
        self.arrivals.add(t, 1.0);
    }

    /// The four tracks in `LINK_SERIES` order.
    pub fn tracks(&self) -> [&Track; 4] {
        [&self.bytes, &self.packets, &self.drops, &self.arrivals]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::bounds::past_bound;

    fn spec(interval: Option<Time>) -> SeriesSpec {
        SeriesSpec { interval, flows: vec![0], links: vec![], pacers: vec![], max_points: None }
    }

    #[test]
    fn every_change_keeps_the_last_value_of_each_instant() {
        let mut t = spec(None).level(1.0);
        t.set(5, 1.0); // no change
        t.set(10, 2.0);
        t.set(10, 3.0); // same instant: the last value stands
        t.set(20, 4.0);
        t.set(20, 3.0); // back to the value before the instant: no change at 20
        t.set(30, 7.0);
        assert_eq!(t.points(100).collect::<Vec<_>>(), vec![(0, 1.0), (10, 3.0), (30, 7.0)]);
        assert_eq!(
            t.points(30).collect::<Vec<_>>(),
            vec![(0, 1.0), (10, 3.0)],
            "nothing at or after the end"
        );
    }

    #[test]
    fn every_change_counts_events_per_instant() {
        let mut t = spec(None).count();
        t.add(3, 1.0);
        t.add(3, 1.0);
        t.add(9, 1.0);
        assert_eq!(t.points(100).collect::<Vec<_>>(), vec![(3, 2.0), (9, 1.0)]);
    }

    #[test]
    fn a_sampled_level_is_the_value_after_every_change_at_or_before_each_sample() {
        // Grid 0, 10, 20, 30 up to the end at 30.
        let mut t = spec(Some(10)).level(0.0);
        t.set(10, 5.0); // at a sample time: counts for it
        t.set(15, 6.0);
        t.set(17, 2.0);
        assert_eq!(t.points(30).collect::<Vec<_>>(), vec![(0, 0.0), (10, 5.0), (20, 2.0), (30, 2.0)]);
    }

    #[test]
    fn a_sampled_count_is_what_each_interval_before_a_sample_counted() {
        let mut t = spec(Some(10)).count();
        t.add(0, 1.0); // in [0, 10): reported at 10
        t.add(9, 1.0);
        t.add(10, 1.0); // in [10, 20)
        t.add(25, 3.0);
        assert_eq!(t.points(30).collect::<Vec<_>>(), vec![(0, 0.0), (10, 2.0), (20, 1.0), (30, 3.0)]);
    }

    #[test]
    fn an_every_change_track_stops_at_its_limit_and_says_when() {
        let spec = spec(None);
        let mut level = Track { limit: 3, ..spec.level(0.0) };
        level.set(10, 1.0);
        level.set(20, 2.0); // the third point: the limit
        level.set(20, 5.0); // the same instant: still kept, as the last value of 20
        level.set(30, 3.0); // a fourth: stops here
        level.set(40, 4.0);
        assert_eq!(level.points(100).collect::<Vec<_>>(), vec![(0, 0.0), (10, 1.0), (20, 5.0)]);
        assert_eq!((level.stopped(100), level.stopped(30)), (Some(30), None));
        let mut count = Track { limit: 2, ..spec.count() };
        for t in [1, 1, 2, 3, 4] {
            count.add(t, 1.0);
        }
        assert_eq!(count.points(100).collect::<Vec<_>>(), vec![(1, 2.0), (2, 1.0)]);
        assert_eq!(count.stopped(100), Some(3));
        // Every track's share of the bound: 1000 flows, 4 tracks each.
        let many = SeriesSpec { flows: (0..1000).collect(), ..spec };
        assert_eq!(many.track_limit(), (SeriesSpec::MAX_SAMPLES / 4000) as usize);
        assert!(many.track_limit() * many.tracks() <= SeriesSpec::MAX_SAMPLES as usize);
        assert_eq!(SeriesSpec { max_points: Some(4001), ..many }.track_limit(), 1);
    }

    #[test]
    fn a_spec_names_what_is_wrong() {
        let err = |s: SeriesSpec| s.validate().unwrap_err().field;
        // Bounds are the schema's (`spec::bounds`), the table's keys named from it.
        let bound = |s: SeriesSpec| past_bound(&s).unwrap();
        assert_eq!(err(SeriesSpec { flows: vec![], ..spec(None) }), "series");
        assert_eq!(bound(spec(Some(0))), "interval");
        assert_eq!(err(SeriesSpec { flows: vec![3, 1, 3], ..spec(None) }), "series.flows[2]");
        let links = vec!["core".to_string(), "core".to_string()];
        assert_eq!(err(SeriesSpec { links, ..spec(None) }), "series.links[1]");
        let many = SeriesSpec { flows: (0..1000).collect(), ..spec(Some(1_000_000)) };
        assert_eq!(many.check_samples(400_000_000_000).unwrap_err().field, "series.interval");
        assert!(many.check_samples(1_000_000_000).is_ok());
        let fewer = SeriesSpec { max_points: Some(4000), ..many.clone() };
        assert_eq!(fewer.check_samples(1_000_000_000).unwrap_err().field, "series.interval");
        assert_eq!(bound(SeriesSpec { max_points: Some(0), ..spec(None) }), "max_points");
        assert_eq!(
            bound(SeriesSpec { max_points: Some(SeriesSpec::MAX_SAMPLES + 1), ..spec(None) }),
            "max_points"
        );
        assert_eq!(past_bound(&many), None);
    }

    /// Issue 33: the repeat check compared each name with all before it, so
    /// 200,000 distinct links took 37 s and a 15 MB file's 1.9 million about
    /// an hour; now one pass, the repeat named.
    #[test]
    fn many_distinct_names_are_checked_in_one_pass() {
        let mut links: Vec<String> = (0..300_000).map(|i| format!("l{i}")).collect();
        assert!(SeriesSpec { links: links.clone(), ..spec(None) }.validate().is_ok());
        links.push("l7".into());
        let e = SeriesSpec { links, ..spec(None) }.validate().unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("series.links[300000]", "\"l7\" is listed twice")
        );
    }
}
