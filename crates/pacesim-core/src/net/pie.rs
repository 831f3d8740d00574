//! PIE, Proportional Integral controller Enhanced (Pan, Natarajan, Baker,
//! White, RFC 8033, 2017), with Linux's `sch_pie.c` and `pie.h` as the
//! reference for its details. It drops arrivals at random with a
//! probability `p` that a controller moves every `t_update` (15 ms) to
//! hold the queue delay near `target` (15 ms):
//!
//! - the queue delay is the sojourn of the last packet dequeued (0 once
//!   the queue is empty; Linux's default, ns-3's), or, with `estimator =
//!   "departure-rate"`, the bytes queued over the departure rate measured
//!   while `dq_threshold` (16 KB) or more are queued (RFC 8033 Sec 4.1,
//!   Linux's `dq_rate_estimator`; averaged 7/8 old, 1/8 new);
//! - every `t_update`: "p = p + alpha*(cur_del - target) + beta*(cur_del -
//!   old_del)" (Sec 4.2), delays in s, alpha 0.125 and beta 1.25 per s,
//!   both scaled down while p is small (Sec 4.2's auto-tuning: / 2 below
//!   0.1, / 8 below 0.01, / 32 below 0.001, / 128 below 1e-4, / 512 below
//!   1e-5, / 2048 below 1e-6); a rise is cut to 0.02 once p >= 0.1, and
//!   0.02 is added while the delay is above 250 ms (Linux); p stays in [0,
//!   1]; two updates in a row with no delay (and an empty queue) decay p by
//!   1/64 (Linux; RFC 8033: 2 %);
//! - an arrival is dropped with probability p, except while the burst
//!   allowance (`max_burst`, 150 ms, Sec 4.4) lasts, while the delay is
//!   below target / 2 and p below 0.2, or while less than 2 `mtu` are
//!   queued (Sec 4.3's safeguards); drops are de-randomised as Linux
//!   and Sec 5.1 do: p accumulates over the arrivals since the last drop,
//!   none is dropped before the sum reaches 0.85, and one surely at 8.5;
//! - the burst allowance shrinks by `t_update` at each update, and is
//!   restored once p is 0 and both the delay and the one before are below
//!   target / 2 (Sec 4.4), the controller's state then reset as Linux's
//!   `pie_vars_init` does.
//!
//! The updates run when the queue next sees a packet (arriving or
//! leaving), each at its own time (multiples of `t_update` from the start):
//! the delay and the bytes queued change only with packets, so each sees
//! what a timer would (an update due at the instant of a packet comes
//! first). At arrival PIE is also drop-tail on the link's buffer, and on
//! `limit` packets (Linux's 1000). ECN marking is not modelled.

use std::collections::VecDeque;

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::discipline::{Arrival, Discipline, Limits, Queued, Verdict};
use super::DropTail;
use crate::sim::rng::Stream;
use crate::sim::Time;

/// How PIE estimates the queue delay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DelayEstimator {
    /// The sojourn of the last packet dequeued (Linux's and ns-3's default).
    #[default]
    Timestamp,
    /// Bytes queued over the measured departure rate (RFC 8033 Sec 4.1).
    DepartureRate,
}

/// PIE's parameters (RFC 8033 Sec 4-5, Linux's defaults), used when the
/// queue is `pie`; the link's buffer bounds it too.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct PieParams {
    /// The queue delay the controller holds, ns (RFC 8033's QDELAY_REF:
    /// 15 ms).
    #[schemars(extend("x-unit" = "ns"), range(min = 1, max = 3_600_000_000_000u64))]
    pub target: u64,
    /// Time between updates of the drop probability, ns (RFC 8033's
    /// T_UPDATE: 15 ms).
    #[schemars(extend("x-unit" = "ns"), range(min = 1_000, max = 3_600_000_000_000u64))]
    pub t_update: u64,
    /// Weight of the delay's distance from target, per s (RFC 8033: 0.125).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub alpha: f64,
    /// Weight of the delay's change since the last update, per s (RFC
    /// 8033: 1.25).
    #[schemars(range(min = 0.0, max = 100.0))]
    pub beta: f64,
    /// Burst allowance: no early drop for this long after the queue was
    /// last quiet, ns (RFC 8033's MAX_BURST: 150 ms).
    #[schemars(extend("x-unit" = "ns"), range(max = 3_600_000_000_000u64))]
    pub max_burst: u64,
    /// Packets the queue holds at most (Linux's `limit`, 1000).
    #[schemars(extend("x-unit" = "packets"), range(min = 1, max = u32::MAX))]
    pub limit: u64,
    /// No early drop while less than two of these are queued, bytes
    /// (Linux's 2 x mtu: 1514, an Ethernet frame).
    #[schemars(extend("x-unit" = "bytes"), range(max = u32::MAX))]
    pub mtu: u64,
    /// How the queue delay is estimated.
    pub estimator: DelayEstimator,
    /// With `departure-rate`: the bytes queued from which the departure
    /// rate is measured, and those a measurement spans (RFC 8033's
    /// DQ_THRESHOLD, Linux's 16384).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1, max = u32::MAX))]
    pub dq_threshold: u64,
    /// Mark ECN-capable arrivals CE instead of dropping them early while
    /// the drop probability is at most 10 % (RFC 8033 Sec 5.1, Linux pie's
    /// `ecn`); the accumulated probability restarts as at a drop.
    pub ecn: bool,
}

