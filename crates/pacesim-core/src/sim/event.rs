//! The event queue: a calendar queue over integer time, FIFO among equal times.
//!
//! Time is cut into slots of 2^[`SLOT_BITS`] ns, and a wheel of [`SLOTS`]
//! slots covers the window [current slot, current slot + SLOTS) (Brown's
//! calendar queue with a fixed year, or a one-level timing wheel). A push
//! into the window appends the event to its slot's vector; the pop that
//! reaches a slot takes its events, sorted (stably) by time, as the current
//! run. Events beyond the window wait in a heap ordered by (time, insertion
//! number) and are moved into their slot at the moment it enters the
//! window, before anything else can be pushed into it; so every slot is in
//! insertion order, and equal-time events pop in the order they were
//! scheduled: a run is a pure function of its inputs. Nothing is ever
//! removed from the middle: a component that wants to cancel an event keeps
//! its own deadline and ignores stale events when they pop.
//!
//! Why a calendar: replayed on the exact event sequence of E-base (1000
//! flows, 400 s, 29-38 M events, about 4,000 pending; `examples/event_trace`)
//! it takes 14-16 ns per push and pop against 25-26 ns for the radix heap
//! it replaced and 71 ns for a 4-ary heap, and the whole run 20-25 % less
//! time. E-base's events are 95 % packet arrivals 1-134 ms ahead and
//! retransmission timers 0.13-2 s ahead, about one per 14 us; a 268 ms
//! window holds all but 1.5 % of them (windows of 134 ms or less send
//! many arrivals to the heap and cost up to 2.5x more). The slot width is
//! the engine's measurement, not the queue's alone: slots of 65.5 us (4-5
//! events each) leave the wheel's 4,096 slot headers (98 KB) in cache beside
//! the links and flows, and ran E-base 12 % faster than 8.2 us slots
//! (32,768 headers, 786 KB), as fast as a linked-list wheel, and kept pace
//! with the radix heap at 100,000 flows where the lists' pointer chasing
//! lost 15 %. Denser networks only put more events in a slot.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

use super::Time;

/// A slot spans 2^SLOT_BITS ns (65.5 us).
pub const SLOT_BITS: u32 = 16;
/// Slots in the wheel: the window is SLOTS << SLOT_BITS ns (268 ms).
pub const SLOTS: usize = 1 << 12;

/// An event beyond the window, ordered earliest first in a max-heap.
struct Far<E> {
    at: Time,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Far<E> {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
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
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

pub struct EventQueue<E> {
    /// Time of the last popped event: no event may be scheduled before it.
    last: Time,
    /// Number of the current slot (time >> SLOT_BITS).
    current: u64,
    /// The current slot's events, in (time, insertion) order.
    run: VecDeque<(Time, E)>,
    /// Each slot's events in insertion order, by slot number modulo SLOTS.
    /// A slot taken into the run is given the run's emptied buffer, so
    /// buffers circulate and a steady run allocates nothing.
    slots: Box<[Vec<(Time, E)>]>,
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
            run: VecDeque::new(),
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

impl<E> EventQueue<E> {
    /// Schedule `event` at `at`, which must not be before the last popped event.
    #[inline]
    pub fn push(&mut self, at: Time, event: E) {
        assert!(at >= self.last, "event scheduled in the past: {at} < {}", self.last);
        self.len += 1;
        let slot = at >> SLOT_BITS;
        if slot == self.current {
            // After every event of the run due at or before `at`.
            let i = self.run.partition_point(|&(t, _)| t <= at);
            self.run.insert(i, (at, event));
        } else if slot < self.current + SLOTS as u64 {
            self.add(at, event);
        } else {
            self.far.push(Far { at, seq: self.far_pushed, event });
            self.far_pushed += 1;
        }
    }

    /// Append the event to its slot in the window.
    #[inline]
    fn add(&mut self, at: Time, event: E) {
        let slot = (at >> SLOT_BITS) as usize % SLOTS;
        self.slots[slot].push((at, event));
        self.occupied[slot / 64] |= 1 << (slot % 64);
        self.in_wheel += 1;
    }

    /// Move the far events whose slot is now in the window into the wheel.
    fn admit_far(&mut self) {
        let end = self.current + SLOTS as u64;
        while self.far.peek().is_some_and(|f| f.at >> SLOT_BITS < end) {
            let f = self.far.pop().expect("peeked");
            self.add(f.at, f.event);
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

    /// Make the next non-empty slot current, its events the run (the run is
    /// empty); false if no event is left.
    fn advance(&mut self) -> bool {
        let next = match self.next_occupied() {
            Some(slot) => slot,
            None => {
                // Only far events: jump so that the earliest one's slot is in the window.
                let Some(first) = self.far.peek() else { return false };
                self.current = (first.at >> SLOT_BITS) - 1;
                self.admit_far();
                self.next_occupied().expect("the earliest far event entered the wheel")
            }
        };
        self.current = next;
        let slot = next as usize % SLOTS;
        self.occupied[slot / 64] &= !(1 << (slot % 64));
        let events = std::mem::replace(&mut self.slots[slot], std::mem::take(&mut self.run).into());
        self.in_wheel -= events.len();
        self.run = events.into();
        self.run.make_contiguous().sort_by_key(|&(t, _)| t);
        self.admit_far();
        true
    }

    pub fn pop(&mut self) -> Option<(Time, E)> {
        if self.run.is_empty() && !self.advance() {
            return None;
        }
        let (at, event) = self.run.pop_front().expect("the run was loaded");
        self.last = at;
        self.len -= 1;
        self.popped += 1;
        Some((at, event))
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        if let Some(&(t, _)) = self.run.front() {
            return Some(t);
        }
        match self.next_occupied() {
            Some(slot) => self.slots[slot as usize % SLOTS].iter().map(|&(t, _)| t).min(),
            None => self.far.peek().map(|f| f.at),
        }
    }

    /// Pending events, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        let wheel = self.slots.iter().flatten();
        self.run.iter().chain(wheel).map(|(_, e)| e).chain(self.far.iter().map(|f| &f.event))
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
