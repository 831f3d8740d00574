//! Random Early Detection (Floyd and Jacobson, "Random Early Detection
//! Gateways for Congestion Avoidance", ToN 1993), as ns-2 2.35's
//! `Queue/RED` decides admission (queue/red.cc, `REDQueue::enque`,
//! `estimator`, `calculate_p_new`, `modify_p`, `drop_early`) with its
//! defaults `wait_ true`, `use_mark_p_ true`, `drop_tail_ true`, and
//! `setbit_` as `ecn` says (false by default).
//!
//! On every arrival, with `q` the queue length it finds (bytes in byte mode,
//! else packets; the packet on the wire not counted):
//!
//! - average (Sec 4, the EWMA `avg <- (1 - w_q) avg + w_q q`), after an idle
//!   period of length `t` decayed as if `m = int(ptc t)` empty-queue
//!   arrivals had happened (`ptc` = packets of `mean_pktsize` the link sends
//!   per second): `avg <- (1 - w_q)^(m+1) avg + w_q q`;
//! - if `avg >= min_th` and `q > 1`: on the first such arrival `count = 1`
//!   and no drop; after that a random drop with probability
//!   `p_b = max_p (avg - min_th) / (max_th - min_th)` (Sec 4; at or above
//!   `max_th` 1, or with `gentle` rising from `max_p` to 1 over
//!   `[max_th, 2 max_th]`), spread evenly by the count since the last drop
//!   (ns-2 `wait_`: `p_a = 0` while `count p_b < 1`, `p_b / (2 - count p_b)`
//!   while below 2, then 1), in byte mode counting `count_bytes /
//!   mean_pktsize` and scaling `p_a` by `size / mean_pktsize` (Sec 10);
//! - whatever the average, a packet finding `q >= limit` is dropped (forced).
//!
//! With `ecn` (ns-2 `setbit_`) an ECN-capable arrival that would be
//! dropped early (not at the hard limit) is marked CE and admitted instead.
//! A drop or a mark resets the count; an arrival with `avg < min_th` (or `q <= 1`)
//! ends the dropping phase. With `use_mark_p_` (ns-2's default) an average
//! above `max_th` is no forced drop: it only drives `p_b` to 1.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::discipline::{Arrival, Discipline, Limits, Verdict};
use crate::sim::rng::Stream;
use crate::spec::human::size;
use crate::spec::{bad, positive, InvalidField, MAX_PACKET};

/// RED's parameters (Floyd and Jacobson 1993, Sec 4; ns-2 `Queue/RED`), used
/// when `core.queue = "red"`. The defaults are paper E Fig. 9's: `max_th`
/// the buffer, `min_th` 40 % of it (both left out to follow the buffer),
/// `max_p` 0.1, `w_q` 0.002; `gentle` and byte mode (`mean_packet` 1000 B)
/// as ns-2 2.35 (`gentle_ true`, `queue_in_bytes_`, `bytes_`, `mean_pktsize_`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct RedParams {
    /// Below this average queue nothing is dropped, bytes; absent: 40 % of
    /// `core.buffer` (paper E Fig. 9).
    #[schemars(extend("x-unit" = "bytes"))]
    pub min_th: Option<u64>,
    /// At this average queue the drop probability reaches `max_p`, bytes;
    /// absent: `core.buffer` (paper E Fig. 9).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1))]
    pub max_th: Option<u64>,
    /// Drop probability at `max_th`, in (0, 1] (paper E Fig. 9).
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    pub max_p: f64,
    /// Weight of the newest queue sample in the average (EWMA), in (0, 1]
    /// (paper E Fig. 9).
    #[schemars(extend("exclusiveMinimum" = 0.0), range(max = 1.0))]
    pub w_q: f64,
    /// Drop probability rising from `max_p` to 1 over [max_th, 2 max_th]
    /// instead of jumping to 1 at `max_th` (ns-2 `gentle_`).
    pub gentle: bool,
    /// Queue counted and drops scaled in bytes (ns-2 `queue_in_bytes_` and
    /// `bytes_`); else in packets of `mean_packet` bytes.
    pub byte_mode: bool,
    /// The packet size drop scaling, packet-mode limits and the idle-time
    /// correction assume, bytes (ns-2 `mean_pktsize_`).
    #[schemars(extend("x-unit" = "bytes"), range(min = 1, max = MAX_PACKET))]
    pub mean_packet: u64,
    /// Mark ECN-capable arrivals CE instead of dropping them early (ns-2
    /// `setbit_`, Linux RED's `ecn`; RFC 3168 Sec 5); arrivals that are not
    /// ECN-capable are dropped as before, and the hard limit drops all.
    pub ecn: bool,
}

