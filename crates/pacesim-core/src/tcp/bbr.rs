//! BBR v1 (Cardwell, Cheng, Gunn, Hassas Yeganeh, Jacobson, "BBR:
//! Congestion-Based Congestion Control", ACM Queue 2016;
//! draft-cardwell-iccrg-bbr-congestion-control-00, 2017) as Linux runs it
//! (net/ipv4/tcp_bbr.c, v4.9-5.x; its cwnd budget as in 5.x) and ns-3's
//! `TcpBbr` models it, over the delivery-rate samples of `tcp::rate` and
//! RFC 6675's loss recovery as Linux runs it (`tcp::recovery::rfc6675`). The
//! model, re-derived from those texts (units: packets, ns):
//!
//! - Bandwidth (`bbr_update_bw`, draft Sec 4.1.1): each valid sample gives
//!   delivered / interval; BtlBw is the windowed maximum of the samples
//!   over the last 10 round trips (Linux's three-sample `minmax_running_max`,
//!   lib/win_minmax.c), app-limited samples entering only if they raise
//!   it. A round trip ends when a packet sent after the previous round's
//!   end is delivered (`prior_delivered >= next_rtt_delivered`).
//! - RTprop (`bbr_update_min_rtt`, Sec 4.1.2): the least RTT sample, taken
//!   anew when it is at most the current one or when it is 10 s old.
//! - Startup (`bbr_reset_startup_mode`, Sec 4.3.1): pacing and cwnd gain
//!   2/ln 2 = 2.885; the pipe is full (`bbr_check_full_bw_reached`, Sec
//!   4.3.1.1) after 3 round starts in a row without BtlBw growing by 25 %,
//!   app-limited rounds not counting.
//! - Drain (`bbr_check_drain`, Sec 4.3.2): pacing gain ln 2 / 2 (cwnd gain
//!   stays 2.885) until the packets in flight fall to one BDP.
//! - ProbeBW (`bbr_update_cycle_phase`, Sec 4.3.3): pacing gains 5/4, 3/4,
//!   then 1 six times, each phase at least RTprop long; 5/4 lasts until
//!   losses or the packets in flight reach 5/4 BDP, 3/4 ends early once
//!   they fall to one BDP; it starts at a random phase other than 3/4
//!   (`bbr_reset_probe_bw_mode`: phase 7 - U{0..6}, then one advance).
//!   Cwnd gain 2.
//! - ProbeRTT (`bbr_update_min_rtt`, Sec 4.3.4): when RTprop is 10 s old,
//!   cwnd 4 packets (the window saved) until the packets in flight are 4,
//!   then 200 ms and one round trip more; RTprop's time is renewed, the
//!   saved window restored, and BBR returns to ProbeBW (or Startup if the
//!   pipe was never full). The sender counts as app-limited meanwhile.
//! - Pacing (`bbr_set_pacing_rate`, Sec 4.2.1): gain x BtlBw less 1 %,
//!   never lowered before the pipe is full; before any bandwidth sample,
//!   2.885 x the initial window per first RTT (`bbr_init_pacing_rate_from_rtt`).
//! - Cwnd (`bbr_set_cwnd`, `bbr_target_cwnd`, Sec 4.2.3): target = ceil(gain
//!   x BtlBw x RTprop) + 3 send quanta, rounded up to even, 2 more in ProbeBW's
//!   5/4 phase (Linux 5.x `bbr_quantization_budget`); a quantum is the
//!   packets of 1/1024 s at the pacing rate, at least 2 (1 below 1.2 Mb/s),
//!   at most 127 (`bbr_tso_segs_goal`). Each ACK adds the packets it
//!   delivered up to the target once the pipe is full, else while below it
//!   (or fewer than 10 packets are delivered); never below 4.
//! - Loss (`bbr_set_cwnd_to_recover_or_restore`, Sec 4.2.3.4): newly lost
//!   packets come off cwnd; fast recovery starts with cwnd = packets in
//!   flight + those the ACK delivered, and holds to packet conservation
//!   (cwnd at least in flight + delivered) for one round trip; a timeout
//!   leaves cwnd 1 and the full-pipe plateau is measured again; leaving
//!   recovery restores the window saved on entering it.
//!
//! Not modelled: long-term bandwidth sampling for policers (`bbr_lt_bw_sampling`,
//! which ns-3 lacks too), the ACK-aggregation allowance (Linux 5.1 on:
//! `bbr_update_ack_aggregation`, `bbr_ack_aggregation_cwnd`; ns-3 3.44's
//! `TcpBbr` has one, whose epoch it truncates to whole seconds, so that it
//! adds about 4 packets of 1000 B to the target: bench/ns3/README.md), restart
//! after idle (pacesim's applications are never idle with data waiting).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::algorithm::{Algorithm, Common};
use super::cc::{Congestion, CongestionControl, Window};
use super::rate::{RateControl, RateSample};
use super::recovery::Recovery;
use crate::sim::rng::{uniform, Stream};
use crate::sim::Time;
use crate::spec::MS;

