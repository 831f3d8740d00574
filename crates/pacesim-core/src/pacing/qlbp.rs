//! Queue Length Based Pacing (paper Q Sec II-C, eq. 1; Cai, Wolf, Gong 2011).
//!
//! A FIFO delay queue whose rate controller lets packets out at
//!
//!   mu(q) = (mu_max - mu_min) / Q_max * q + mu_min   for 0 <= q < Q_max,
//!   mu(q) = C (the link rate)                        for q >= Q_max,
//!
//! q being the queue length. The controller spaces packet starts: when a
//! packet of L bytes starts, the next may start L / mu(q) later, with q the
//! queue length as the controller decides, the starting packet included.
//! (Counting it is what reproduces paper Q's Table II; leaving it out makes
//! every queue there one packet longer and breaks Theorem 1's bound.) A packet that finds the controller idle with its
//! gap elapsed starts at once, so traffic slower than mu_min is never
//! delayed. Started packets cross the link at its line rate. An arrival
//! that finds Q_lim packets waiting is dropped. In steady state the delay
//! is at most Q_max / mu_max per packet (Theorem 1); for a constant input
//! rate mu_min < lambda < mu_max the fluid queue settles at
//! q = Q_max (lambda - mu_min) / (mu_max - mu_min).
//!
//! Time is whole ns, a gap is not (1040 B at 7 Mb/s: 1,188,571.43 ns). The
//! controller keeps the exact earliest start as a link's transmitter keeps
//! its exact end (`sim::time::Serial`): a packet that waited for its gap
//! starts at the exact end of it, timed at its ceiling, the fraction carried
//! to the next gap; one that arrives after the gap ran out starts at its
//! arrival, afresh. So a backlogged pacer sends at exactly mu(q) (rounding
//! each gap to the nearest ns, it ran 0.36 ppm fast at 7 Mb/s). The
//! fraction is kept in units of 1 / mu ns of the last gap's rate; when the
//! next gap's rate differs it is restated in that rate's units, rounded
//! down (the start put later by under 1 / mu ns, never earlier).

use std::collections::VecDeque;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{DelayStats, LinkPacer};
use crate::net::PacketId;
use crate::sim::time::Serial;
use crate::sim::timer::Timer;
use crate::sim::Time;
use crate::spec::human::rate;
use crate::spec::{bad, InvalidField};

/// QLBP as a scenario gives it (`pacing.*` with `scheme = "qlbp"`, paper Q
/// eq. 1): rates in bit/s, queue lengths in packets, times in ns. Either the
/// four values, or the rule of thumb (paper Q Sec III-C) per link of rate
/// C at utilisation rho with delay tolerance D_max: mu_max = (1 + rho) C /
/// 2, mu_min = rho C / 2, Q_max = D_max mu_max in 1000 B packets, Q_lim
/// unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QlbpSpec {
    /// QLBP: the rate at `q_max` packets queued (paper Q eq. 1; default from
    /// paper Q Sec V-B, Q-fig18).
    #[serde(default = "QlbpSpec::default_mu_max")]
    #[schemars(extend("x-unit" = "bit/s"))]
    pub mu_max: u64,
    /// QLBP: the rate with an empty queue (paper Q eq. 1, Sec V-B); at most `mu_max`.
    #[serde(default = "QlbpSpec::default_mu_min")]
    #[schemars(extend("x-unit" = "bit/s"))]
    pub mu_min: u64,
    /// QLBP: the queue length, packets, from which it sends at the link rate
    /// (paper Q Sec V-B).
    #[serde(default = "QlbpSpec::default_q_max")]
    #[schemars(extend("x-unit" = "packets"), range(min = 1))]
    pub q_max: u32,
    /// QLBP: the pacer's own queue limit, packets (paper Q Sec V-B).
    #[serde(default = "QlbpSpec::default_q_lim")]
    #[schemars(extend("x-unit" = "packets"), range(min = 1))]
    pub q_lim: u32,
    /// QLBP's rule of thumb (paper Q Sec III-C): the link's utilisation rho,
    /// in (0, 1]; with `max_delay` it sets mu_max, mu_min and q_max.
    #[serde(default)]
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    pub utilization: Option<f64>,
    /// QLBP's rule of thumb: the delay tolerance D_max, ns.
    #[serde(default)]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub max_delay: Option<u64>,
}

