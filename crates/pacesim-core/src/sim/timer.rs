//! A one-shot timer that can be re-armed or cancelled without touching the
//! event queue.
//!
//! TCP restarts its retransmission timer on nearly every ACK. Rather than
//! pushing an event each time (and deleting the old one from the heap), the
//! owner only moves `deadline`; an event is pushed only when no pending
//! event would pop at or before the new deadline. When an event pops, it
//! fires only if it matches the current deadline: stale events are ignored
//! (lazy cancellation), and an early one re-arms for the moved deadline.

use super::Time;

#[derive(Debug, Clone, Default)]
pub struct Timer {
    deadline: Option<Time>,
    /// Time of the earliest event known to be pending in the queue.
    armed: Option<Time>,
}

impl Timer {
    pub fn set(&mut self, at: Time) {
        self.deadline = Some(at);
    }

    pub fn cancel(&mut self) {
        self.deadline = None;
    }

    pub fn deadline(&self) -> Option<Time> {
        self.deadline
    }

    pub fn is_pending(&self) -> bool {
        self.deadline.is_some()
    }

    /// Whether an event of this timer is pending (at or before the deadline).
    pub fn has_event(&self) -> bool {
        self.armed.is_some()
    }

    /// If an event must be pushed for the current deadline, the time to push it at.
    #[must_use]
    pub fn needs_event(&mut self) -> Option<Time> {
        let d = self.deadline?;
        if self.armed.is_some_and(|a| a <= d) {
            return None;
        }
        self.armed = Some(d);
        Some(d)
    }

    /// An event of this timer popped at `now`: whether the timer fires.
    pub fn fires(&mut self, now: Time) -> bool {
        if self.armed == Some(now) {
            self.armed = None;
        }
        if self.deadline == Some(now) {
            self.deadline = None;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::EventQueue;

    /// Drive a timer through a queue and return the times it fired.
    fn run(script: &[(Time, Option<Time>)]) -> (Vec<Time>, usize) {
        let mut q = EventQueue::default();
        let mut t = Timer::default();
        let mut fired = vec![];
        let mut pushes = 0;
        let mut steps = script.iter().peekable();
        loop {
            let next_step = steps.peek().map(|s| s.0);
            let next_ev = q.peek_time();
            match (next_step, next_ev) {
                (Some(s), e) if e.is_none_or(|e| s < e) => {
                    let (_, action) = steps.next().unwrap();
                    match action {
                        Some(at) => t.set(*at),
                        None => t.cancel(),
                    }
                }
                (_, Some(_)) => {
                    let (now, ()) = q.pop().unwrap();
                    if t.fires(now) {
                        fired.push(now);
                    }
                }
                (None, None) => break,
                _ => unreachable!(),
            }
            if let Some(at) = t.needs_event() {
                q.push(at, ());
                pushes += 1;
            }
        }
        (fired, pushes)
    }

    #[test]
    fn rearming_later_fires_once_at_the_last_deadline() {
        // Re-armed at 0,1,2,3 for now+10: fires at 13 only, after 2 pushes.
        let (fired, pushes) = run(&[(0, Some(10)), (1, Some(11)), (2, Some(12)), (3, Some(13))]);
        assert_eq!(fired, vec![13]);
        assert_eq!(pushes, 2);
    }

    #[test]
    fn moving_earlier_and_cancelling_work() {
        let (fired, _) = run(&[(0, Some(10)), (1, Some(5)), (6, Some(20)), (7, None), (30, Some(40))]);
        assert_eq!(fired, vec![5, 40]);
    }
}
