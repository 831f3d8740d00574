//! Host pacing as David X. Wei's ns-2 pacing patch does it ("A TCP Pacing
//! Implementation for NS2", 2006: paper E's [21], Sec 3.1; paper W is the
//! patch's own paper), `pacing.host_pacer = "wei"`. Re-derived from the
//! patch's behaviour as its public port documents it (`maesoser/ns2_bbr`,
//! drafts/add_pacing.md, for ns-2.35); no line of it is copied.
//!
//! - The pacing RTT is its own mean of the sender's RTT samples (the exact
//!   sample, not the timer's ticks): the first sample seeds it, each later
//!   one moves it as rtt = (rtt (k - 1) + sample) / k with k = max(4,
//!   cwnd / 3) at the sample. The least sample is kept too, and while the
//!   sender is in loss recovery (its ACK point at or below `recover`) the
//!   gap is computed from it instead (`pace_gap`).
//! - The gap (`pace_packet_`): original (1) RTT / cwnd; modified (2) RTT /
//!   (2 cwnd) in slow start while 2 cwnd < ssthresh, RTT / ssthresh in the
//!   rest of slow start, RTT / (cwnd + 1) in congestion avoidance.
//! - Sending (`setup_maxburst`, `setup_pace_timer`): once the first sample
//!   is in, a `send_much` sends at most one packet. If the pacing timer is
//!   pending, an ACK (not the timer) is calling: the gap is computed anew
//!   with the window of the moment, and if less than it has passed since
//!   the last packet left (any packet: retransmissions and limited
//!   transmit count), nothing is sent and the timer is pulled in to that
//!   packet's departure plus the gap if that is earlier; otherwise one
//!   packet goes. After the loop, if the window would let another packet
//!   go (FACK: always), the timer is set a gap from now. The timer's expiry
//!   sends one packet the same way. Before the first sample nothing is
//!   paced. Nothing cancels the timer: a window-limited sender whose timer
//!   is not pending sends on the next ACK at once.
//! - FACK's timer storm: as the patch's `FackTcpAgent::send_much`, a FACK
//!   sender re-arms the timer after every call, so while its window is
//!   full the timer fires every gap and sends nothing. Under pure rate
//!   control (the window is the advertised one, cwnd only sets the gap)
//!   cwnd keeps growing while the window stays full, and in recovery the
//!   gap is the least RTT, often the SYN's, over cwnd + 1: some 100 ns, ten
//!   million expiries a simulated second per sender. ns-2 built with the
//!   patch does the same (bench/ns2/wei/PACESIM.md: 9.92 M expiries in
//!   0.5 s of four FACK senders, pacesim 9.94 M events in all): such a run
//!   is slow, not stuck, and `pacesim run` warns of it before it starts.
//! - Options ([`WeiSpec`]), all off by default; `tcp::state` applies the
//!   ones that act on the window (`ack_counting_`, `pace_loss_filter_`,
//!   `inflation_ratio_`, `pure_rate_control_`).
//! - Inflation (`inflation_ratio_` r > 0): the step above, on the timer's
//!   expiry, adds a packet of window while the packets in flight fill cwnd
//!   and cwnd plus the inflation (at most cwnd / r), drops it to 0 when they
//!   do not fill cwnd, and an ACK's step takes a packet off. Every
//!   `send_much` reads its window before the step and tests its loop (and,
//!   if nothing left, the timer) with that reading: the expiry that inflates
//!   the window sends nothing itself, the next call may (`tcp::recovery`;
//!   bench/ns2/wei/PACESIM.md, "Event by event").
//!
//! The port lacks the first step for SACK (`Sack1TcpAgent::send_much` never
//! calls `setup_maxburst`, so its SACK senders send unpaced); paper W paced
//! SACK (Sec III-B, Fig. 3; Sec V), so here SACK paces like every sender.

use rand::Rng;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::sim::rng::Stream;
use crate::sim::time::round_ns;
use crate::sim::timer::Timer;
use crate::sim::Time;
use crate::spec::{bad, InvalidField};
use crate::tcp::cc::Window;
use crate::tcp::host_pacing::BurstHold;

/// The patch's least jitter-adjusted gap: 10^-8 s, ns.
const LEAST_JITTERED_GAP: f64 = 10.0;

