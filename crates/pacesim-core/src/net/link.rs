//! A point-to-point link: an output queue, a transmitter of fixed rate, and
//! a propagation delay (ns-2's `Queue` + `LinkDelay` pair).
//!
//! How a packet crosses a link: it arrives at the queue; if the transmitter
//! is idle it starts at once, else it waits behind the packets admitted
//! before it (if the queue admits it at all, see [`Queue`]). It occupies
//! the transmitter for `size * 8 / rate` and reaches the far end `delay`
//! after its last bit left.
//!
//! Time is whole nanoseconds, the serialisation time is not (1040 B at
//! 100 Gb/s: 83.2 ns). The transmitter keeps the exact time: over a busy
//! period begun at `t0`, packet k's last bit leaves at exactly `t0 + b_k / rate`
//! (`b_k` the bits of packets 1..=k), and the engine times it at the ceiling
//! of that, `busy_until`; the fraction of a nanosecond it rounded up is
//! carried to the next packet (`Link::slack`, in units of `1 / rate_bps`
//! ns, so exact at every rate a u64 holds) and dropped when the
//! transmitter goes idle. So a packet takes `ceil(size * 8 / rate)` ns on an
//! idle link, one of that and one less behind another, and a link never
//! sends faster than its rate (no bit leaves before its exact time) nor
//! drifts from it: a busy period sends its bits within 1 ns of the exact
//! time (a link rounding each packet alone ran 0.24 % fast at 100 Gb/s
//! with 1040 B packets). At a rate that is a whole number of ns per packet
//! nothing is carried.
//!
//! The queue is FIFO and the transmitter work-conserving, so the moment a
//! packet is admitted its whole passage is determined: it starts when the
//! transmitter frees (`busy_until`). [`Link::offer`] therefore returns the
//! arrival time at the far end directly, and the link keeps only the start
//! times of packets still waiting, which is all it needs to know the queue
//! length seen by the next arrival. The result is the same as ns-2's
//! dequeue-on-transmission-end model, with one event per packet per hop
//! instead of three.
//!
//! A discipline that holds its packets (see `net::discipline`: it may
//! drop packets already queued, at an arrival or at dequeue, or choose
//! which of several queues goes next) takes that certainty away: a packet
//! behind one dropped starts earlier than it would have. Its link lets the
//! packets wait in the discipline until the transmitter frees for them
//! (ns-2's model): they reach it through [`Link::enqueue`], the caller asks
//! for the next at the time [`Link::next_start`] tells ([`Link::next_held`])
//! and offers it then, when its passage is known. That offer comes at
//! `busy_until` itself, where an arrival would find the transmitter free;
//! a held packet that came before it waited for the transmitter, and
//! starts at the exact end of the one before (`Link::follows`, the fraction
//! carried), as a packet waiting behind drop-tail does. So a link sends at
//! exactly its rate whichever discipline serves it (taking each held
//! packet's time rounded up, a 100 Gb/s link sent 1040 B packets in 84 ns
//! for 83.2, 0.95 % slow). A discipline that chooses, at that whole ns, a
//! packet that came at it (FQ-CoDel's new flow) starts it then, after its
//! arrival: the transmitter idles the fraction of a ns before it.

use std::collections::VecDeque;

use super::discipline::{Arrival, Discipline, Queued, Verdict};
use super::packet::ecn;
use super::{DropTail, PacketId, PacketKind, Queue};
use crate::metrics::{Burstiness, LinkStats, QueueTracks};
use crate::sim::time::{Serial, Time, BITS_NS_PER_BYTE};
use crate::sim::timer::Timer;

pub type LinkId = u32;

#[derive(Debug, Clone, Copy)]
struct Waiting {
    /// When its transmission starts; `Time::MAX` in a queue that
    /// [`Link::holds`] (not known yet). There the entries only count the
    /// packets the discipline holds, in no order: which one leaves is the
    /// discipline's choice, and `queued_bytes` follows the packets' own sizes.
    start: Time,
    size: u32,
    /// Its class, counted when it departs (the discipline's packet's own
    /// in a queue that [`Link::holds`]).
    kind: PacketKind,
}

/// A packet's passage across a link that admitted it ([`Link::pass`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Passage {
    /// When its transmission starts.
    pub start: Time,
    /// How many packets went back to back before it since the transmitter
    /// was idle (at most `u16::MAX`): its place in ns-2's event order (see
    /// `Link::train`).
    pub train: u16,
    /// When its last bit reaches the far end.
    pub arrives: Time,
}

