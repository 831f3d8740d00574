//! The event queue: a radix heap over integer time, FIFO among equal times.
//!
//! Simulated time never goes backwards, so the queue can be a radix heap
//! (Ahuja, Mehlhorn, Orlin and Tarjan 1990): bucket `b` holds events whose
//! time first differs from the last popped time at bit `b - 1`, and bucket
//! 0 holds events due exactly at the last popped time. A push appends to one
//! bucket; a pop drains bucket 0, or else splits the lowest non-empty bucket
//! around its earliest time. Each event moves down at most 64 times, in
//! practice a few, with sequential memory access throughout.
//!
//! Ties: events due at the same time always share a bucket, every bucket
//! keeps insertion order, and bucket 0 is a FIFO, so equal-time events pop
//! in the order they were scheduled; a run is a pure function of its inputs.
//! Nothing is ever removed from the middle: a component that wants to cancel
//! an event keeps its own deadline and ignores stale events when they pop.

use std::collections::VecDeque;

use super::Time;

pub struct EventQueue<E> {
    /// Time of the last popped event: no event may be scheduled before it.
    last: Time,
    /// Events due at `last`, in insertion order.
    due: VecDeque<E>,
    /// `buckets[b - 1]` for b in 1..=64.
    buckets: Vec<Vec<(Time, E)>>,
    /// Bit `b - 1` set when bucket `b` is non-empty.
    occupied: u64,
    len: usize,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue {
            last: 0,
            due: VecDeque::new(),
            buckets: (0..64).map(|_| Vec::new()).collect(),
            occupied: 0,
            len: 0,
            popped: 0,
        }
    }
}

impl<E> EventQueue<E> {
    #[inline]
    fn place(&mut self, at: Time, event: E) {
        if at == self.last {
            self.due.push_back(event);
        } else {
            let b = 63 - (at ^ self.last).leading_zeros() as usize;
            self.buckets[b].push((at, event));
            self.occupied |= 1 << b;
        }
    }

    /// Schedule `event` at `at`, which must not be before the last popped event.
    #[inline]
    pub fn push(&mut self, at: Time, event: E) {
        assert!(at >= self.last, "event scheduled in the past: {at} < {}", self.last);
        self.len += 1;
        self.place(at, event);
    }

    pub fn pop(&mut self) -> Option<(Time, E)> {
        if self.due.is_empty() {
            if self.occupied == 0 {
                return None;
            }
            let b = self.occupied.trailing_zeros() as usize;
            self.occupied &= !(1 << b);
            let mut bucket = std::mem::take(&mut self.buckets[b]);
            self.last = bucket.iter().map(|&(t, _)| t).min().expect("occupied bucket is empty");
            for (t, e) in bucket.drain(..) {
                self.place(t, e);
            }
            self.buckets[b] = bucket;
        }
        let e = self.due.pop_front()?;
        self.len -= 1;
        self.popped += 1;
        Some((self.last, e))
    }

    /// Time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        if !self.due.is_empty() {
            return Some(self.last);
        }
        let b = self.occupied.trailing_zeros() as usize;
        self.buckets.get(b)?.iter().map(|&(t, _)| t).min()
    }

    /// Pending events, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        self.due.iter().chain(self.buckets.iter().flatten().map(|(_, e)| e))
    }

    /// Events popped so far.
    pub fn popped(&self) -> u64 {
        self.popped
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
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
        fn matches_a_stable_sort(ops in prop::collection::vec((0u64..4, 0u64..50, any::<bool>()), 1..400)) {
            let mut q = EventQueue::default();
            let mut reference: Vec<(Time, usize)> = vec![];
            let mut now = 0;
            for (i, (pops, delay, coarse)) in ops.into_iter().enumerate() {
                let at = now + if coarse { delay << 20 } else { delay };
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
