//! The event queue: a binary min-heap keyed by (time, insertion sequence).
//!
//! Equal-time events pop in the order they were scheduled, so a run is a
//! pure function of its inputs. Nothing is ever removed from the middle of
//! the heap: a component that wants to cancel an event keeps a generation
//! number or deadline of its own and ignores stale events when they pop.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use super::Time;

struct Entry<E> {
    /// (time, seq) packed so one integer compare orders entries.
    key: u128,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and we want the earliest first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    seq: u64,
    popped: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self {
            heap: BinaryHeap::new(),
            seq: 0,
            popped: 0,
        }
    }
}

impl<E> EventQueue<E> {
    pub fn push(&mut self, at: Time, event: E) {
        let key = (u128::from(at) << 64) | u128::from(self.seq);
        self.seq += 1;
        self.heap.push(Entry { key, event });
    }

    pub fn pop(&mut self) -> Option<(Time, E)> {
        let e = self.heap.pop()?;
        self.popped += 1;
        Some(((e.key >> 64) as Time, e.event))
    }

    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|e| (e.key >> 64) as Time)
    }

    /// Pending events, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = &E> {
        self.heap.iter().map(|e| &e.event)
    }

    /// Events popped so far.
    pub fn popped(&self) -> u64 {
        self.popped
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_and_ties_in_insertion_order() {
        let mut q = EventQueue::default();
        q.push(5, 'a');
        q.push(3, 'b');
        q.push(5, 'c');
        q.push(3, 'd');
        q.push(u64::MAX, 'e');
        let order: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(
            order,
            vec![(3, 'b'), (3, 'd'), (5, 'a'), (5, 'c'), (u64::MAX, 'e')]
        );
        assert_eq!(q.popped(), 5);
    }
}