impl Default for PieParams {
    fn default() -> Self {
        PieParams {
            target: 15_000_000,
            t_update: 15_000_000,
            alpha: 0.125,
            beta: 1.25,
            max_burst: 150_000_000,
            limit: 1000,
            mtu: 1514,
            estimator: DelayEstimator::Timestamp,
            dq_threshold: 16384,
            ecn: false,
        }
    }
}

/// A departure-rate measurement under way: since when, and the bytes
/// dequeued since (RFC 8033's dq_tstamp and dq_count).
#[derive(Debug, Clone, Copy)]
struct Measurement {
    since: Time,
    bytes: u64,
}

/// A PIE queue: its packets in order, and the controller's state.
#[derive(Debug, Clone)]
pub struct Pie {
    params: PieParams,
    /// The link's limits (drop-tail's admission rule).
    limit: DropTail,
    rng: Stream,
    fifo: VecDeque<Queued>,
    /// Bytes in `fifo`.
    bytes: u64,
    /// The drop probability.
    p: f64,
    /// The current queue delay estimate and the one of the last update, ns.
    qdelay: Time,
    qdelay_old: Time,
    /// Burst allowance left, ns.
    burst: Time,
    /// The probability summed since the last drop (de-randomisation).
    accu: f64,
    /// When the next update is due.
    next_update: Time,
    /// Departure rate, bytes per ns (0: not measured yet), and the
    /// measurement under way.
    rate: f64,
    measuring: Option<Measurement>,
}

impl Pie {
    pub fn new(params: PieParams, limit: DropTail, rng: Stream) -> Self {
        let (burst, next_update) = (params.max_burst, params.t_update);
        Pie {
            params,
            limit,
            rng,
            fifo: VecDeque::new(),
            bytes: 0,
            p: 0.0,
            qdelay: 0,
            qdelay_old: 0,
            burst,
            accu: 0.0,
            next_update,
            rate: 0.0,
            measuring: None,
        }
    }

    /// Run the updates due by `now`.
    fn catch_up(&mut self, now: Time) {
        while self.next_update <= now {
            self.update();
            self.next_update += self.params.t_update;
        }
    }

    /// One update of the drop probability (RFC 8033 Sec 4.2, Linux's
    /// `pie_calculate_probability`).
    fn update(&mut self) {
        let params = &self.params;
        if params.estimator == DelayEstimator::DepartureRate {
            self.qdelay = if self.rate > 0.0 { (self.bytes as f64 / self.rate) as Time } else { 0 };
        }
        let s = |t: Time| t as f64 * 1e-9;
        let (qdelay, qdelay_old) = (self.qdelay, self.qdelay_old);
        // Auto-tuning: alpha and beta scaled down while p is small.
        let scale = match self.p {
            p if p < 1e-6 => 2048.0,
            p if p < 1e-5 => 512.0,
            p if p < 1e-4 => 128.0,
            p if p < 1e-3 => 32.0,
            p if p < 1e-2 => 8.0,
            p if p < 0.1 => 2.0,
            _ => 1.0,
        };
        let mut delta = (params.alpha * (s(qdelay) - s(params.target))
            + params.beta * (s(qdelay) - s(qdelay_old)))
            / scale;
        if delta > 0.02 && self.p >= 0.1 {
            delta = 0.02;
        }
        if qdelay > 250_000_000 {
            delta += 0.02;
        }
        self.p = (self.p + delta).clamp(0.0, 1.0);
        // A delay of 0 with packets queued is too small a queue to tell.
        let measured = !(qdelay == 0 && self.bytes != 0);
        if qdelay == 0 && qdelay_old == 0 && measured {
            self.p -= self.p / 64.0;
        }
        self.burst = self.burst.saturating_sub(params.t_update);
        let quiet = qdelay < params.target / 2 && qdelay_old < params.target / 2;
        let rate_known = params.estimator == DelayEstimator::Timestamp || self.rate > 0.0;
        if quiet && self.p == 0.0 && rate_known {
            self.burst = params.max_burst;
            self.accu = 0.0;
            self.rate = 0.0;
            self.measuring = None;
        }
        self.qdelay_old = qdelay;
    }

