//! Delivery-rate samples as Linux computes them (net/ipv4/tcp_rate.c,
//! v4.9-5.x; draft-cheng-iccrg-delivery-rate-estimation-00), for a
//! congestion control that asks for them
//! ([`CongestionControl::wants_rate_samples`](super::CongestionControl)).
//! Counts are in packets (pacesim's sequence numbers), times in ns.
//!
//! - Send (`tcp_rate_skb_sent`): with nothing outstanding, the send phase
//!   and the delivery clock restart (`first_sent_time = delivered_time =
//!   now`). Each transmission, a retransmission too, snapshots on its
//!   packet the connection's `delivered`, `delivered_time`,
//!   `first_sent_time` and whether it is app-limited.
//! - ACK (`tcp_rate_skb_delivered`, SACKed packets first, then those the
//!   cumulative ACK covers, each once): of the packets newly delivered the
//!   one whose snapshot has the largest `delivered` (or any while that is
//!   0) gives the sample's `prior_delivered`, `prior_time` and app-limited
//!   mark, and its send interval, its send time less its snapshot's
//!   `first_sent_time`; the send phase restarts at its send time.
//! - Sample (`tcp_rate_gen`): `delivered` = the connection's delivered less
//!   `prior_delivered`; interval = max(send interval, now - `prior_time`);
//!   no sample if no packet had a snapshot or if the interval is shorter
//!   than the least RTT (an ACK compressed below what the path allows).
//!   The app-limited mark ends once the delivered count passes it.
//! - RTT (`tcp_clean_rtx_queue`, `tcp_sacktag_one`): now less the send time
//!   of the last packet newly delivered that was never retransmitted
//!   (Karn), from the cumulative ACK if it covered any such packet and
//!   none retransmitted, else from the SACKed ones. The least RTT is the
//!   least of these over the connection (Linux's filter keeps 300 s).
//! - In flight (`tcp_packets_in_flight`): packets sent and neither
//!   cumulatively acknowledged nor SACKed, less those presumed lost and not
//!   retransmitted since: three or more SACKed packets above it (RFC 6675
//!   `IsLost` with DupThresh 3, Linux's SACK loss marking), or every
//!   packet outstanding at a timeout (`tcp_enter_loss`), or a packet or its
//!   retransmission the loss recovery found lost otherwise (`found_lost`:
//!   RACK, `tcp::recovery::rfc6675`). `losses` counts those newly presumed
//!   lost on an ACK (Linux `tp->lost`'s increase); what the recovery finds,
//!   after the ACK's sample, on the next ACK.
//!
//! App-limited marks (`tcp_rate_check_app_limited`) are made where Linux
//! makes them: when a finite application gives more data with none
//! waiting and the window not full (`TcpSender::advance`), and when the
//! congestion control asks (BBR's ProbeRTT). A bulk application always has
//! data and is never app-limited.

use std::collections::VecDeque;

use crate::sim::Time;

/// Linux's (RFC 6675's) DupThresh: SACKed packets above one that mark it lost.
const LOST_ABOVE: u32 = 3;

/// What one ACK tells a rate-based congestion control (Linux's `struct
/// rate_sample` with the connection fields BBR reads).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RateSample {
    /// Packets delivered over `interval`, and the interval, ns; None when
    /// this ACK gives no sample (Linux `delivered` or `interval_us` < 0).
    pub rate: Option<(u64, Time)>,
    /// The connection's delivered count when the sampled packet was sent.
    pub prior_delivered: u64,
    /// Whether the sampled packet was sent while the sender was app-limited.
    pub is_app_limited: bool,
    /// Packets this ACK newly delivered, cumulatively or by SACK.
    pub acked_sacked: u64,
    /// Packets newly presumed lost on this ACK.
    pub losses: u64,
    /// RTT of the last packet newly delivered, never retransmitted (Karn), ns.
    pub rtt: Option<Time>,
    /// Packets in flight before this ACK and after it.
    pub prior_in_flight: u64,
    pub in_flight: u64,
    /// Packets delivered over the connection, and when the count last grew, ns.
    pub delivered: u64,
    pub delivered_time: Time,
    /// Least RTT of the connection, ns.
    pub min_rtt: Option<Time>,
    /// Whether the sender is in loss recovery (fast recovery or after a
    /// timeout) once this ACK is taken (Linux `icsk_ca_state` >= Recovery).
    pub in_recovery: bool,
    /// The ACK's cumulative sequence number (Linux `snd_una` less one packet).
    pub ackno: i64,
    /// The next new sequence number to send as the ACK arrives: the highest
    /// sent plus one, which a timeout's go-back-N leaves as it is (Linux `snd_nxt`).
    pub snd_nxt: i64,
}

