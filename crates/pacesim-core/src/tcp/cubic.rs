//! CUBIC (RFC 9438) with its defaults: C = 0.4, beta_cubic = 0.7, fast
//! convergence and the Reno-friendly region, windows in packets.
//!
//! - Sec 4.2, window growth after a congestion event, with t the time since
//!   the first ACK of the avoidance epoch:
//!   "W_cubic(t) = C * (t - K)^3 + W_max" (eq. 1), where
//!   "K = cubic_root((W_max - cwnd_epoch) / C)" (eq. 2), cwnd_epoch the
//!   window when the epoch starts (W_max = cwnd_epoch, K = 0, if the window
//!   is already above W_max).
//! - Sec 4.3, Reno-friendly region: "W_est = W_est + alpha_cubic *
//!   segments_acked / cwnd" (eq. 4) with "alpha_cubic = 3 (1 - beta_cubic)
//!   / (1 + beta_cubic)"; "Once W_est has grown to reach the cwnd at the
//!   time of most recently setting ssthresh -- that is, W_est >= cwnd_prior
//!   -- the sender SHOULD set alpha_cubic to 1" (cwnd_prior: the window
//!   just before the last cut, 0 before any, so alpha is 1 then); where
//!   W_cubic(t) < W_est, cwnd follows W_est. (Linux's `tcp_cubic.c` keeps
//!   alpha at 3 (1 - beta) / (1 + beta) throughout.)
//! - Sec 4.4-4.5, concave and convex regions: target = W_cubic(t + RTT),
//!   clamped to [cwnd, 1.5 cwnd]; cwnd grows by (target - cwnd) / cwnd for
//!   each new ACK.
//! - Sec 4.6: on congestion "ssthresh = cwnd * beta_cubic", cwnd =
//!   max(ssthresh, 2) (fast retransmit) or 1 (Sec 4.8, timeout).
//! - Sec 4.7, fast convergence: "if cwnd < W_max: W_max = cwnd * (1 +
//!   beta_cubic) / 2, else W_max = cwnd".
//! - Sec 4.8, after a timeout: "During the first congestion avoidance stage
//!   after a timeout, CUBIC increases its congestion window size using
//!   Figure 1, where t is the elapsed time since the beginning of the
//!   current congestion avoidance stage, K is set to 0, and W_max is set to
//!   the congestion window size at the beginning of the current congestion
//!   avoidance stage" (Linux forgets `last_max_cwnd` on entering Loss,
//!   `bictcp_reset`, to the same effect): W_max is forgotten at the
//!   timeout, so the epoch starts with W_max = cwnd_epoch, K = 0 and W_est
//!   = cwnd_epoch.
//!
//! RTT is a smoothed RTT: an EWMA (gain 1/8) of the sender's Karn samples.
//!
//! ## HyStart (`tcp.cubic_hystart`, off by default)
//!
//! Hybrid slow start (Ha and Rhee, "Taming the Elephants: New TCP Slow
//! Start", 2008; Computer Networks 2011) as Linux's `tcp_cubic.c` runs it
//! from 6.14 on (and in the stable kernels given "tcp_cubic: fix incorrect
//! HyStart round start detection", January 2025): microsecond RTTs and the
//! ACK train's threshold from `delay_min` and the pacing rate (Eric
//! Dumazet's rework, 5.7 on), rounds started on every slow-start sample
//! whatever the window. How rounds started before: 4.x to 5.15 tested the
//! round's end in `bictcp_cong_avoid`, on every slow-start ACK; 5.16 to
//! 6.13 moved the test into `hystart_update`, behind the low-window test,
//! so that no round started below cwnd 16 and the first one began
//! mid-flight. Before 5.7 the clock counted milliseconds and RTTs eighths
//! of one, the ACK train waited `delay_min / 2` with no cushion, and the
//! delay test took the least of only the round's first eight samples.
//! Each ACK's RTT sample is the rate sampler's (`tcp::rate`: now less the
//! send time of the newest packet it delivers that was never
//! retransmitted, Linux's `ca_rtt_us`), in ns.
//!
//! - The handshake: Linux's CUBIC starts once it is over (`cubictcp_init`
//!   from `tcp_finish_connect`, after the SYN-ACK was taken), so with
//!   `tcp.syn` the SYN's ACK gives no sample; it starts the first round
//!   (`bictcp_hystart_reset` in `cubictcp_init`), which the first ACK of
//!   data ends. Without a SYN the first ACK is data's. A SYN's RTT (40 B
//!   packets) is below any data packet's, so taking it would set a
//!   `delay_min` that no data RTT reaches.
//! - `delay_min`: the least sample, skipping those within 1 s of the start
//!   of an avoidance epoch ("Discard delay samples right after fast
//!   recovery"); forgotten at a timeout (`bictcp_reset` on entering Loss).
//! - A sample in slow start with no exit found yet runs `hystart_update`:
//! - Rounds keyed on `end_seq`, whatever the window: once the ACK passes
//!   `end_seq` (Linux `after(snd_una, end_seq)`; here ackno >= end_seq, the
//!   first packet sent after the round began), a new round starts:
//!   `round_start = last_ack = now`, `end_seq = snd_nxt`, the round's least
//!   RTT and its sample count cleared (`bictcp_hystart_reset`; also at a
//!   timeout). Below `hystart_low_window` (16 packets) nothing more: the
//!   detectors run from cwnd 16 (an ACK below it does not extend the train).
//! - ACK train: an ACK within `hystart_ack_delta_us` (2 ms) of the train's
//!   last extends it (`last_ack = now`); once the train reaches more than
//!   `delay_min + hystart_ack_delay` past `round_start`, halved for a flow
//!   Linux does not pace (`sk_pacing_status == SK_PACING_NONE`: "Pacing
//!   might have delayed packets up to RTT/2 during slow start"), exit.
//!   Linux counts a flow as paced only under its own pacing, fq's or TCP's
//!   internal, both at `tcp_update_pacing_rate`'s rate (below), and that is
//!   pacesim's host pacing with `host_mode = "rate"` (`pacing.scheme =
//!   "host"`, the flow among the paced ones) and nothing else: host pacing
//!   by "original" (RTT / cwnd) or "modified" (paper W eq. 7), by paper W's
//!   pacer or Wei's, are ns-2-era pacers that Linux's TCP would not know of,
//!   and edge pacing and QLBP pace in the network, so each of these flows
//!   takes the halved threshold (`Common::linux_paced`).
//! - `hystart_ack_delay`, a cushion for TSO/GRO bursts: the time 4
//!   `GSO_MAX_SIZE` bursts (65,536 B each; `sk_gso_max_size` in later
//!   kernels, the same without BIG TCP) take at the flow's pacing rate, at
//!   most 1 ms. Linux computes a pacing rate for every flow, paced or not
//!   (`tcp_update_pacing_rate`, at the end of each ACK): `mss * max(cwnd,
//!   packets_out) / srtt`, times `tcp_pacing_ss_ratio` (200 %) while cwnd
//!   < ssthresh / 2, else `tcp_pacing_ca_ratio` (120 %). Here mss is
//!   `tcp.segment_size`, cwnd the window before this ACK grows it (the
//!   previous ACK's, as in Linux), packets_out the packets in flight before
//!   the ACK, srtt the smoothed RTT (ns-2's one timed packet a round, gain
//!   1/8), or this sample before the first (Linux has the handshake's).
//!   The cushion is 1 ms unless the pacing rate passes 4 x 65,536 B a ms
//!   (2.1 Gb/s: a flow at 1.05 Gb/s in slow start).
//! - Delay increase: the round's least RTT (`curr_rtt`) over its samples;
//!   from the ninth sample of the round on (`HYSTART_MIN_SAMPLES` 8 taken
//!   first), exit if `curr_rtt > delay_min + clamp(delay_min / 8, 4 ms,
//!   16 ms)` (`HYSTART_DELAY_THRESH`).
//! - Exit: `ssthresh = cwnd` (the same ACK then grows the window by
//!   congestion avoidance: `pkts_acked` runs before `cong_avoid`), and no
//!   detector runs again until a timeout re-arms them (`found`, cleared by
//!   `bictcp_reset`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::algorithm::{Algorithm, Common};
use super::cc::{Congestion, CongestionControl, Window};
use super::rate::{RateControl, RateSample};
use super::recovery::Recovery;
use crate::sim::rng::Stream;
use crate::sim::time::secs;
use crate::sim::Time;