/// A link is the transmitter's few words, read on every packet-hop, and
/// its output queue with what is measured of it, apart: 64 bytes a link (one cache line),
/// so that E-base's 4,000 links stay in cache (with the queue inline a
/// link was 416 bytes; bench/speed/README.md has what that cost). An untracked
/// link ([`Link::set_untracked`]) has no output queue at all: E-base's
/// four access links a flow would otherwise hold 1.5 KB of queues and
/// statistics nobody reads.
#[derive(Debug, Clone)]
pub struct Link {
    /// When the transmitter finishes the last admitted packet.
    busy_until: Time,
    pub rate_bps: u64,
    pub delay: Time,
    /// The serialisation time of the last size offered (`last_size`),
    /// which on most links is every packet's (data one way, ACKs the other).
    last_tx: Serial,
    last_size: u32,
    /// [`Link::offer`] puts the packet on the transmitter without asking
    /// the queue: the link neither is reported nor can drop (see
    /// [`Link::set_untracked`]), or its queue holds the packets before
    /// they are offered ([`Link::holds`]).
    direct: bool,
    /// How many packets the transmitter carried back to back before the
    /// last one admitted since it was last idle (at most `u16::MAX`): in
    /// ns-2 the number of queue resumes between the event that started the
    /// train and the last packet's start (see `sim::event`).
    train: u16,
    /// The held packet [`Link::next_held`] let go waited for the
    /// transmitter: offered at `busy_until`, it starts at the exact end of
    /// the one before, as a waiting packet behind drop-tail does (false on
    /// a link that does not hold its packets).
    follows: bool,
    /// The exact end of the last packet admitted is `busy_until - slack /
    /// rate_bps` ns, `slack < rate_bps` (see the module's doc): 0 at a rate
    /// where packets take whole ns.
    slack: u64,
    /// The output queue; `None` once untracked.
    output: Option<Box<Output>>,
}

/// A link's output queue and its statistics.
#[derive(Debug, Clone)]
pub struct Output {
    pub queue: Queue,
    /// Admitted packets that have not started transmission, in order (in
    /// a queue that [`Link::holds`], one entry per packet held).
    waiting: VecDeque<Waiting>,
    queued_bytes: u64,
    /// Time up to which idle time has been counted.
    idle_mark: Time,
    /// The measurement window [start, end), see [`Link::set_window`].
    window: [Time; 2],
    pub stats: LinkStats,
    /// Bytes arriving per time scale, when this link's burstiness is measured.
    pub burstiness: Option<Box<Burstiness>>,
    /// The queue and drops over time, when this link's series are recorded.
    pub series: Option<Box<QueueTracks>>,
    /// Due when the transmitter frees for the next packet, when the queue
    /// [`Link::holds`] its packets (which wait in its discipline).
    transmit: Option<Box<Timer>>,
}

impl Link {
    /// A link of `rate_bps` (any positive rate: its times are exact at
    /// every one) and propagation `delay`, with the discipline `queue`.
    ///
    /// # Panics
    /// If `rate_bps` is 0.
    pub fn new(rate_bps: u64, delay: Time, queue: impl Into<Queue>) -> Self {
        assert!(rate_bps > 0, "a link's rate is positive");
        let mut link = Link {
            busy_until: 0,
            rate_bps,
            delay,
            last_tx: Serial { whole: 0, frac: 0 },
            last_size: 0,
            direct: false,
            train: 0,
            follows: false,
            slack: 0,
            output: None,
        };
        link.set_queue(queue);
        link
    }

    /// Give the link the discipline `queue` in place of its own, before
    /// it carries anything. A queue that never drops is made only when
    /// the link is first tracked (most such links never are, see
    /// [`Link::set_untracked`]).
    pub fn set_queue(&mut self, queue: impl Into<Queue>) {
        let queue = queue.into();
        self.direct = queue.holds();
        if self.output.is_none() && queue == DropTail::unlimited() {
            return;
        }
        let output = self.output.get_or_insert_with(|| Box::new(Output::new()));
        output.transmit = queue.holds().then(Box::default);
        output.queue = queue;
    }

    /// The output queue and what is measured of it.
    ///
    /// # Panics
    /// On an untracked link ([`Link::set_untracked`]), which has none, and
    /// on a link that has not been tracked yet (its window is set for
    /// every tracked link when a run starts, [`Link::set_window`]).
    pub fn output(&self) -> &Output {
        self.output.as_deref().expect("an untracked link has no output queue")
    }

    /// [`Link::output`], to change; made (a queue that never drops, nothing
    /// measured yet) the first time a tracked link needs it.
    ///
    /// # Panics
    /// On an untracked link.
    pub fn output_mut(&mut self) -> &mut Output {
        assert!(!self.untracked(), "an untracked link has no output queue");
        self.output.get_or_insert_with(|| Box::new(Output::new()))
    }

    /// Whether the link keeps no queue ([`Link::set_untracked`]).
    fn untracked(&self) -> bool {
        self.direct && self.output.is_none()
    }

    /// The queue's discipline; `None` for a queue that never drops and is
    /// not made (an untracked link, or one not yet tracked).
    pub fn queue(&self) -> Option<&Queue> {
        self.output.as_deref().map(|o| &o.queue)
    }

    /// Serialisation time of a packet of `size` bytes on this link, whole
    /// ns: what it takes on an idle link (its exact time rounded up); behind
    /// another packet it may take one ns less (see the module's doc).
    #[inline]
    pub fn tx_time(&self, size: u32) -> Time {
        let bits_ns = u64::from(size) * BITS_NS_PER_BYTE;
        bits_ns.div_ceil(self.rate_bps)
    }

