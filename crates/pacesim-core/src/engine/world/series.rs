//! The time series a run records (`[series]`, see `metrics::series`): the
//! chosen links' queues record themselves (`net::link::Output::series`);
//! the world records the chosen flows' TCP state, read through the
//! sender's accessors after every event that reaches the sender, and the
//! chosen pacers' backlog and rate after every arrival and departure.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::World;
use crate::metrics::series::{SeriesSpec, Track, FLOW_SERIES, LINK_SERIES, PACER_SERIES};
use crate::metrics::QueueTracks;
use crate::net::LinkId;
use crate::pacing::LinkPacer;
use crate::report::SeriesTable;
use crate::sim::time::secs;
use crate::sim::Time;
use crate::spec::{bad, InvalidField};
use crate::tcp::TcpSender;
use crate::topology::Network;

const NONE: u32 = u32::MAX;

/// The flows' and pacers' tracks, in the spec's order.
#[derive(Debug, Clone)]
pub struct Series {
    /// For each flow, the index of its tracks in `flows`, or `NONE`.
    flow_at: Vec<u32>,
    flows: Vec<[Track; 4]>,
    /// For each pacer, the index of its tracks in `pacers`, or `NONE`.
    pacer_at: Vec<u32>,
    pacers: Vec<[Track; 2]>,
}

/// A flow's cwnd and ssthresh (packets), smoothed RTT and retransmission
/// timeout (ms), in `FLOW_SERIES` order.
fn tcp_state(s: &TcpSender) -> [f64; 4] {
    let ms = |t: Time| t as f64 / 1e6;
    [s.state.w.cwnd, s.state.w.ssthresh, ms(s.rtt().srtt()), ms(s.rtt().rto())]
}

/// A pacer's packets waiting and current rate (Mb/s), in `PACER_SERIES` order.
fn pacer_state(p: &impl LinkPacer) -> [f64; 2] {
    [p.queued() as f64, p.rate_bps() / 1e6]
}

/// Give each link `spec` names a queue recorder, and count it as measured
/// (so its queue is kept, see `Network::mark_cut_through`).
pub fn attach_links(net: &mut Network, spec: &SeriesSpec) -> Result<(), InvalidField> {
    for (i, name) in spec.links.iter().enumerate() {
        let link = net
            .link_named(name)
            .ok_or_else(|| bad(&format!("series.links[{i}]"), format!("no link named {name:?}")))?;
        if !net.measured.contains(&link) {
            net.measured.push(link);
        }
        net.links[link as usize].output_mut().series = Some(Box::new(QueueTracks::new(spec)));
    }
    Ok(())
}

/// The index among `net.pacers` of the pacer in front of link `name`.
fn pacer_named(net: &Network, name: &str) -> Option<usize> {
    net.pacers.iter().position(|&(link, _)| net.names.get(link as usize) == name)
}

impl Series {
    /// The tracks of the flows and pacers `spec` names, each starting from
    /// its entity's state in `w` (time 0).
    pub fn new(spec: &SeriesSpec, w: &World) -> Result<Self, InvalidField> {
        let mut flow_at = vec![NONE; w.flows.len()];
        let mut flows = Vec::new();
        for (i, &f) in spec.flows.iter().enumerate() {
            if f as usize >= w.flows.len() {
                let message = format!("no flow {f} (the topology has {} flows, from 0)", w.flows.len());
                return Err(bad(&format!("series.flows[{i}]"), message));
            }
            flow_at[f as usize] = flows.len() as u32;
            // A half without the flow's sender starts tracks it never
            // records, which the join leaves for the sender's half's.
            let state = w.senders.get(f as usize).map_or([0.0; 4], |s| tcp_state(s));
            flows.push(state.map(|v| spec.level(v)));
        }
        let mut pacer_at = vec![NONE; w.pacers.len()];
        let mut pacers = Vec::new();
        for (i, name) in spec.pacers.iter().enumerate() {
            let Some(p) = pacer_named(&w.net, name) else {
                let paced: Vec<_> = w.net.pacers.iter().map(|&(l, _)| w.net.names.get(l as usize)).collect();
                let message =
                    format!("no pacer in front of link {name:?} (paced links: {})", paced.join(", "));
                return Err(bad(&format!("series.pacers[{i}]"), message));
            };
            pacer_at[p] = pacers.len() as u32;
            pacers.push(pacer_state(&w.pacers[p]).map(|v| spec.level(v)));
        }
        Ok(Series { flow_at, flows, pacer_at, pacers })
    }

