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

/// A timer's deadline and the time of its earliest pending event, each a
/// plain time with [`NEVER`] for none: 16 bytes, where two `Option<Time>`
/// took 32 (a flow has three timers, and a million flows were 48 MB of them).
#[derive(Debug, Clone)]
pub struct Timer {
    deadline: Time,
    /// Time of the earliest event known to be pending in the queue.
    armed: Time,
}

/// No deadline, no event. Invariant: no timer is set to it. A deadline at
/// `Time::MAX` (only a sum saturated far past any run's end, which
/// `spec::MAX_TIME` bounds at 10^6 s) is kept a nanosecond earlier: its
/// event still never pops, and the timer stays pending as before.
const NEVER: Time = Time::MAX;

// Every flow has three: they must not grow back.
const _: () = assert!(std::mem::size_of::<Timer>() == 16);

impl Default for Timer {
    fn default() -> Self {
        Timer { deadline: NEVER, armed: NEVER }
    }
}

impl Timer {
    pub fn set(&mut self, at: Time) {
        self.deadline = at.min(NEVER - 1);
    }

    pub fn cancel(&mut self) {
        self.deadline = NEVER;
    }

    pub fn deadline(&self) -> Option<Time> {
        (self.deadline != NEVER).then_some(self.deadline)
    }

    pub fn is_pending(&self) -> bool {
        self.deadline != NEVER
    }

    /// Whether an event of this timer is pending (at or before the deadline).
    pub fn has_event(&self) -> bool {
        self.armed != NEVER
    }

    /// If an event must be pushed for the current deadline, the time to push it at.
    #[must_use]
    pub fn needs_event(&mut self) -> Option<Time> {
        let d = self.deadline;
        // No deadline (NEVER), or an event at or before it.
        if self.armed <= d {
            return None;
        }
        self.armed = d;
        Some(d)
    }

    /// An event of this timer popped at `now`: whether the timer fires.
    /// (No event pops at [`NEVER`]: a run ends at its `End`, by `MAX_TIME`.)
    pub fn fires(&mut self, now: Time) -> bool {
        debug_assert!(now != NEVER, "an event popped at Time::MAX");
        if self.armed == now {
            self.armed = NEVER;
        }
        if self.deadline == now {
            self.deadline = NEVER;
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
    fn a_deadline_saturated_at_the_end_of_time_stays_pending_and_never_fires() {
        let mut t = Timer::default();
        assert!(!t.is_pending() && !t.has_event() && t.needs_event().is_none());
        t.set(Time::MAX);
        assert!(t.is_pending());
        assert_eq!(t.needs_event(), Some(Time::MAX - 1));
        assert!(t.has_event() && t.needs_event().is_none());
        assert!(!t.fires(1_000));
        t.cancel();
        assert_eq!(t.deadline(), None);
    }

    #[test]
    fn moving_earlier_and_cancelling_work() {
        let (fired, _) = run(&[(0, Some(10)), (1, Some(5)), (6, Some(20)), (7, None), (30, Some(40))]);
        assert_eq!(fired, vec![5, 40]);
    }
}