    /// A packet of `size` bytes offered at `now`: whether it occupies the
    /// transmitter one ns over the floor of its exact time (`last_tx.whole`,
    /// the split of the last size being remembered), and the slack it leaves
    /// (`Link::slack`), neither committed.
    #[inline]
    fn serialise(&mut self, now: Time, size: u32) -> (bool, u64) {
        if self.last_size != size {
            self.last_tx = Serial::of(u64::from(size), self.rate_bps);
            self.last_size = size;
        }
        // A transmitter whose exact end is after `now` sends it back to
        // back, from that end, as it does a held packet that waited for it
        // (`follows`); one free by `now` (even if it frees at `now` in
        // whole ns) from `now`.
        let slack = if (self.busy_until > now) | self.follows { self.slack } else { 0 };
        self.last_tx.after(slack, self.rate_bps)
    }

    /// Measure over [start, end). The window opens at the first offer at or
    /// after `start` (or at the close), so a link may be offered packets
    /// ahead of the simulation clock, as cut-through links are
    /// (`Network::mark_cut_through`): everything is accounted at the
    /// packet's own time, and nothing from `end` on.
    pub fn set_window(&mut self, start: Time, end: Time) {
        if !self.untracked() {
            let o = self.output_mut();
            o.window = [start, end];
            o.stats.restart(0, end);
        }
    }

    /// Stop keeping the queue and its statistics, for a link whose queue
    /// never drops and whose counters nobody reads (E-base's 4000 access
    /// links): a packet's passage then depends only on when the transmitter
    /// frees, so [`Link::offer`] skips the waiting list and the time
    /// averages. This halves the link work per packet-hop and keeps most
    /// links' state to a few cache-resident words; the queue and its
    /// statistics are dropped.
    pub fn set_untracked(&mut self) {
        assert!(
            self.queue().is_none_or(|q| *q == DropTail::unlimited()),
            "a link that drops must keep its queue"
        );
        self.direct = true;
        self.output = None;
    }

    /// A packet of `size` bytes and class `kind` arrives at the queue at
    /// `now`. Returns when its last bit reaches the far end, or `None` if
    /// the queue drops it. On a link whose queue [`Link::holds`] its
    /// packets, the packet is the one [`Link::next_held`] let go at `now`.
    /// The queue sees every packet as not ECN-capable: on a link that may
    /// mark ([`Link::marks`]), [`Link::offer_marking`].
    #[inline]
    pub fn offer(&mut self, now: Time, size: u32, kind: PacketKind) -> Option<Time> {
        self.pass::<false>(now, size, kind, &mut 0).map(|p| p.arrives)
    }

    /// [`Link::offer`] of a packet with ECN bits `ecn`, in which a queue
    /// that marks sets CE.
    #[inline]
    pub fn offer_marking(&mut self, now: Time, size: u32, kind: PacketKind, ecn: &mut u8) -> Option<Time> {
        self.pass::<true>(now, size, kind, ecn).map(|p| p.arrives)
    }

    /// Whether the queue may mark ECN-capable packets CE (its discipline's
    /// `marks`): the world offers them with [`Link::offer_marking`].
    pub fn marks(&self) -> bool {
        self.output.as_ref().is_some_and(|o| o.queue.marks())
    }

    /// [`Link::offer`], the packet's ECN bits `ecn` seen and marked if `ECN`
    /// (a constant: without it, the path every other link takes is as if
    /// there were no ECN), with the packet's whole [`Passage`].
    #[inline(always)]
    pub fn pass<const ECN: bool>(
        &mut self,
        now: Time,
        size: u32,
        kind: PacketKind,
        ecn: &mut u8,
    ) -> Option<Passage> {
        let (late, slack) = self.serialise(now, size);
        let tx = self.last_tx.whole + Time::from(late);
        let start = if self.direct {
            self.busy_until.max(now)
        } else {
            let busy_until = self.busy_until;
            self.output_mut().admit::<ECN>(now, size, tx, kind, busy_until, ecn)?
        };
        self.slack = slack;
        // A transmitter freeing at `now` is busy: the arrival goes first
        // (see `Output::settle`), and the packet starts behind the one before.
        self.train =
            if self.busy_until >= now && self.busy_until > 0 { self.train.saturating_add(1) } else { 0 };
        self.busy_until = start + tx;
        Some(Passage { start, train: self.train, arrives: self.busy_until + self.delay })
    }

    /// Whether the queue holds its waiting packets until they start (its
    /// discipline's `holds`): they reach the link through
    /// [`Link::enqueue`], not [`Link::offer`].
    pub fn holds(&self) -> bool {
        self.output.as_ref().is_some_and(|o| o.transmit.is_some())
    }