impl QlbpSpec {
    // Paper Q Sec V-B (Q-fig18): mu_max 100 Mb/s, mu_min 1 Mb/s, Q_max 40, Q_lim 2000.
    pub fn default_mu_max() -> u64 {
        100_000_000
    }
    pub fn default_mu_min() -> u64 {
        1_000_000
    }
    pub fn default_q_max() -> u32 {
        40
    }
    pub fn default_q_lim() -> u32 {
        2000
    }

    /// Check the knobs' rules across keys (each knob's bounds are its
    /// schema's, `spec::bounds`, a utilization of NaN built in Rust too,
    /// `bounds::wire`); the error names the field under `at` (`pacing`).
    pub fn validate(&self, at: &str) -> Result<(), InvalidField> {
        if self.mu_min > self.mu_max {
            let message =
                format!("{} must not exceed {at}.mu_max ({})", rate(self.mu_min), rate(self.mu_max));
            return Err(bad(&format!("{at}.mu_min"), message));
        }
        match (self.utilization, self.max_delay) {
            (Some(_), None) => Err(bad(&format!("{at}.max_delay"), "the QLBP rule of thumb needs max_delay")),
            (None, Some(_)) => {
                Err(bad(&format!("{at}.utilization"), "the QLBP rule of thumb needs utilization"))
            }
            _ => Ok(()),
        }
    }

    /// The field an unusable pacer's error names: what its Q_max follows from.
    pub fn q_max_field(&self) -> &'static str {
        if self.utilization.is_some() {
            "pacing.max_delay"
        } else {
            "pacing.q_max"
        }
    }

    /// The parameters in front of a link of `link_rate` bit/s.
    pub fn params(&self, link_rate: u64) -> QlbpParams {
        match (self.utilization, self.max_delay) {
            (Some(rho), Some(d_max)) => {
                let c = link_rate as f64;
                let mu_max = ((1.0 + rho) * c / 2.0).round() as u64;
                let q_max = (d_max as f64 * 1e-9 * mu_max as f64 / 8000.0).ceil().max(1.0) as u32;
                QlbpParams { mu_max, mu_min: (rho * c / 2.0).round() as u64, q_max, q_lim: self.q_lim }
            }
            _ => {
                QlbpParams { mu_max: self.mu_max, mu_min: self.mu_min, q_max: self.q_max, q_lim: self.q_lim }
            }
        }
    }
}

impl Default for QlbpSpec {
    fn default() -> Self {
        QlbpSpec {
            mu_max: Self::default_mu_max(),
            mu_min: Self::default_mu_min(),
            q_max: Self::default_q_max(),
            q_lim: Self::default_q_lim(),
            utilization: None,
            max_delay: None,
        }
    }
}

/// QLBP parameters in front of one link: rates in bit/s, queue lengths in packets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QlbpParams {
    pub mu_max: u64,
    pub mu_min: u64,
    pub q_max: u32,
    pub q_lim: u32,
}

impl QlbpParams {
    /// The longest Q_max, packets: its delay bound (Q_max 1500 B packets at
    /// mu_max) stays within the engine's clock.
    pub const MAX_Q: u32 = 1 << 20;

    /// Why these parameters cannot pace a link, if they cannot: a rate of
    /// 0 b/s with a packet waiting, or Q_max past [`Self::MAX_Q`].
    pub fn unusable(&self) -> Option<String> {
        let one_waiting = self.mu_min + (self.mu_max - self.mu_min) / u64::from(self.q_max.max(1));
        if one_waiting == 0 {
            return Some("gives a pacing rate of 0 b/s with a packet waiting".into());
        }
        (self.q_max > Self::MAX_Q)
            .then(|| format!("gives Q_max {} packets, more than {}", self.q_max, Self::MAX_Q))
    }
}

#[derive(Debug, Clone)]
pub struct Qlbp {
    p: QlbpParams,
    link_rate: u64,
    queue: VecDeque<(PacketId, u32, Time)>,
    /// Earliest start of the next packet, whole ns: its exact earliest
    /// start is `next_start - slack / slack_rate` ns (`slack < slack_rate`,
    /// the rate of the gap it ends; see the module's doc).
    next_start: Time,
    slack: u64,
    slack_rate: u64,
    pub timer: Timer,
    pub delays: DelayStats,
    pub drops: u64,
}

