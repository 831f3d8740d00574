//! The retransmission timer as ns-2's `TcpAgent` computes it (`rtt_update`,
//! `rtt_timeout`, `rtt_backoff` in tcp/tcp.cc, with `rfc2988_ true`).
//!
//! RTT samples are taken in clock ticks (`tcpTick_`, 10 ms by default) of a
//! clock with a random phase per agent (`boot_time_`), so a sample counts
//! the tick boundaries crossed between send and ACK. The smoothed RTT and
//! variance are kept in fixed point as in BSD (srtt with 3 fraction bits,
//! rttvar with 2), and
//!
//!   RTO = max(min_rto, (srtt + 4 rttvar)) * backoff, capped at max_rto,
//!
//! with at least two ticks. One packet per window is timed (Karn: none
//! that was retransmitted); backoff doubles per timeout and resets when a
//! timed packet is acknowledged. After more than 3 back-offs the srtt is
//! folded into rttvar and forgotten, so the next sample restarts the filter.

use crate::sim::Time;

/// ns-2 `rttvar_init_`: 12 s, only ever used by the back-off fold.
const RTTVAR_INIT_NS: Time = 12_000_000_000;
const SRTT_BITS: u32 = 3;
const RTTVAR_BITS: u32 = 2;
/// ns-2 `rttvar_exp_`: RTO = srtt + 2^2 rttvar.
const RTTVAR_EXP: u32 = 2;

#[derive(Debug, Clone)]
pub struct RttEstimator {
    tick: Time,
    /// Phase of this agent's tick clock, in [0, tick).
    boot: Time,
    min_rto: Time,
    max_rto: Time,
    /// Smoothed RTT in ticks << SRTT_BITS; 0 means no sample yet.
    srtt: i64,
    /// RTT variance in ticks << RTTVAR_BITS.
    rttvar: i64,
    /// srtt + 4 rttvar, ns.
    rtxcur: Time,
    backoff: u64,
    /// The last sample, whole ticks, ns (ns-2 `t_rtt_ * tcp_tick_`; 0 before one).
    last: Time,
}

impl RttEstimator {
    pub fn new(tick: Time, boot: Time, min_rto: Time, max_rto: Time, initial_rto: Time) -> Self {
        RttEstimator {
            tick,
            boot,
            min_rto,
            max_rto,
            srtt: 0,
            rttvar: ((RTTVAR_INIT_NS / tick) as i64) << RTTVAR_BITS,
            rtxcur: initial_rto,
            backoff: 1,
            last: 0,
        }
    }

    /// A timed packet sent at `sent` was acknowledged at `now`: update the
    /// estimate and end any back-off (ns-2 `newack`).
    pub fn sample(&mut self, sent: Time, now: Time) {
        self.update(sent, now);
        self.backoff = 1;
    }

    /// Update the estimate with a packet sent at `sent` and acknowledged at
    /// `now`, leaving the back-off alone (ns-2 `rtt_update`).
    pub fn update(&mut self, sent: Time, now: Time) {
        let ticks = ((now + self.boot) / self.tick - (sent + self.boot) / self.tick).max(1) as i64;
        self.last = ticks as Time * self.tick;
        if self.srtt != 0 {
            let mut delta = ticks - (self.srtt >> SRTT_BITS);
            self.srtt += delta;
            if self.srtt <= 0 {
                self.srtt = 1;
            }
            delta = delta.abs() - (self.rttvar >> RTTVAR_BITS);
            self.rttvar += delta;
            if self.rttvar <= 0 {
                self.rttvar = 1;
            }
        } else {
            self.srtt = ticks << SRTT_BITS;
            self.rttvar = ticks << (RTTVAR_BITS - 1);
        }
        let scaled = (self.rttvar << (RTTVAR_EXP + SRTT_BITS - RTTVAR_BITS)) + self.srtt;
        self.rtxcur = (scaled >> SRTT_BITS) as Time * self.tick;
    }

    /// The current retransmission timeout.
    pub fn rto(&self) -> Time {
        let base = self.rtxcur.max(self.min_rto);
        (base * self.backoff).min(self.max_rto).max(2 * self.tick)
    }

    /// Double the timeout after it expired.
    pub fn back_off(&mut self) {
        if self.backoff < 64 || self.rto() < self.max_rto {
            self.backoff <<= 1;
        }
        if self.backoff > 8 {
            self.rttvar += self.srtt >> SRTT_BITS;
            self.srtt = 0;
        }
    }

    /// End the back-off without a sample (ns-2 NewReno on a partial ACK
    /// covering the timed packet).
    pub fn end_backoff(&mut self) {
        self.backoff = 1;
    }

    pub fn backoff(&self) -> u64 {
        self.backoff
    }

    /// The last sample in whole ticks, ns (0 before the first sample).
    pub fn last(&self) -> Time {
        self.last
    }

    /// Smoothed RTT, ns (0 before the first sample).
    pub fn srtt(&self) -> Time {
        (self.srtt >> SRTT_BITS) as Time * self.tick
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    fn ns2() -> RttEstimator {
        RttEstimator::new(10 * MS, 0, 200 * MS, 60_000 * MS, 3_000 * MS)
    }

    #[test]
    fn initial_rto_is_three_seconds() {
        assert_eq!(ns2().rto(), 3_000 * MS);
    }

    #[test]
    fn first_sample_sets_srtt_and_half_rtt_variance() {
        // 250 ms = 25 ticks: srtt 25, rttvar 12.5 -> RTO = 25 + 4*12.5 = 75 ticks.
        let mut r = ns2();
        r.sample(0, 250 * MS);
        assert_eq!(r.srtt(), 250 * MS);
        assert_eq!(r.rto(), 750 * MS);
        // A second identical sample: srtt stays 25 (200 in fixed point), rttvar
        // 50 - (50 >> 2) = 38, RTO = (38*8 + 200) >> 3 = 63 ticks.
        r.sample(1000 * MS, 1250 * MS);
        assert_eq!(r.rto(), 630 * MS);
    }

    #[test]
    fn samples_count_tick_boundaries_crossed() {
        let mut r = RttEstimator::new(10 * MS, 3 * MS, 200 * MS, 60_000 * MS, 3_000 * MS);
        // Sent at 6 ms (phase 9 ms), acked at 8 ms (phase 11 ms): one boundary crossed.
        r.sample(6 * MS, 8 * MS);
        assert_eq!((r.srtt(), r.last()), (10 * MS, 10 * MS));
        // Less than a tick without crossing still counts as one tick.
        let mut r = ns2();
        r.sample(MS, 2 * MS);
        assert_eq!(r.srtt(), 10 * MS);
    }

    #[test]
    fn back_off_doubles_caps_and_clamps_to_min_rto() {
        let mut r = ns2();
        r.sample(0, 30 * MS); // RTO below min_rto: clamped to 200 ms
        assert_eq!(r.rto(), 200 * MS);
        r.back_off();
        assert_eq!(r.rto(), 400 * MS);
        r.back_off();
        r.back_off();
        assert_eq!(r.rto(), 1_600 * MS);
        for _ in 0..20 {
            r.back_off();
        }
        assert_eq!(r.rto(), 60_000 * MS);
        // A fresh sample ends the back-off.
        r.sample(0, 250 * MS);
        assert_eq!(r.backoff(), 1);
    }
}