/// Startup's gain, 2/ln 2 (Linux `bbr_high_gain` = 2885/1000).
const HIGH_GAIN: f64 = 2885.0 / 1000.0;
/// Drain's pacing gain, its inverse (Linux `bbr_drain_gain` = 1000/2885).
const DRAIN_GAIN: f64 = 1000.0 / 2885.0;
/// ProbeBW's pacing gains, phase by phase.
const GAIN_CYCLE: [f64; 8] = [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0];
/// BtlBw growth that counts as growth in Startup, and rounds without it.
const FULL_BW_GROWTH: f64 = 1.25;
const FULL_BW_ROUNDS: u32 = 3;
/// Least cwnd, and cwnd in ProbeRTT, packets (Linux `bbr_cwnd_min_target`).
const MIN_CWND: f64 = 4.0;
/// Linux `TCP_INIT_CWND`: cwnd with no RTT sample, and the delivered
/// count below which Startup grows cwnd whatever the target.
const INIT_CWND: f64 = 10.0;
/// Pacing rate's margin below gain x BtlBw (Linux `bbr_pacing_margin_percent`).
const PACING_MARGIN: f64 = 0.01;

/// BBR's knobs as a scenario gives them, in `[tcp]` (`tcp.bbr_bw_rounds`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BbrSpec {
    /// BBR: round trips the bandwidth filter's maximum spans (Linux `bbr_bw_rtts`, draft Sec 4.1.1).
    #[serde(rename = "bbr_bw_rounds", default = "BbrSpec::default_bw_rounds")]
    #[schemars(range(min = 1, max = 1_000_000))]
    pub bw_rounds: u64,
    /// BBR: age at which the least RTT is taken anew and ProbeRTT entered
    /// (Linux `bbr_min_rtt_win_sec`, draft Sec 4.1.2), ns.
    #[serde(rename = "bbr_min_rtt_window", default = "BbrSpec::default_min_rtt_window")]
    #[schemars(extend("x-unit" = "ns"), range(min = 1))]
    pub min_rtt_window: u64,
    /// BBR: ProbeRTT's least time at 4 packets (Linux `bbr_probe_rtt_mode_ms`, draft Sec 4.3.4), ns.
    #[serde(rename = "bbr_probe_rtt_time", default = "BbrSpec::default_probe_rtt_time")]
    #[schemars(extend("x-unit" = "ns"))]
    pub probe_rtt_time: u64,
    /// BBR: cwnd gain in ProbeBW (Linux `bbr_cwnd_gain`, draft Sec 4.2.3).
    #[serde(rename = "bbr_cwnd_gain", default = "BbrSpec::default_cwnd_gain")]
    #[schemars(range(min = 1.0, max = 100.0))]
    pub cwnd_gain: f64,
}

impl BbrSpec {
    pub fn default_bw_rounds() -> u64 {
        10
    }
    pub fn default_min_rtt_window() -> u64 {
        10_000 * MS
    }
    pub fn default_probe_rtt_time() -> u64 {
        200 * MS
    }
    pub fn default_cwnd_gain() -> f64 {
        2.0
    }
}

/// BBR recovers as Linux does, by RFC 6675 with SACK kept through a timeout
/// and lost retransmissions sent again (`tcp::recovery::rfc6675`); its first
/// ProbeBW phase is drawn from the flow's stream.
impl Algorithm for BbrSpec {
    fn build(&self, common: Common, rng: impl FnOnce() -> Stream) -> (Box<dyn CongestionControl>, Recovery) {
        let bbr = Bbr::new(*self, common.segment_size, common.initial_window, rng());
        (Box::new(bbr), Recovery::rfc6675())
    }
}

