//! Event queues measured against the engine's calendar queue on a recorded
//! run. Each pops in (time, insertion order), as the engine requires.

use std::collections::VecDeque;

use pacesim_core::sim::Time;

pub trait Queue {
    fn push(&mut self, at: Time, e: u32);
    fn pop(&mut self) -> Option<(Time, u32)>;
}

/// A 4-ary heap with the keys inline: (time, insertion number, event).
#[derive(Default)]
pub struct Quad {
    heap: Vec<(Time, u64, u32)>,
    seq: u64,
}

impl Queue for Quad {
    fn push(&mut self, at: Time, e: u32) {
        let item = (at, self.seq, e);
        self.seq += 1;
        let h = &mut self.heap;
        let mut i = h.len();
        h.push(item);
        while i > 0 {
            let p = (i - 1) / 4;
            if (h[p].0, h[p].1) <= (item.0, item.1) {
                break;
            }
            h[i] = h[p];
            i = p;
        }
        h[i] = item;
    }

    fn pop(&mut self) -> Option<(Time, u32)> {
        let h = &mut self.heap;
        let last = h.pop()?;
        if h.is_empty() {
            return Some((last.0, last.2));
        }
        let top = h[0];
        let n = h.len();
        let mut i = 0;
        loop {
            let c = 4 * i + 1;
            if c >= n {
                break;
            }
            let mut m = c;
            for j in c + 1..(c + 4).min(n) {
                if (h[j].0, h[j].1) < (h[m].0, h[m].1) {
                    m = j;
                }
            }
            if (last.0, last.1) <= (h[m].0, h[m].1) {
                break;
            }
            h[i] = h[m];
            i = m;
        }
        h[i] = last;
        Some((top.0, top.2))
    }
}

/// The engine's queue until 0.2.0: a radix heap (Ahuja, Mehlhorn, Orlin and
/// Tarjan 1990). Bucket `b` holds events whose time first differs from the
/// last popped time at bit `b - 1`, bucket 0 (`due`) those due exactly then;
/// a pop drains `due`, or else splits the lowest non-empty bucket around its
/// earliest time. Equal times share a bucket and every bucket keeps
/// insertion order.
pub struct Radix {
    last: Time,
    due: VecDeque<u32>,
    buckets: Vec<Vec<(Time, u32)>>,
    occupied: u64,
}

impl Default for Radix {
    fn default() -> Self {
        Radix { last: 0, due: VecDeque::new(), buckets: (0..64).map(|_| Vec::new()).collect(), occupied: 0 }
    }
}

impl Radix {
    #[inline]
    fn place(&mut self, at: Time, e: u32) {
        if at == self.last {
            self.due.push_back(e);
        } else {
            let b = 63 - (at ^ self.last).leading_zeros() as usize;
            self.buckets[b].push((at, e));
            self.occupied |= 1 << b;
        }
    }
}

impl Queue for Radix {
    fn push(&mut self, at: Time, e: u32) {
        self.place(at, e);
    }

    fn pop(&mut self) -> Option<(Time, u32)> {
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
        Some((self.last, self.due.pop_front()?))
    }
}