impl Qlbp {
    pub fn new(p: QlbpParams, link_rate: u64) -> Self {
        Qlbp {
            p,
            link_rate,
            queue: VecDeque::new(),
            next_start: 0,
            slack: 0,
            slack_rate: 1,
            timer: Timer::default(),
            delays: DelayStats::default(),
            drops: 0,
        }
    }

    /// Output rate with `q` packets waiting, bit/s (paper Q eq. 1).
    pub fn rate(&self, q: usize) -> u64 {
        let p = &self.p;
        if q >= p.q_max as usize {
            self.link_rate
        } else {
            p.mu_min + ((p.mu_max - p.mu_min) as u128 * q as u128 / u128::from(p.q_max)) as u64
        }
    }
}

impl LinkPacer for Qlbp {
    /// A packet arrives; false if the queue is full and it is dropped.
    fn arrive(&mut self, now: Time, id: PacketId, size: u32) -> bool {
        if self.queue.len() >= self.p.q_lim as usize {
            self.drops += 1;
            return false;
        }
        self.queue.push_back((id, size, now));
        true
    }

    /// Start the packets due by `now`, appending them to `out`.
    fn advance(&mut self, now: Time, out: &mut Vec<PacketId>) {
        while let Some(&(id, size, arrived)) = self.queue.front() {
            if self.next_start > now {
                break;
            }
            let rate = self.rate(self.queue.len());
            // It waited for its gap (came before the whole ns the gap ran out
            // at, where it is let out): from the gap's exact end, the slack
            // restated at `rate`; else from `now`.
            let slack = if arrived < now && self.next_start == now {
                if rate == self.slack_rate {
                    self.slack
                } else {
                    (u128::from(self.slack) * u128::from(rate) / u128::from(self.slack_rate)) as u64
                }
            } else {
                0
            };
            let gap = Serial::of(u64::from(size), rate);
            let (late, slack) = gap.after(slack, rate);
            self.next_start = now + gap.whole + Time::from(late);
            (self.slack, self.slack_rate) = (slack, rate);
            self.queue.pop_front();
            self.delays.record(now - arrived);
            out.push(id);
        }
    }

    /// When the head packet may start.
    fn next_departure(&self) -> Option<Time> {
        let &(_, _, arrived) = self.queue.front()?;
        Some(self.next_start.max(arrived))
    }

    fn queued(&self) -> usize {
        self.queue.len()
    }

    /// Eq. 1's rate at the current queue.
    fn rate_bps(&self) -> f64 {
        self.rate(self.queue.len()) as f64
    }

    fn timer(&mut self) -> &mut Timer {
        &mut self.timer
    }

    fn delays(&mut self) -> &mut DelayStats {
        &mut self.delays
    }

    fn drops(&self) -> u64 {
        self.drops
    }

