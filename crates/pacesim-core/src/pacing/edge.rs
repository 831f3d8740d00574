//! The optimal delay-bounded edge pacer (paper E Sec 2.1; Sivaraman,
//! Elgindy, Moreland, Ostry, "Packet pacing in short buffer optical packet
//! switched networks", 2009).
//!
//! Packet i arrives at a_i and brings the cumulative byte count to C_i; it
//! must have left by a_i + d, so its deadline point is P_i = (a_i + d, C_i).
//! With S(t) the bytes released so far, the smoothest release that meets
//! every known deadline runs at
//!
//!   r(t) = max over queued k of (C_k - S(t)) / (a_k + d - t),
//!
//! the slope of the tangent from (t, S(t)) to the upper convex hull of the
//! queued deadline points. The hull is kept as a deque (Andrew's monotone
//! chain): an arrival pushes its point at the back after popping the points
//! no longer strictly above the chord; when the release reaches the front
//! vertex (its deadline) that vertex is popped and the rate falls to the
//! next slope. Each point is pushed and popped once: O(1) amortised.
//!
//! The release curve is a chain of segments from an integer `anchor` to the
//! front vertex; all comparisons are exact cross products (in 64 bits when
//! they fit, else 128). Where an arrival's point dominates the whole hull,
//! the curve restarts at the current position rounded up to a whole byte:
//! less than one byte ahead of the exact curve (never ahead of the
//! arrivals), and never below it, so every deadline point already
//! discarded stays under the new chord.
//!
//! A packet leaves when the released amount reaches its last byte, then
//! crosses the link at line rate. A lone packet at an idle pacer is released
//! over the whole of d and so waits exactly d; under steady load a packet
//! waits less, because later arrivals steepen the release (compare the
//! measured mean with paper E's d/2 approximation in the report).

use std::collections::VecDeque;

use super::{DelayStats, LinkPacer};
use crate::net::PacketId;
use crate::sim::timer::Timer;
use crate::sim::Time;

/// a * b / c, rounded down or `up`, exactly: in 64 bits when a * b fits
/// (always on E-base, where bytes stay below 2^20 and times below 2^24 ns;
/// 128-bit division is far slower), else in 128.
#[inline]
fn mul_div(a: u64, b: u64, c: u64, up: bool) -> u64 {
    match a.checked_mul(b) {
        Some(n) if up => n.div_ceil(c),
        Some(n) => n / c,
        None => {
            let (n, c) = (u128::from(a) * u128::from(b), u128::from(c));
            (if up { n.div_ceil(c) } else { n / c }) as u64
        }
    }
}

/// a * b <= c * d, exactly (in 64 bits when both products fit).
#[inline]
fn mul_le(a: u64, b: u64, c: u64, d: u64) -> bool {
    match (a.checked_mul(b), c.checked_mul(d)) {
        (Some(x), Some(y)) => x <= y,
        _ => u128::from(a) * u128::from(b) <= u128::from(c) * u128::from(d),
    }
}

/// A deadline point or a point of the release curve: (time, cumulative bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Point {
    t: Time,
    bytes: u64,
}

/// Whether c lies strictly above the line a -> b, for c and b no earlier
/// and no lower than a (the hull's points, the anchor first, rise in both):
/// the z-component of (b - a) x (c - a) is positive.
fn above(a: Point, b: Point, c: Point) -> bool {
    !mul_le(b.t - a.t, c.bytes - a.bytes, b.bytes - a.bytes, c.t - a.t)
}

#[derive(Debug, Clone, Copy)]
struct Queued {
    id: PacketId,
    /// Cumulative bytes up to and including this packet.
    end: u64,
    arrived: Time,
}

#[derive(Debug, Clone)]
pub struct EdgePacer {
    d: Time,
    queue: VecDeque<Queued>,
    /// Cumulative bytes that have arrived.
    arrived: u64,
    /// Start of the current release segment (on or just below the curve).
    anchor: Point,
    /// Upper hull of queued deadline points; the release heads for the front.
    hull: VecDeque<Point>,
    /// When the head packet's last byte is released (`None`: nothing
    /// waits), kept by [`arrive`](Self::arrive) and [`advance`](Self::advance).
    due: Option<Time>,
    /// Fires at the next departure.
    pub timer: Timer,
    pub delays: DelayStats,
}

impl EdgePacer {
    /// A pacer with delay bound `d` (> 0; d = 0 is no pacer at all).
    pub fn new(d: Time) -> Self {
        assert!(d > 0, "an edge pacer needs a positive delay bound");
        EdgePacer {
            d,
            queue: VecDeque::new(),
            arrived: 0,
            anchor: Point { t: 0, bytes: 0 },
            hull: VecDeque::new(),
            due: None,
            timer: Timer::default(),
            delays: DelayStats::default(),
        }
    }