    /// Take from `other` (the other half of a split run) the tracks of the
    /// flows whose sender it simulated and of the pacers it simulated.
    fn take(&mut self, other: &mut Series, senders: impl Fn(usize) -> bool, pacers: impl Fn(usize) -> bool) {
        for (f, &k) in self.flow_at.iter().enumerate() {
            if k != NONE && senders(f) {
                std::mem::swap(&mut self.flows[k as usize], &mut other.flows[k as usize]);
            }
        }
        for (p, &k) in self.pacer_at.iter().enumerate() {
            if k != NONE && pacers(p) {
                std::mem::swap(&mut self.pacers[k as usize], &mut other.pacers[k as usize]);
            }
        }
    }
}

impl World {
    /// Note flow `f`'s TCP state now, if its series are recorded. (Only
    /// the check is inlined into the per-packet code: a run without series
    /// pays a load and a branch.)
    #[inline(always)]
    pub(super) fn note_flow(&mut self, f: u32) {
        if self.series.is_some() {
            self.record_flow(f);
        }
    }

    #[inline(never)]
    fn record_flow(&mut self, f: u32) {
        let Some(s) = &mut self.series else { return };
        let k = s.flow_at.get(f as usize).copied().unwrap_or(NONE); // Tmix ends come later: none recorded
        if k != NONE {
            let state = tcp_state(&self.senders[f as usize]);
            for (track, v) in s.flows[k as usize].iter_mut().zip(state) {
                track.set(self.now, v);
            }
        }
    }

    /// Note pacer `i`'s state at `t`, if its series are recorded (as
    /// `note_flow`, only the check inlined).
    #[inline(always)]
    pub(super) fn note_pacer(&mut self, i: u32, t: Time) {
        if self.series.is_some() {
            self.record_pacer(i, t);
        }
    }

    #[inline(never)]
    fn record_pacer(&mut self, i: u32, t: Time) {
        let Some(s) = &mut self.series else { return };
        let k = s.pacer_at[i as usize];
        if k != NONE {
            for (track, v) in s.pacers[k as usize].iter_mut().zip(pacer_state(&self.pacers[i as usize])) {
                track.set(t, v);
            }
        }
    }

    /// Fold half 1's flow and pacer tracks (`other`) into this world's.
    pub(super) fn join_series(&mut self, other: &mut World) {
        let senders: Vec<bool> = (0..self.flows.len()).map(|f| other.owns_sender(f)).collect();
        let pacers: Vec<bool> = self.net.pacers.iter().map(|&(link, _)| other.owns(link)).collect();
        if let (Some(x), Some(y)) = (&mut self.series, &mut other.series) {
            x.take(y, |f| senders[f], |p| pacers[p]);
        }
    }

    /// Every recorded point up to `end`, in the order of time and then of
    /// track (flows', links', pacers', each in the spec's order).
    pub fn series_table(&self, spec: &SeriesSpec, end: Time) -> SeriesTable {
        let series = self.series.as_ref().expect("recorded when asked for");
        let mut table = SeriesTable::default();
        let mut tracks: Vec<&Track> = Vec::new();
        let mut name = |entity: String, names: &[&str]| {
            for n in names {
                table.entity.push(entity.clone());
                table.series.push(n.to_string());
            }
        };
        for (&f, k) in spec.flows.iter().zip(&series.flows) {
            name(format!("flow.{f}"), &FLOW_SERIES);
            tracks.extend(k);
        }
        for l in &spec.links {
            let link: LinkId = self.net.link_named(l).expect("checked when built");
            let q = self.net.links[link as usize].output().series.as_ref().expect("attached when built");
            name(l.clone(), &LINK_SERIES);
            tracks.extend(q.tracks());
        }
        for (p, k) in spec.pacers.iter().zip(&series.pacers) {
            name(p.clone(), &PACER_SERIES);
            tracks.extend(k);
        }
        // Merge the tracks, each in time order, by (time, track).
        let mut points: Vec<_> = tracks.iter().map(|t| t.points(end).peekable()).collect();
        let mut next: BinaryHeap<Reverse<(Time, u32)>> = BinaryHeap::new();
        for (i, p) in points.iter_mut().enumerate() {
            if let Some(&(t, _)) = p.peek() {
                next.push(Reverse((t, i as u32)));
            }
        }
        for (i, t) in tracks.iter().enumerate() {
            if let Some(at) = t.stopped(end) {
                table.stopped_track.push(i as u32);
                table.stopped_s.push(secs(at));
            }
        }
        let n = tracks.iter().map(|t| t.recorded()).sum();
        table.t_s.reserve(n);
        table.track.reserve(n);
        table.value.reserve(n);
        while let Some(Reverse((t, i))) = next.pop() {
            let p = &mut points[i as usize];
            let (_, v) = p.next().expect("peeked");
            table.t_s.push(secs(t));
            table.track.push(i);
            table.value.push(v);
            if let Some(&(t, _)) = p.peek() {
                next.push(Reverse((t, i)));
            }
        }
        table
    }
}