impl RedParams {
    /// Check RED's rules across keys for a queue of `buffer` bytes (and, if
    /// given, `buffer_packets`, which RED does not use); the error names the
    /// field. `max_p` and `w_q` are held to (0, 1] by their schema bounds
    /// (`spec::bounds`, before this).
    pub fn validate(&self, buffer: u64, buffer_packets: Option<u64>) -> Result<(), InvalidField> {
        let r = self;
        if buffer_packets.is_some() {
            return Err(bad("core.buffer_packets", "not used by RED, whose hard limit is core.buffer"));
        }
        let (min_th, max_th) = (r.min_th(buffer), r.max_th(buffer));
        positive("core.red.max_th", max_th)?;
        if min_th >= max_th {
            return Err(bad(
                "core.red.min_th",
                format!("{} must be below max_th ({})", size(min_th), size(max_th)),
            ));
        }
        if !r.byte_mode && buffer < r.mean_packet {
            return Err(bad("core.buffer", "RED in packet mode needs at least one mean_packet of buffer"));
        }
        Ok(())
    }

    /// `min_th` in bytes for a queue of `buffer` bytes.
    pub fn min_th(&self, buffer: u64) -> u64 {
        self.min_th.unwrap_or(buffer * 2 / 5)
    }

    /// `max_th` in bytes for a queue of `buffer` bytes.
    pub fn max_th(&self, buffer: u64) -> u64 {
        self.max_th.unwrap_or(buffer)
    }
}

/// Paper E Fig. 9's parameters, ns-2 2.35's for the rest (see above).
impl Default for RedParams {
    fn default() -> Self {
        RedParams {
            min_th: None,
            max_th: None,
            max_p: 0.1,
            w_q: 0.002,
            gentle: true,
            byte_mode: true,
            mean_packet: 1000,
            ecn: false,
        }
    }
}

/// A RED queue's fixed parameters, in the queue's unit (bytes in byte mode,
/// else packets).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RedConfig {
    pub min_th: f64,
    pub max_th: f64,
    pub max_p: f64,
    pub w_q: f64,
    pub gentle: bool,
    /// Byte mode (ns-2 `queue_in_bytes_` and `bytes_`).
    pub byte_mode: bool,
    /// Packet size the thresholds and idle correction assume (ns-2 `mean_pktsize_`), bytes.
    pub mean_pktsize: u32,
    /// Hard limit: an arrival finding at least this much queued is dropped.
    pub limit: u64,
    /// Link rate, bit/s (for the idle-time correction).
    pub rate_bps: u64,
    /// Early drops of ECN-capable arrivals become CE marks (`RedParams::ecn`).
    pub ecn: bool,
}

/// A RED queue's admission state.
#[derive(Debug, Clone)]
pub struct Red {
    pub config: RedConfig,
    /// Average queue, in the queue's unit (ns-2 `ave_`).
    avg: f64,
    /// Arrivals, and their bytes, since the last drop (ns-2 `count`, `count_bytes`).
    count: u64,
    count_bytes: u64,
    /// Whether the average was above `min_th` at the previous arrival (ns-2 `old`).
    dropping: bool,
    rng: Stream,
}

impl Red {
    pub fn new(config: RedConfig, rng: Stream) -> Self {
        Red { config, avg: 0.0, count: 0, count_bytes: 0, dropping: false, rng }
    }

    /// The average queue after the last arrival.
    pub fn average(&self) -> f64 {
        self.avg
    }

    /// Packets of `mean_pktsize` the link sends per second (ns-2 `ptc`).
    fn ptc(&self) -> f64 {
        self.config.rate_bps as f64 / (8.0 * f64::from(self.config.mean_pktsize))
    }

    /// Drop probability before the count correction (ns-2 `calculate_p_new`).
    pub fn base_probability(&self, avg: f64) -> f64 {
        let c = &self.config;
        let p = if avg >= c.max_th {
            if c.gentle {
                // From max_p at max_th to 1 at 2 max_th.
                (1.0 - c.max_p) / c.max_th * avg + 2.0 * c.max_p - 1.0
            } else {
                1.0
            }
        } else {
            // "p_b <- max_p (avg - min_th) / (max_th - min_th)" (Sec 4)
            let span = if c.max_th > c.min_th { c.max_th - c.min_th } else { 1.0 };
            c.max_p * (avg - c.min_th) / span
        };
        p.min(1.0)
    }