/// Options of Wei's pacer (`[pacing.wei]`; the patch's ns-2 names in
/// brackets), all off by default as in the patch. They act on the paced
/// senders only. In ns-2 they are agent variables: `Agent/TCP set
/// ack_counting_ 1` sets one on every agent, and `ack_counting_`,
/// `pace_loss_filter_` and `pure_rate_control_` then act on unpaced agents
/// too (the patch tests `pace_packet_` only where it paces), so a partly
/// paced ns-2 run that sets them so is not the pacesim run with them set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct WeiSpec {
    /// Open the window once per round counted in ACKs instead of on every
    /// ACK (`ack_counting_`): once as many ACKs (duplicates too) have come
    /// since the last opening as there were packets in flight then, or as
    /// are in flight now, cwnd doubles in slow start (to at most ssthresh) or
    /// grows by one packet. Reno's window rules only (reno, newreno, sack, fack).
    pub ack_counting: bool,
    /// Filter window cuts (`pace_loss_filter_`): 0 off; n > 0 lets at most
    /// one cut through per n RTTs (the retransmission timer's last sample,
    /// whole ticks; a filtered cut changes neither cwnd nor ssthresh);
    /// n < 0 applies 1/|n| of each cut's reduction of cwnd.
    #[schemars(range(min = -1000, max = 1000))]
    pub loss_filter: i32,
    /// Let the window inflate while pacing, not the window, limits sending
    /// (`inflation_ratio_`): 0 off; r > 0 adds a packet of window each time
    /// the pacing timer finds the window full with it, up to cwnd / r, drops
    /// it when the window is not full, and takes one back on each ACK that
    /// comes while the timer is pending.
    pub inflation_ratio: u32,
    /// Pure rate control (`pure_rate_control_`): cwnd no longer limits
    /// sending (the advertised window does), one packet per send; with
    /// ack_counting the window opens at most once per least RTT. With FACK
    /// the pacing timer then fires every gap while the advertised window is
    /// full, as in the patch (cwnd grows, the gap falls to ~100 ns): ten
    /// million timer events a simulated second per sender, a slow run.
    pub pure_rate_control: bool,
    /// Jitter (`overhead_`): each pacing gap gains a uniform draw in [0,
    /// overhead) less the previous gap's, so each departure moves by its own
    /// draw; before the first RTT sample a send waits a uniform draw in [0,
    /// overhead) (ns-2's delayed send). 0: none, ns.
    #[schemars(extend("x-unit" = "ns"))]
    pub overhead: u64,
    /// Random pacing (`random_pace_`): the jitter also spreads each
    /// departure uniformly over +-40 % of the gap; needs overhead > 0.
    pub random_pace: bool,
}

impl WeiSpec {
    /// The first option set (not at its default), by its key.
    pub fn first_set(&self) -> Option<&'static str> {
        let d = WeiSpec::default();
        [
            ("ack_counting", self.ack_counting != d.ack_counting),
            ("loss_filter", self.loss_filter != d.loss_filter),
            ("inflation_ratio", self.inflation_ratio != d.inflation_ratio),
            ("pure_rate_control", self.pure_rate_control != d.pure_rate_control),
            ("overhead", self.overhead != d.overhead),
            ("random_pace", self.random_pace != d.random_pace),
        ]
        .into_iter()
        .find_map(|(key, set)| set.then_some(key))
    }

    /// Check the options; the error names the field under `prefix`.
    pub fn validate(&self, prefix: &str) -> Result<(), InvalidField> {
        if self.random_pace && self.overhead == 0 {
            let message =
                format!("jitters only with {prefix}.overhead > 0 (the patch's random pacing draws with it)");
            return Err(bad(&format!("{prefix}.random_pace"), message));
        }
        Ok(())
    }
}

/// The pacing gaps' jitter (`overhead_`, `random_pace_`).
#[derive(Debug, Clone)]
struct Jitter {
    /// Most of a draw, ns.
    overhead: f64,
    random: bool,
    /// The draw of the gap before the last departure (`last_overhead_`), ns.
    last: f64,
    /// The draw of the gap since (`this_overhead_`), ns.
    this: f64,
    rng: Stream,
}

