//! The event queue: a calendar queue over integer time; equal times pop in
//! the order they were scheduled.
//!
//! Time is cut into slots of 2^[`SLOT_BITS`] ns, and a wheel of [`SLOTS`]
//! slots covers the window [current slot, current slot + SLOTS) (Brown's
//! calendar queue with a fixed year, or a one-level timing wheel). A push
//! into the window appends the event to its slot's vector; the pop that
//! reaches a slot takes its events, sorted (stably) by (time, tie), as the
//! current run. Events beyond the window wait in a heap ordered by (time,
//! tie, insertion number) and are moved into their slot at the moment it
//! enters the window, before anything else can be pushed into it; so every
//! slot is in insertion order. The tie is when the event was scheduled,
//! then its place in a train of packets (below), then in which half of a
//! split run ([`EventQueue::push_from`]): in one world the first is
//! insertion order again, so equal-time events pop in the order they were
//! scheduled and a run is a pure function of its inputs.
//!
//! This is ns-2's order. Its scheduler (`common/scheduler.cc`,
//! `CalendarScheduler::insert`) puts an event after every event of the
//! same time already queued: equal times run first in, first out. ns-2
//! schedules a packet's arrival at a link's far end when its transmission
//! starts (`LinkDelay::recv`); a packet that waited starts in the queue's
//! resume event, which the previous packet's start scheduled. So among
//! arrivals at one instant, one that was scheduled earlier goes first, and
//! at one scheduling instant the packet that started its link's busy
//! period goes first (its start ran in the event that sent it, scheduled
//! earlier than any resume), then the packets behind it by their place in
//! the train, fewest resumes first. pacesim has no resume events; the
//! engine gives an arrival its start time and its place (`place` of
//! [`EventQueue::push_from`]).
//! Nothing is ever removed from the middle: a component that wants to
//! cancel an event keeps its own deadline and ignores stale events when
//! they pop.
//!
//! Why a calendar: E-base's events are almost all packet arrivals 1-134 ms
//! ahead and retransmission timers 0.13-2 s ahead, so a 268 ms window
//! holds nearly all of them, and slots of 262 us keep the wheel's 1,024
//! slot headers (24 KB) in the first-level cache. What the queue and its
//! slot width were measured against (a radix heap, a 4-ary heap, other
//! widths, a linked-list wheel) is in bench/speed/README.md.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Time;

/// A slot spans 2^SLOT_BITS ns (262 us).
pub const SLOT_BITS: u32 = 18;
/// Slots in the wheel: the window is SLOTS << SLOT_BITS ns (268 ms).
pub const SLOTS: usize = 1 << 10;

/// A pending event: due `at`; among events due at the same time, those
/// of lower `tie` first, then in insertion order (see [`EventQueue::push_from`]).
#[derive(Debug, Clone, Copy)]
struct Entry<E> {
    at: Time,
    tie: u64,
    event: E,
}

/// The bits of a time below its slot number.
const IN_SLOT: Time = (1 << SLOT_BITS) - 1;

impl<E> Entry<E> {
    /// (time, tie) as one 128-bit number, compared in one go.
    #[inline]
    fn key(&self) -> u128 {
        u128::from(self.at) << 64 | u128::from(self.tie)
    }

    /// [`Entry::key`] for events of one slot, which share every bit of
    /// their time from [`SLOT_BITS`] up: (time mod 2^SLOT_BITS, tie), in
    /// the low 82 bits, orders them alike.
    #[inline]
    fn slot_key(&self) -> u128 {
        u128::from(self.at & IN_SLOT) << 64 | u128::from(self.tie)
    }
}

/// How far ahead of its time an event's scheduling time still orders it
/// among its ties (2.1 s); events scheduled further ahead tie among
/// themselves by half, then in insertion order.
const LAG_CAP: u64 = (1 << 31) - 1;

/// An event beyond the window, ordered earliest first in a max-heap.
struct Far<E> {
    entry: Entry<E>,
    seq: u64,
}

