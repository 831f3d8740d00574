//! ns-2's delayed send (`Agent/TCP overhead_`, `tcp.overhead`): a random
//! wait before each `send_much` that would send, which ns-2 offers to break
//! the phase effects of a deterministic simulation (Floyd and Jacobson,
//! "On Traffic Phase Effects in Packet-Switched Gateways", 1992: with
//! drop-tail queues, which flow loses at an overflow can hang on the
//! order of packets that arrive at one instant).
//!
//! ns-2.35 `TcpAgent::send_much` (and `Sack1TcpAgent`'s): a call that is
//! not forced returns at once while the delayed-send timer is pending;
//! otherwise, with `overhead_` > 0, the first packet the window allows
//! arms the timer a uniform draw in [0, `overhead_`) ahead and the call
//! returns. The timer's expiry calls `send_much` forced, which sends all
//! the window allows. What ns-2 sends outside `send_much` goes at once (a
//! fast retransmit, a limited transmit, NewReno's partial-ACK
//! retransmission); a timeout's go-back-N goes through `send_much` and is
//! held. Every connection of a short-lived flow or a Tmix slot starts its
//! draws anew from its slot's stream (ns-2 draws from one generator for
//! all). Not a pacer: it holds no
//! spacing between packets, only each burst; it shares the pacing timer
//! (ns-2's `delsnd_timer_`, which Wei's patch paces with) and the send
//! loop's questions ([`super`]). A host-paced flow does not take it: Wei's
//! pacer has the patch's own use of `overhead_` (`pacing.wei.overhead`).

use crate::sim::rng::{uniform, Stream};
use crate::sim::timer::Timer;
use crate::sim::Time;

/// ns-2's `send_much` gate on its delayed-send timer (`delsnd_timer_`),
/// which [`DelayedSend`] and Wei's pacer before its first RTT sample both
/// keep: a call that is not the timer's own (`force`) returns while the
/// timer is pending, and holds its first packet; the timer's sends.
#[derive(Debug, Clone, Default)]
pub struct BurstHold {
    /// The timer went off: the next `send_much` is its (forced).
    fired: bool,
    /// The current `send_much` is forced.
    forced: bool,
}

impl BurstHold {
    /// Before `send_much`, the timer `pending` or not: whether it may go on.
    pub fn begin(&mut self, pending: bool) -> bool {
        self.forced = std::mem::take(&mut self.fired);
        self.forced || !pending
    }

    /// Before each packet of a `send_much` that went on: whether it is
    /// held (the caller then arms the timer, which is not pending: a call
    /// not forced went on only with it idle).
    pub fn holds(&self, pace: &Timer) -> bool {
        debug_assert!(self.forced || !pace.is_pending());
        !self.forced
    }

    /// The timer went off.
    pub fn fired(&mut self) {
        self.fired = true;
    }
}

#[derive(Debug, Clone)]
pub struct DelayedSend {
    /// `overhead_`, ns (> 0).
    overhead: Time,
    /// The sender's stream ("tcp.overhead").
    rng: Stream,
    hold: BurstHold,
}

impl DelayedSend {
    pub fn new(overhead: Time, rng: Stream) -> Self {
        debug_assert!(overhead > 0);
        DelayedSend { overhead, rng, hold: BurstHold::default() }
    }

    /// Before `send_much`: None while the timer is pending and this call
    /// is not its expiry, else no limit on the packets.
    pub fn begin(&mut self, pace: &Timer) -> Option<usize> {
        self.hold.begin(pace.is_pending()).then_some(usize::MAX)
    }

    /// Before each packet: a call that is not forced holds it, the timer
    /// armed a draw in [0, overhead) ns ahead.
    pub fn holds(&mut self, now: Time, pace: &mut Timer) -> bool {
        if !self.hold.holds(pace) {
            return false;
        }
        pace.set(now + uniform(&mut self.rng, [0, self.overhead - 1]));
        true
    }

    /// The timer went off.
    pub fn fired(&mut self) {
        self.hold.fired();
    }
}