const C: f64 = 0.4;
const BETA: f64 = 0.7;

/// CUBIC's knobs as a scenario gives them, in `[tcp]` (`tcp.cubic_hystart`, `tcp.cubic_rfc6675`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
pub struct CubicSpec {
    /// CUBIC: leave slow start early by HyStart's ACK-train and delay
    /// detectors, as Linux's `tcp_cubic.c` (6.14 on) runs them (its default
    /// there), on RTTs of data ACKs only (not the SYN's); off, slow start
    /// lasts to the first loss (RFC 9438). The ACK train waits half as long
    /// for a flow Linux does not pace; Linux paces a flow only by its own
    /// pacing (fq or TCP's internal), which is host pacing with `host_mode
    /// = "rate"`: other host modes, edge pacing and QLBP count as unpaced.
    #[serde(rename = "cubic_hystart", default)]
    pub hystart: bool,
    /// CUBIC: recover by RFC 6675 as Linux runs it, SACK kept through a
    /// timeout, lost retransmissions found by RACK and what is sent in
    /// recovery bounded by PRR (RFC 6937) (`tcp/recovery/rfc6675.rs`,
    /// BBR's, which sets its own window); off, by ns-2's Sack1.
    #[serde(rename = "cubic_rfc6675", default)]
    pub rfc6675: bool,
}

/// CUBIC recovers with SACK, as Linux (and ns-2's Agent/TCP/Linux) does:
/// ns-2's Sack1, or RFC 6675 as Linux's (`cubic_rfc6675`).
impl Algorithm for CubicSpec {
    fn build(&self, common: Common, _: impl FnOnce() -> Stream) -> (Box<dyn CongestionControl>, Recovery) {
        let hystart = HyStart::new(common.linux_paced, common.segment_size, common.syn);
        let cubic = Cubic { hystart: self.hystart.then_some(hystart), ..Cubic::default() };
        let recovery = if self.rfc6675 { Recovery::rfc6675() } else { Recovery::sack() };
        (Box::new(cubic), recovery)
    }
}