impl<E> Far<E> {
    fn key(&self) -> (u128, u64) {
        (self.entry.key(), self.seq)
    }
}

impl<E> PartialEq for Far<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl<E> Eq for Far<E> {}

impl<E> PartialOrd for Far<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<E> Ord for Far<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.key().cmp(&self.key())
    }
}

pub struct EventQueue<E> {
    /// Time of the last popped event: no event may be scheduled before it.
    last: Time,
    /// Number of the current slot (time >> SLOT_BITS).
    current: u64,
    /// The current slot's events, in (time, insertion) order; those before
    /// `next` have popped.
    run: Vec<Entry<E>>,
    next: usize,
    /// Scratch space for sorting a large slot.
    keys: Vec<u128>,
    spare: Vec<Entry<E>>,
    /// Each slot's events in insertion order, by slot number modulo SLOTS.
    /// A slot taken into the run is given the run's emptied buffer, so
    /// buffers circulate and a steady run allocates nothing, unless that
    /// buffer has room for more than [`KEPT_ROOM`] events: then it is
    /// freed and the slot given a new one with that room. (Kept, every
    /// buffer grew to the fullest slot it had served, however few events
    /// the slot it went to held: at 10,000 flows 6.3 MB of room for 0.9 MB
    /// of events.)
    slots: Box<[Vec<Entry<E>>]>,
    /// Bit per slot: its vector is non-empty.
    occupied: Box<[u64]>,
    in_wheel: usize,
    /// Events beyond the window, and how many ever went there.
    far: BinaryHeap<Far<E>>,
    far_pushed: u64,
    len: usize,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            last: 0,
            current: 0,
            run: Vec::new(),
            next: 0,
            keys: Vec::new(),
            spare: Vec::new(),
            slots: (0..SLOTS).map(|_| Vec::new()).collect(),
            occupied: vec![0; SLOTS / 64].into(),
            in_wheel: 0,
            far: BinaryHeap::new(),
            far_pushed: 0,
            len: 0,
            popped: 0,
        }
    }
}

/// The most room for events a buffer keeps when it goes back to a slot:
/// E-base's slots hold about 19 events in one world (the buffers then
/// circulate as before); at 10,000 flows about 165, which a slot's buffer
/// grows to by doubling as events come, and gives back at the slot's turn.
const KEPT_ROOM: usize = 64;

/// Popped events a run may keep before a push into it drops them.
const RUN_COMPACT: usize = 1 << 12;

/// Bits of a large slot's sort key that number its events (see [`sort_slot`]).
const INDEX_BITS: u32 = 128 - SLOT_BITS - 64;

/// Sort a slot's events by (time, tie), equal keys kept in insertion
/// order. E-base's slots hold about 19 events in one world (10 in a half),
/// in no particular order: up to 32 are sorted by insertion on one 128-bit
/// key ([`Entry::slot_key`]) rather than by the library's stable sort,
/// which compares the fields in turn (bench/speed/README.md has the measurements
/// behind both choices). Dense networks put hundreds or thousands in a
/// slot (k = 10: about 190, k = 100: 1,900), where insertion is quadratic:
/// there each event's key takes its place in the slot as its lowest bits,
/// which makes every key distinct, so that an unstable sort of the bare
/// keys (in `keys`) orders the events as a stable one would, and the
/// events are then gathered in that order (through `spare`).
fn sort_slot<E: Copy>(run: &mut Vec<Entry<E>>, keys: &mut Vec<u128>, spare: &mut Vec<Entry<E>>) {
    if run.len() > 32 {
        // (A slot cannot hold 2^INDEX_BITS events: they would fill memory.)
        let indexed = |i: usize, e: &Entry<E>| e.slot_key() << INDEX_BITS | i as u128;
        keys.clear();
        keys.extend(run.iter().enumerate().map(|(i, e)| indexed(i, e)));
        keys.sort_unstable();
        spare.clear();
        spare.extend(keys.iter().map(|k| run[(k & ((1 << INDEX_BITS) - 1)) as usize]));
        std::mem::swap(run, spare);
        return;
    }
    for i in 1..run.len() {
        let e = run[i];
        let k = e.slot_key();
        let mut j = i;
        while j > 0 && run[j - 1].slot_key() > k {
            run[j] = run[j - 1];
            j -= 1;
        }
        run[j] = e;
    }
}