    /// Drop probability of an arriving packet of `size` bytes (ns-2 `modify_p` with `wait_`).
    fn probability(&self, size: u32) -> f64 {
        let c = &self.config;
        let p_b = self.base_probability(self.avg);
        let count = if c.byte_mode {
            // Integer division, as ns-2 does it.
            (self.count_bytes / u64::from(c.mean_pktsize)) as f64
        } else {
            self.count as f64
        };
        let mut p = if count * p_b < 1.0 {
            0.0
        } else if count * p_b < 2.0 {
            p_b / (2.0 - count * p_b)
        } else {
            1.0
        };
        if c.byte_mode && p < 1.0 {
            p = p * f64::from(size) / f64::from(c.mean_pktsize);
        }
        p.min(1.0)
    }
}

impl Discipline for Red {
    fn marks(&self) -> bool {
        self.config.ecn
    }

    /// Whether the arriving packet is admitted or dropped (ns-2 `REDQueue::enque`).
    fn verdict(&mut self, a: &Arrival) -> Verdict {
        let size = a.size;
        let q = if self.config.byte_mode { a.queued_bytes } else { a.queued_packets };
        let m = a.idle_since.map_or(0.0, |t| (self.ptc() * (a.now - t) as f64 * 1e-9).floor());
        // "avg <- (1 - w_q) avg + w_q q" (Floyd-Jacobson Sec 4), after m
        // phantom empty-queue arrivals for the idle time (ns-2 `estimator`).
        let keep = (1.0 - self.config.w_q).powf(m + 1.0);
        self.avg = self.avg * keep + self.config.w_q * q as f64;
        self.count += 1;
        self.count_bytes += u64::from(size);

        let mut early = false;
        if self.avg >= self.config.min_th && q > 1 {
            if !self.dropping {
                self.dropping = true;
                self.count = 1;
                self.count_bytes = u64::from(size);
            } else {
                use rand::Rng;
                let p = self.probability(size);
                early = self.rng.gen::<f64>() <= p;
            }
        } else {
            self.dropping = false;
        }
        let forced = q >= self.config.limit;
        if !(early || forced) {
            return Verdict::Admit;
        }
        // A mark restarts the count as a drop does (ns-2 `drop_early`).
        self.count = 0;
        self.count_bytes = 0;
        if !forced && self.config.ecn && a.ect {
            return Verdict::Mark;
        }
        Verdict::DropArrival
    }