const US: Time = 1_000;
const MS: Time = 1_000_000;
/// No detector runs below this window, packets (Linux `hystart_low_window`).
const LOW_WINDOW: f64 = 16.0;
/// Largest gap between two ACKs of one train (Linux `hystart_ack_delta_us`).
const ACK_DELTA: Time = 2 * MS;
/// Samples a round takes before its delay is judged (`HYSTART_MIN_SAMPLES`).
const MIN_SAMPLES: u32 = 8;
/// Bounds of the delay threshold (`HYSTART_DELAY_MIN`, `HYSTART_DELAY_MAX`).
const DELAY_THRESH: (Time, Time) = (4 * MS, 16 * MS);
/// Samples within this time of an epoch's start are skipped (Linux `HZ`, 1 s).
const AFTER_EPOCH: Time = 1_000 * MS;
/// Largest TSO burst, bytes (Linux `GSO_MAX_SIZE` as `hystart_ack_delay` took it).
const GSO_MAX_SIZE: f64 = 65_536.0;
/// Linux's pacing rate over the flow's rate (`tcp_pacing_ss_ratio`, 200 %,
/// while cwnd < ssthresh / 2; else `tcp_pacing_ca_ratio`, 120 %).
const PACING_RATIO: (f64, f64) = (2.0, 1.2);

/// HyStart's state (Linux `struct bictcp`'s HyStart fields), times in ns.
#[derive(Debug)]
struct HyStart {
    /// Whether Linux would count the flow as paced (`sk_pacing_status` not
    /// `SK_PACING_NONE`): its host paces it at Linux's rate (`Common::linux_paced`).
    paced: bool,
    /// Payload per segment, bytes (Linux `mss_cache`).
    mss: f64,
    /// Whether the next ACK is the handshake's (the SYN's; Linux's CUBIC
    /// starts after it, `cubictcp_init` from `tcp_finish_connect`).
    handshake: bool,
    /// Whether a detector has ended slow start (`found`).
    found: bool,
    /// Least RTT sample (`delay_min`; None: none since the start or a timeout).
    delay_min: Option<Time>,
    /// When the round began, and the last ACK of its train.
    round_start: Time,
    last_ack: Time,
    /// The round ends once an ACK reaches this sequence number; None after
    /// a timeout, until the next ACK gives `snd_nxt` (nothing new is sent
    /// between: the sender is retransmitting below it).
    end_seq: Option<i64>,
    /// The round's least RTT (`curr_rtt`), and its samples (`sample_cnt`).
    curr_rtt: Option<Time>,
    samples: u32,
}

impl HyStart {
    /// Before any ACK, for a flow Linux would count as `paced` or not, `mss`
    /// bytes a segment, opened by a SYN or not (`syn`): Linux's first round
    /// ends at the first ACK of data (its `end_seq` the first data byte,
    /// `snd_nxt` once the connection opens), so the first data sample starts
    /// a round of its own.
    fn new(paced: bool, mss: u64, syn: bool) -> Self {
        HyStart {
            paced,
            mss: mss as f64,
            handshake: syn,
            found: false,
            delay_min: None,
            round_start: 0,
            last_ack: 0,
            end_seq: Some(-1),
            curr_rtt: None,
            samples: 0,
        }
    }

    /// A new round from `now` (`bictcp_hystart_reset`).
    fn new_round(&mut self, now: Time, end_seq: Option<i64>) {
        self.round_start = now;
        self.last_ack = now;
        self.end_seq = end_seq;
        self.curr_rtt = None;
        self.samples = 0;
    }

    /// Linux's `hystart_ack_delay`, ns: 4 GSO bursts at the flow's pacing
    /// rate, at most 1 ms. The rate is `tcp_update_pacing_rate`'s, bytes/s,
    /// from window `w` (before this ACK grows it), `in_flight` packets and
    /// smoothed RTT `srtt` s (`delay` ns before the first).
    fn ack_delay(&self, w: &Window, in_flight: u64, srtt: f64, delay: Time) -> Time {
        let ratio = if w.cwnd < w.ssthresh / 2.0 { PACING_RATIO.0 } else { PACING_RATIO.1 };
        let srtt = if srtt > 0.0 { srtt } else { secs(delay) };
        let rate = ratio * self.mss * w.cwnd.max(in_flight as f64) / srtt;
        ((4.0 * GSO_MAX_SIZE / rate * 1e9) as Time).min(MS)
    }

    /// One RTT sample `delay` of an ACK in slow start, `delay_min` the least
    /// so far, `srtt` the smoothed RTT (s) (`hystart_update`): true if a
    /// detector ends slow start.
    fn update(
        &mut self,
        delay: Time,
        delay_min: Time,
        w: &Window,
        srtt: f64,
        rs: &RateSample,
        now: Time,
    ) -> bool {
        if self.end_seq.is_none_or(|end| rs.ackno >= end) {
            self.new_round(now, Some(rs.snd_nxt));
        }
        if w.cwnd < LOW_WINDOW {
            return false;
        }
        // ACK train: past delay_min plus the cushion, halved unpaced ("Hystart
        // ack train triggers if we get ack past ca->delay_min/2").
        if now - self.last_ack <= ACK_DELTA {
            self.last_ack = now;
            let threshold = delay_min + self.ack_delay(w, rs.prior_in_flight, srtt, delay);
            if now - self.round_start > if self.paced { threshold } else { threshold / 2 } {
                self.found = true;
            }
        }
        // Delay increase: the round's least RTT above delay_min + clamp(delay_min / 8, 4 ms, 16 ms).
        let curr = *self.curr_rtt.insert(self.curr_rtt.map_or(delay, |c| c.min(delay)));
        if self.samples < MIN_SAMPLES {
            self.samples += 1;
        } else if curr > delay_min + (delay_min / 8).clamp(DELAY_THRESH.0, DELAY_THRESH.1) {
            self.found = true;
        }
        self.found
    }
}

