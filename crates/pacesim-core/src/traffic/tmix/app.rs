//! The two applications of a Tmix connection, as ns-2 2.35 runs them over
//! one-way TCP (`Tmix set-agent-type one-way`, `tmix/tmix.cc`: `TmixApp`):
//! each end sends its ADUs in order, each after its wait, and learns that
//! the other end's ADU has arrived by counting the bytes its sink delivers.
//!
//! An end's next ADU waits `send_wait` after the end's previous send, or,
//! with a `recv_wait`, that long after the end has received everything the
//! other end has sent so far; an end whose first ADU has no receive wait
//! sends it when the connection starts. When an end sends an ADU of `b`
//! bytes, the other end expects b rounded up to its whole segments more
//! (one-way TCP carries whole packets); the other end has "received an ADU"
//! once the payload delivered since its last one (each delivery's wire
//! bytes less one header, ns-2's 40 bytes; a lone SYN, a bare header,
//! counting for nothing) reaches
//! what it expects, and both counts start again from 0. A FIN (0 bytes)
//! sends nothing: the end is done. Kept from ns-2 as it behaves, so that
//! the two simulators replay a vector alike:
//! - an end's last ADU, when the other end has already sent its own last,
//!   is not sent at all (only a full-TCP connection sends it with its FIN);
//!   the other end still expects it, and never receives it;
//! - a receive wait does not start while the other end waits to send;
//! - the expected bytes of ADUs sent before the previous one arrived add
//!   up, so that several ADUs may arrive as one.
//!
//! ns-2 ends a one-way connection only when both ends have stopped, which
//! an end without a FIN never does: it reports no completion. We report
//! two instants instead: the last time an end received an ADU, and the
//! data's completion, when neither end has data left to send and neither
//! expects more.

use super::cvec::{Adu, ConnVector, End};
use crate::sim::timer::Timer;
use crate::sim::Time;

/// What the world must do for a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// End `end`'s sender has `packets` more packets to send.
    Send { end: End, packets: u64 },
}

/// One end: its ADUs and where it is in them (ns-2 `TmixApp`).
#[derive(Debug, Clone)]
struct Side {
    adus: Vec<Adu>,
    next: usize,
    /// Payload received since its last whole ADU, and what it expects.
    received: u64,
    expected: u64,
    sent_last: bool,
    waiting_to_send: bool,
    running: bool,
    /// This end's segment size and the TCP/IP header, bytes.
    mss: u64,
    header: u64,
    timer: Timer,
}

impl Side {
    fn new(adus: &[Adu], mss: u64, header: u64) -> Self {
        Side {
            adus: adus.to_vec(),
            next: 0,
            received: 0,
            expected: 0,
            sent_last: false,
            waiting_to_send: false,
            running: false,
            mss,
            header,
            timer: Timer::default(),
        }
    }

    /// The ADU to send next; none left sets `sent_last` (ns-2 `get_current_ADU`).
    fn current(&mut self) -> Option<Adu> {
        let adu = self.adus.get(self.next).copied();
        if adu.is_none() {
            self.sent_last = true;
        }
        adu
    }

    /// No data left to send: every ADU left is a FIN.
    fn data_sent(&self) -> bool {
        self.adus[self.next.min(self.adus.len())..].iter().all(Adu::is_fin)
    }
}

/// Microseconds to ns.
fn us(t: u64) -> Time {
    t.saturating_mul(1_000)
}

/// A connection's two ends and what is reported of it.
#[derive(Debug, Clone)]
pub struct Connection {
    sides: [Side; 2],
    pub start: Time,
    /// ADUs received (by either end), and when the last was.
    pub receipts: u32,
    pub last_receipt: Option<Time>,
    /// When the data completed (see the module's doc).
    pub done: Option<Time>,
    /// Both ends stopped (ns-2's end of a connection).
    pub stopped: bool,
}

impl Connection {
    /// The ends of vector `cv` sending segments of `mss` bytes under
    /// headers of `header` bytes (a SYN's size), started at `start`.
    pub fn new(cv: &ConnVector, mss: u64, header: u64, start: Time) -> Self {
        Connection {
            sides: [Side::new(&cv.init, mss, header), Side::new(&cv.acc, mss, header)],
            start,
            receipts: 0,
            last_receipt: None,
            done: None,
            stopped: false,
        }
    }

    /// End `end`'s timer (the world schedules its events and asks whether they fire).
    pub fn timer(&mut self, end: End) -> &mut Timer {
        &mut self.sides[end].timer
    }