/// What a rate-based congestion control may set besides the window
/// (Linux `sk_pacing_rate`, `tp->app_limited`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct RateControl {
    /// Pacing rate, packets per second: each packet sent holds the next
    /// back for 1 / rate (none: unpaced).
    pub pacing_rate: Option<f64>,
    /// Mark the sender app-limited now (BBR's ProbeRTT).
    pub mark_app_limited: bool,
}

/// A packet's state and its send-time snapshot (Linux `tcp_skb_cb.tx`).
#[derive(Debug, Clone, Copy)]
struct Slot {
    sent: Time,
    first_sent: Time,
    delivered_time: Time,
    delivered: u64,
    app_limited: bool,
    sacked: bool,
    retransmitted: bool,
    lost: bool,
}

/// The sampler's connection state and its packets from the cumulative ACK on.
#[derive(Debug, Clone, Default)]
pub struct RateSampler {
    /// Sequence number of `slots[0]`.
    base: i64,
    slots: VecDeque<Slot>,
    delivered: u64,
    delivered_time: Time,
    first_sent_time: Time,
    /// Delivered count the app-limited mark lasts to; 0: not app-limited.
    app_limited: u64,
    /// SACKed packets among `slots`.
    sacked: u64,
    /// Whether some packet in `slots` is marked lost.
    any_lost: bool,
    /// Packets the loss recovery found lost since the last sample.
    found_lost: u64,
    min_rtt: Option<Time>,
    /// The highest sequence number sent plus one.
    snd_nxt: i64,
    pub control: RateControl,
    /// Earliest time the pacing rate lets the next packet leave.
    next_send: Time,
}

/// The packet of the ACK's newly delivered ones that gives the sample.
#[derive(Clone, Copy)]
struct Prior {
    delivered: u64,
    time: Time,
    app_limited: bool,
    sent: Time,
    send_interval: Time,
}

impl RateSampler {
    /// `seq` leaves at `now`; `idle`: nothing was outstanding (Linux `!packets_out`).
    pub fn sent(&mut self, seq: i64, now: Time, idle: bool) {
        if idle {
            self.first_sent_time = now;
            self.delivered_time = now;
        }
        let snapshot = Slot {
            sent: now,
            first_sent: self.first_sent_time,
            delivered_time: self.delivered_time,
            delivered: self.delivered,
            app_limited: self.app_limited != 0,
            sacked: false,
            retransmitted: false,
            lost: false,
        };
        self.snd_nxt = self.snd_nxt.max(seq + 1);
        if self.slots.is_empty() {
            self.base = self.base.max(seq);
        }
        let Ok(i) = usize::try_from(seq - self.base) else { return };
        let len = self.slots.len();
        match self.slots.get_mut(i) {
            // A SACKed packet is delivered already (sent again only by go-back-N).
            Some(slot) if slot.sacked => {}
            Some(slot) => *slot = Slot { retransmitted: true, lost: slot.lost, ..snapshot },
            None if i == len => self.slots.push_back(snapshot),
            // New data is sent in order: nothing lies beyond the next.
            None => {}
        }
    }

    /// Take the snapshot of a newly delivered packet (Linux's rule).
    fn take(prior: &mut Option<Prior>, slot: &Slot) {
        if prior.is_none_or(|p| p.delivered == 0 || slot.delivered > p.delivered) {
            *prior = Some(Prior {
                delivered: slot.delivered,
                time: slot.delivered_time,
                app_limited: slot.app_limited,
                sent: slot.sent,
                send_interval: slot.sent - slot.first_sent,
            });
        }
    }