impl Jitter {
    /// Uniform in [0, x).
    fn uniform(&mut self, x: f64) -> f64 {
        self.rng.gen::<f64>() * x
    }
}

/// Ack counting's round (`ack_counting_`).
#[derive(Debug, Clone, Default)]
struct AckCount {
    /// ACKs received (`nackpack_`).
    acks: u64,
    /// ACKs and packets in flight at the last opening (`old_nackpack_`, `old_cwnd_`).
    acks_then: u64,
    flight_then: i64,
    /// When the window last opened (pure rate control, `last_opencwnd_`).
    opened: Time,
}

/// A paced sender's pacer as Wei's patch (see the module's doc).
#[derive(Debug, Clone)]
pub struct Wei {
    /// `pace_packet_ 2`: pace with the next RTT's window.
    modified: bool,
    /// The pacing RTT (`pace_rtt_`), ns; None before the first sample.
    rtt: Option<f64>,
    /// The least RTT sample (`pace_min_rtt_`), ns.
    min_rtt: f64,
    /// When the last packet left (`last_sendtime_`).
    last_send: Time,
    /// ns-2's delayed send before the first sample (with `overhead_`).
    hold: BurstHold,
    jitter: Option<Jitter>,
    inflation_ratio: u32,
    /// Window inflation, packets (`inflation_`).
    inflation: u32,
    pure_rate: bool,
    counting: Option<AckCount>,
    loss_filter: i32,
    /// When the last window cut went through (`loss_filter_time_`).
    last_cut: Option<Time>,
}

impl Wei {
    /// `rng` draws the jitter (needed if `spec.overhead` > 0).
    pub fn new(modified: bool, spec: &WeiSpec, rng: Option<Stream>) -> Self {
        let jitter = rng.filter(|_| spec.overhead > 0).map(|rng| Jitter {
            overhead: spec.overhead as f64,
            random: spec.random_pace,
            last: 0.0,
            this: 0.0,
            rng,
        });
        Wei {
            modified,
            rtt: None,
            min_rtt: 0.0,
            last_send: 0,
            hold: BurstHold::default(),
            jitter,
            inflation_ratio: spec.inflation_ratio,
            inflation: 0,
            pure_rate: spec.pure_rate_control,
            counting: spec.ack_counting.then(AckCount::default),
            loss_filter: spec.loss_filter,
            last_cut: None,
        }
    }

    /// An RTT sample of `sample` ns with the window at `cwnd` packets (ns-2 `rtt_update`).
    pub fn on_rtt_sample(&mut self, sample: Time, cwnd: f64) {
        let s = sample as f64;
        match self.rtt {
            None => {
                self.rtt = Some(s);
                self.min_rtt = s;
            }
            Some(rtt) => {
                self.min_rtt = self.min_rtt.min(s);
                let k = (cwnd / 3.0).max(4.0);
                self.rtt = Some((rtt * (k - 1.0) + s) / k);
            }
        }
    }

    /// The pacing RTT and the least sample, ns (None before the first sample).
    pub fn rtts(&self) -> Option<(f64, f64)> {
        self.rtt.map(|r| (r, self.min_rtt))
    }

    /// A packet, any packet, left at `now` (ns-2 `output`).
    pub fn sent(&mut self, now: Time) {
        self.last_send = now;
        if let Some(j) = &mut self.jitter {
            j.last = j.this;
            j.this = 0.0;
        }
    }

    /// The pacing timer expired: the `send_much` it calls is the timer's.
    pub fn fired(&mut self) {
        self.hold.fired();
    }

    /// Packets per RTT the gap paces at.
    fn packets_per_rtt(&self, w: &Window) -> f64 {
        if !self.modified {
            w.cwnd
        } else if w.cwnd >= w.ssthresh {
            w.cwnd + 1.0
        } else if 2.0 * w.cwnd < w.ssthresh {
            2.0 * w.cwnd
        } else {
            w.ssthresh
        }
    }