    /// The connection starts at `now`: each end, initiator first, sends its
    /// first ADU at once unless it waits to receive (ns-2 `start`, `resched(0)`).
    pub fn start(&mut self, now: Time) {
        for side in &mut self.sides {
            side.running = true;
            side.next = 0;
            if side.current().is_some_and(|a| a.recv_wait == 0) {
                side.timer.set(now);
            }
        }
    }

    /// End `end`'s timer fired at `now`: its next ADU goes (ns-2 `timeout`).
    pub fn fire(&mut self, end: End, now: Time, out: &mut Vec<Action>) {
        let peer = 1 - end;
        let Some(adu) = self.sides[end].current() else { return };
        self.sides[end].waiting_to_send = false;
        if adu.is_fin() {
            self.sides[end].sent_last = true;
            self.stop(end);
            return;
        }
        let peer_mss = self.sides[peer].mss;
        self.sides[peer].expected += adu.bytes.div_ceil(peer_mss) * peer_mss;
        let side = &mut self.sides[end];
        side.next += 1;
        let next = side.current();
        let packets = adu.bytes.div_ceil(side.mss);
        if next.is_none() {
            // Its last ADU: sent unless the other end has sent its own last.
            if !self.sides[peer].sent_last {
                out.push(Action::Send { end, packets });
            }
            return;
        }
        out.push(Action::Send { end, packets });
        let wait = next.expect("checked").send_wait;
        if wait > 0 {
            side.waiting_to_send = true;
            side.timer.set(now.saturating_add(us(wait)));
        }
    }

    /// End `end`'s sink delivered `wire_bytes` in order at `now` (ns-2
    /// `TmixApp::recv` behind `TcpSink::recvBytes`).
    pub fn receive(&mut self, end: End, wire_bytes: u64, now: Time) {
        let peer = 1 - end;
        let side = &mut self.sides[end];
        if wire_bytes == side.header {
            return; // the SYN
        }
        side.received += wire_bytes.saturating_sub(side.header);
        if side.received < side.expected {
            return;
        }
        side.received = 0;
        side.expected = 0;
        self.receipts += 1;
        self.last_receipt = Some(now);
        if self.done.is_none() && self.sides.iter().all(|s| s.data_sent() && s.expected == 0) {
            self.done = Some(now);
        }
        if self.sides[end].sent_last && self.sides[peer].sent_last {
            self.stop(end);
            return;
        }
        let waiting = self.sides[peer].waiting_to_send;
        let side = &mut self.sides[end];
        let Some(adu) = side.current() else { return };
        if adu.recv_wait == 0 || waiting {
            return;
        }
        side.timer.set(now.saturating_add(us(adu.recv_wait)));
    }

    /// End `end` stops (ns-2 `crecycle`); once both have, the connection has.
    fn stop(&mut self, end: End) {
        if !self.sides[end].running {
            return;
        }
        self.sides[end].running = false;
        self.stopped = !self.sides[1 - end].running;
    }