    /// An ACK of cumulative `ackno` with SACK `blocks` (`[left, right)`)
    /// arrived at `now`; `in_recovery` as it stands after the ACK.
    pub fn on_ack(&mut self, ackno: i64, blocks: &[(i64, i64)], now: Time, in_recovery: bool) -> RateSample {
        let prior_in_flight = self.in_flight();
        let mut prior = None;
        let mut newly = 0;
        let mut sack_rtt_from = None;
        for &(l, r) in blocks {
            let from = l.max(ackno + 1).max(self.base);
            for seq in from..r {
                let Some(slot) = self.slots.get_mut((seq - self.base) as usize) else { break };
                if !slot.sacked {
                    slot.sacked = true;
                    self.sacked += 1;
                    newly += 1;
                    Self::take(&mut prior, slot);
                    if !slot.retransmitted {
                        sack_rtt_from = sack_rtt_from.max(Some(slot.sent));
                    }
                }
            }
        }
        let (mut cum_rtt_from, mut cum_retransmitted) = (None, false);
        while self.base <= ackno {
            let Some(slot) = self.slots.pop_front() else {
                self.base = ackno + 1;
                break;
            };
            self.base += 1;
            if slot.sacked {
                self.sacked -= 1;
                continue;
            }
            newly += 1;
            Self::take(&mut prior, &slot);
            if slot.retransmitted {
                cum_retransmitted = true;
            } else {
                cum_rtt_from = Some(slot.sent);
            }
        }
        if self.slots.is_empty() {
            self.any_lost = false;
        }
        let rtt = match (cum_rtt_from, sack_rtt_from) {
            (Some(sent), _) if !cum_retransmitted => Some(now - sent),
            (None, Some(sent)) => Some(now - sent),
            _ => None,
        };
        if let Some(r) = rtt {
            self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        }
        self.delivered += newly;
        if self.app_limited != 0 && self.delivered > self.app_limited {
            self.app_limited = 0;
        }
        if newly > 0 {
            self.delivered_time = now;
        }
        if let Some(p) = prior {
            // The next send phase starts where the sampled packet's ended.
            self.first_sent_time = p.sent;
        }
        let losses = self.mark_lost() + std::mem::take(&mut self.found_lost);
        let rate = prior.and_then(|p| {
            let interval = p.send_interval.max(now - p.time);
            self.min_rtt.is_some_and(|m| interval >= m).then_some((self.delivered - p.delivered, interval))
        });
        RateSample {
            rate,
            prior_delivered: prior.map_or(0, |p| p.delivered),
            is_app_limited: prior.is_some_and(|p| p.app_limited),
            acked_sacked: newly,
            losses,
            rtt,
            prior_in_flight,
            in_flight: self.in_flight(),
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            min_rtt: self.min_rtt,
            in_recovery,
            ackno,
            snd_nxt: self.snd_nxt,
        }
    }

    /// Mark lost each packet not SACKed with three SACKed above it; how many newly.
    fn mark_lost(&mut self) -> u64 {
        if self.sacked < u64::from(LOST_ABOVE) {
            return 0;
        }
        let (mut above, mut newly) = (0, 0);
        for slot in self.slots.iter_mut().rev() {
            if slot.sacked {
                above += 1;
            } else if above >= LOST_ABOVE && !slot.lost && !slot.retransmitted {
                slot.lost = true;
                self.any_lost = true;
                newly += 1;
            }
        }
        newly
    }

    /// A timeout: every packet outstanding and not SACKed is presumed lost,
    /// its retransmission to come (Linux `tcp_enter_loss`).
    pub fn on_timeout(&mut self) {
        for slot in self.slots.iter_mut().filter(|s| !s.sacked) {
            slot.lost = true;
            slot.retransmitted = false;
            self.any_lost = true;
        }
    }

    /// The loss recovery found `seq`, or its retransmission, lost: it
    /// leaves the flight until sent again, and counts among the next
    /// sample's losses (unless presumed lost here already).
    pub fn found_lost(&mut self, seq: i64) {
        let Some(slot) = usize::try_from(seq - self.base).ok().and_then(|i| self.slots.get_mut(i)) else {
            return;
        };
        if !slot.sacked && (slot.retransmitted || !slot.lost) {
            slot.retransmitted = false;
            slot.lost = true;
            self.any_lost = true;
            self.found_lost += 1;
        }
    }

    /// Packets in flight (Linux `packets_out - sacked_out - lost_out + retrans_out`).
    pub fn in_flight(&self) -> u64 {
        let outstanding = self.slots.len() as u64 - self.sacked;
        if !self.any_lost {
            return outstanding;
        }
        outstanding - self.slots.iter().filter(|s| !s.sacked && s.lost && !s.retransmitted).count() as u64
    }