impl<E: Copy> EventQueue<E> {
    /// Schedule `event` at `at`, which must not be before the last popped
    /// event: it pops after every event due at the same time scheduled
    /// before it.
    #[inline]
    pub fn push(&mut self, at: Time, event: E) {
        self.push_from(at, self.last, 0, 0, event);
    }

    /// Schedule `event` at `at` as if it had been scheduled at `scheduled`
    /// (at most `at`), `place` resume events after the event that
    /// scheduled the first of a train of packets (0 for any event but a
    /// packet's arrival, see the module's notes), in half `half` (0 or 1) of
    /// a split network (`engine::partition`). Events due at the same time
    /// pop in the order they were scheduled; those scheduled at the same
    /// instant, lower place first, then half 0's first, then in insertion
    /// order. One world running both halves therefore orders ties exactly
    /// as the two halves do, although each half queues the packets from the
    /// other late.
    #[inline(always)]
    pub fn push_from(&mut self, at: Time, scheduled: Time, place: u16, half: u8, event: E) {
        assert!(at >= self.last, "event scheduled in the past: {at} < {}", self.last);
        debug_assert!(scheduled <= at && half < 2);
        self.len += 1;
        let lag = (at - scheduled).min(LAG_CAP);
        let tie = (LAG_CAP - lag) << 33 | u64::from(place) << 1 | u64::from(half);
        let e = Entry { at, tie, event };
        let slot = at >> SLOT_BITS;
        if slot > self.current && slot < self.current + SLOTS as u64 {
            self.add(e);
        } else {
            self.push_outside_wheel(e);
        }
    }

    /// Queue an event due in the current slot (rare: E-base schedules
    /// arrivals 1 ms or more ahead, pacer timers 0.25 ms or more, against
    /// 262 us slots) or beyond the window (few of E-base's events). Kept
    /// out of line, so that the common push is a few instructions inlined
    /// where it is called.
    #[inline(never)]
    fn push_outside_wheel(&mut self, e: Entry<E>) {
        if e.at >> SLOT_BITS <= self.current {
            // After every event of the run due before `at`, or at `at`
            // with no higher tie. (A slot before the current one: the
            // queue has looked ahead, see `pop_before`, and the run has
            // nothing due at `at`.)
            if self.next >= RUN_COMPACT && 2 * self.next >= self.run.len() {
                // The popped events go once they are most of the run: a
                // run that keeps taking events (a timer re-armed every
                // nanosecond behind a queue that has looked ahead to a slot
                // 100 ms on) holds only the pending ones, not every event
                // since the slot began (E-fig7's FACK with Wei's pacer:
                // 24 B an event, 22 GB). Each event is moved at most once.
                self.run.drain(..self.next);
                self.next = 0;
            }
            let i = self.next + self.run[self.next..].partition_point(|r| r.key() <= e.key());
            self.run.insert(i, e);
        } else {
            self.far.push(Far { entry: e, seq: self.far_pushed });
            self.far_pushed += 1;
        }
    }

    /// Append the event to its slot in the window.
    #[inline]
    fn add(&mut self, e: Entry<E>) {
        let slot = (e.at >> SLOT_BITS) as usize % SLOTS;
        self.slots[slot].push(e);
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.in_wheel += 1;
    }

    /// Whether the earliest far event's slot is in the window.
    #[inline]
    fn far_due(&self) -> bool {
        self.far.peek().is_some_and(|f| f.entry.at >> SLOT_BITS < self.current + SLOTS as u64)
    }