    /// Whether an arrival that fits is dropped early (Linux's
    /// `pie_drop_early`), `queued` the bytes it finds.
    fn drop_early(&mut self, queued: u64) -> bool {
        if self.burst > 0
            || (self.qdelay < self.params.target / 2 && self.p < 0.2)
            || queued < 2 * self.params.mtu
        {
            return false;
        }
        if self.p == 0.0 {
            self.accu = 0.0;
        }
        self.accu += self.p;
        if self.accu < 0.85 {
            return false;
        }
        self.accu >= 8.5 || self.rng.gen::<f64>() < self.p
    }

    /// The departure-rate estimate after `size` bytes left at `now`,
    /// `self.bytes` left behind (RFC 8033 Sec 4.1, Linux's
    /// `pie_process_dequeue`).
    fn measure(&mut self, now: Time, size: u32) {
        let threshold = self.params.dq_threshold;
        if self.bytes >= threshold && self.measuring.is_none() {
            self.measuring = Some(Measurement { since: now, bytes: 0 });
        }
        let Some(m) = &mut self.measuring else { return };
        m.bytes += u64::from(size);
        if m.bytes < threshold || now == m.since {
            return;
        }
        let rate = m.bytes as f64 / (now - m.since) as f64;
        self.rate = if self.rate == 0.0 { rate } else { self.rate * 7.0 / 8.0 + rate / 8.0 };
        self.measuring = (self.bytes >= threshold).then_some(Measurement { since: now, bytes: 0 });
    }
}

impl Discipline for Pie {
    fn marks(&self) -> bool {
        self.params.ecn
    }

    /// Drop-tail on the link's buffer and on `limit`, then PIE's early drop.
    fn verdict(&mut self, a: &Arrival) -> Verdict {
        self.catch_up(a.now);
        let fits = self.limit.verdict(a) == Verdict::Admit && a.queued_packets < self.params.limit;
        let early = fits && self.drop_early(a.queued_bytes);
        if fits && !early {
            return Verdict::Admit;
        }
        self.accu = 0.0;
        // RFC 8033 Sec 5.1: "if the drop probability is less than mark_ecnth
        // (10%), ... mark"; Linux pie marks at or below 10 %.
        if early && self.params.ecn && a.ect && self.p <= 0.1 {
            return Verdict::Mark;
        }
        Verdict::DropArrival
    }

    fn holds(&self) -> bool {
        true
    }

    fn enqueue(&mut self, _: &Arrival, p: Queued, _: &mut Vec<Queued>) {
        self.bytes += u64::from(p.size);
        self.fifo.push_back(p);
    }

    fn dequeue(&mut self, now: Time, _: &mut Vec<Queued>) -> Option<Queued> {
        self.catch_up(now);
        let p = self.fifo.pop_front()?;
        self.bytes -= u64::from(p.size);
        match self.params.estimator {
            DelayEstimator::Timestamp if self.bytes == 0 => self.qdelay = 0,
            DelayEstimator::Timestamp => self.qdelay = now - p.enqueued,
            DelayEstimator::DepartureRate => self.measure(now, p.size),
        }
        Some(p)
    }