    fn restart_stats(&mut self) {
        self.delays.restart();
        self.drops = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    /// Paper Q Sec IV-B (Table II): CBR at `rate` through one QLBP node,
    /// mu_max 10 Mb/s, mu_min 2 Mb/s, Q_max 10, Q_lim 1000, 1000 B packets,
    /// link 15 Mb/s. Returns (time-averaged packets waiting, mean delay ms,
    /// max delay ms) over [5 s, 20 s].
    fn cbr(rate: u64) -> (f64, f64, f64) {
        let params = QlbpParams { mu_max: 10_000_000, mu_min: 2_000_000, q_max: 10, q_lim: 1000 };
        let mut q = Qlbp::new(params, 15_000_000);
        let gap = crate::sim::time::tx_time(1000, rate);
        let (warm, end) = (5_000 * MS, 20_000 * MS);
        let mut out = vec![];
        let (mut next_arrival, mut id) = (0, 0);
        let (mut area, mut last) = (0u128, warm);
        loop {
            let now = next_arrival.min(q.next_departure().unwrap_or(Time::MAX));
            if now > end {
                break;
            }
            if now > warm {
                if last == warm {
                    q.delays.restart();
                }
                area += (now - last) as u128 * q.queued() as u128;
                last = now;
            }
            q.advance(now, &mut out);
            if now == next_arrival {
                assert!(q.arrive(now, id, 1000));
                id += 1;
                next_arrival += gap;
                q.advance(now, &mut out);
            }
            out.clear();
        }
        let d = &q.delays;
        (area as f64 / (end - warm) as f64, d.mean() / 1e6, d.max as f64 / 1e6)
    }

    #[test]
    fn table_2_of_paper_q() {
        // (rate Mb/s, queue pkts, delay ms) from paper Q Table II.
        let table = [
            (1, 0, 0.0),
            (2, 0, 0.0),
            (4, 2, 4.0),
            (6, 4, 5.33),
            (8, 7, 7.0),
            (10, 9, 7.2),
            (12, 10, 6.67),
            (15, 10, 5.3),
        ];
        for (mbps, want_q, want_d) in table {
            let (q, d, max) = cbr(mbps * 1_000_000);
            assert!((q - want_q as f64).abs() <= 1.0, "{mbps} Mb/s: queue {q:.2} vs {want_q}");
            assert!((d - want_d).abs() <= 2.5, "{mbps} Mb/s: delay {d:.2} ms vs {want_d}");
            if mbps <= 2 {
                assert_eq!(max, 0.0, "{mbps} Mb/s is below mu_min: no delay");
            }
        }
    }

    /// The starts of `n` packets of 1040 B all arriving at t = 0.
    fn starts(params: QlbpParams, n: u32) -> Vec<Time> {
        let mut q = Qlbp::new(params, 1_000_000_000);
        for id in 0..n {
            assert!(q.arrive(0, id, 1040));
        }
        let (mut starts, mut out) = (vec![], vec![]);
        while let Some(t) = q.next_departure() {
            q.advance(t, &mut out);
            starts.extend(out.drain(..).map(|_| t));
        }
        starts
    }

    #[test]
    fn a_backlogged_pacer_sends_at_exactly_its_rate() {
        // mu_min = mu_max = 7 Mb/s, Q_max past the queue: every gap is
        // 1040 B at 7 Mb/s, 1,188,571.43 ns. Packet k starts at exactly
        // k x 8,320,000 / 7 ns rounded up (each gap rounded alone: k x
        // 1,188,571, 0.43 ns a packet early, 429 ns by the 1000th).
        let flat = QlbpParams { mu_max: 7_000_000, mu_min: 7_000_000, q_max: 5000, q_lim: 5000 };
        let got = starts(flat, 1001);
        let want: Vec<Time> = (0..=1000u64).map(|k| (k * 8_320_000).div_ceil(7)).collect();
        assert_eq!(got.len(), want.len());
        let wrong = got.iter().zip(&want).position(|(g, w)| g != w);
        assert_eq!(wrong.map(|k| (k, got[k], want[k])), None, "(packet, its start, the exact one)");
        assert_eq!(got[1000], 1_188_571_429);
        // mu(q) from 1 to 10 Mb/s as 50 packets drain from Q_max 10 on: the
        // rate changes at each of the last ten gaps. Each start is its exact
        // one (the sum of the gaps before it at their rates) rounded up, or
        // later by under 1 / mu ns a change of rate (the slack restated).
        let sloped = QlbpParams { mu_max: 10_000_000, mu_min: 1_000_000, q_max: 10, q_lim: 100 };
        let q = Qlbp::new(sloped, 1_000_000_000);
        let mut exact = 0.0f64;
        for (k, &s) in starts(sloped, 50).iter().enumerate() {
            let t = s as f64;
            assert!(t >= exact - 1e-6 && t < exact + 1.0 + 1e-6, "packet {k}: {s} for {exact}");
            exact += 8320e9 / q.rate(50 - k) as f64;
        }
    }

    #[test]
    fn delay_bound_and_fluid_queue_hold() {
        // Theorem 1: at most Q_max / mu_max = 10 * 8000 b / 10 Mb/s = 8 ms.
        for mbps in [3, 5, 7, 9, 11, 14] {
            let (q, _, max) = cbr(mbps * 1_000_000);
            assert!(max <= 8.0 + 1e-9, "{mbps} Mb/s: max delay {max} ms");
            if mbps < 10 {
                // Fluid steady state: Q_max (lambda - mu_min) / (mu_max - mu_min).
                let fluid = 10.0 * (mbps as f64 - 2.0) / 8.0;
                assert!((q - fluid).abs() <= 1.0, "{mbps} Mb/s: queue {q:.2} vs fluid {fluid:.2}");
            }
        }
    }
}