    /// Move the far events whose slot is now in the window into the wheel.
    fn admit_far(&mut self) {
        while self.far_due() {
            let f = self.far.pop().expect("peeked");
            self.add(f.entry);
        }
    }

    /// The first non-empty slot after the current one, if the wheel has any.
    fn next_occupied(&self) -> Option<u64> {
        if self.in_wheel == 0 {
            return None;
        }
        let words = SLOTS / 64;
        let from = (self.current as usize + 1) % SLOTS;
        let mut w = from / 64;
        let mut bits = self.occupied[w] & (!0 << (from % 64));
        // At most one lap, plus the first word's lower bits.
        for _ in 0..=words {
            if bits != 0 {
                let ring = w * 64 + bits.trailing_zeros() as usize;
                return Some(self.current + 1 + ((ring + SLOTS - from) % SLOTS) as u64);
            }
            w = (w + 1) % words;
            bits = self.occupied[w];
        }
        unreachable!("events in the wheel but no occupied slot")
    }

    /// The first slot after the current one holding an event, in the wheel
    /// or beyond it; None if no event is left.
    fn next_slot(&self) -> Option<u64> {
        self.next_occupied().or_else(|| self.far.peek().map(|f| f.entry.at >> SLOT_BITS))
    }

    /// Make slot `next` (from [`EventQueue::next_slot`]) current, its
    /// events the run (the run is empty).
    fn advance(&mut self, next: u64) {
        if next >= self.current + SLOTS as u64 {
            // Only far events: jump so that the earliest one's slot is in the window.
            self.current = next - 1;
            self.admit_far();
        }
        self.current = next;
        let slot = next as usize % SLOTS;
        self.occupied[slot / 64] &= !(1 << (slot % 64));
        self.run.clear();
        self.next = 0;
        if self.run.capacity() > KEPT_ROOM {
            self.run = Vec::with_capacity(KEPT_ROOM);
        }
        std::mem::swap(&mut self.run, &mut self.slots[slot]);
        self.in_wheel -= self.run.len();
        sort_slot(&mut self.run, &mut self.keys, &mut self.spare);
        if self.far_due() {
            self.admit_far();
        }
    }

    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.pop_due(None)
    }

    /// The next event if it is due before `limit`. Events may then still
    /// be pushed from the last popped time on, even before the next one.
    pub fn pop_before(&mut self, limit: Time) -> Option<(Time, E)> {
        self.pop_due(Some(limit))
    }

    #[inline]
    fn pop_due(&mut self, limit: Option<Time>) -> Option<(Time, E)> {
        if self.next == self.run.len() {
            let slot = self.next_slot()?;
            // A slot that starts at or after the limit holds nothing due, and
            // is not made current: what is pushed before it (a split run's
            // mail) still goes to its slot, not into the run one insertion at
            // a time. (A half whose next event was the run's end took every
            // packet the other half sent it, 40 s of an unbounded queue's,
            // into the run: quadratic, 21 s against one thread's 0.13 s.)
            if limit.is_some_and(|limit| slot << SLOT_BITS >= limit) {
                return None;
            }
            self.advance(slot);
        }
        let Entry { at, event, .. } = self.run[self.next];
        if limit.is_some_and(|limit| at >= limit) {
            return None;
        }
        self.next += 1;
        self.last = at;
        self.len -= 1;
        self.popped += 1;
        Some((at, event))
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        if let Some(e) = self.run.get(self.next) {
            return Some(e.at);
        }
        match self.next_occupied() {
            Some(slot) => self.slots[slot as usize % SLOTS].iter().map(|e| e.at).min(),
            None => self.far.peek().map(|f| f.entry.at),
        }
    }

    /// Pending events with their times, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (Time, &E)> {
        let wheel = self.slots.iter().flatten();
        self.run[self.next..]
            .iter()
            .chain(wheel)
            .chain(self.far.iter().map(|f| &f.entry))
            .map(|e| (e.at, &e.event))
    }

    /// The event `k` places after the next one to pop, if the current
    /// slot holds it (to prepare for it, see `sim::prefetch`; later slots
    /// are not sorted yet).
    #[inline]
    pub fn ahead(&self, k: usize) -> Option<&E> {
        self.run.get(self.next + k).map(|e| &e.event)
    }

    /// Events popped so far.
    pub fn popped(&self) -> u64 {
        self.popped
    }

    /// Events ever scheduled beyond the window (a work counter).
    pub fn far_pushed(&self) -> u64 {
        self.far_pushed
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A record of every push and pop of a run's event queue, for replaying
/// the run's exact event sequence into other queues
/// (`examples/event_trace.rs`). Built only with the `trace` feature.
#[cfg(feature = "trace")]
pub mod trace {
    use std::cell::RefCell;

    use super::Time;

    /// A pop.
    pub const POP: u64 = 0;
    /// Bits of a push below its kind tag: a push is `(tag + 1) << TAG_SHIFT | time`.
    pub const TAG_SHIFT: u32 = 56;

    thread_local!(static OPS: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) });

    pub fn push(at: Time, tag: u8) {
        assert!(at < 1 << TAG_SHIFT, "time {at} too large to trace");
        OPS.with(|o| o.borrow_mut().push(u64::from(tag + 1) << TAG_SHIFT | at));
    }

    pub fn pop() {
        OPS.with(|o| o.borrow_mut().push(POP));
    }

    /// The operations recorded on this thread so far, which are forgotten.
    pub fn take() -> Vec<u64> {
        OPS.with(|o| std::mem::take(&mut *o.borrow_mut()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ahead_shows_the_current_slots_next_pops_in_their_order() {
        // Four events in the slot of t = 2^20 (slot 4), pushed out of
        // order, and one in a later slot, which `ahead` does not see.
        let mut q = EventQueue::default();
        let base = 1 << 20;
        for (dt, e) in [(30, 'a'), (10, 'b'), (20, 'c'), (10, 'd')] {
            q.push(base + dt, e);
        }
        q.push(base + (1 << SLOT_BITS), 'z');
        assert_eq!(q.pop(), Some((base + 10, 'b')));
        let seen: Vec<char> = (0..4).filter_map(|k| q.ahead(k).copied()).collect();
        assert_eq!(seen, vec!['d', 'c', 'a']);
        let popped: Vec<char> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).take(3).collect();
        assert_eq!(popped, seen);
    }

    #[test]
    fn a_sparse_slot_holds_no_buffer_grown_by_a_full_one() {
        // Slots 1-100 hold 500 events each, the others one; for three laps
        // every popped event is rescheduled 1,000 slots on, so that the
        // buffers of full slots would go on to serve sparse ones.
        let mut q = EventQueue::default();
        let slot = 1u64 << SLOT_BITS;
        for s in 1..SLOTS as u64 {
            for i in 0..if s <= 100 { 500 } else { 1 } {
                q.push(s * slot + i, ());
            }
        }
        for _ in 0..3 * (100 * 500 + SLOTS) {
            let (t, ()) = q.pop().expect("a pending event");
            q.push(t + 1000 * slot, ());
        }
        for v in q.slots.iter() {
            assert!(
                v.capacity() <= (2 * v.len()).max(KEPT_ROOM),
                "room for {} holds {}",
                v.capacity(),
                v.len()
            );
        }
    }

    #[test]
    fn pops_in_time_order_and_ties_in_insertion_order() {
        let mut q = EventQueue::default();
        q.push(5, 'a');
        q.push(3, 'b');
        q.push(5, 'c');
        q.push(3, 'd');
        q.push(u64::MAX, 'e');
        q.push(0, 'f');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(0, 'f'), (3, 'b'), (3, 'd'), (5, 'a'), (5, 'c'), (u64::MAX, 'e')]);
        assert_eq!(q.popped(), 6);
        assert!(q.is_empty());
    }

    #[test]
    fn an_event_from_beyond_the_window_pops_before_a_later_pushed_tie() {
        let far = (SLOTS as u64 + 10) << SLOT_BITS;
        let mut q = EventQueue::default();
        q.push(far, 'a');
        q.push(far - 5, 'x');
        q.push(1, 'y');
        assert_eq!(q.pop(), Some((1, 'y')));
        q.push(far, 'b');
        assert_eq!(q.pop(), Some((far - 5, 'x')));
        q.push(far, 'c');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(order, vec![(far, 'a'), (far, 'b'), (far, 'c')]);
        // a, x and b went beyond the window; c, pushed at far - 5, into its slot.
        assert_eq!(q.far_pushed(), 3);
    }

    #[test]
    fn pop_before_stops_at_the_limit_and_takes_earlier_pushes_after_looking_ahead() {
        let mut q = EventQueue::default();
        q.push(10, 'a');
        q.push(3 << SLOT_BITS, 'b');
        assert_eq!(q.pop_before(11), Some((10, 'a')));
        // b's slot begins after the limit: the queue stays in a's.
        assert_eq!(q.pop_before(11), None);
        assert_eq!(q.current, 0);
        q.push(20, 'c');
        q.push(2 << SLOT_BITS, 'd');
        q.push(3 << SLOT_BITS, 'e');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![(20, 'c'), (2 << SLOT_BITS, 'd'), (3 << SLOT_BITS, 'b'), (3 << SLOT_BITS, 'e')]
        );
    }

    /// A timer re-armed 1 ns on, again and again, behind a queue that has
    /// looked ahead to a later slot: its events all go into the run, which
    /// keeps only the pending ones (it kept every one popped until the
    /// looked-ahead slot came).
    #[test]
    fn a_run_that_keeps_taking_events_keeps_only_the_pending_ones() {
        let mut q = EventQueue::default();
        let (limit, b) = ((3 << SLOT_BITS) + 1, (3 << SLOT_BITS) + 5);
        q.push(0, 0u32);
        q.push(b, 1);
        assert_eq!(q.pop_before(limit), Some((0, 0)));
        assert_eq!(q.pop_before(limit), None, "looked ahead to slot 3");
        assert_eq!(q.current, 3);
        q.push(1, 2);
        for t in 1..100_000u64 {
            assert_eq!(q.pop(), Some((t, 2)));
            q.push(t + 1, 2);
            assert!(q.run.len() <= 2 * RUN_COMPACT + 2, "{} events in the run at {t} ns", q.run.len());
        }
        assert_eq!(q.len(), 2);
        assert_eq!(q.pop(), Some((100_000, 2)));
        assert_eq!(q.pop(), Some((b, 1)));
    }

    /// A half of a split run whose only event left is the run's end, 4 s
    /// on, waits for the other half's mail: what arrives goes to its slots,
    /// and the run holds none of it. (The queue used to move on to the
    /// end's slot, so that all the mail went into the run one insertion at
    /// a time: an unbounded queue's 40 s of packets took 21 s, not 0.2 s.)
    #[test]
    fn a_look_ahead_stops_before_a_slot_that_begins_after_the_limit() {
        let mut q = EventQueue::default();
        let end = 16_000 << SLOT_BITS;
        q.push(0, 0u32);
        q.push(end, 1);
        assert_eq!(q.pop_before(1), Some((0, 0)));
        assert_eq!(q.pop_before(1), None);
        let mail: Vec<Time> = (1..10_000).map(|k| k * (end / 10_000)).collect();
        for &at in &mail {
            q.push(at, 2);
        }
        assert_eq!(q.run.len(), q.next, "the mail went into the run");
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        let want: Vec<_> = mail.iter().map(|&at| (at, 2)).chain([(end, 1)]).collect();
        assert_eq!(order, want);
    }

    #[test]
    fn ties_pop_in_order_of_scheduling_then_half_then_insertion() {
        let mut q = EventQueue::default();
        q.push(0, 'x');
        q.pop();
        // Now 0. Scheduled now, in half 1 then half 0: half 0's pops first.
        q.push_from(100, 0, 0, 1, 'b');
        q.push_from(100, 0, 0, 0, 'a');
        q.push_from(100, 0, 0, 0, 'c');
        // Queued later but scheduled earlier (a packet from the other half
        // of a split run, taken in late): first of all.
        q.push(50, 'y');
        q.pop();
        q.push(100, 'e');
        q.push_from(100, 20, 0, 1, 'd');
        q.push_from(100, 10, 0, 1, 'z');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, vec!['a', 'c', 'b', 'z', 'd', 'e']);
    }

    /// ns-2's order of two packets reaching a router at one instant, both
    /// started at one instant on their links (1 Gb/s, 1 ms, 1500 B: 12 us
    /// on the wire): `q` sent at once by the event then (an ACK), `p` after
    /// two packets of a train, by two queue resumes (scheduled 12 us
    /// earlier each, the first by the event that started the train): `q`'s
    /// start was scheduled first, so `q` arrives first; `r`, the second of
    /// a train, before `p`, the third. Half 1 does not go before place 0.
    #[test]
    fn a_packet_that_waited_on_its_link_arrives_after_one_sent_at_once() {
        let mut q = EventQueue::default();
        let (start, at) = (10_000_000, 11_012_000);
        q.push_from(at, start, 2, 0, 'p');
        q.push_from(at, start, 0, 1, 'q');
        q.push_from(at, start, 1, 0, 'r');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
        assert_eq!(order, vec!['q', 'r', 'p']);
    }

    /// Slots of every size (insertion sort, keys with places) pop by time,
    /// then tie, then insertion: events at a few times in one slot, each
    /// scheduled at one of a few earlier times, in a scrambled order.
    #[test]
    fn large_slots_pop_as_a_stable_sort_orders_them() {
        for n in [20, 500, 20_000] {
            let mut q = EventQueue::default();
            let mut want = vec![];
            for i in 0..n {
                let at = (5 << SLOT_BITS) + (i * 7919 % 13) as Time;
                let scheduled = (i * 104_729 % 5) as Time;
                let place = (i * 31 % 3) as u16;
                q.push_from(at, scheduled, place, (i % 2) as u8, i);
                want.push(((at, LAG_CAP - (at - scheduled)), place, i % 2, i));
            }
            want.sort();
            let got: Vec<_> = std::iter::from_fn(|| q.pop()).map(|(_, e)| e).collect();
            assert_eq!(got, want.iter().map(|w| w.3).collect::<Vec<_>>(), "{n} events in a slot");
        }
    }

    #[test]
    #[should_panic(expected = "in the past")]
    fn scheduling_in_the_past_is_refused() {
        let mut q = EventQueue::default();
        q.push(10, ());
        q.pop();
        q.push(9, ());
    }

    proptest! {
        #![proptest_config(crate::proptest_config(256))]

        /// Against a reference: a sorted list keyed by (time, insertion number),
        /// with pushes interleaved with pops as a simulation does them.
        #[test]
        fn matches_a_stable_sort(ops in prop::collection::vec((0u64..4, 0u64..50, 0u32..4), 1..400)) {
            let mut q = EventQueue::default();
            let mut reference: Vec<(Time, usize)> = vec![];
            let mut now = 0;
            for (i, (pops, delay, coarse)) in ops.into_iter().enumerate() {
                // Within a slot, across slots, across and beyond the window.
                let at = now + (delay << [0, 12, 20, 24][coarse as usize]);
                q.push(at, i);
                reference.push((at, i));
                for _ in 0..pops {
                    reference.sort();
                    let want = if reference.is_empty() { None } else { Some(reference.remove(0)) };
                    prop_assert_eq!(q.peek_time(), want.map(|w| w.0));
                    let got = q.pop();
                    prop_assert_eq!(got, want);
                    if let Some((t, _)) = got { now = t; }
                }
                prop_assert_eq!(q.len(), reference.len());
            }
        }
    }
}