    /// Packet `p` arrives at `p.enqueued` at a queue that [`Link::holds`]:
    /// whether it was admitted. The packets the discipline dropped to make
    /// room (the arrival among them if it went no further) are pushed on
    /// `dropped`. A queue that marks sets CE in `ecn`, the packet's ECN bits.
    pub fn enqueue(&mut self, p: Queued, ecn: &mut u8, dropped: &mut Vec<Queued>) -> bool {
        let busy_until = self.busy_until;
        self.output_mut().enqueue(p, ecn, busy_until, dropped)
    }

    /// When the transmitter frees for the next held packet, if one waits.
    pub fn next_start(&self) -> Option<Time> {
        let o = self.output.as_ref()?;
        (o.transmit.is_some() && !o.waiting.is_empty()).then_some(self.busy_until)
    }

    /// The held packet the discipline sends next, if one waits and the
    /// transmitter is free at `now`: it leaves the queue, to be offered at
    /// `now`. The packets the discipline dropped instead on the way are
    /// pushed on `dropped`.
    pub fn next_held(&mut self, now: Time, dropped: &mut Vec<Queued>) -> Option<PacketId> {
        if self.busy_until > now {
            return None;
        }
        let busy_until = self.busy_until;
        let p = self.output_mut().start_next(now, busy_until, dropped)?;
        // It waited for the transmitter if it came before the whole ns the
        // transmitter freed at, which is the `now` it is asked at when it
        // waited: any earlier ns is before the exact end (the slack is under
        // 1 ns). One that came at that ns or later found it idle.
        self.follows = p.enqueued < busy_until && busy_until == now;
        // Offered next at `now`, where `offer` times it the same.
        let (late, _) = self.serialise(now, p.size);
        let end = now + self.last_tx.whole + Time::from(late);
        self.output_mut().stats.departure(end, p.size, p.kind);
        Some(p.id)
    }

    /// Set the transmit timer for [`Link::next_start`]; the time of the
    /// event to schedule for it, if one is needed.
    pub fn arm_transmit(&mut self) -> Option<Time> {
        let next = self.next_start();
        let timer = self.output.as_mut()?.transmit.as_deref_mut()?;
        match next {
            Some(t) => timer.set(t),
            None => timer.cancel(),
        }
        timer.needs_event()
    }

    /// The transmit timer's event popped at `now`.
    pub fn transmit_popped(&mut self, now: Time) {
        if let Some(transmit) = self.output.as_mut().and_then(|o| o.transmit.as_mut()) {
            transmit.fires(now);
        }
    }

    /// Packets held by a queue that [`Link::holds`] them.
    pub fn held_packets(&self) -> usize {
        self.output.as_ref().filter(|o| o.transmit.is_some()).map_or(0, |o| o.waiting.len())
    }

    /// Packets waiting (not counting the one on the wire); always 0 for an
    /// untracked link.
    pub fn queued_packets(&self, now: Time) -> usize {
        self.output.as_ref().map_or(0, |o| o.waiting.iter().filter(|w| w.start > now).count())
    }

    /// Account everything up to `t`, the window's end; the statistics
    /// then cover [since, t].
    pub fn close_window(&mut self, t: Time) {
        if self.untracked() {
            return;
        }
        let busy_until = self.busy_until;
        let o = self.output_mut();
        o.open_window(t, busy_until);
        o.settle(t, busy_until);
        o.account_idle(t, busy_until);
    }
}

impl Output {
    /// A queue that never drops, measured over all time.
    fn new() -> Self {
        Output {
            queue: DropTail::unlimited().into(),
            waiting: VecDeque::new(),
            queued_bytes: 0,
            idle_mark: 0,
            window: [0, Time::MAX],
            stats: LinkStats::default(),
            burstiness: None,
            series: None,
            transmit: None,
        }
    }

    /// The queue takes or drops a packet arriving at `now` (`tx` on the
    /// wire) while the transmitter is busy until `busy_until`; when it takes
    /// it, the time its transmission starts.
    /// A mark sets CE in `ecn` (seen only if `ECN`). Inlined: drop-tail's
    /// admission is every tracked hop's path.
    #[inline(always)]
    fn admit<const ECN: bool>(
        &mut self,
        now: Time,
        size: u32,
        tx: Time,
        kind: PacketKind,
        busy_until: Time,
        ecn: &mut u8,
    ) -> Option<Time> {
        let arrival = self.arrival(now, size, busy_until, if ECN { *ecn } else { 0 });
        let admitted = self.verdict::<ECN>(&arrival, ecn);
        self.stats.arrival(now, kind, !admitted);
        if !admitted {
            if let Some(s) = &mut self.series {
                s.dropped(now);
            }
            return None;
        }
        if busy_until <= now {
            self.account_idle(now, busy_until);
            self.stats.departure(now + tx, size, kind);
            Some(now)
        } else {
            self.waiting.push_back(Waiting { start: busy_until, size, kind });
            self.queued_bytes += u64::from(size);
            if let Some(s) = &mut self.series {
                s.queue(now, self.waiting.len(), self.queued_bytes);
            }
            Some(busy_until)
        }
    }