    /// Nothing is left for either end to do: each has sent its last ADU or
    /// handled its FIN, and no timer is set (its senders may still be
    /// retransmitting).
    pub fn idle(&self) -> bool {
        self.sides.iter().all(|s| s.sent_last && !s.timer.is_pending())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::tmix::cvec::{parse, ACC, INIT};

    const MSS: u64 = 1460;
    const HEADER: u64 = 40;

    fn conn(text: &str) -> Connection {
        let cv = parse(text, "t.cvec", 1_000_000).unwrap().remove(0);
        Connection::new(&cv, MSS, HEADER, 0)
    }

    /// Fire `end`'s timer if it is due at `now`; the actions.
    fn tick(c: &mut Connection, end: End, now: Time) -> Vec<Action> {
        let mut out = vec![];
        assert_eq!(c.timer(end).deadline(), Some(now), "end {end} due at {now}");
        c.timer(end).cancel();
        c.fire(end, now, &mut out);
        out
    }

    /// Wire bytes of `n` full segments.
    fn segments(n: u64) -> u64 {
        n * (MSS + HEADER)
    }

    #[test]
    fn a_request_and_a_response_after_a_receive_wait() {
        // A request and a response: the initiator sends 260 B at once; the
        // acceptor answers 520 B 111111 us after receiving them and sends
        // its FIN 6200000 us after that.
        let mut c = conn("S 0 1 2 3\nI 0 0 260\nA 0 111111 520\nA 6200000 0 0\n");
        c.start(0);
        assert_eq!(c.timer(ACC).deadline(), None, "the acceptor waits to receive");
        assert_eq!(tick(&mut c, INIT, 0), vec![Action::Send { end: INIT, packets: 1 }]);
        // Its SYN delivered alone counts for nothing; its one segment of 1460 B completes the ADU.
        c.receive(ACC, HEADER, 10);
        assert_eq!(c.receipts, 0);
        c.receive(ACC, segments(1), 20);
        assert_eq!((c.receipts, c.last_receipt), (1, Some(20)));
        assert_eq!(c.timer(ACC).deadline(), Some(20 + 111_111_000));
        assert_eq!(tick(&mut c, ACC, 20 + 111_111_000), vec![Action::Send { end: ACC, packets: 1 }]);
        let fin = 20 + 111_111_000 + 6_200_000_000;
        assert_eq!(c.timer(ACC).deadline(), Some(fin));
        assert_eq!(c.done, None, "the response is on its way");
        c.receive(INIT, segments(1), 200_000_000);
        assert_eq!((c.receipts, c.done), (2, Some(200_000_000)));
        assert_eq!(tick(&mut c, ACC, fin), vec![], "a FIN sends nothing");
        // ns-2: the initiator, without a FIN, never stops.
        assert!(!c.stopped && c.idle());
    }

    #[test]
    fn adus_sent_before_the_last_arrived_add_up_and_arrive_as_one() {
        // The acceptor sends 1024 B, then 1536 B 1 s later; the initiator
        // expects 1460 + 2920 and sees one ADU once 3 segments arrived.
        let mut c = conn("S 0 1 2 3\nI 0 0 10\nA 0 5 1024\nA 1000000 0 1536\nA 1 0 0\n");
        c.start(0);
        tick(&mut c, INIT, 0);
        c.receive(ACC, segments(1), 1);
        assert_eq!(tick(&mut c, ACC, 5_001), vec![Action::Send { end: ACC, packets: 1 }]);
        assert_eq!(tick(&mut c, ACC, 1_000_005_001), vec![Action::Send { end: ACC, packets: 2 }]);
        c.receive(INIT, segments(2), 1_100_000_000);
        assert_eq!(c.receipts, 1, "2 of 3 segments: nothing yet");
        c.receive(INIT, segments(1), 1_200_000_000);
        assert_eq!((c.receipts, c.done), (2, Some(1_200_000_000)));
    }

    #[test]
    fn a_first_adu_goes_at_once_whatever_its_send_wait() {
        // ns-2 starts an end whose first ADU has no receive wait with resched(0).
        let mut c = conn("C 0 1 1 0 3\nI 0 0 100\nA 2000000 0 200\n");
        c.start(0);
        assert_eq!(c.timer(ACC).deadline(), Some(0));
        assert_eq!(tick(&mut c, ACC, 0), vec![Action::Send { end: ACC, packets: 1 }]);
        // The acceptor sent last in the file: its FIN, fin_time (1 s) after.
        assert_eq!(c.timer(ACC).deadline(), Some(1_000_000_000));
    }

    #[test]
    fn a_last_adu_after_the_other_ends_last_is_not_sent() {
        // The initiator sends 100 B and its FIN 1 us later; the acceptor's
        // only ADU, 7 us after receiving, is its last and comes after the
        // initiator's last: ns-2 one-way sends nothing, the initiator still
        // expects it, and the data never complete.
        let mut c = conn("S 0 1 2 3\nI 0 0 100\nA 0 7 200\nI 1 0 0\n");
        c.start(0);
        assert_eq!(tick(&mut c, INIT, 0), vec![Action::Send { end: INIT, packets: 1 }]);
        assert_eq!(tick(&mut c, INIT, 1_000), vec![], "the initiator's FIN");
        c.receive(ACC, segments(1), 5_000);
        assert_eq!(tick(&mut c, ACC, 12_000), vec![], "its last ADU after the initiator's last: not sent");
        assert_eq!((c.receipts, c.done), (1, None));
        assert!(c.idle());
    }

    #[test]
    fn a_receive_wait_does_not_start_while_the_other_end_waits_to_send() {
        // The initiator sends 10 B, then 20 B after 1 s (a send wait); the
        // acceptor's reply waits 5 us after receiving, but the initiator
        // waits to send: no timer (ns-2's check of the peer's
        // waiting_to_send_), so the acceptor only answers after the second.
        let mut c = conn("S 0 1 2 3\nI 0 0 10\nI 1000000 0 20\nA 0 5 30\n");
        c.start(0);
        tick(&mut c, INIT, 0);
        c.receive(ACC, segments(1), 100);
        assert_eq!(c.timer(ACC).deadline(), None);
        tick(&mut c, INIT, 1_000_000_000);
        c.receive(ACC, segments(1), 1_000_000_100);
        assert_eq!(c.timer(ACC).deadline(), Some(1_000_005_100));
    }
}