    /// The gap after the last departure (ns-2 `pace_gap`), ns, with the
    /// window `w`, from the least RTT `in_recovery`, with the jitter's
    /// next draw; None before the first sample, in recovery too (ns-2
    /// tests `pace_rtt_ > -1` before it asks; the least RTT is then 0, and
    /// a gap of 0 would fire the timer every nanosecond: a sender whose
    /// `recover`, 0, is above its ACK point, -1, from the start is "in
    /// recovery" until its SYN is acknowledged).
    fn gap(&mut self, w: &Window, in_recovery: bool) -> Option<f64> {
        let mean = self.rtt?;
        let rtt = if in_recovery { self.min_rtt } else { mean };
        let delay = rtt / self.packets_per_rtt(w);
        let Some(j) = &mut self.jitter else {
            return Some(delay);
        };
        let mut this = j.uniform(j.overhead);
        if j.random {
            this += j.uniform(0.8 * delay) - 0.4 * delay;
        }
        if delay - j.last + this <= LEAST_JITTERED_GAP {
            this = j.last - delay + LEAST_JITTERED_GAP;
        }
        j.this = this;
        Some(delay + this - j.last)
    }

    /// Before `send_much` sends (ns-2 `setup_maxburst`): None if nothing may
    /// go now (the timer, `pace`, pulled in if the gap allows), else the
    /// most packets it may send. `congested(c)`: whether the packets in
    /// flight fill a window of c packets (ns-2 `is_congestion`).
    pub fn begin(
        &mut self,
        now: Time,
        pace: &mut Timer,
        w: &Window,
        in_recovery: bool,
        congested: impl Fn(f64) -> bool,
    ) -> Option<usize> {
        let goes = self.hold.begin(pace.is_pending());
        if self.rtt.is_none() {
            // Unpaced until the first sample; a delayed send (overhead) holds it.
            if self.jitter.is_some() && !goes {
                return None;
            }
            return Some(if self.pure_rate { 1 } else { usize::MAX });
        }
        if let Some(deadline) = pace.deadline() {
            self.inflation = self.inflation.saturating_sub(1);
            let gap = self.gap(w, in_recovery)?;
            if ((now - self.last_send) as f64) < gap {
                let at = self.last_send + round_ns(gap);
                if at < deadline {
                    pace.set(at);
                }
                return None;
            }
        } else if self.inflation_ratio > 0 {
            let inflated = w.cwnd + f64::from(self.inflation);
            if !congested(w.cwnd) {
                self.inflation = 0;
            } else if congested(inflated)
                && f64::from(self.inflation + 1) * f64::from(self.inflation_ratio) < w.cwnd
            {
                self.inflation += 1;
            }
        }
        Some(1)
    }

    /// Before each packet of `send_much`: whether it waits (ns-2's delayed
    /// send before the first sample, with overhead), the timer then set.
    pub fn holds(&mut self, now: Time, pace: &mut Timer) -> bool {
        if self.rtt.is_some() {
            return false;
        }
        let Some(j) = &mut self.jitter else {
            return false;
        };
        if !self.hold.holds(pace) {
            return false;
        }
        let wait = j.uniform(j.overhead);
        pace.set(now + round_ns(wait));
        true
    }

    /// After `send_much`'s loop (ns-2 `setup_pace_timer`): if the window
    /// would let another packet go (`more`), the timer goes off a gap from
    /// now (at least 1 ns on).
    pub fn end(&mut self, now: Time, pace: &mut Timer, w: &Window, in_recovery: bool, more: bool) {
        if more {
            if let Some(gap) = self.gap(w, in_recovery) {
                pace.set(now + round_ns(gap).max(1));
            }
        }
    }

    /// Window inflation, packets (0 unless `inflation_ratio`).
    pub fn inflation(&self) -> u32 {
        self.inflation
    }

    /// Whether cwnd no longer limits sending (`pure_rate_control`).
    pub fn pure_rate(&self) -> bool {
        self.pure_rate
    }

    /// An ACK arrived (ack counting counts them all).
    pub fn ack(&mut self) {
        if let Some(c) = &mut self.counting {
            c.acks += 1;
        }
    }

    /// A new ACK would open the window `w` at `now` with `in_flight`
    /// packets in flight (ns-2 `opencwnd`): with ack counting, open it once
    /// per counted round and answer true; without, false (the congestion
    /// control opens it).
    pub fn open(&mut self, w: &mut Window, now: Time, in_flight: i64) -> bool {
        let Some(c) = &mut self.counting else {
            return false;
        };
        if !self.pure_rate {
            let count = (c.acks - c.acks_then) as i64;
            if count < c.flight_then && count < in_flight {
                return true;
            }
            c.acks_then = c.acks;
            c.flight_then = in_flight;
        } else {
            if self.rtt.is_some() && ((now - c.opened) as f64) < self.min_rtt {
                return true;
            }
            c.opened = now;
        }
        w.cwnd = if w.cwnd < w.ssthresh { (2.0 * w.cwnd).min(w.ssthresh) } else { w.cwnd + 1.0 };
        true
    }