impl Default for BbrSpec {
    fn default() -> Self {
        BbrSpec {
            bw_rounds: Self::default_bw_rounds(),
            min_rtt_window: Self::default_min_rtt_window(),
            probe_rtt_time: Self::default_probe_rtt_time(),
            cwnd_gain: Self::default_cwnd_gain(),
        }
    }
}

/// The windowed maximum of Linux's lib/win_minmax.c: the best, second
/// and third best samples of the window, so that when the best ages out
/// the next is at hand. Times are round-trip counts, values packets/ns.
#[derive(Debug, Clone, Copy, Default)]
struct WindowedMax {
    s: [(u64, f64); 3],
}

impl WindowedMax {
    fn get(&self) -> f64 {
        self.s[0].1
    }

    /// A sample `v` at round `t`, the window `win` rounds; the maximum after it.
    fn update(&mut self, win: u64, t: u64, v: f64) -> f64 {
        let sample = (t, v);
        if v >= self.s[0].1 || t - self.s[2].0 > win {
            self.s = [sample; 3];
            return v;
        }
        if v >= self.s[1].1 {
            self.s[1] = sample;
            self.s[2] = sample;
        } else if v >= self.s[2].1 {
            self.s[2] = sample;
        }
        // The best has aged out: promote the others (twice if need be); a
        // second or third best as old as the one above it is refreshed
        // after a quarter and a half of the window.
        let dt = t - self.s[0].0;
        if dt > win {
            self.s = [self.s[1], self.s[2], sample];
            if t - self.s[0].0 > win {
                self.s = [self.s[1], self.s[2], sample];
            }
        } else if self.s[1].0 == self.s[0].0 && dt > win / 4 {
            self.s[1] = sample;
            self.s[2] = sample;
        } else if self.s[2].0 == self.s[1].0 && dt > win / 2 {
            self.s[2] = sample;
        }
        self.s[0].1
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Startup,
    Drain,
    ProbeBw,
    ProbeRtt,
}

/// The sender's loss-recovery state as BBR follows it (Linux `icsk_ca_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd)]
enum CaState {
    Open,
    Recovery,
    Loss,
}

pub struct Bbr {
    spec: BbrSpec,
    /// Payload per packet, bytes (for the send quantum).
    mss: f64,
    init_cwnd: f64,
    pub mode: Mode,
    bw: WindowedMax,
    /// Round trips counted, and the delivered count that ends this one.
    rtt_cnt: u64,
    next_rtt_delivered: u64,
    round_start: bool,
    /// RTprop, ns, and when it was taken.
    pub min_rtt: Option<Time>,
    min_rtt_stamp: Time,
    probe_rtt_done: Option<Time>,
    probe_rtt_round_done: bool,
    pub pacing_gain: f64,
    pub cwnd_gain: f64,
    full_bw: f64,
    full_bw_cnt: u32,
    pub full_bw_reached: bool,
    pub cycle_idx: usize,
    cycle_stamp: Time,
    prior_cwnd: f64,
    /// cwnd as the last ACK found it, before BBR set it.
    cwnd_before: f64,
    packet_conservation: bool,
    ca: CaState,
    prev_ca: CaState,
    /// Packets in flight and delivered by the last ACK, its delivered count.
    last: (u64, u64, u64),
    /// Pacing rate, packets/s (0: not yet set).
    pub pacing_rate: f64,
    rng: Stream,
}

impl Bbr {
    /// BBR with `spec`, packets of `mss` bytes, an initial window of
    /// `init_cwnd` packets; `rng` draws ProbeBW's first phase.
    pub fn new(spec: BbrSpec, mss: u64, init_cwnd: u64, rng: Stream) -> Self {
        Bbr {
            spec,
            mss: mss as f64,
            init_cwnd: init_cwnd as f64,
            mode: Mode::Startup,
            bw: WindowedMax::default(),
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            round_start: false,
            min_rtt: None,
            min_rtt_stamp: 0,
            probe_rtt_done: None,
            probe_rtt_round_done: false,
            pacing_gain: HIGH_GAIN,
            cwnd_gain: HIGH_GAIN,
            full_bw: 0.0,
            full_bw_cnt: 0,
            full_bw_reached: false,
            cycle_idx: 0,
            cycle_stamp: 0,
            prior_cwnd: 0.0,
            cwnd_before: 0.0,
            packet_conservation: false,
            ca: CaState::Open,
            prev_ca: CaState::Open,
            last: (0, 0, 0),
            pacing_rate: 0.0,
            rng,
        }
    }