    fn limits(&self) -> Limits {
        let (limit, bytes) = (self.config.limit, self.config.byte_mode);
        Limits { bytes: bytes.then_some(limit), packets: (!bytes).then_some(limit) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;
    use crate::sim::Time;

    const MS: Time = 1_000_000;

    impl Red {
        fn offer(
            &mut self,
            now: Time,
            idle_since: Option<Time>,
            bytes: u64,
            packets: u64,
            size: u32,
        ) -> bool {
            let a =
                Arrival { now, idle_since, queued_bytes: bytes, queued_packets: packets, size, ect: false };
            self.verdict(&a) == Verdict::Admit
        }
    }

    /// E-fig9 at a 10 KB buffer: thresholds 4 KB and 10 KB, max_p 0.1,
    /// w_q 0.002, on a 100 Mb/s link (ptc = 12 500 packets/s of 1000 B).
    fn efig9(gentle: bool) -> RedConfig {
        RedConfig {
            min_th: 4000.0,
            max_th: 10_000.0,
            max_p: 0.1,
            w_q: 0.002,
            gentle,
            byte_mode: true,
            mean_pktsize: 1000,
            limit: 10_000,
            rate_bps: 100_000_000,
            ecn: false,
        }
    }

    #[test]
    fn average_follows_the_ewma_and_decays_over_idle_time() {
        let mut r = Red::new(efig9(false), stream(1, "t", 0));
        // Busy link, constant 5200 B queue: avg_n = 5200 (1 - 0.998^n).
        for _ in 0..100 {
            assert!(r.offer(0, None, 5200, 5, 1040));
        }
        let want = 5200.0 * (1.0 - 0.998f64.powi(100));
        assert!((r.average() - want).abs() < 1e-9, "{} vs {want}", r.average());
        // Idle for 2 ms: m = floor(12 500 * 0.002) = 25 phantom empty arrivals,
        // then this one finds an empty queue: avg * 0.998^26.
        r.offer(10 * MS, Some(8 * MS), 0, 0, 1040);
        let want = want * 0.998f64.powi(26);
        assert!((r.average() - want).abs() < 1e-9, "{} vs {want}", r.average());
    }

    #[test]
    fn drop_probability_by_hand() {
        let r = Red::new(efig9(false), stream(1, "t", 0));
        // p_b = 0.1 (avg - 4000) / 6000.
        assert_eq!(r.base_probability(4000.0), 0.0);
        assert!((r.base_probability(7000.0) - 0.05).abs() < 1e-12);
        assert_eq!(r.base_probability(10_000.0), 1.0);
        let g = Red::new(efig9(true), stream(1, "t", 0));
        // Gentle: 0.1 at max_th, 0.55 halfway to 2 max_th, 1 at 2 max_th.
        assert!((g.base_probability(10_000.0) - 0.1).abs() < 1e-12);
        assert!((g.base_probability(15_000.0) - 0.55).abs() < 1e-12);
        assert_eq!(g.base_probability(25_000.0), 1.0);

        // The count correction, byte mode: with p_b = 0.05 and 1040 B arrivals,
        // count_bytes / 1000 must reach 20 before p_a > 0: p_a = 0 for counts
        // 1..=19 of 1040 B (19 760 B -> 19), then p_b / (2 - 20 p_b) scaled
        // by 1040 / 1000 = 0.052.
        let mut r = Red::new(efig9(false), stream(1, "t", 0));
        r.avg = 7000.0;
        r.count_bytes = 19 * 1040;
        assert_eq!(r.probability(1040), 0.0);
        r.count_bytes = 20 * 1040;
        assert!((r.probability(1040) - 0.05 * 1.04).abs() < 1e-12);
        r.count_bytes = 30 * 1040; // 31 -> count p_b = 1.55: p_b / 0.45
        assert!((r.probability(1040) - 0.05 / 0.45 * 1.04).abs() < 1e-12);
        r.count_bytes = 40 * 1040; // 41 -> count p_b >= 2: certain
        assert_eq!(r.probability(1040), 1.0);
    }

    /// A fixed arrival pattern: the queue holds 6240 B (six packets) at every
    /// arrival, so after n arrivals the average is 6240 (1 - 0.998^n) and
    /// crosses min_th = 4000 at n = ceil(ln(1 - 4000/6240) / ln 0.998) = 512,
    /// where the count restarts at 1 without a drop. From there arrival
    /// 512 + j has count_bytes = 1040 (j + 1), and RED cannot drop while
    /// floor(1040 (j + 1) / 1000) * 0.1 (avg - 4000) / 6000 < 1, which by
    /// this closed form lasts until j = 121 (avg 4 483 B). The hard
    /// limit drops anything finding 10 000 B queued, whatever the average.
    #[test]
    fn no_early_drop_before_the_count_builds_up_and_the_limit_always_drops() {
        let avg = |n: i32| 6240.0 * (1.0 - 0.998f64.powi(n));
        let crossing = ((1.0 - 4000.0 / 6240.0f64).ln() / 0.998f64.ln()).ceil() as i32;
        assert_eq!(crossing, 512);
        assert!(avg(crossing - 1) < 4000.0 && avg(crossing) >= 4000.0);
        let quiet = (0..)
            .find(|&j: &i32| {
                f64::from(1040 * (j + 1) / 1000) * 0.1 * (avg(crossing + j) - 4000.0) / 6000.0 >= 1.0
            })
            .unwrap();
        assert_eq!(quiet, 121);
        let mut r = Red::new(efig9(false), stream(3, "t", 0));
        for n in 1..crossing + quiet {
            assert!(r.offer(0, None, 6240, 6, 1040), "arrival {n}");
            assert_eq!(r.dropping, n >= crossing, "arrival {n}");
            assert!((r.average() - avg(n)).abs() < 1e-6);
        }
        assert_eq!(r.count, quiet as u64);
        assert!(!r.offer(0, None, 10_000, 9, 1040));
        assert_eq!((r.count, r.count_bytes), (0, 0));
    }

    /// With the average held at 7000 B (p_b = 0.05), RED's uniform spacing
    /// makes the gap X between drops (in packets of 1000 B) uniform over
    /// 1/p_b .. 2/p_b (Floyd-Jacobson Sec 7): the hazard at count 20 + j is
    /// 0.05 / (1 - 0.05 j) = 1 / (20 - j), so gaps are uniform over 20..=39
    /// packets, mean 29.5.
    #[test]
    fn drops_are_spaced_about_one_and_a_half_over_p() {
        let mut cfg = efig9(false);
        cfg.w_q = 1e-12; // freeze the average
        let mut r = Red::new(cfg, stream(5, "t", 0));
        r.avg = 7000.0;
        r.dropping = true;
        let mut gaps = vec![];
        let mut since = 0;
        for _ in 0..200_000 {
            since += 1;
            if !r.offer(0, None, 7000, 7, 1000) {
                gaps.push(since);
                since = 0;
            }
        }
        let mean = gaps.iter().sum::<u64>() as f64 / gaps.len() as f64;
        assert!(gaps.iter().all(|&g| (20..=39).contains(&g)), "{:?}", &gaps[..10]);
        assert!((mean - 29.5).abs() < 0.3, "{mean}");
    }
}