    /// Bytes released by `now` on the segment from `a` to `v`, rounded
    /// down (`up` false) or up; `a`'s bytes if nothing waits.
    fn released_at(a: Point, v: Option<Point>, now: Time, up: bool) -> u64 {
        let Some(v) = v else { return a.bytes };
        a.bytes + mul_div(v.bytes - a.bytes, now - a.t, v.t - a.t, up)
    }

    /// Whether the first `bytes` have been released by `now` (rounded
    /// down): compared by cross-multiplying, as dividing cost the
    /// edge-paced E-base more than the rest of the pacer.
    fn released_by(&self, bytes: u64, now: Time) -> bool {
        let a = self.anchor;
        if bytes <= a.bytes {
            return true;
        }
        let Some(&v) = self.hull.front() else { return false };
        mul_le(bytes - a.bytes, v.t - a.t, v.bytes - a.bytes, now - a.t)
    }

    /// Current release rate, bytes per ns (0 when nothing waits).
    pub fn rate(&self) -> f64 {
        self.hull.front().map_or(0.0, |v| (v.bytes - self.anchor.bytes) as f64 / (v.t - self.anchor.t) as f64)
    }

    /// Find when the head packet leaves, after the head or the current
    /// segment changed. (The front vertex is never below the head's last
    /// byte, so the head leaves on the current segment.)
    fn update_due(&mut self) {
        let a = self.anchor;
        self.due = self.queue.front().map(|head| {
            if head.end <= a.bytes {
                return a.t;
            }
            let v = *self.hull.front().expect("a queued packet keeps a hull vertex");
            a.t + mul_div(head.end - a.bytes, v.t - a.t, v.bytes - a.bytes, true)
        });
    }
}

impl LinkPacer for EdgePacer {
    /// A packet of `size` bytes arrives at `now`. Call [`advance`](LinkPacer::advance)
    /// for `now` first, so that what is due has left.
    fn arrive(&mut self, now: Time, id: PacketId, size: u32) -> bool {
        let (anchor, front) = (self.anchor, self.hull.front().copied());
        self.arrived += u64::from(size);
        self.queue.push_back(Queued { id, end: self.arrived, arrived: now });
        let p = Point { t: now + self.d, bytes: self.arrived };
        while let Some(&last) = self.hull.back() {
            let prev = if self.hull.len() >= 2 { self.hull[self.hull.len() - 2] } else { self.anchor };
            if above(prev, p, last) {
                break;
            }
            self.hull.pop_back();
        }
        // The head and the segment it leaves on change only if the new
        // point dominates the whole hull (as at an idle pacer, whose hull
        // is empty).
        let restart = self.hull.is_empty();
        if restart {
            self.anchor = Point { t: now, bytes: Self::released_at(anchor, front, now, true) };
        }
        self.hull.push_back(p);
        if restart {
            self.update_due();
        }
        true
    }

    /// Advance to `now`: pass the vertices reached and append to `out` the
    /// packets whose last byte has been released, in order.
    fn advance(&mut self, now: Time, out: &mut Vec<PacketId>) {
        while let Some(&v) = self.hull.front() {
            if v.t > now {
                break;
            }
            self.anchor = v;
            self.hull.pop_front();
        }
        if self.due.is_none_or(|due| due > now) {
            return;
        }
        // A vertex is a queued packet's deadline point, reached when that
        // packet leaves: the head changes whenever the segment does.
        let mut changed = false;
        while let Some(&q) = self.queue.front() {
            if !self.released_by(q.end, now) {
                break;
            }
            self.queue.pop_front();
            self.delays.record(now - q.arrived);
            out.push(q.id);
            changed = true;
        }
        if changed {
            self.update_due();
        }
    }

    /// When the head packet's last byte is released.
    fn next_departure(&self) -> Option<Time> {
        self.due
    }

    fn queued(&self) -> usize {
        self.queue.len()
    }

    fn rate_bps(&self) -> f64 {
        self.rate() * 8e9
    }

    fn timer(&mut self) -> &mut Timer {
        &mut self.timer
    }