    /// BtlBw, packets/ns.
    pub fn max_bw(&self) -> f64 {
        self.bw.get()
    }

    /// Packets per send quantum at the current pacing rate (Linux `bbr_tso_segs_goal`).
    fn send_quantum(&self) -> f64 {
        let bytes_per_s = self.pacing_rate * self.mss;
        let least = if bytes_per_s < 1.2e6 / 8.0 { 1.0 } else { 2.0 };
        // Linux: min(rate >> sk_pacing_shift (10), GSO_MAX_SIZE - 1 - MAX_TCP_HEADER (320)) / mss.
        let bytes = (bytes_per_s / 1024.0).floor().min(65_536.0 - 1.0 - 320.0);
        (bytes / self.mss).floor().max(least).min(127.0)
    }

    /// The cwnd BBR aims at with `gain` over BtlBw `bw` (Linux `bbr_target_cwnd`).
    pub fn target_cwnd(&self, bw: f64, gain: f64) -> f64 {
        let Some(rtt) = self.min_rtt else { return INIT_CWND };
        let mut cwnd = (bw * rtt as f64 * gain).ceil() + 3.0 * self.send_quantum();
        cwnd += cwnd % 2.0;
        if self.mode == Mode::ProbeBw && self.cycle_idx == 0 {
            cwnd += 2.0;
        }
        cwnd
    }

    fn reset_startup(&mut self) {
        self.mode = Mode::Startup;
        self.pacing_gain = HIGH_GAIN;
        self.cwnd_gain = HIGH_GAIN;
    }

    fn reset_probe_bw(&mut self, now_delivered: Time) {
        self.mode = Mode::ProbeBw;
        self.pacing_gain = 1.0;
        self.cwnd_gain = self.spec.cwnd_gain;
        self.cycle_idx = GAIN_CYCLE.len() - 1 - uniform(&mut self.rng, [0, 6]) as usize;
        self.advance_cycle(now_delivered);
    }

    fn advance_cycle(&mut self, delivered_time: Time) {
        self.cycle_idx = (self.cycle_idx + 1) % GAIN_CYCLE.len();
        self.cycle_stamp = delivered_time;
        self.pacing_gain = GAIN_CYCLE[self.cycle_idx];
    }