    /// Mark the sender app-limited (Linux `tp->app_limited = delivered + in flight, or 1`).
    pub fn mark_app_limited(&mut self) {
        self.app_limited = (self.delivered + self.in_flight()).max(1);
    }

    /// Whether the pacing rate holds the next packet at `now`; if so, until when.
    pub fn holds(&self, now: Time) -> Option<Time> {
        (self.control.pacing_rate.is_some() && self.next_send > now).then_some(self.next_send)
    }

    /// A packet left at `now`: the pacing rate holds the next 1 / rate.
    pub fn paced(&mut self, now: Time) {
        if let Some(rate) = self.control.pacing_rate {
            self.next_send = now + crate::sim::time::round_ns(1e9 / rate);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    /// Ten packets sent 1 ms apart from 0, RTT 100 ms. The ACK of packet 0
    /// (at 100 ms) samples one packet over 100 ms; the ACK of packet 9 (109
    /// ms) samples packets 1..=9 sent after the snapshot of delivered 0:
    /// Linux takes the last delivered with a 0 snapshot, packet 9, so the
    /// send interval is 9 ms (0 to 9 ms), the ACK interval 109 ms since
    /// the delivery clock stood at 0: 10 packets over 109 ms. Packets sent
    /// after the first ACK snapshot delivered 1 at 100 ms; each sample
    /// restarts the send phase at its packet's send time.
    #[test]
    fn samples_follow_linux_tcp_rate_by_hand() {
        let mut r = RateSampler::default();
        for seq in 0..10 {
            r.sent(seq, seq as Time * MS, seq == 0);
        }
        let s = r.on_ack(0, &[], 100 * MS, false);
        assert_eq!((s.rate, s.rtt, s.acked_sacked, s.in_flight), (Some((1, 100 * MS)), Some(100 * MS), 1, 9));
        r.sent(10, 100 * MS, false);
        let s = r.on_ack(9, &[], 109 * MS, false);
        assert_eq!(
            (s.rate, s.prior_delivered, s.prior_in_flight, s.in_flight),
            (Some((10, 109 * MS)), 0, 10, 1)
        );
        r.sent(11, 150 * MS, false);
        let s = r.on_ack(10, &[], 200 * MS, false);
        // Packet 10's snapshot: delivered 1 at 100 ms, its send phase began at 0.
        assert_eq!((s.rate, s.prior_delivered, s.rtt), (Some((10, 100 * MS)), 1, Some(100 * MS)));
        assert_eq!(s.min_rtt, Some(100 * MS));
        // Packet 11's: delivered 10 at 109 ms, its send phase begun at 9 ms,
        // when the packet sampled at 109 ms (9) was sent: 2 packets over
        // max(150 - 9, 210 - 109) ms.
        let s = r.on_ack(11, &[], 210 * MS, false);
        assert_eq!((s.rate, s.prior_delivered), (Some((2, 141 * MS)), 10));
    }

    /// SACKed packets count once; three SACKed above a hole mark it lost
    /// (out of flight) until retransmitted; the retransmission's ACK gives
    /// no RTT (Karn) and a timeout takes everything out of flight.
    #[test]
    fn sacks_count_once_and_losses_leave_the_flight() {
        let mut r = RateSampler::default();
        for seq in 0..6 {
            r.sent(seq, 0, seq == 0);
        }
        let s = r.on_ack(-1, &[(1, 3)], 10 * MS, false);
        assert_eq!((s.acked_sacked, s.losses, s.in_flight, s.rtt), (2, 0, 4, Some(10 * MS)));
        let s = r.on_ack(-1, &[(1, 4)], 11 * MS, false);
        assert_eq!((s.acked_sacked, s.losses, s.in_flight), (1, 1, 2), "packet 0 lost: 4, 5 in flight");
        r.sent(0, 11 * MS, false);
        assert_eq!(r.in_flight(), 3);
        let s = r.on_ack(3, &[], 20 * MS, false);
        assert_eq!((s.acked_sacked, s.rtt, s.in_flight), (1, None, 2));
        r.on_timeout();
        assert_eq!(r.in_flight(), 0);
        r.sent(4, 30 * MS, false);
        assert_eq!(r.in_flight(), 1);
    }
}