#[derive(Debug, Default)]
pub struct Cubic {
    w_max: f64,
    /// Start of the current avoidance epoch and its K, once it began.
    epoch: Option<(Time, f64)>,
    w_est: f64,
    /// The window just before the last cut, packets (RFC 9438's
    /// cwnd_prior; 0 before any).
    cwnd_prior: f64,
    /// Smoothed RTT, s (0 before any sample).
    srtt: f64,
    /// HyStart, if on.
    hystart: Option<HyStart>,
}

impl Cubic {
    /// RFC 9438 eq. 1 at `t` seconds into the epoch.
    pub fn w_cubic(&self, t: f64, k: f64) -> f64 {
        // "W_cubic(t) = C * (t - K)^3 + W_max"
        C * (t - k).powi(3) + self.w_max
    }

    /// Eq. 2, for an epoch starting at window `cwnd_epoch`.
    pub fn k(&self, cwnd_epoch: f64) -> f64 {
        // "K = cubic_root((W_max - cwnd_epoch) / C)"
        ((self.w_max - cwnd_epoch).max(0.0) / C).cbrt()
    }
}

impl CongestionControl for Cubic {
    fn name(&self) -> &'static str {
        "cubic"
    }

    fn on_ack(&mut self, w: &mut Window, now: Time) {
        if w.in_slow_start() {
            w.slow_start();
            return;
        }
        let (start, k) = match self.epoch {
            Some(epoch) => epoch,
            None => {
                self.w_max = self.w_max.max(w.cwnd);
                self.w_est = w.cwnd;
                *self.epoch.insert((now, self.k(w.cwnd)))
            }
        };
        // "alpha_cubic = 3 * (1 - beta_cubic) / (1 + beta_cubic)", 1 once W_est >= cwnd_prior (Sec 4.3).
        let alpha = if self.w_est >= self.cwnd_prior { 1.0 } else { 3.0 * (1.0 - BETA) / (1.0 + BETA) };
        // "W_est = W_est + alpha_cubic * segments_acked / cwnd" (eq. 4)
        self.w_est += alpha / w.cwnd;
        let t = secs(now - start);
        if self.w_cubic(t, k) < self.w_est {
            w.cwnd = self.w_est;
            return;
        }
        // target = W_cubic(t + RTT), within [cwnd, 1.5 cwnd] (Sec 4.2); cwnd
        // grows by (target - cwnd) / cwnd per new ACK (Sec 4.4-4.5).
        let target = self.w_cubic(t + self.srtt, k).clamp(w.cwnd, 1.5 * w.cwnd);
        w.cwnd += (target - w.cwnd) / w.cwnd;
    }

    fn on_congestion(&mut self, w: &mut Window, flight: f64, event: Congestion, now: Time) {
        let cwnd = flight;
        self.cwnd_prior = cwnd;
        // Fast convergence (Sec 4.7): "W_max = cwnd * (1 + beta_cubic) / 2" if cwnd < W_max.
        self.w_max = if cwnd < self.w_max { cwnd * (1.0 + BETA) / 2.0 } else { cwnd };
        self.epoch = None;
        // "ssthresh = cwnd * beta_cubic" (Sec 4.6)
        w.ssthresh = (cwnd * BETA).max(2.0);
        w.cwnd = match event {
            Congestion::FastRetransmit => w.ssthresh,
            Congestion::Timeout => {
                // Sec 4.8: the next epoch takes W_max from its own start (K = 0).
                self.w_max = 0.0;
                // Linux on entering Loss: `bictcp_reset` (found, delay_min) and a new round.
                if let Some(h) = self.hystart.as_mut() {
                    (h.found, h.delay_min) = (false, None);
                    h.new_round(now, None);
                }
                1.0
            }
        };
    }

    fn wants_rate_samples(&self) -> bool {
        self.hystart.is_some()
    }

    /// HyStart's RTT sample (Linux `bictcp_acked`, before `cong_avoid`).
    fn on_rate_sample(&mut self, w: &mut Window, _: &mut RateControl, rs: &RateSample, now: Time) {
        let Some(h) = self.hystart.as_mut() else { return };
        if std::mem::take(&mut h.handshake) {
            // The SYN's ACK: Linux's CUBIC starts here (`cubictcp_init`: no
            // delay_min, a round to end at the first data packet, snd_nxt
            // now), so its RTT, the SYN's, is no sample.
            h.new_round(now, Some(rs.snd_nxt));
            return;
        }
        if h.end_seq.is_none() {
            h.end_seq = Some(rs.snd_nxt);
        }
        let Some(rtt) = rs.rtt else { return };
        // "Discard delay samples right after fast recovery"
        if self.epoch.is_some_and(|(start, _)| now - start < AFTER_EPOCH) {
            return;
        }
        let delay = rtt.max(US);
        let delay_min = *h.delay_min.insert(h.delay_min.map_or(delay, |d| d.min(delay)));
        if !h.found && w.in_slow_start() && h.update(delay, delay_min, w, self.srtt, rs, now) {
            w.ssthresh = w.cwnd;
        }
    }

    fn on_rtt(&mut self, _w: &mut Window, rtt: Time, _now: Time) {
        let sample = secs(rtt);
        self.srtt = if self.srtt == 0.0 { sample } else { 0.875 * self.srtt + 0.125 * sample };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// CUBIC with HyStart for a flow Linux does not pace, 1000 B segments.
    fn unpaced() -> Cubic {
        Cubic { hystart: Some(HyStart::new(false, 1000, false)), ..Cubic::default() }
    }

    /// CUBIC with HyStart (the flow `paced` by Linux or not, 1000 B segments), in slow
    /// start at cwnd 16 (ssthresh 1e9), its delay_min `delay_min` from one
    /// sample at 0 (cwnd 10, below the low window; the ACK of packet 0 with
    /// 1 sent, which starts a round to end at the ACK of 1). No smoothed
    /// RTT: the cushion takes each sample's RTT.
    fn hystart_paced(delay_min: Time, paced: bool) -> (Cubic, Window) {
        let mut c = Cubic { hystart: Some(HyStart::new(paced, 1000, false)), ..Cubic::default() };
        let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
        c.on_rate_sample(&mut w, &mut RateControl::default(), &ack(0, 1, delay_min), 0);
        w.cwnd = LOW_WINDOW;
        (c, w)
    }

    fn hystart(delay_min: Time) -> (Cubic, Window) {
        hystart_paced(delay_min, false)
    }

    /// The rate sample of the ACK of `ackno`, `snd_nxt` sent, RTT `rtt`.
    fn ack(ackno: i64, snd_nxt: i64, rtt: Time) -> RateSample {
        RateSample { ackno, snd_nxt, rtt: Some(rtt), ..RateSample::default() }
    }

    /// One ACK as the sender gives it: its rate sample, then its growth.
    fn on_ack(c: &mut Cubic, w: &mut Window, rs: &RateSample, now: Time) {
        c.on_rate_sample(w, &mut RateControl::default(), rs, now);
        c.on_ack(w, now);
    }

    /// ACK train: delay_min 40 ms, every RTT 40 ms (no delay increase).
    /// From cwnd 16 an ACK every `gap`: the first ACK at 100 ms starts a
    /// round (it passes end_seq 1); each ACK within 2 ms of the last extends
    /// the train, and the first more than delay_min + 1 ms past the round's
    /// start, half that unpaced, exits with ssthresh = cwnd. The cushion is
    /// 1 ms: the pacing rate, 2 x 1000 B x cwnd / 40 ms, is at most 10.8
    /// MB/s (cwnd <= 216), and 4 x 65,536 B at it take 24 ms or more.
    /// Unpaced (past 20.5 ms): at 250 us gaps the 83rd ACK after the first
    /// (20.75 ms; cwnd 16 + 83 = 99; 97 at 20.25 ms without the cushion),
    /// at 1 ms the 21st (cwnd 37), at 2 ms the 11th (22 ms; cwnd 27).
    /// Paced (past 41 ms): the 165th at 250 us (41.25 ms; cwnd 181), the
    /// 42nd at 1 ms (cwnd 58), the 21st at 2 ms (cwnd 37). At 3 ms no ACK
    /// extends the train: slow start goes on (200 ACKs, cwnd 216).
    #[test]
    fn hystart_ack_train_exits_past_delay_min_and_a_cushion_halved_unpaced() {
        let us = |n: Time| n * US;
        for (paced, gap, exit) in [
            (false, us(250), Some(99.0)),
            (false, MS, Some(37.0)),
            (false, 2 * MS, Some(27.0)),
            (false, 3 * MS, None),
            (true, us(250), Some(181.0)),
            (true, MS, Some(58.0)),
            (true, 2 * MS, Some(37.0)),
            (true, 3 * MS, None),
        ] {
            let (mut c, mut w) = hystart_paced(40 * MS, paced);
            let mut found = None;
            for k in 0..200 {
                let now = 100 * MS + k * gap;
                on_ack(&mut c, &mut w, &ack(1 + k as i64, 1000, 40 * MS), now);
                if found.is_none() && w.ssthresh < 1e9 {
                    found = Some(w.ssthresh);
                }
            }
            assert_eq!(found, exit, "paced {paced}, gap {gap} ns");
            if exit.is_none() {
                assert_eq!(w.cwnd, 216.0);
            }
        }
    }

    /// The cushion below its 1 ms cap (Linux `hystart_ack_delay`): delay_min
    /// and smoothed RTT 1 ms, from cwnd 200 an ACK every 10 us from 100 ms.
    /// At the n-th ACK after the first cwnd is 200 + n, the pacing rate 2 x
    /// 1000 B x (200 + n) / 1 ms, and 4 x 65,536 B take 131,072 us /
    /// (200 + n) at it (655 us at n = 0). Paced, the train exits once 10 n
    /// us > 1000 + 131,072 / (200 + n) us: n = 139 (1390 > 1386.6; at 138,
    /// 1380 < 1387.8), ssthresh 339; unpaced, once 10 n > (1000 + 131,072 /
    /// (200 + n)) / 2: n = 74 (740 > 739.2; at 73, 730 < 740.1), ssthresh 274.
    /// With the cap alone they would be 301 and 401, with no cushion 251
    /// and 301.
    #[test]
    fn hystart_cushion_is_four_gso_bursts_at_the_pacing_rate() {
        for (paced, exit) in [(true, 339.0), (false, 274.0)] {
            let (mut c, mut w) = hystart_paced(MS, paced);
            c.on_rtt(&mut w, MS, 0);
            w.cwnd = 200.0;
            let mut found = None;
            for k in 0..300 {
                on_ack(&mut c, &mut w, &ack(1 + k, 100_000, MS), 100 * MS + k as Time * 10 * US);
                if found.is_none() && w.ssthresh < 1e9 {
                    found = Some(w.ssthresh);
                }
            }
            assert_eq!(found, Some(exit), "paced {paced}");
        }
    }

    /// Rounds start below the low window (Linux 6.14, "tcp_cubic: fix
    /// incorrect HyStart round start detection"): delay_min 40 ms, RTTs 40
    /// ms, from cwnd 10 ACKs 1 ms apart from 100 ms, the first of them
    /// (cwnd 10) starting a round to end at the ACK of 40. ACKs below cwnd
    /// 16 extend no train, so the round's train is broken by the 7th ACK
    /// (cwnd 16, 6 ms after the round's start); the ACK of 40 (139 ms, cwnd
    /// 49) starts the next round, whose train passes (40 + 1) / 2 ms at its
    /// 21st ACK after it: cwnd 49 + 21 = 70. Had rounds waited for cwnd 16
    /// (Linux 5.16-6.13), the round would begin at the 7th ACK, mid-flight,
    /// and exit at its 21st after: cwnd 37.
    #[test]
    fn hystart_rounds_start_below_the_low_window() {
        let (mut c, mut w) = hystart(40 * MS);
        w.cwnd = 10.0;
        let mut found = None;
        for k in 1..=100 {
            let snd_nxt = if k < 40 { 40 } else { 1000 };
            on_ack(&mut c, &mut w, &ack(k, snd_nxt, 40 * MS), 100 * MS + (k - 1) as Time * MS);
            if found.is_none() && w.ssthresh < 1e9 {
                found = Some(w.ssthresh);
            }
        }
        assert_eq!(found, Some(70.0));
    }

    /// With an initial window above the low window the detectors run from
    /// the first ACK, and it starts a round (Linux's first round ends at the
    /// first ACK of data): 40 packets sent, ACKs 1 ms apart from 100 ms, each
    /// sending two more, RTT 40 ms. The train passes (delay_min + 1 ms) / 2
    /// = 20.5 ms at the 21st ACK after the first, inside the round of the 40
    /// (cwnd 40 + 21 = 61); had the first round begun before the first ACK, no ACK
    /// of it would extend the train and the exit would come a round later.
    #[test]
    fn hystart_runs_from_the_first_ack_above_the_low_window() {
        let mut c = unpaced();
        let mut w = Window { cwnd: 40.0, ssthresh: 1e9 };
        let mut found = None;
        for k in 0..100 {
            on_ack(&mut c, &mut w, &ack(k, 40 + 2 * k, 40 * MS), 100 * MS + k as Time * MS);
            if found.is_none() && w.ssthresh < 1e9 {
                found = Some(w.ssthresh);
            }
        }
        assert_eq!(found, Some(61.0));
    }

    /// With a SYN the first ACK is the handshake's, and Linux's CUBIC starts
    /// after it (`cubictcp_init`): its RTT (21 ms) is no sample, and it
    /// starts the round that the first data ACK ends (end_seq 1, the first
    /// data packet), so delay_min is the data ACK's 33 ms, and that ACK
    /// (snd_nxt 17) starts a round at 54 ms to end at 17. Without a SYN the
    /// first ACK is data's: delay_min 21 ms.
    #[test]
    fn hystart_takes_no_sample_from_the_syns_ack() {
        for (syn, delay_min) in [(true, 33 * MS), (false, 21 * MS)] {
            let mut c = Cubic { hystart: Some(HyStart::new(false, 1000, syn)), ..Cubic::default() };
            let mut w = Window { cwnd: 1.0, ssthresh: 1e9 };
            c.on_rate_sample(&mut w, &mut RateControl::default(), &ack(0, 1, 21 * MS), 21 * MS);
            if syn {
                assert_eq!(c.hystart.as_ref().unwrap().delay_min, None);
            }
            c.on_rate_sample(&mut w, &mut RateControl::default(), &ack(1, 17, 33 * MS), 54 * MS);
            let h = c.hystart.as_ref().unwrap();
            assert_eq!(
                (h.delay_min, h.end_seq, h.round_start),
                (Some(delay_min), Some(17), 54 * MS),
                "syn {syn}"
            );
        }
    }

    /// Delay increase: from cwnd 16, ACKs 5 ms apart (no train) with RTT
    /// `delay_min + threshold + 1 ns` exit on the ninth sample of the
    /// round, 8 taken first: ssthresh = cwnd = 16 + 8 = 24. The threshold
    /// is delay_min / 8 within [4, 16] ms: 4 ms at delay_min 10 ms (1.25 ms
    /// clamped up), 5 ms at 40 ms, 16 ms at 200 ms (25 ms clamped down). An
    /// RTT at the threshold itself never exits (100 ACKs in one round).
    #[test]
    fn hystart_delay_increase_exits_after_eight_samples() {
        for (delay_min, threshold) in [(10 * MS, 4 * MS), (40 * MS, 5 * MS), (200 * MS, 16 * MS)] {
            for (rtt, exit) in [(delay_min + threshold + 1, Some(24.0)), (delay_min + threshold, None)] {
                let (mut c, mut w) = hystart(delay_min);
                let mut found = None;
                for k in 0..100 {
                    on_ack(&mut c, &mut w, &ack(1 + k as i64, 1000, rtt), 1000 * MS + k * 5 * MS);
                    if found.is_none() && w.ssthresh < 1e9 {
                        found = Some(w.ssthresh);
                    }
                }
                assert_eq!(found, exit, "delay_min {delay_min}, RTT {rtt}");
            }
        }
    }

    /// Rounds keyed on end_seq: the round's least RTT is cleared when an
    /// ACK passes end_seq (the snd_nxt its round began with). delay_min 40
    /// ms, ACKs 5 ms apart (no train); the first round (from the ACK of 1,
    /// end_seq 20: ACKs 1-19) has one sample at 40 ms among 46 ms ones, so
    /// its least RTT stays 40 ms and it never exits; the ACK of 20 starts
    /// the next round (end_seq 1000), all 46 ms: its ninth sample, the ACK
    /// of 28, exits at cwnd 16 + 27 = 43. Below the low window (cwnd 15,
    /// held there) the same ACKs never exit.
    #[test]
    fn hystart_rounds_end_at_end_seq_and_wait_for_the_low_window() {
        for (cwnd, exit) in [(LOW_WINDOW, Some(43.0)), (LOW_WINDOW - 1.0, None)] {
            let (mut c, mut w) = hystart(40 * MS);
            w.cwnd = cwnd;
            let mut found = None;
            for k in 1..=40 {
                let snd_nxt = if k < 20 { 20 } else { 1000 };
                let rtt = if k == 5 { 40 * MS } else { 46 * MS };
                let rs = ack(k, snd_nxt, rtt);
                if cwnd < LOW_WINDOW {
                    // Held below the low window: the sample alone, no growth.
                    c.on_rate_sample(&mut w, &mut RateControl::default(), &rs, k as Time * 5 * MS);
                } else {
                    on_ack(&mut c, &mut w, &rs, k as Time * 5 * MS);
                }
                if found.is_none() && w.ssthresh < 1e9 {
                    found = Some(w.ssthresh);
                }
            }
            assert_eq!(found, exit, "cwnd {cwnd}");
        }
    }

    /// The knob: off, CUBIC takes no rate samples (slow start runs to a
    /// loss, as before); on, it asks for them. A timeout re-arms HyStart
    /// with delay_min forgotten (Linux `bictcp_reset` on entering Loss):
    /// after an exit (delay_min 40 ms, RTTs 100 ms: the ninth sample, cwnd
    /// 24) and a timeout at cwnd 100, the first ACK's RTT of 60 ms is the
    /// new delay_min, so the threshold is 60 + 7.5 ms: back at cwnd 16,
    /// RTTs of 66 ms never exit (they would against the old 40 + 5 ms),
    /// 68 ms exit on the new round's ninth sample (cwnd 24 again).
    #[test]
    fn hystart_is_off_by_default_and_a_timeout_rearms_it() {
        let common = Common { segment_size: 1000, initial_window: 2, syn: true, linux_paced: false };
        let off = CubicSpec::default().build(common, || unreachable!("CUBIC draws nothing")).0;
        let on = CubicSpec { hystart: true, ..CubicSpec::default() }
            .build(common, || unreachable!("CUBIC draws nothing"))
            .0;
        assert_eq!((off.wants_rate_samples(), on.wants_rate_samples()), (false, true));
        for (rtt, exit) in [(66 * MS, None), (68 * MS, Some(24.0))] {
            let (mut c, mut w) = hystart(40 * MS);
            for k in 0..30 {
                on_ack(&mut c, &mut w, &ack(1 + k, 1000, 100 * MS), 100 * MS + k as Time * 5 * MS);
            }
            assert_eq!(w.ssthresh, 24.0);
            w.cwnd = 100.0;
            c.on_congestion(&mut w, 100.0, Congestion::Timeout, 2000 * MS);
            assert_eq!((w.cwnd, w.ssthresh), (1.0, 70.0));
            let h = c.hystart.as_ref().unwrap();
            assert_eq!((h.found, h.delay_min, h.end_seq, h.round_start), (false, None, None, 2000 * MS));
            // The first ACK after the timeout sets end_seq to snd_nxt (1000).
            c.on_rate_sample(&mut w, &mut RateControl::default(), &ack(40, 1000, 60 * MS), 2100 * MS);
            let h = c.hystart.as_ref().unwrap();
            assert_eq!((h.end_seq, h.delay_min), (Some(1000), Some(60 * MS)));
            w.cwnd = LOW_WINDOW;
            let mut found = None;
            for k in 0..40 {
                on_ack(&mut c, &mut w, &ack(1000 + k, 2000, rtt), 2200 * MS + k as Time * 5 * MS);
                if found.is_none() && w.ssthresh < 70.0 {
                    found = Some(w.ssthresh);
                }
            }
            assert_eq!(found, exit, "RTT {rtt}");
        }
    }

    /// A loss at W = 1000 gives cwnd 700 and K = cbrt(300 / 0.4) = 9.09 s.
    /// ACKs then arrive one per packet over each 100 ms RTT; the window at
    /// time t is C (t - K)^3 + W_max to within the one-RTT look-ahead
    /// (the window leads eq. 1 by at most what it grows in one RTT), flat
    /// near W_max at t = K and convex after. The Reno-friendly estimate
    /// (alpha 0.53 per RTT: 700 -> 748 by K) stays below throughout.
    #[test]
    fn window_follows_the_cubic_after_a_loss() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        c.on_rtt(&mut w, 100 * MS, 0);
        c.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        assert_eq!(w, Window { cwnd: 700.0, ssthresh: 700.0 });
        let k = (300.0f64 / 0.4).cbrt();
        let mut now = 0;
        for round in 1..=150 {
            let n = w.cwnd as u64;
            for i in 0..n {
                c.on_ack(&mut w, now + i * 100 * MS / n);
            }
            now += 100 * MS;
            let t = secs(now) - 0.1; // the epoch began at the first ACK, t = 0
            let (lo, hi) = (c.w_cubic(t, k), c.w_cubic(t + 0.1, k));
            if round % 10 == 0 {
                assert!(
                    w.cwnd >= lo - 1.0 && w.cwnd <= hi + 1.0,
                    "t {t:.1}: cwnd {} vs W_cubic [{lo:.1}, {hi:.1}]",
                    w.cwnd
                );
            }
        }
        assert!(c.w_est < c.w_cubic(k, k));
    }

    /// RFC 9438 Sec 4.8: after a timeout at W = 100 (ssthresh 70, cwnd 1),
    /// slow start to ssthresh, then the first avoidance epoch has K = 0 and
    /// W_max = W_est = 70, the window where it starts; without Sec 4.8 W_max
    /// would stay 100 and K = cbrt(30 / 0.4) = 4.2 s. A fast retransmit
    /// keeps W_max (K > 0 after it).
    #[test]
    fn after_a_timeout_the_epoch_starts_at_its_own_window() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 100.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 100.0, Congestion::Timeout, 0);
        assert_eq!(w, Window { cwnd: 1.0, ssthresh: 70.0 });
        while w.in_slow_start() {
            c.on_ack(&mut w, 0);
        }
        assert_eq!(w.cwnd, 70.0);
        c.on_ack(&mut w, MS);
        let (_, k) = c.epoch.unwrap();
        assert_eq!((k, c.w_max), (0.0, 70.0));
        // W_est from 70; alpha 0.53 while W_est < cwnd_prior = 100 (Sec 4.3).
        assert!((c.w_est - (70.0 + 0.9 / 1.7 / 70.0)).abs() < 1e-9, "{}", c.w_est);
        let mut w = Window { cwnd: 100.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 100.0, Congestion::FastRetransmit, 0);
        c.on_ack(&mut w, MS);
        let (_, k) = c.epoch.unwrap();
        assert!((k - (30.0f64 / 0.4).cbrt()).abs() < 1e-9 && c.w_max == 100.0, "{k} {}", c.w_max);
    }

    /// RFC 9438 Sec 4.3: alpha_cubic turns 1 once W_est reaches
    /// cwnd_prior, the window before the last cut, not W_max. Cuts at 1000
    /// and then 700 leave W_max = 595 (fast convergence) and cwnd_prior =
    /// 700: with W_est at 650, an ACK adds 0.53 / cwnd to it; at 700, 1 /
    /// cwnd.
    #[test]
    fn reno_friendly_alpha_turns_one_at_the_window_before_the_cut() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        c.on_congestion(&mut w, 700.0, Congestion::FastRetransmit, 0);
        assert_eq!((c.w_max, c.cwnd_prior), (595.0, 700.0));
        c.on_ack(&mut w, 0);
        for (w_est, alpha) in [(650.0, 0.9 / 1.7), (700.0, 1.0)] {
            c.w_est = w_est;
            let cwnd = w.cwnd;
            c.on_ack(&mut w, 0);
            assert!((c.w_est - (w_est + alpha / cwnd)).abs() < 1e-12, "W_est {w_est}: {}", c.w_est);
        }
    }

    #[test]
    fn fast_convergence_and_reno_friendly_region() {
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 1000.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 1000.0, Congestion::FastRetransmit, 0);
        c.on_congestion(&mut w, 700.0, Congestion::FastRetransmit, 0);
        assert!((c.w_max - 700.0 * 0.85).abs() < 1e-9, "{}", c.w_max);
        // Small windows: W_cubic barely moves in 1 s, Reno's estimate does
        // (alpha = 0.9 / 1.7 per RTT), and cwnd follows it.
        let mut c = Cubic::default();
        let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
        c.on_congestion(&mut w, 10.0, Congestion::FastRetransmit, 0);
        for round in 0..20u64 {
            for _ in 0..w.cwnd as u64 {
                c.on_ack(&mut w, round * 10 * MS);
            }
        }
        assert!(w.cwnd > 7.0 + 20.0 * 0.9 / 1.7 * 0.8, "{}", w.cwnd);
        assert_eq!(w.cwnd, c.w_est);
    }
}