    /// Account the queue up to `now`, and what an arrival of `size` bytes
    /// at `now` shows the discipline. Inlined into both callers: drop-tail's
    /// `admit` is every hop's path.
    #[inline(always)]
    fn arrival(&mut self, now: Time, size: u32, busy_until: Time, ecn: u8) -> Arrival {
        self.open_window(now, busy_until);
        self.settle(now, busy_until);
        if let Some(b) = &mut self.burstiness {
            if now >= self.window[0] && now < self.window[1] {
                b.arrive(now, size);
            }
        }
        if let Some(s) = &mut self.series {
            s.arrived(now);
        }
        Arrival {
            now,
            idle_since: (busy_until <= now).then_some(busy_until),
            queued_bytes: self.queued_bytes,
            queued_packets: self.waiting.len() as u64,
            size,
            ect: ecn & ecn::ECT != 0,
        }
    }

    /// The discipline's verdict on `arrival`: whether it is admitted, CE
    /// set in `ecn` (and counted) if it is marked.
    #[inline(always)]
    fn verdict<const ECN: bool>(&mut self, arrival: &Arrival, ecn: &mut u8) -> bool {
        let verdict = self.queue.verdict(arrival);
        verdict == Verdict::Admit || (ECN && verdict == Verdict::Mark && self.mark(arrival.now, ecn))
    }

    /// An arrival at `now` with ECN bits `ecn` is marked CE: out of line,
    /// as few arrivals are.
    #[cold]
    #[inline(never)]
    fn mark(&mut self, now: Time, ecn: &mut u8) -> bool {
        *ecn |= ecn::CE;
        self.stats.marked(now);
        true
    }

    /// [`Link::enqueue`]: the verdict on packet `p`, given to the
    /// discipline if it is admitted.
    fn enqueue(&mut self, p: Queued, ecn: &mut u8, busy_until: Time, dropped: &mut Vec<Queued>) -> bool {
        let now = p.enqueued;
        let arrival = self.arrival(now, p.size, busy_until, *ecn);
        let admitted = self.verdict::<true>(&arrival, ecn);
        self.stats.arrival(now, p.kind, !admitted);
        if admitted {
            self.waiting.push_back(Waiting { start: Time::MAX, size: p.size, kind: p.kind });
            self.queued_bytes += u64::from(p.size);
            let from = dropped.len();
            self.queue.enqueue(&arrival, p, dropped);
            self.drop_held(now, &dropped[from..]);
        } else if let Some(s) = &mut self.series {
            s.dropped(now);
        }
        if let Some(s) = &mut self.series {
            s.queue(now, self.waiting.len(), self.queued_bytes);
        }
        admitted
    }

    /// The discipline dropped the held packets `dropped` at `now`.
    fn drop_held(&mut self, now: Time, dropped: &[Queued]) {
        for d in dropped {
            self.leave_held(d.size);
            self.stats.drop_queued(now, d.kind);
            if let Some(s) = &mut self.series {
                s.dropped(now);
            }
        }
    }

    /// A held packet of `size` bytes leaves the queue.
    fn leave_held(&mut self, size: u32) {
        self.waiting.pop_front().expect("a held packet waits");
        self.queued_bytes -= u64::from(size);
    }

    /// The packet the discipline sends next starts transmission at `now`,
    /// the transmitter having been free since `busy_until` (its departure
    /// is the link's to count: it knows the packet's end).
    fn start_next(&mut self, now: Time, busy_until: Time, dropped: &mut Vec<Queued>) -> Option<Queued> {
        if self.waiting.is_empty() {
            return None;
        }
        self.open_window(now, busy_until);
        self.settle(now, busy_until);
        self.account_idle(now, busy_until);
        let from = dropped.len();
        let next = self.queue.dequeue(now, dropped);
        self.drop_held(now, &dropped[from..]);
        if let Some(p) = next {
            self.leave_held(p.size);
        }
        if let Some(s) = &mut self.series {
            s.queue(now, self.waiting.len(), self.queued_bytes);
        }
        next
    }

    /// Packets whose transmission began before `now` leave the queue. One
    /// that starts exactly at `now` is still waiting when an arrival at
    /// `now` is admitted, as in ns-2: there the queue's resume event was
    /// scheduled when the previous transmission began, after the arriving
    /// packet's event (scheduled when it left the upstream link), and equal
    /// times run in scheduling order. This tie rule brings the E-base
    /// fidelity points closer to ns-2 (mean goodput error 0.70 -> 0.43 %,
    /// loss 1.45 -> 1.13 % over the 46 reference points).
    /// A packet's transmission ends where the next one's starts (the
    /// transmitter sends them back to back), the last one's at
    /// `busy_until`, the transmitter's: its departure counts then.
    fn settle(&mut self, now: Time, busy_until: Time) {
        while let Some(&w) = self.waiting.front() {
            if w.start >= now {
                break;
            }
            self.stats.hold(w.start, self.waiting.len() as u64, self.queued_bytes);
            self.waiting.pop_front();
            self.queued_bytes -= u64::from(w.size);
            if let Some(s) = &mut self.series {
                s.queue(w.start, self.waiting.len(), self.queued_bytes);
            }
            let end = self.waiting.front().map_or(busy_until, |next| next.start);
            self.stats.departure(end, w.size, w.kind);
        }
        self.stats.hold(now, self.waiting.len() as u64, self.queued_bytes);
    }