    fn delays(&mut self) -> &mut DelayStats {
        &mut self.delays
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MS: Time = 1_000_000;

    /// Feed arrivals (time, size) and run the pacer on its own timer;
    /// returns each packet's (arrival, departure).
    fn run(d: Time, arrivals: &[(Time, u32)], mut check: impl FnMut(&EdgePacer, Time)) -> Vec<(Time, Time)> {
        let mut p = EdgePacer::new(d);
        let mut left = vec![None; arrivals.len()];
        let mut out = vec![];
        let mut i = 0;
        loop {
            let next_arrival = arrivals.get(i).map(|a| a.0);
            let next_departure = p.next_departure();
            let now = match (next_arrival, next_departure) {
                (Some(a), Some(dp)) => a.min(dp),
                (Some(a), None) => a,
                (None, Some(dp)) => dp,
                (None, None) => break,
            };
            p.advance(now, &mut out);
            assert_eq!(p.next_departure(), departure_afresh(&p), "the kept departure is stale");
            for id in out.drain(..) {
                left[id as usize] = Some(now);
            }
            while arrivals.get(i).is_some_and(|a| a.0 == now) {
                p.arrive(now, i as PacketId, arrivals[i].1);
                assert_eq!(p.next_departure(), departure_afresh(&p), "the kept departure is stale");
                i += 1;
                check(&p, now);
            }
        }
        arrivals.iter().zip(left).map(|(a, l)| (a.0, l.expect("every packet leaves"))).collect()
    }

    #[test]
    fn a_lone_packet_waits_exactly_d() {
        let out = run(10 * MS, &[(5 * MS, 1040)], |_, _| {});
        assert_eq!(out, vec![(5 * MS, 15 * MS)]);
    }

    #[test]
    fn a_burst_leaves_at_constant_rate_c_over_d() {
        // 10 packets of 1000 B at once, d = 10 ms: rate 10000 B / 10 ms, so
        // packet k (1-based) leaves k ms later.
        let arrivals: Vec<_> = (0..10).map(|_| (0, 1000)).collect();
        let out = run(10 * MS, &arrivals, |p, _| {
            assert!((p.rate() - 1000.0 * p.queued() as f64 / (10 * MS) as f64).abs() < 1e-12);
        });
        let left: Vec<Time> = out.iter().map(|o| o.1).collect();
        assert_eq!(left, (1..=10).map(|k| k * MS).collect::<Vec<_>>());
    }

    #[test]
    fn a_later_burst_steepens_the_release() {
        // 1000 B at 0 (rate 1000 B / 10 ms), then 9000 B at 5 ms: the
        // deadline (15 ms, 10000 B) seen from (5 ms, 500 B) needs 9500 B in
        // 10 ms, steeper than the first deadline: the first packet leaves
        // when 1000 B are out, 500 B / (950 B/ms) after 5 ms.
        let out = run(10 * MS, &[(0, 1000), (5 * MS, 9000)], |_, _| {});
        assert_eq!(out[0].1, 5 * MS + (500 * 10 * MS).div_ceil(9500));
        assert_eq!(out[1].1, 15 * MS);
    }

    /// The release rate by brute force: max over queued k of (C_k - S) / (a_k + d - t),
    /// with S the exact (unrounded) position on the release curve.
    fn brute_force_rate(p: &EdgePacer, now: Time) -> f64 {
        let a = p.anchor;
        let s = p.hull.front().map_or(a.bytes as f64, |v| {
            a.bytes as f64 + (v.bytes - a.bytes) as f64 * (now - a.t) as f64 / (v.t - a.t) as f64
        });
        p.queue
            .iter()
            .map(|q| (q.end as f64 - s) / ((q.arrived + p.d) as f64 - now as f64))
            .fold(0.0, f64::max)
    }

    /// The head's departure worked out afresh from the release curve: the
    /// first instant the curve's bytes, rounded down, reach its last byte.
    fn departure_afresh(p: &EdgePacer) -> Option<Time> {
        let head = p.queue.front()?;
        let (a, v) = (p.anchor, *p.hull.front()?);
        let released = |t: Time| {
            a.bytes + (u128::from(v.bytes - a.bytes) * u128::from(t - a.t) / u128::from(v.t - a.t)) as u64
        };
        let (mut lo, mut hi) = (a.t, v.t);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if released(mid) >= head.end {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    proptest! {
        #![proptest_config(crate::proptest_config(2000))]

        #[test]
        fn hull_rate_is_the_max_over_queued_deadlines_and_deadlines_hold(
            arrivals in crate::pacing::arrival_sequences(3_000_000, 60),
            d_ms in 1u64..20,
        ) {
            let d = d_ms * MS;
            let out = run(d, &arrivals, |p, now| {
                let want = brute_force_rate(p, now);
                // The rate is exact against the integer curve; allow the
                // floating-point rounding of the brute force only.
                assert!((p.rate() - want).abs() <= 1e-9 * want.max(1e-9), "rate {} vs {}", p.rate(), want);
            });
            let mut last = 0;
            for (a, l) in out {
                prop_assert!(l >= a && l - a <= d, "waited {} > d {}", l - a, d);
                prop_assert!(l >= last, "left out of order");
                last = l;
            }
        }
    }
}