    fn update_bw(&mut self, rs: &RateSample) {
        self.round_start = false;
        let Some((delivered, interval)) = rs.rate else { return };
        if interval == 0 {
            return;
        }
        if rs.prior_delivered >= self.next_rtt_delivered {
            self.next_rtt_delivered = rs.delivered;
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        let bw = delivered as f64 / interval as f64;
        if !rs.is_app_limited || bw >= self.max_bw() {
            self.bw.update(self.spec.bw_rounds, self.rtt_cnt, bw);
        }
    }

    fn is_next_cycle_phase(&self, rs: &RateSample) -> bool {
        let full_length =
            self.min_rtt.is_some_and(|m| rs.delivered_time.saturating_sub(self.cycle_stamp) > m);
        let inflight = rs.prior_in_flight as f64;
        if self.pacing_gain == 1.0 {
            full_length
        } else if self.pacing_gain > 1.0 {
            full_length && (rs.losses > 0 || inflight >= self.target_cwnd(self.max_bw(), self.pacing_gain))
        } else {
            full_length || inflight <= self.target_cwnd(self.max_bw(), 1.0)
        }
    }

    fn check_full_bw_reached(&mut self, rs: &RateSample) {
        if self.full_bw_reached || !self.round_start || rs.is_app_limited {
            return;
        }
        if self.max_bw() >= self.full_bw * FULL_BW_GROWTH {
            self.full_bw = self.max_bw();
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= FULL_BW_ROUNDS;
    }

    fn check_drain(&mut self, rs: &RateSample) {
        if self.mode == Mode::Startup && self.full_bw_reached {
            self.mode = Mode::Drain;
            self.pacing_gain = DRAIN_GAIN;
            self.cwnd_gain = HIGH_GAIN;
        }
        if self.mode == Mode::Drain && rs.in_flight as f64 <= self.target_cwnd(self.max_bw(), 1.0) {
            self.reset_probe_bw(rs.delivered_time);
        }
    }

    /// Save cwnd before a recovery or ProbeRTT (Linux `bbr_save_cwnd`).
    fn save_cwnd(&mut self, cwnd: f64) {
        self.prior_cwnd = if self.prev_ca < CaState::Recovery && self.mode != Mode::ProbeRtt {
            cwnd
        } else {
            self.prior_cwnd.max(cwnd)
        };
    }

    fn update_min_rtt(&mut self, w: &mut Window, control: &mut RateControl, rs: &RateSample, now: Time) {
        let expired = self.min_rtt.is_some() && now > self.min_rtt_stamp + self.spec.min_rtt_window;
        if let Some(rtt) = rs.rtt {
            if self.min_rtt.is_none_or(|m| rtt <= m) || expired {
                self.min_rtt = Some(rtt);
                self.min_rtt_stamp = now;
            }
        }
        if self.spec.probe_rtt_time > 0 && expired && self.mode != Mode::ProbeRtt {
            self.mode = Mode::ProbeRtt;
            self.pacing_gain = 1.0;
            self.cwnd_gain = 1.0;
            self.save_cwnd(w.cwnd);
            self.probe_rtt_done = None;
        }
        if self.mode != Mode::ProbeRtt {
            return;
        }
        control.mark_app_limited = true;
        match self.probe_rtt_done {
            None if rs.in_flight as f64 <= MIN_CWND => {
                self.probe_rtt_done = Some(now + self.spec.probe_rtt_time);
                self.probe_rtt_round_done = false;
                self.next_rtt_delivered = rs.delivered;
            }
            None => {}
            Some(done) => {
                self.probe_rtt_round_done |= self.round_start;
                if self.probe_rtt_round_done && now > done {
                    self.min_rtt_stamp = now;
                    w.cwnd = w.cwnd.max(self.prior_cwnd);
                    if self.full_bw_reached {
                        self.reset_probe_bw(rs.delivered_time);
                    } else {
                        self.reset_startup();
                    }
                }
            }
        }
    }

    fn set_pacing_rate(&mut self, rs: &RateSample, cwnd: f64) {
        if self.pacing_rate == 0.0 {
            let Some(rtt) = rs.min_rtt else { return };
            // No bandwidth sample yet: the initial window per first RTT.
            self.pacing_rate =
                HIGH_GAIN * (1.0 - PACING_MARGIN) * cwnd.max(self.init_cwnd) * 1e9 / rtt as f64;
        }
        let rate = self.pacing_gain * self.max_bw() * (1.0 - PACING_MARGIN) * 1e9;
        if self.full_bw_reached || rate > self.pacing_rate {
            self.pacing_rate = rate;
        }
    }

    /// Linux `bbr_set_cwnd_to_recover_or_restore`: cwnd after losses and
    /// recovery's transitions, and whether packet conservation sets it.
    fn recover_or_restore(&mut self, rs: &RateSample, mut cwnd: f64) -> (f64, bool) {
        let acked = rs.acked_sacked as f64;
        if rs.losses > 0 {
            cwnd = (cwnd - rs.losses as f64).max(1.0);
        }
        if self.ca == CaState::Recovery && self.prev_ca != CaState::Recovery {
            self.packet_conservation = true;
            self.next_rtt_delivered = rs.delivered;
            cwnd = rs.in_flight as f64 + acked;
        } else if self.prev_ca >= CaState::Recovery && self.ca < CaState::Recovery {
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca = self.ca;
        if self.packet_conservation {
            return (cwnd.max(rs.in_flight as f64 + acked), true);
        }
        (cwnd, false)
    }

    fn set_cwnd(&mut self, w: &mut Window, rs: &RateSample) {
        let mut cwnd = w.cwnd;
        if rs.acked_sacked > 0 {
            let (c, conserving) = self.recover_or_restore(rs, cwnd);
            cwnd = c;
            if !conserving {
                let acked = rs.acked_sacked as f64;
                let target = self.target_cwnd(self.max_bw(), self.cwnd_gain);
                if self.full_bw_reached {
                    cwnd = (cwnd + acked).min(target);
                } else if cwnd < target || (rs.delivered as f64) < INIT_CWND {
                    cwnd += acked;
                }
                cwnd = cwnd.max(MIN_CWND);
            }
        }
        if self.mode == Mode::ProbeRtt {
            cwnd = cwnd.min(MIN_CWND);
        }
        w.cwnd = cwnd;
    }
}

impl CongestionControl for Bbr {
    fn name(&self) -> &'static str {
        "bbr"
    }

    /// BBR sets the window on every ACK's rate sample, not here.
    fn on_ack(&mut self, _w: &mut Window, _now: Time) {}

    /// Entering fast recovery or loss (Linux `bbr_ssthresh`, which saves
    /// cwnd and leaves ssthresh infinite, and `bbr_set_state`): the window
    /// saved is the one the ACK found; fast recovery starts packet
    /// conservation from the last ACK's flight at once.
    /// BBR v1 takes no cut from an ECN echo: Linux's sets cwnd itself
    /// (`bbr_main`), past the CWR state's reduction.
    fn on_ece(&mut self, _w: &mut Window, _flight: f64, _now: Time) {}

    fn on_congestion(&mut self, w: &mut Window, _flight: f64, event: Congestion, _now: Time) {
        self.save_cwnd(self.cwnd_before);
        let (in_flight, acked, delivered) = self.last;
        match event {
            Congestion::FastRetransmit => {
                self.ca = CaState::Recovery;
                self.prev_ca = CaState::Recovery;
                self.packet_conservation = true;
                self.next_rtt_delivered = delivered;
                w.cwnd = (in_flight + acked) as f64;
                if self.mode == Mode::ProbeRtt {
                    w.cwnd = w.cwnd.min(MIN_CWND);
                }
            }
            Congestion::Timeout => {
                self.ca = CaState::Loss;
                self.prev_ca = CaState::Loss;
                self.full_bw = 0.0;
                w.cwnd = 1.0;
            }
        }
    }

    fn wants_rate_samples(&self) -> bool {
        true
    }

    /// BBR's window is its own, PRR's not (Linux `bbr_main` as `cong_control`).
    fn sets_window(&self) -> bool {
        true
    }

    /// Linux `bbr_main`: update the model, then pacing rate and cwnd.
    fn on_rate_sample(&mut self, w: &mut Window, control: &mut RateControl, rs: &RateSample, now: Time) {
        self.cwnd_before = w.cwnd;
        self.last = (rs.in_flight, rs.acked_sacked, rs.delivered);
        self.ca = match (rs.in_recovery, self.ca) {
            (false, _) => CaState::Open,
            (true, CaState::Open) => CaState::Recovery,
            (true, state) => state,
        };
        self.update_bw(rs);
        if self.mode == Mode::ProbeBw && self.is_next_cycle_phase(rs) {
            self.advance_cycle(rs.delivered_time);
        }
        self.check_full_bw_reached(rs);
        self.check_drain(rs);
        self.update_min_rtt(w, control, rs, now);
        self.set_pacing_rate(rs, w.cwnd);
        control.pacing_rate = (self.pacing_rate > 0.0).then_some(self.pacing_rate);
        self.set_cwnd(w, rs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;

    const MS: Time = 1_000_000;

    fn bbr() -> Bbr {
        Bbr::new(BbrSpec::default(), 1000, 10, stream(1, "tcp.bbr", 0))
    }

    /// A sample of `delivered` packets over `interval` at `now`, the round
    /// ending if `prior_delivered` has reached the round's end.
    fn sample(
        delivered: u64,
        prior_delivered: u64,
        total: u64,
        rtt: Time,
        in_flight: u64,
        now: Time,
    ) -> RateSample {
        RateSample {
            rate: Some((delivered, rtt)),
            prior_delivered,
            acked_sacked: 1,
            rtt: Some(rtt),
            prior_in_flight: in_flight,
            in_flight,
            delivered: total,
            delivered_time: now,
            min_rtt: Some(rtt),
            ..Default::default()
        }
    }

    /// The windowed maximum by hand, window 10 rounds: 5 at round 0; 3 at
    /// round 1 is not kept (within a quarter window of the best, the second
    /// and third best are the best); 4 at round 3 (past a quarter window)
    /// becomes second and third best; 1 at round 10 third best (past half
    /// the window); 2 at round 11 replaces it, and the 5 has aged out (11 -
    /// 0 > 10): 4 is the maximum; at round 14 the 4 ages out (14 - 3 > 10)
    /// and the 2 of round 11 is the maximum.
    #[test]
    fn the_bandwidth_filter_keeps_the_max_of_ten_rounds() {
        let mut f = WindowedMax::default();
        assert_eq!(f.update(10, 0, 5.0), 5.0);
        assert_eq!(f.update(10, 1, 3.0), 5.0);
        assert_eq!(f.update(10, 3, 4.0), 5.0);
        assert_eq!(f.update(10, 10, 1.0), 5.0, "10 rounds old: still in the window");
        assert_eq!(f.update(10, 11, 2.0), 4.0);
        assert_eq!(f.update(10, 14, 1.0), 2.0);
        assert_eq!(f.update(10, 15, 6.0), 6.0, "a new best resets the three");
    }

    /// Startup exits after 3 round starts in a row without 25 % growth:
    /// bandwidth 10, 20, 40 (growing), then 45, 48, 49 packets per RTT
    /// (under 1.25 x 40 = 50 each): the pipe is full at the 3rd, Drain
    /// begins with pacing gain 1/2.885, and once in flight is down to a BDP
    /// (49 packets, + 3 quanta of 2 = 55, up to even: 56) ProbeBW begins.
    /// (RTT 2^26 ns, 67.1 ms, so that rates times RTT are exact; quanta
    /// of 2 packets from 150 kB/s, Drain's 250 packets/s, up to 2 kB/ms.)
    #[test]
    fn startup_ends_after_three_rounds_without_a_quarter_more_bandwidth() {
        let mut b = bbr();
        let mut w = Window { cwnd: 10.0, ssthresh: 1e9 };
        let mut c = RateControl::default();
        let rtt: Time = 1 << 26;
        let mut total = 0;
        for (round, bw) in [10, 20, 40, 45, 48, 49].into_iter().enumerate() {
            let prior = total;
            total += bw;
            let now = (round as Time + 1) * rtt;
            b.on_rate_sample(&mut w, &mut c, &sample(bw, prior, total, rtt, 200, now), now);
            assert_eq!(b.full_bw_reached, round == 5, "round {round}");
        }
        assert_eq!((b.mode, b.pacing_gain), (Mode::Drain, DRAIN_GAIN));
        assert_eq!(b.target_cwnd(b.max_bw(), 1.0), 49.0 + 6.0 + 1.0);
        b.on_rate_sample(&mut w, &mut c, &sample(49, total, total + 1, rtt, 56, 7 * rtt), 7 * rtt);
        assert_eq!(b.mode, Mode::ProbeBw);
        assert_ne!(b.cycle_idx, 1, "never starts in the 3/4 phase");
    }

    /// ProbeBW's cycle by hand, BDP 100 packets, no pacing rate yet (send
    /// quantum 1): from phase 0 (gain 5/4) the phase ends after one RTprop
    /// with 140 in flight, at least 5/4 BDP + 3 quanta, even, + 2 = 130;
    /// 3/4 ends before RTprop once in flight is at most a BDP + 3 quanta,
    /// even (104); each 1 lasts RTprop.
    #[test]
    fn the_gain_cycle_is_five_quarters_three_quarters_then_six_ones() {
        let mut b = bbr();
        let rtt: Time = 1 << 27; // 134 ms, so that BDP is exactly 100
        b.min_rtt = Some(rtt);
        b.bw.update(10, 0, 100.0 / rtt as f64);
        b.mode = Mode::ProbeBw;
        b.cycle_idx = 7;
        b.advance_cycle(0);
        let mut gains = vec![b.pacing_gain];
        let mut now = 0;
        for _ in 0..8 {
            now += rtt + 1;
            let in_flight = if b.pacing_gain > 1.0 { 140 } else { 100 };
            let rs = RateSample { prior_in_flight: in_flight, delivered_time: now, ..Default::default() };
            assert!(b.is_next_cycle_phase(&rs));
            let early = RateSample { delivered_time: now - 2, ..rs };
            assert_eq!(b.is_next_cycle_phase(&early), b.pacing_gain < 1.0, "3/4 ends early at a BDP");
            b.advance_cycle(now);
            gains.push(b.pacing_gain);
        }
        assert_eq!(gains, vec![1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.25]);
        b.cycle_idx = 7;
        b.advance_cycle(0);
        let short = RateSample { prior_in_flight: 100, delivered_time: rtt + 1, ..Default::default() };
        assert!(!b.is_next_cycle_phase(&short), "5/4 holds until in flight reaches 5/4 BDP + budget");
    }

    /// ProbeRTT: RTprop taken at 0 (100 ms), later samples 101 ms; each
    /// ACK delivers 1 (cwnd 60, then 61 at 10 s: the target, 2 BDP of 99
    /// packets, is far above). At 10 s + 1 ns the filter has expired: cwnd
    /// 4, 61 saved, the sender marked app-limited; in flight reaches 4 at
    /// 10.1 s: 200 ms from there and a round trip. At 10.3 s the round is
    /// done but 200 ms have not passed (Linux: strictly after); 10 ns later
    /// they have: ProbeBW, cwnd restored to the saved 61 (then 62).
    #[test]
    fn probe_rtt_every_ten_seconds_for_two_hundred_ms_at_four_packets() {
        let mut b = bbr();
        let mut w = Window { cwnd: 60.0, ssthresh: 1e9 };
        let mut c = RateControl::default();
        let rtt = 100 * MS;
        b.full_bw_reached = true;
        b.reset_probe_bw(0);
        let first = RateSample { rtt: Some(rtt), ..Default::default() };
        b.on_rate_sample(&mut w, &mut c, &first, 0);
        assert_eq!(b.min_rtt, Some(rtt));
        let later = |total: u64, prior: u64, in_flight: u64, now: Time| RateSample {
            rtt: Some(rtt + MS),
            ..sample(100, prior, total, rtt + MS, in_flight, now)
        };
        b.on_rate_sample(&mut w, &mut c, &later(1000, 900, 50, 10_000 * MS), 10_000 * MS);
        assert_eq!(b.mode, Mode::ProbeBw, "10 s exactly: not yet expired");
        b.on_rate_sample(&mut w, &mut c, &later(1010, 900, 50, 10_000 * MS + 1), 10_000 * MS + 1);
        assert_eq!((b.mode, w.cwnd, b.prior_cwnd), (Mode::ProbeRtt, 4.0, 61.0));
        assert!(c.mark_app_limited);
        b.on_rate_sample(&mut w, &mut c, &later(1020, 1010, 4, 10_100 * MS), 10_100 * MS);
        assert_eq!(b.probe_rtt_done, Some(10_300 * MS));
        b.on_rate_sample(&mut w, &mut c, &later(1030, 1020, 4, 10_300 * MS), 10_300 * MS);
        assert_eq!(b.mode, Mode::ProbeRtt, "a round is done, 200 ms not passed");
        b.on_rate_sample(&mut w, &mut c, &later(1040, 1020, 4, 10_300 * MS + 10), 10_300 * MS + 10);
        assert_eq!((b.mode, w.cwnd), (Mode::ProbeBw, 62.0));
    }

    /// Pacing rate: 1.25 x BtlBw less 1 %: BtlBw 100 packets per 100 ms,
    /// 1000 packets/s, paces at 1237.5 packets/s in phase 0.
    #[test]
    fn pacing_is_gain_times_bandwidth_less_one_percent() {
        let mut b = bbr();
        b.full_bw_reached = true;
        b.bw.update(10, 0, 1e-6);
        b.pacing_gain = 1.25;
        let rs = RateSample { min_rtt: Some(100 * MS), ..Default::default() };
        b.set_pacing_rate(&rs, 10.0);
        assert!((b.pacing_rate - 1237.5).abs() < 1e-9, "{}", b.pacing_rate);
    }
}