    fn account_idle(&mut self, now: Time, busy_until: Time) {
        let from = busy_until.max(self.idle_mark);
        if now > from {
            self.stats.idle_over(from, now);
        }
        self.idle_mark = now;
    }

    /// Open the window if `now` has reached its start.
    #[inline]
    fn open_window(&mut self, now: Time, busy_until: Time) {
        let start = self.window[0];
        if now >= start && self.stats.since() < start {
            self.settle(start, busy_until);
            self.account_idle(start, busy_until);
            self.stats.restart(start, self.window[1]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Time = 1_000_000;

    #[test]
    fn one_packet_arrives_after_serialisation_plus_propagation() {
        let mut l = Link::new(10_000_000, 5 * MS, DropTail::unlimited());
        // 1040 B at 10 Mb/s = 832 us; plus 5 ms.
        assert_eq!(l.offer(1_000, 1040, PacketKind::Data), Some(1_000 + 832_000 + 5 * MS));
    }

    #[test]
    fn back_to_back_packets_queue_behind_each_other() {
        let mut l = Link::new(100_000_000, 0, DropTail::unlimited());
        let t: Vec<_> = (0..3).map(|_| l.offer(0, 1040, PacketKind::Data).unwrap()).collect();
        assert_eq!(t, vec![83_200, 166_400, 249_600]);
        assert_eq!(l.queued_packets(0), 2);
        assert_eq!(l.queued_packets(83_200), 1);
        // After the queue drains the link is idle again: no waiting.
        assert_eq!(l.offer(1_000_000, 1040, PacketKind::Data), Some(1_083_200));
    }

    #[test]
    fn a_2kb_queue_drops_the_third_packet_of_a_burst() {
        // One on the wire, one waiting (1040 + 1040 >= 2000 drops the next).
        let mut l = Link::new(100_000_000, 0, DropTail::bytes(2000));
        let got: Vec<bool> = (0..5).map(|_| l.offer(0, 1040, PacketKind::Data).is_some()).collect();
        assert_eq!(got, vec![true, true, false, false, false]);
        // At the instant the first leaves the wire the second still waits (an
        // arrival at that instant comes first, as in ns-2) ...
        assert!(l.offer(83_200, 1040, PacketKind::Data).is_none());
        // ... just after, the second is on the wire and one fits again.
        assert!(l.offer(83_201, 1040, PacketKind::Data).is_some());
        assert!(l.offer(83_201, 1040, PacketKind::Data).is_none());
        l.close_window(1_000_000);
        assert_eq!(l.output().stats.arrivals, 8);
        assert_eq!(l.output().stats.drops, 5);
        assert_eq!(l.output().stats.departures, 3);
    }

    #[test]
    fn an_untracked_link_times_packets_exactly_as_a_tracked_one() {
        let mut tracked = Link::new(10_000_000, 3 * MS, DropTail::unlimited());
        let mut untracked = tracked.clone();
        untracked.set_untracked();
        // Bursts, gaps and simultaneous arrivals of mixed sizes.
        let arrivals = [(0, 1040), (0, 40), (100_000, 1040), (2 * MS, 1500), (2 * MS, 40), (9 * MS, 1040)];
        for (t, size) in arrivals {
            assert_eq!(tracked.offer(t, size, PacketKind::Data), untracked.offer(t, size, PacketKind::Data));
        }
    }

    #[test]
    fn back_to_back_packets_end_at_their_exact_times_rounded_up() {
        // 1040 B at 100 Gb/s: 83.2 ns each, packet k's last bit at exactly
        // 83.2 k ns (rounded per packet they ended at 83 k, 0.24 % early).
        for untracked in [false, true] {
            let mut l = Link::new(100_000_000_000, 0, DropTail::unlimited());
            if untracked {
                l.set_untracked();
            }
            let ends: Vec<_> = (0..4).map(|_| l.offer(0, 1040, PacketKind::Data).unwrap()).collect();
            assert_eq!(ends, [84, 167, 250, 333]);
            let fifth = l.pass::<false>(0, 1040, PacketKind::Data, &mut 0);
            assert_eq!(fifth, Some(Passage { start: 333, train: 4, arrives: 416 }));
            // Idle from 416 (the exact end): the next train starts afresh.
            assert_eq!(l.offer(1000, 40, PacketKind::Ack), Some(1004));
        }
    }

    /// Every packet's end against the exact (rational) transmitter:
    /// a packet starts at its arrival or at the exact end of the one
    /// before, whichever is later, and ends `size * 8 / rate` after.
    fn exact_ends(rate_bps: u64, arrivals: &[(Time, u32)]) -> Vec<Time> {
        // In units of 1 / rate_bps ns.
        let rate = u128::from(rate_bps);
        let mut end = 0u128;
        let bits_ns = |size: u32| u128::from(size) * 8 * u128::from(crate::sim::time::NS_PER_SEC);
        arrivals
            .iter()
            .map(|&(t, size)| {
                end = end.max(u128::from(t) * rate) + bits_ns(size);
                end.div_ceil(rate) as Time
            })
            .collect()
    }

    #[test]
    fn a_link_sends_at_exactly_its_rate_never_faster() {
        // Long trains of data and ACKs, with gaps: each end is the exact one
        // rounded up, so a busy period sends rate x time bits within 1 ns.
        // Rates whose reduced fraction of a ns (rate / gcd(rate, 8e9)) exceeds
        // a u32 too: 10,000,000,007 b/s, 4.294967311 Gb/s, a prime near
        // 2^61 b/s (made Link::new panic when the slack was kept in u32).
        for rate in [
            100_000_000_000,
            7_000_000,
            9_000_000,
            1_000_000_007,
            10_000_000_007,
            4_294_967_311,
            2_305_843_009_213_693_951,
        ] {
            let mut arrivals = Vec::new();
            let mut t: Time = 0;
            for k in 0..20_000u64 {
                // A burst of 50 every 60 packets' time at the link's rate,
                // its arrivals 0-2 ns apart (a link's arrivals come in time order).
                t += if k % 50 == 0 { 60 * 8320 * 1_000_000_000 / rate } else { k % 3 };
                arrivals.push((t, if k % 7 == 3 { 40 } else { 1040 }));
            }
            for untracked in [false, true] {
                let mut l = Link::new(rate, 0, DropTail::unlimited());
                if untracked {
                    l.set_untracked();
                }
                let ends: Vec<_> =
                    arrivals.iter().map(|&(t, s)| l.offer(t, s, PacketKind::Data).unwrap()).collect();
                assert_eq!(ends, exact_ends(rate, &arrivals), "{rate} b/s");
            }
        }
        // 1040 B at 7 Mb/s: 1,188,571.43 ns; 1000 back to back end at the ceiling of 1000 times that.
        let mut l = Link::new(7_000_000, 0, DropTail::unlimited());
        let last = (0..1000).map(|_| l.offer(0, 1040, PacketKind::Data).unwrap()).last();
        assert_eq!(last, Some(1_188_571_429));
    }

    #[test]
    fn a_held_packet_that_waited_ends_where_drop_tail_ends_it() {
        // CoDel holds its packets; its link offers each when the
        // transmitter frees, at busy_until. Four 1040 B at t = 0 at 100 Gb/s
        // end at the exact 83.2 k ns rounded up, as behind drop-tail (each
        // held one took 84 ns: 84, 168, 252, 336). One arriving after the
        // queue drained, at the whole ns the last ended (333, after its
        // exact end, 332.8), starts afresh, as does one at 1000.
        use crate::net::codel::{Codel, CodelParams};
        let codel = Codel::new(CodelParams::default(), DropTail::unlimited());
        let mut held = Link::new(100_000_000_000, 0, Queue::Codel(codel));
        let mut plain = Link::new(100_000_000_000, 0, DropTail::unlimited());
        held.set_window(0, Time::MAX);
        let (mut ends, mut dropped) = (vec![], vec![]);
        let arrivals = [0, 0, 0, 0, 333, 1000];
        for (id, &t) in arrivals.iter().enumerate() {
            let p = Queued { id: id as PacketId, kind: PacketKind::Data, size: 1040, flow: 0, enqueued: t };
            // Start what the transmitter frees for before the arrival (its
            // `Transmit` events).
            while let Some(at) = held.next_start().filter(|&at| at < t) {
                while held.next_held(at, &mut dropped).is_some() {
                    ends.push(held.offer(at, 1040, PacketKind::Data).unwrap());
                }
            }
            assert!(held.enqueue(p, &mut 0, &mut dropped));
            // And it, if the transmitter is free (the engine's `World::hold`).
            while held.next_held(t, &mut dropped).is_some() {
                ends.push(held.offer(t, 1040, PacketKind::Data).unwrap());
            }
        }
        while let Some(at) = held.next_start() {
            while held.next_held(at, &mut dropped).is_some() {
                ends.push(held.offer(at, 1040, PacketKind::Data).unwrap());
            }
        }
        assert!(dropped.is_empty());
        let want: Vec<_> =
            arrivals.iter().map(|&t| plain.offer(t, 1040, PacketKind::Data).unwrap()).collect();
        assert_eq!(want, [84, 167, 250, 333, 417, 1084]);
        assert_eq!(ends, want);
        held.close_window(2000);
        assert_eq!(held.output().stats.departures, 6);
    }

    #[test]
    fn a_link_is_one_cache_line() {
        // The transmitter's words are read on every packet-hop (see `Link`).
        assert!(std::mem::size_of::<Link>() <= 64, "{} bytes", std::mem::size_of::<Link>());
    }

    #[test]
    fn measured_throughput_never_exceeds_the_rate() {
        // 1040 B back to back at 100 Gb/s and at 7 Mb/s, windows ending at
        // every ns around packets' ends: never more bytes than rate x window.
        for (rate, packets) in [(100_000_000_000u64, 1000), (7_000_000, 50)] {
            let tx = 8320 * 1_000_000_000 / rate;
            for end in (packets / 2 * tx..packets / 2 * tx + 3 * tx).step_by(tx as usize / 7 + 1) {
                let mut l = Link::new(rate, 0, DropTail::unlimited());
                l.set_window(0, end);
                for _ in 0..packets {
                    l.offer(0, 1040, PacketKind::Data);
                }
                l.close_window(end);
                let r = l.output().stats.report();
                assert!(
                    u128::from(r.departed_bytes) * 8 * 1_000_000_000 <= u128::from(rate) * u128::from(end)
                );
                assert!(r.throughput_mbps <= rate as f64 / 1e6, "{} at {rate} b/s", r.throughput_mbps);
            }
        }
    }

    #[test]
    fn a_departure_counts_once_sent_whole_in_the_window() {
        // Eleven 125 B packets at t = 0 on a 1 Mb/s link: on the wire over
        // [k, k + 1) ms. Window [0, 10.5 ms]: ten are sent whole (the 11th,
        // begun at 10 ms, is not), 1250 B, 0.952 Mb/s; counted when begun they
        // were 11, 1.048 Mb/s, more than the link can send.
        let window = |start: Time, end: Time| {
            let mut l = Link::new(1_000_000, 0, DropTail::unlimited());
            l.set_window(start, end);
            for _ in 0..11 {
                l.offer(0, 125, PacketKind::Data);
            }
            l.close_window(end);
            let r = l.output().stats.report();
            assert!(r.throughput_mbps <= 1.0, "{}", r.throughput_mbps);
            (r.departures, r.departed_bytes)
        };
        assert_eq!(window(0, 10_500_000), (10, 1250));
        // One ending exactly at the end is sent whole: [0, 10 ms] holds ten.
        assert_eq!(window(0, 10 * MS), (10, 1250));
        // [2.5, 10.5] ms: those begun at 3..=9 ms (the one on the wire at
        // 2.5 ms began before the window), 7 of the 8 packets' time.
        assert_eq!(window(2_500_000, 10_500_000), (7, 875));
    }

    #[test]
    fn time_averages_are_exact() {
        // Three packets at t=0 on a 1040 B / 83.2 us link: waiting counts are
        // 2 over [0, 83.2), 1 over [83.2, 166.4), 0 after; busy until 249.6 us.
        let mut l = Link::new(100_000_000, 0, DropTail::unlimited());
        l.set_window(0, 332_800);
        for _ in 0..3 {
            l.offer(0, 1040, PacketKind::Data);
        }
        l.close_window(332_800);
        let r = l.output().stats.report();
        assert!((r.mean_queue_packets - 0.75).abs() < 1e-12, "{}", r.mean_queue_packets);
        assert!((r.mean_queue_bytes - 780.0).abs() < 1e-9);
        assert!((r.empty_prob - 0.5).abs() < 1e-12);
        assert!((r.idle_prob - 0.25).abs() < 1e-12);
    }

    /// RED sees the queue without the packet on the wire, and the link's
    /// idle time from the end of its last transmission: three packets at
    /// t = 0 find 0, 0 (the first is on the wire) and 1040 B waiting
    /// (w_q = 0.5: avg 0, 0, 520);
    /// the link drains at 249.6 us, and a packet at 1 ms finds it idle for
    /// 750.4 us, m = floor(12 500/s * 750.4 us) = 9 phantom arrivals:
    /// avg = 520 * 0.5^10.
    #[test]
    fn red_sees_the_waiting_queue_and_the_idle_time() {
        use crate::net::red::{Red, RedConfig};
        let config = RedConfig {
            min_th: 4000.0,
            max_th: 10_000.0,
            max_p: 0.1,
            w_q: 0.5,
            gentle: true,
            byte_mode: true,
            mean_pktsize: 1000,
            limit: 10_000,
            rate_bps: 100_000_000,
            ecn: false,
        };
        let mut l =
            Link::new(100_000_000, 0, Queue::Red(Red::new(config, crate::sim::rng::stream(1, "t", 0))));
        let avg = |l: &Link| match &l.output().queue {
            Queue::Red(r) => r.average(),
            _ => unreachable!(),
        };
        let mut seen = vec![];
        for _ in 0..3 {
            l.offer(0, 1040, PacketKind::Data).unwrap();
            seen.push(avg(&l));
        }
        assert_eq!(seen, vec![0.0, 0.0, 520.0]);
        l.offer(MS, 1040, PacketKind::Data).unwrap();
        assert_eq!(avg(&l), 520.0 * 0.5f64.powi(10));
    }
}