    /// Whether the loss filter stops a window cut at `now` (n > 0: another
    /// went through less than n RTTs ago; `rtt` the retransmission timer's
    /// last sample, ns).
    pub fn filters_cut(&mut self, now: Time, rtt: Time) -> bool {
        if self.loss_filter <= 0 {
            return false;
        }
        if self.last_cut.is_some_and(|t| ((now - t) as f64) < f64::from(self.loss_filter) * rtt as f64) {
            return true;
        }
        self.last_cut = Some(now);
        false
    }

    /// cwnd after a cut from `before` to `after`: the loss filter n < 0
    /// applies 1/|n| of the reduction.
    pub fn softened(&self, before: f64, after: f64) -> f64 {
        if self.loss_filter < 0 {
            before + (after - before) / f64::from(-self.loss_filter)
        } else {
            after
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::rng::stream;

    const MS: Time = 1_000_000;

    fn pacer(modified: bool) -> Wei {
        Wei::new(modified, &WeiSpec::default(), None)
    }

    #[test]
    fn the_rtt_is_seeded_by_the_first_sample_then_weighted_by_max_4_cwnd_over_3() {
        let mut p = pacer(false);
        assert_eq!(p.rtts(), None);
        p.on_rtt_sample(100 * MS, 2.0);
        assert_eq!(p.rtts(), Some((100e6, 100e6)), "seeded, whatever the window");
        p.on_rtt_sample(200 * MS, 30.0); // weight 30 / 3 = 10: (100 * 9 + 200) / 10 = 110
        assert_eq!(p.rtts(), Some((110e6, 100e6)));
        p.on_rtt_sample(60 * MS, 6.0); // weight max(4, 2) = 4: (110 * 3 + 60) / 4 = 97.5
        assert_eq!(p.rtts(), Some((97.5e6, 60e6)));
    }

    #[test]
    fn each_gap_formula_and_the_least_rtt_in_recovery() {
        let gap = |modified, cwnd, ssthresh, in_recovery| {
            let mut p = pacer(modified);
            p.on_rtt_sample(240 * MS, 1.0);
            p.on_rtt_sample(120 * MS, 12.0); // 240 * 3/4 + 120 / 4 = 210 ms; least 120 ms
            p.gap(&Window { cwnd, ssthresh }, in_recovery).unwrap()
        };
        assert_eq!(gap(false, 7.0, 100.0, false), 30e6); // 210 / 7
        assert_eq!(gap(false, 8.0, 4.0, true), 15e6); // 120 / 8: the least RTT in recovery
        assert_eq!(gap(true, 5.0, 100.0, false), 21e6); // slow start, 2 cwnd < ssthresh: 210 / 10
        assert_eq!(gap(true, 5.0, 10.0, false), 21e6); // slow start, 2 cwnd = ssthresh: 210 / ssthresh
        assert_eq!(gap(true, 6.0, 7.0, false), 30e6); // slow start, 2 cwnd > ssthresh: 210 / 7
        assert_eq!(gap(true, 9.0, 7.0, false), 21e6); // congestion avoidance: 210 / (9 + 1)
        assert_eq!(gap(true, 9.0, 9.0, true), 12e6); // congestion avoidance, recovery: 120 / 10
    }

    /// An ACK while the timer is pending: the gap, computed with the new
    /// window, has not passed since the last departure, so nothing goes and
    /// the timer is pulled in; once it has passed, one packet goes.
    #[test]
    fn an_ack_re_evaluates_the_gap_and_pulls_the_timer_in() {
        let mut p = pacer(false);
        let mut timer = Timer::default();
        let never = |_: f64| false;
        p.on_rtt_sample(100 * MS, 1.0);
        let w5 = Window { cwnd: 5.0, ssthresh: 100.0 };
        assert_eq!(p.begin(300 * MS, &mut timer, &w5, false, never), Some(1), "no timer pending: one packet");
        p.sent(300 * MS);
        p.end(300 * MS, &mut timer, &w5, false, true);
        assert_eq!(timer.deadline(), Some(320 * MS), "100 ms / 5");
        let w8 = Window { cwnd: 8.0, ssthresh: 100.0 };
        assert_eq!(p.begin(310 * MS, &mut timer, &w8, false, never), None, "10 ms < 100 ms / 8");
        assert_eq!(timer.deadline(), Some(312_500_000), "pulled in to 300 + 12.5 ms");
        let w4 = Window { cwnd: 4.0, ssthresh: 100.0 };
        assert_eq!(p.begin(311 * MS, &mut timer, &w4, false, never), None, "11 ms < 25 ms");
        assert_eq!(timer.deadline(), Some(312_500_000), "a longer gap never pushes it out");
        let w10 = Window { cwnd: 10.0, ssthresh: 100.0 };
        assert_eq!(p.begin(311 * MS, &mut timer, &w10, false, never), Some(1), "11 ms >= 10 ms: one goes");
        assert_eq!(timer.deadline(), Some(312_500_000), "and the timer stays until the loop's end");
        p.sent(311 * MS);
        p.end(311 * MS, &mut timer, &w10, false, false);
        assert_eq!(timer.deadline(), Some(312_500_000), "window full: the timer is left as it was");
        p.end(311 * MS, &mut timer, &w10, false, true);
        assert_eq!(timer.deadline(), Some(321 * MS), "window open: a gap from now");
    }

    #[test]
    fn nothing_is_paced_before_the_first_sample() {
        let mut p = pacer(true);
        let mut timer = Timer::default();
        let w = Window { cwnd: 2.0, ssthresh: 100.0 };
        assert_eq!(p.begin(0, &mut timer, &w, false, |_| false), Some(usize::MAX));
        assert!(!p.holds(0, &mut timer));
        p.end(0, &mut timer, &w, false, true);
        assert!(!timer.is_pending());
        p.end(0, &mut timer, &w, true, true);
        assert!(!timer.is_pending(), "in recovery too: no gap from a least RTT not yet sampled");
        let mut pure = Wei::new(false, &WeiSpec { pure_rate_control: true, ..Default::default() }, None);
        assert_eq!(pure.begin(0, &mut timer, &w, false, |_| false), Some(1), "pure rate: one packet a send");
    }

    /// Departure k at k gaps plus its own draw: each gap's jitter is its
    /// draw less the one before (the first departure, at 0, has none).
    #[test]
    fn the_jitter_moves_each_departure_by_its_own_draw() {
        let spec = WeiSpec { overhead: 2 * MS, ..Default::default() };
        let mut p = Wei::new(false, &spec, Some(stream(7, "tcp.pace", 3)));
        let mut draws = stream(7, "tcp.pace", 3);
        let mut timer = Timer::default();
        let w = Window { cwnd: 10.0, ssthresh: 100.0 };
        p.on_rtt_sample(100 * MS, 1.0);
        let mut now = 0;
        for k in 1..=6u64 {
            assert_eq!(p.begin(now, &mut timer, &w, false, |_| false), Some(1));
            p.sent(now);
            p.end(now, &mut timer, &w, false, true);
            let want = k as f64 * 10e6 + draws.gen::<f64>() * 2e6;
            let next = timer.deadline().unwrap();
            assert!((next as f64 - want).abs() <= k as f64 * 0.5, "departure {k}: {next} ns, not {want}");
            assert!(timer.fires(next));
            p.fired();
            now = next;
        }
    }

    #[test]
    fn random_pacing_needs_the_overhead() {
        let spec = WeiSpec { random_pace: true, ..Default::default() };
        let err = spec.validate("pacing.wei").unwrap_err().to_string();
        assert!(
            err.starts_with("pacing.wei.random_pace: jitters only with pacing.wei.overhead > 0"),
            "{err}"
        );
        assert!(WeiSpec { overhead: 1, ..spec }.validate("pacing.wei").is_ok());
    }

    #[test]
    fn ack_counting_opens_once_a_round_of_acks() {
        let spec = WeiSpec { ack_counting: true, ..Default::default() };
        let mut p = Wei::new(false, &spec, None);
        let mut w = Window { cwnd: 4.0, ssthresh: 6.0 };
        // The first ACK opens (nothing counted yet): 4 -> min(8, 6); round of 4 in flight.
        p.ack();
        assert!(p.open(&mut w, 0, 4));
        assert_eq!(w.cwnd, 6.0);
        // Three more ACKs: fewer than the 4 in flight then and now: no change.
        for _ in 0..3 {
            p.ack();
            p.open(&mut w, 0, 6);
            assert_eq!(w.cwnd, 6.0);
        }
        // The fourth: a round. Congestion avoidance: one packet.
        p.ack();
        p.open(&mut w, 0, 6);
        assert_eq!(w.cwnd, 7.0);
        // A round is also over once the count reaches the packets in flight now.
        p.ack();
        p.open(&mut w, 0, 1);
        assert_eq!(w.cwnd, 8.0);
        let mut off = pacer(false);
        assert!(!off.open(&mut w, 0, 1), "off: the congestion control opens it");
    }

    #[test]
    fn pure_rate_ack_counting_opens_once_per_least_rtt() {
        let spec = WeiSpec { ack_counting: true, pure_rate_control: true, ..Default::default() };
        let mut p = Wei::new(false, &spec, None);
        let mut w = Window { cwnd: 10.0, ssthresh: 5.0 };
        p.on_rtt_sample(100 * MS, 1.0);
        p.open(&mut w, 100 * MS, 0);
        p.open(&mut w, 199 * MS, 0);
        assert_eq!(w.cwnd, 11.0, "99 ms < 100 ms: once");
        p.open(&mut w, 200 * MS, 0);
        assert_eq!(w.cwnd, 12.0);
    }

    #[test]
    fn the_loss_filter_lets_one_cut_through_per_n_rtts_or_softens_each() {
        let spec = WeiSpec { loss_filter: 2, ..Default::default() };
        let mut p = Wei::new(false, &spec, None);
        // RTT 100 ms: one cut per 200 ms.
        assert!(!p.filters_cut(1_000 * MS, 100 * MS));
        assert!(p.filters_cut(1_150 * MS, 100 * MS));
        assert!(p.filters_cut(1_199 * MS, 100 * MS));
        assert!(!p.filters_cut(1_200 * MS, 100 * MS));
        assert_eq!(p.softened(10.0, 5.0), 5.0);
        let soft = Wei::new(false, &WeiSpec { loss_filter: -4, ..Default::default() }, None);
        assert_eq!(soft.softened(10.0, 5.0), 8.75, "a quarter of the halving");
        assert!(!Wei::new(false, &WeiSpec { loss_filter: -4, ..Default::default() }, None).filters_cut(0, 0));
    }

    #[test]
    fn inflation_grows_while_the_timer_finds_the_window_full() {
        let spec = WeiSpec { inflation_ratio: 4, ..Default::default() };
        let mut p = Wei::new(false, &spec, None);
        let mut timer = Timer::default();
        let w = Window { cwnd: 10.0, ssthresh: 5.0 };
        p.on_rtt_sample(100 * MS, 1.0);
        // 10 in flight: full at cwnd and at cwnd + inflation up to 2, the
        // cap (inflation + 1) * 4 < 10.
        let full = |c: f64| 10.0 >= c;
        for want in [1, 1, 1] {
            p.begin(0, &mut timer, &w, false, full);
            assert_eq!(p.inflation(), want, "10 >= 10 + 1 fails once inflated by one");
        }
        let eleven = |c: f64| 11.0 >= c;
        p.begin(0, &mut timer, &w, false, eleven);
        assert_eq!(p.inflation(), 2);
        p.begin(0, &mut timer, &w, false, |c: f64| 20.0 >= c);
        assert_eq!(p.inflation(), 2, "(2 + 1) * 4 >= 10: capped");
        timer.set(5 * MS);
        p.last_send = 0;
        p.begin(MS, &mut timer, &w, false, full);
        assert_eq!(p.inflation(), 1, "an ACK while the timer is pending takes one back");
        timer.cancel();
        p.begin(0, &mut timer, &w, false, |_| false);
        assert_eq!(p.inflation(), 0, "window not full: none");
    }
}