    fn limits(&self) -> Limits {
        self.limit.limits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;

    const MS: Time = 1_000_000;

    fn pie(params: PieParams) -> Pie {
        Pie::new(params, DropTail::unlimited(), stream(1, "test.pie", 0))
    }

    fn arrival(now: Time, queued_bytes: u64) -> Arrival {
        Arrival { now, idle_since: None, queued_bytes, queued_packets: 0, size: 1000, ect: false }
    }

    /// RFC 8033 Sec 4.2's update by hand, delays in s, alpha 0.125 and beta
    /// 1.25 per s, target 0.015 s, from p = 0 and no delay before:
    /// - 30 ms: p < 1e-6 scales by 1/2048: (0.125 x 0.015 + 1.25 x 0.030) / 2048
    ///   = 0.039375 / 2048 = 1.92e-5;
    /// - 30 ms again: p < 1e-4, 1/128: + 0.125 x 0.015 / 128 = 0.001875 / 128;
    /// - 300 ms: still < 1e-4: + (0.125 x 0.285 + 1.25 x 0.270) / 128 =
    ///   0.373125 / 128, and + 0.02 (above 250 ms): 0.0229;
    /// - 300 ms three times: p < 0.1, 1/2: + 0.035625 / 2 + 0.02 each:
    ///   0.0608, 0.0986, then 0.1364;
    /// - 300 ms with p >= 0.1: 0.035625 is cut to 0.02, + 0.02: 0.1764;
    /// - 0 (queue empty): 0.125 x -0.015 + 1.25 x -0.3 < -p: p = 0; the
    ///   burst allowance has shrunk by 8 updates of 15 ms: 30 ms;
    /// - 0 again: p stays 0, and with two quiet delays the allowance is
    ///   back to 150 ms.
    #[test]
    fn p_follows_the_rfc_formula_with_its_auto_tuning() {
        let mut q = pie(PieParams::default());
        let mut want = 0.0;
        let steps = [
            (30, 0.039375 / 2048.0),
            (30, 0.001875 / 128.0),
            (300, 0.373125 / 128.0 + 0.02),
            (300, 0.035625 / 2.0 + 0.02),
            (300, 0.035625 / 2.0 + 0.02),
            (300, 0.035625 / 2.0 + 0.02),
            (300, 0.02 + 0.02),
        ];
        for (ms, delta) in steps {
            q.qdelay = ms * MS;
            q.update();
            want += delta;
            assert!((q.p - want).abs() < 1e-12, "{ms} ms: p {} != {want}", q.p);
        }
        assert!((want - 0.17638641357421875).abs() < 1e-12);
        q.qdelay = 0;
        q.update();
        assert_eq!((q.p, q.burst), (0.0, 30 * MS));
        q.update();
        assert_eq!((q.p, q.burst), (0.0, 150 * MS));
    }

    /// Two updates in a row with no delay and an empty queue decay p by
    /// 1/64 after the formula: 0.5 - 0.125 x 0.015 = 0.498125, x 63/64 =
    /// 0.490341796875; with packets queued (a delay of 0 then says nothing)
    /// it does not decay.
    #[test]
    fn two_quiet_updates_decay_p() {
        for (bytes, want) in [(0, 0.490341796875), (1000, 0.498125)] {
            let mut q = pie(PieParams::default());
            (q.p, q.bytes) = (0.5, bytes);
            q.update();
            assert!((q.p - want).abs() < 1e-12, "{} != {want}", q.p);
        }
    }

    /// With p = 1 every arrival would be dropped, but none is while the
    /// burst allowance lasts, while the delay is below target / 2 (7.5 ms)
    /// with p below 0.2, or while less than 2 x 1514 B are queued.
    #[test]
    fn the_safeguards_keep_arrivals() {
        let verdict = |p: f64, burst: Time, qdelay: Time, queued: u64| {
            let mut q = pie(PieParams::default());
            (q.p, q.burst, q.qdelay) = (p, burst, qdelay);
            q.verdict(&arrival(0, queued))
        };
        assert_eq!(verdict(1.0, 0, 20 * MS, 3028), Verdict::DropArrival);
        assert_eq!(verdict(1.0, MS, 20 * MS, 3028), Verdict::Admit);
        assert_eq!(verdict(0.19, 0, 7 * MS, 3028), Verdict::Admit);
        assert_eq!(verdict(1.0, 0, 7 * MS, 3028), Verdict::DropArrival);
        assert_eq!(verdict(1.0, 0, 20 * MS, 3027), Verdict::Admit);
    }

    /// De-randomised drops (Sec 5.1, Linux): with p = 1/16 the sum of p
    /// over the arrivals since the last drop is 13/16 < 0.85 after 13, so
    /// those 13 are always kept and from the 14th each is dropped with
    /// probability 1/16: a drop every 13 + 16 = 29 arrivals on average
    /// (the sure drop at 8.5, the 136th, is left out: 0.9375^123 < 4e-4).
    /// Over 290,000 arrivals: 10,000 drops expected, standard deviation of
    /// the gap sqrt(15/16) x 16 = 15.5, so 3 % is over 6 standard errors.
    #[test]
    fn drops_are_de_randomised() {
        let mut q = pie(PieParams::default());
        (q.p, q.burst, q.qdelay) = (1.0 / 16.0, 0, 20 * MS);
        let mut gaps = vec![];
        let mut since = 0;
        for _ in 0..290_000 {
            since += 1;
            if q.verdict(&arrival(0, 10_000)) == Verdict::DropArrival {
                gaps.push(since);
                since = 0;
            }
        }
        assert!(gaps.iter().all(|&g| g >= 14), "a drop within 13 arrivals of the last");
        let drops = gaps.len() as f64;
        assert!((drops / 10_000.0 - 1.0).abs() < 0.03, "{drops} drops");
    }

    /// The departure-rate estimate by hand: 40 packets of 1000 B queued,
    /// one dequeued every 8 ms from 8 ms. The first leaves 39,000 B >=
    /// 16,384: a measurement starts at 8 ms counting it; the 17th (17,000
    /// B) at 136 ms ends it: 17,000 B / 128 ms. 23,000 B are left: another
    /// starts there, and ends at the 34th, 272 ms: 17,000 B / 136 ms;
    /// averaged 7/8 : 1/8. 6,000 B are left, below the threshold: no more.
    /// The queue delay is then 6,000 B over that rate: 45.511 ms.
    #[test]
    fn the_departure_rate_estimate_by_hand() {
        let params = PieParams {
            estimator: DelayEstimator::DepartureRate,
            t_update: 3_600_000 * MS,
            ..PieParams::default()
        };
        let mut q = pie(params);
        for id in 0..40 {
            q.enqueue(
                &arrival(0, 0),
                Queued { id, kind: crate::net::PacketKind::Udp, size: 1000, flow: 0, enqueued: 0 },
                &mut vec![],
            );
        }
        for k in 1..=34 {
            q.dequeue(8 * k * MS, &mut vec![]).unwrap();
            if k == 17 {
                assert!((q.rate - 17_000.0 / (128 * MS) as f64).abs() < 1e-15);
            }
        }
        let want = 17_000.0 / (128 * MS) as f64 * 7.0 / 8.0 + 17_000.0 / (136 * MS) as f64 / 8.0;
        assert!((q.rate - want).abs() < 1e-15, "{} != {want}", q.rate);
        assert!(q.measuring.is_none());
        q.update();
        assert_eq!(q.qdelay, (6000.0 / want) as Time);
        assert_eq!(q.qdelay / 1000, 45_511);
    }

    /// The mean queue (bytes) at link `measured` over the last 15 s of 20,
    /// with 1000 B UDP packets every 4 ms (2 Mb/s) from host a to host b
    /// through `topology` with `core`, in which a 1 Mb/s link has a 100 KB buffer.
    fn mean_queue(topology: &str, core: &str, measured: &str) -> f64 {
        let json = format!(
            r#"{{"seed":1,"duration":20000000000,"warmup":5000000000,"topology":{topology},"core":{core},
            "tcp":{{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":20,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000}},
            "traffic":{{"start":[0,0],"udp":[{{"kind":"cbr","rate":2000000,"size":{{"range":[1000,1000]}},"start":0,"from":"a","to":"b"}}]}}}}"#
        );
        let s = crate::Scenario::from_json(&json).unwrap();
        let r = crate::run(&s).unwrap();
        let c = &r.conservation;
        assert_eq!(c.created, c.delivered + c.dropped + c.in_flight);
        r.links[measured].mean_queue_bytes
    }

    /// From a scenario: 2 Mb/s of UDP into 1 Mb/s, where drop-tail fills
    /// its 100 KB (800 ms of queue), PIE holds the queue near its 15 ms
    /// target (1,875 B at 1 Mb/s): below 4 times it, on the core
    /// (`core.queue = "pie"`) and on a written-out graph's link that is not
    /// the core (`forward.queue`).
    #[test]
    fn a_scenario_chooses_pie_on_the_core_or_on_any_link() {
        let line = r#"{"kind":"graph","nodes":[],"hosts":["a","b"],"links":[{"from":"a","to":"b","core":true}],"flows":[]}"#;
        let core =
            |queue: &str| format!(r#"{{"rate":1000000,"delay":10000000,"buffer":100000,"queue":"{queue}"}}"#);
        let tail = mean_queue(line, &core("droptail"), "core");
        assert!(tail > 95_000.0, "{tail}");
        let on_core = mean_queue(line, &core("pie"), "core");
        assert!(on_core < 4.0 * 1875.0, "{on_core}");
        let edge = r#"{"kind":"graph","nodes":["r"],"hosts":["a","b"],"links":[
            {"from":"a","to":"r","rate":[1000000,1000000],"delay":[0,0],"forward":{"name":"edge","queue":"pie","buffer":100000,"measure":true}},
            {"from":"r","to":"b","core":true}],"flows":[]}"#;
        let fast = r#"{"rate":100000000,"delay":10000000,"buffer":1000000}"#;
        let on_edge = mean_queue(edge, fast, "edge");
        assert!(on_edge < 4.0 * 1875.0, "{on_edge}");
    }
}
