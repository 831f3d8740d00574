//! The two halves of a split network ([`super::partition`]) run on two
//! threads while each has a core, and on one when they do not.
//!
//! Each half runs every event that no packet from the other can precede
//! and then waits for the other's clock to move. Waiting spins only
//! briefly, then parks the thread, so a waiting half leaves its core to
//! whatever else the machine runs. But the halves are coupled a lookahead
//! apart (a few simulated milliseconds, tens of microseconds of work): when
//! either thread loses its core, the other soon waits for it, and two
//! threads that take turns on a core lose to one thread. So a half that has
//! waited [`PATIENCE`] for the other takes this as a sign that the machine
//! has no core to spare: half 1 is then lent to the main thread, which runs
//! both halves in turn, until the lender sees a core idle again and takes
//! half 1 back. Which thread runs which half, and when, changes nothing in
//! the report (see [`super::partition`]). Two halves on one thread do more
//! work than one world (the packets crossing the cut), so a run that finds
//! no core to spare as it starts had better not be split ([`spare_core`];
//! the Python bindings ask it).
//!
//! A half that panics (or whose `progress` unwinds, as the Python bindings
//! do to stop a run) ends the other at once, and the run unwinds with that
//! half's payload, its message included.

use std::any::Any;
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;
use std::time::{Duration, Instant};

use super::partition::Outbox;
use super::world::World;
use crate::sim::Time;

/// How long a half waits for the other's clock before it takes the other's
/// thread to have lost its core. On an idle machine a half waits for the
/// other to finish a slice (a quarter lookahead, tens of microseconds).
const PATIENCE: Duration = Duration::from_millis(2);

/// How often the lender of half 1 looks for an idle core, and how many
/// looks in a row must find one before it takes half 1 back.
const PROBE: Duration = Duration::from_millis(20);
const IDLE_PROBES: u32 = 3;

/// Busy-wait checks of the other half's clock before a half parks: the
/// other half usually posts again within a few microseconds, sooner than a
/// parked thread wakes.
const SPINS: u32 = 1 << 10;

/// How often a half posts what it sent, in simulated time, as a share of
/// its lookahead: often enough that the other seldom waits for news
/// (E-base: every 1.3 ms, about 300,000 posts a half in 400 s; bench/speed/README.md
/// has how other rates fared).
const POSTS_PER_LOOKAHEAD: u64 = 4;

/// Run the two halves of a split network (`a` simulates half 0, `b` half
/// 1, both with their first events scheduled) to the end at `end`, half 0
/// on this thread and, given two `threads`, half 1 on another while it is
/// not lent to this one (given one, it is lent from the start); `progress`
/// hears half 0's simulated time. Packets due across the cut at or after
/// the end are not taken in: the halves count them (`World::unreceived`).
pub fn run_halves(a: &mut World, b: &mut World, end: Time, threads: usize, progress: &mut dyn FnMut(Time)) {
    let into = a.cut.as_ref().expect("a split world").into;
    let (to_a, to_b) = (Channel::default(), Channel::default());
    let shared = Shared { abandoned: AtomicBool::new(false), ..Default::default() };
    let (ended_a, ended_b) = std::thread::scope(|scope| {
        let h0 = Half::new(a, &to_b, &to_a, into[0], end);
        let h1 = Half::new(b, &to_a, &to_b, into[1], end);
        if threads < 2 {
            let kept = shared.hand(|s| matches!(s, Slot::Own), Slot::Lent, h1);
            debug_assert!(kept.is_none(), "half 1 starts on its own");
            return (shared.guarded(MAIN, || borrow(h0, &shared, progress)), Ok(()));
        }
        let lender = scope.spawn(|| shared.guarded(HELPER, || lend(h1, &shared)));
        let mine = shared.guarded(MAIN, || borrow(h0, &shared, progress));
        (mine, lender.join().expect("a half catches its own panic"))
    });
    if let Err(payload) = ended_a.and(ended_b) {
        panic::resume_unwind(payload);
    }
    let mail = [to_a, to_b].map(|c| c.mail.into_inner().expect("not poisoned"));
    take_in_the_rest(a, b, mail, end);
}

/// Take in what crossed the cut before `end` but came after the half it
/// went to had ended: a half runs its `End` once no packet can make an
/// event there before the end, but a packet reaching the far end of a
/// cut link before the end still crosses the cut-through links after it
/// then (`World::receive`), and they count it, as they do in one world.
/// Its events fall after the end; one carried straight back across the cut
/// goes round again.
fn take_in_the_rest(a: &mut World, b: &mut World, mut mail: [Outbox; 2], end: Time) {
    loop {
        a.receive(&mut mail[0], end);
        b.receive(&mut mail[1], end);
        if a.outbox.is_empty() && b.outbox.is_empty() {
            return;
        }
        mail[1].append(&mut a.outbox);
        mail[0].append(&mut b.outbox);
    }
}

/// One direction across the cut: the packets sent and not yet taken, and
/// the sender's clock: every packet it sends from now on makes its first
/// event in the reader's half a lookahead after that time or later.
#[derive(Default)]
struct Channel {
    mail: Mutex<Outbox>,
    clock: AtomicU64,
}

/// What the two threads share besides the channels: where half 1 is, and
/// whether the run is abandoned (a half unwound).
#[derive(Default)]
struct Shared<'a> {
    abandoned: AtomicBool,
    slot: Mutex<Slot<'a>>,
    /// Set when `slot` holds half 1 on its way to the other thread.
    handed: AtomicBool,
    /// The main thread asks for half 1 (it waited too long), or the lender
    /// asks it back (a core is idle).
    asked: AtomicBool,
    /// Whether each thread is parked (or about to park) until woken, and
    /// the threads (each sets its own before it first parks).
    parked: [AtomicBool; 2],
    threads: [OnceLock<Thread>; 2],
}

/// Where half 1 is.
#[derive(Default)]
enum Slot<'a> {
    /// On its own thread.
    #[default]
    Own,
    /// Lent to the main thread, which has not taken it yet.
    Lent(Half<'a>),
    /// Run by the main thread.
    Borrowed,
    /// Given back, not yet taken.
    Back(Half<'a>),
    /// The main thread is done and holds no half: half 1 stays on its own.
    Over,
}

/// The threads, by the half each runs of its own.
const MAIN: usize = 0;
const HELPER: usize = 1;

impl<'a> Shared<'a> {
    /// Wake thread `which` if it is parked.
    fn wake(&self, which: usize) {
        if self.parked[which].swap(false, Ordering::SeqCst) {
            self.threads[which].get().expect("a parked thread is known").unpark();
        }
    }

    /// Park thread `which` until woken, `until` is true (checked after
    /// marking it parked: SeqCst here and in `wake` and on the clocks, so
    /// either this sees what `until` waits for or the waker sees it parked)
    /// or `deadline` passes; false if it passed.
    fn park(&self, which: usize, deadline: Option<Instant>, until: impl Fn() -> bool) -> bool {
        loop {
            self.parked[which].store(true, Ordering::SeqCst);
            if until() || self.abandoned.load(Ordering::SeqCst) {
                self.parked[which].store(false, Ordering::Relaxed);
                return true;
            }
            match deadline {
                None => std::thread::park(),
                Some(d) => {
                    let now = Instant::now();
                    if now >= d {
                        self.parked[which].store(false, Ordering::Relaxed);
                        return false;
                    }
                    std::thread::park_timeout(d - now);
                }
            }
        }
    }

    /// Post `clock` on `out` and wake the thread reading it, if any.
    fn post(&self, out: &Channel, clock: Time, reader: Option<usize>) {
        out.clock.store(clock, Ordering::SeqCst);
        if let Some(r) = reader {
            self.wake(r);
        }
    }

    /// Wait for `inbox`'s clock to move from `clock` (true), or `stop()`
    /// (true), or `patience` to pass (false): spin a little, then park.
    fn wait(
        &self,
        which: usize,
        inbox: &Channel,
        clock: Time,
        patience: Option<Duration>,
        stop: impl Fn() -> bool,
    ) -> bool {
        let moved = || inbox.clock.load(Ordering::SeqCst) != clock || stop();
        for _ in 0..SPINS {
            if moved() || self.abandoned.load(Ordering::Relaxed) {
                return true;
            }
            std::hint::spin_loop();
        }
        self.park(which, patience.map(|p| Instant::now() + p), moved)
    }

    /// Run `half`; if it unwinds, mark the run abandoned, wake both threads
    /// so the other sees it, and return the payload.
    fn guarded(&self, which: usize, half: impl FnOnce()) -> Result<(), Box<dyn Any + Send>> {
        self.threads[which].set(std::thread::current()).expect("one thread each");
        panic::catch_unwind(AssertUnwindSafe(half)).inspect_err(|_| {
            self.abandoned.store(true, Ordering::SeqCst);
            for t in self.threads.iter().filter_map(OnceLock::get) {
                t.unpark();
            }
        })
    }

    fn over(&self) -> bool {
        matches!(*self.slot.lock().expect("not poisoned"), Slot::Over)
    }

    /// Put `half` in the slot for the other thread, if `from` is where it is.
    fn hand(
        &self,
        from: fn(&Slot) -> bool,
        to: fn(Half<'a>) -> Slot<'a>,
        half: Half<'a>,
    ) -> Option<Half<'a>> {
        let mut slot = self.slot.lock().expect("not poisoned");
        if !from(&slot) {
            return Some(half);
        }
        *slot = to(half);
        self.handed.store(true, Ordering::SeqCst);
        None
    }

    /// Take half 1 from the slot if it was handed this way.
    fn take(&self, handed: fn(Slot<'a>) -> Result<(Half<'a>, Slot<'a>), Slot<'a>>) -> Option<Half<'a>> {
        if !self.handed.load(Ordering::SeqCst) {
            return None;
        }
        let mut slot = self.slot.lock().expect("not poisoned");
        match handed(std::mem::take(&mut *slot)) {
            Ok((half, now)) => {
                *slot = now;
                self.handed.store(false, Ordering::SeqCst);
                self.asked.store(false, Ordering::SeqCst);
                Some(half)
            }
            Err(as_was) => {
                *slot = as_was;
                None
            }
        }
    }
}

/// The helper thread: run half 1 while waits for half 0 stay short; lend
/// it to the main thread when one does not, or when asked; take it back
/// when a core stays idle for [`IDLE_PROBES`] looks.
fn lend<'a>(h1: Half<'a>, shared: &Shared<'a>) {
    let mut own = Some(h1);
    let mut idle = 0;
    while !shared.abandoned.load(Ordering::Relaxed) {
        let Some(half) = &mut own else {
            shared.park(HELPER, Some(Instant::now() + PROBE), || {
                shared.handed.load(Ordering::SeqCst) || shared.over()
            });
            own = shared.take(|slot| match slot {
                Slot::Back(half) => Ok((half, Slot::Own)),
                other => Err(other),
            });
            if shared.over() {
                return;
            }
            idle = if own.is_none() && core_idle() { idle + 1 } else { 0 };
            if idle >= IDLE_PROBES {
                idle = 0;
                shared.asked.store(true, Ordering::SeqCst);
            }
            continue;
        };
        let patient = match half.turn(&mut |_| {}, shared, Some(MAIN)) {
            Turn::Done => return,
            Turn::Ran => true,
            Turn::Waits(clock) => {
                let asked = || shared.asked.load(Ordering::SeqCst);
                shared.wait(HELPER, half.inbox, clock, Some(PATIENCE), asked)
            }
        };
        let asked = shared.asked.swap(false, Ordering::SeqCst);
        if !patient || asked {
            let half = own.take().expect("held");
            own = shared.hand(|s| matches!(s, Slot::Own), Slot::Lent, half);
            shared.wake(MAIN);
        }
    }
}

/// The main thread: run half 0, and half 1 too while it is lent; ask for
/// it when a wait for half 1 runs out of patience; give it back when asked.
fn borrow<'a>(h0: Half<'a>, shared: &Shared<'a>, progress: &mut dyn FnMut(Time)) {
    let mut h0 = h0;
    let mut borrowed: Option<Half<'a>> = None;
    while !shared.abandoned.load(Ordering::Relaxed) {
        if borrowed.is_none() {
            borrowed = shared.take(|slot| match slot {
                Slot::Lent(half) => Ok((half, Slot::Borrowed)),
                other => Err(other),
            });
        }
        let Some(h1) = &mut borrowed else {
            match h0.turn(progress, shared, Some(HELPER)) {
                Turn::Ran => {}
                Turn::Done => {
                    // Done unless half 1 is on its way here.
                    let mut slot = shared.slot.lock().expect("not poisoned");
                    if matches!(*slot, Slot::Own) {
                        *slot = Slot::Over;
                        return;
                    }
                }
                Turn::Waits(clock) => {
                    let handed = || shared.handed.load(Ordering::SeqCst);
                    if !shared.wait(MAIN, h0.inbox, clock, Some(PATIENCE), handed) {
                        shared.asked.store(true, Ordering::SeqCst);
                        shared.wait(MAIN, h0.inbox, clock, None, handed);
                    }
                }
            }
            continue;
        };
        // Both halves here: a turn each until both are done, or the lender
        // asks half 1 back (none reads half 0's posts meanwhile).
        let (t0, t1) = (h0.turn(progress, shared, None), h1.turn(&mut |_| {}, shared, None));
        match (t0, t1) {
            (Turn::Done, Turn::Done) => {
                *shared.slot.lock().expect("not poisoned") = Slot::Over;
                shared.wake(HELPER);
                return;
            }
            (Turn::Waits(_), Turn::Waits(_)) if !h0.moved && !h1.moved => {
                unreachable!("neither half of a split run can move")
            }
            _ => {}
        }
        if shared.asked.swap(false, Ordering::SeqCst) {
            let half = borrowed.take().expect("held");
            borrowed = shared.hand(|s| matches!(s, Slot::Borrowed), Slot::Back, half);
            shared.wake(HELPER);
        }
    }
}

/// What a half did in one turn.
#[derive(Debug, Clone, Copy)]
enum Turn {
    /// It ran a slice of events.
    Ran,
    /// It can run nothing before the other's clock (given) moves.
    Waits(Time),
    /// It ran its `End` event.
    Done,
}

/// One half with its end of the channels.
struct Half<'a> {
    w: &'a mut World,
    out: &'a Channel,
    inbox: &'a Channel,
    lookahead: Time,
    end: Time,
    /// Every slice runs at most this much simulated time.
    step: Time,
    taken: Outbox,
    /// The other's clock when its mail was last taken in.
    seen: Option<Time>,
    /// The clock this half last posted.
    posted: Time,
    /// Whether its last turn ran events or posted a later clock.
    moved: bool,
    done: bool,
}

impl<'a> Half<'a> {
    fn new(w: &'a mut World, out: &'a Channel, inbox: &'a Channel, lookahead: Time, end: Time) -> Self {
        let step = (lookahead / POSTS_PER_LOOKAHEAD).max(1);
        Half {
            w,
            out,
            inbox,
            lookahead,
            end,
            step,
            taken: Outbox::default(),
            seen: None,
            posted: 0,
            moved: true,
            done: false,
        }
    }

    /// Take in what the other half sent, then run the events that no
    /// packet from it can precede (those before its clock plus the
    /// lookahead), a slice at most, and post what crossed with this half's
    /// clock to `reader`; or, with nothing to run, post the clock it waits
    /// at. The halves never run in lockstep; what each takes in, and when,
    /// changes nothing in its order of events, which follows the events'
    /// keys alone (`EventQueue::push_from`).
    ///
    /// The clock a half posts is the earliest time it may still send from:
    /// its next event, but no later than the other's clock plus the
    /// lookahead, the earliest a packet it has not yet taken in can arrive
    /// (and make it send), nor than what a pacer in front of a cut link has
    /// not yet put on it allows (`World::sends_from`). Posting that even
    /// while waiting lets both move on when neither has anything to do.
    /// Every packet sent before it is in the mail by then, those that
    /// taking in the other's mail sent straight back across included.
    fn turn(&mut self, progress: &mut dyn FnMut(Time), shared: &Shared, reader: Option<usize>) -> Turn {
        if self.done {
            self.moved = false;
            return Turn::Done;
        }
        // The clock first: everything sent before it is in the mail. (Mail
        // that came with no new clock can wait for the next.)
        let clock = self.inbox.clock.load(Ordering::SeqCst);
        if self.seen != Some(clock) {
            self.seen = Some(clock);
            std::mem::swap(&mut *self.inbox.mail.lock().expect("not poisoned"), &mut self.taken);
            self.w.receive(&mut self.taken, self.end);
        }
        let safe = clock.saturating_add(self.lookahead);
        let next = self.w.queue.peek_time().unwrap_or(Time::MAX);
        if next >= safe {
            let mine = self.w.sends_from(safe);
            // Taking the mail in may have sent packets straight back across
            // (a route that leaves this half again across a cut-through
            // link): they go with the clock, which says all sent before it
            // is in the mail.
            self.out.mail.lock().expect("not poisoned").append(&mut self.w.outbox);
            self.moved = mine > self.posted;
            if self.moved {
                self.posted = mine;
                shared.post(self.out, mine, reader);
            }
            return Turn::Waits(clock);
        }
        // Alone on a thread (no reader to wake), a half runs all it can.
        let step = self.step;
        self.done = self.w.run_until(safe.min(next.saturating_add(step)), progress);
        let clock = if self.done {
            Time::MAX
        } else {
            self.w.sends_from(self.w.queue.peek_time().unwrap_or(Time::MAX).min(safe))
        };
        debug_assert!(clock >= self.posted, "a half's clock went back: {} -> {clock}", self.posted);
        self.posted = clock;
        self.moved = true;
        self.out.mail.lock().expect("not poisoned").append(&mut self.w.outbox);
        shared.post(self.out, clock, reader);
        if self.done {
            Turn::Done
        } else {
            Turn::Ran
        }
    }
}

/// Whether the machine has a core to spare for a second thread as a run
/// starts: the threads running or ready to run (Linux's `procs_running`,
/// this one included; the median of five looks a millisecond apart) are
/// fewer than its cores. False where that is not known.
pub fn spare_core() -> bool {
    let mut looks: Vec<usize> = (0..5)
        .filter_map(|i| {
            if i > 0 {
                std::thread::sleep(Duration::from_millis(1));
            }
            procs_running()
        })
        .collect();
    looks.sort_unstable();
    looks.get(looks.len() / 2).is_some_and(|&r| r < cores())
}

fn procs_running() -> Option<usize> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    stat.lines().find_map(|l| l.strip_prefix("procs_running ")?.trim().parse().ok())
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Whether the machine has a core for each thread of a run: the threads
/// running or ready to run on it (Linux's `procs_running`, this one and
/// the one running both halves included) are no more than its cores. False
/// where that is not known, so a run lent to one thread stays there.
fn core_idle() -> bool {
    procs_running().is_some_and(|r| r <= cores())
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Duration;

    use super::*;
    use crate::engine::build::{build_world, start};
    use crate::engine::partition::Cut;
    use crate::engine::world::Event;
    use crate::scenario::Scenario;

    /// A small E-base, 20 simulated seconds.
    fn scenario() -> Scenario {
        Scenario::from_json(
            r#"{"seed":3,"duration":20000000000,"warmup":5000000000,
 "topology":{"kind":"e-base","edges":2,"hosts_per_edge":6,"access_rate":[8000000,12000000],"access_delay":[1000000,5000000],"edge_rate":[100000000,100000000],"edge_delay":[5000000,15000000]},
 "core":{"rate":10000000,"delay":100000000,"buffer":5000,"queue":"droptail"},
 "tcp":{"variant":"reno","segment_size":1000,"header_size":40,"ack_size":40,"window":1000,"initial_window":2,"syn":true,"tick":10000000,"min_rto":200000000,"max_rto":60000000000,"initial_rto":3000000000},
 "traffic":{"start":[0,1000000000]}}"#,
        )
        .unwrap()
    }

    /// Run `s` split in two, half `broken` with an event for a flow that
    /// does not exist at 7 s (its handler indexes out of bounds), on
    /// another thread; the panic's message, or None if it is not back in
    /// 60 s (a hang) or the run did not panic.
    fn panic_in_half(broken: usize) -> Option<String> {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let s = scenario();
            let mut worlds = [build_world(&s, &|_| None).unwrap(), build_world(&s, &|_| None).unwrap()];
            let cut = Cut::of(&s, &worlds[0].net).expect("a dumbbell splits");
            for (half, w) in worlds.iter_mut().enumerate() {
                w.cut = Some(cut.clone());
                w.split(half as u8);
                start(w, &s).unwrap();
            }
            worlds[broken].schedule(7_000_000_000, Event::Rto(1 << 20));
            let [a, b] = &mut worlds;
            let ended =
                panic::catch_unwind(AssertUnwindSafe(|| run_halves(a, b, s.duration, 2, &mut |_| {})));
            let payload = ended.expect_err("the broken half panics");
            let message = payload.downcast_ref::<String>().cloned().unwrap_or_default();
            tx.send(message).unwrap();
        });
        rx.recv_timeout(Duration::from_secs(60)).ok()
    }

    #[test]
    fn a_panic_in_either_half_ends_the_run_with_its_message() {
        for broken in [0, 1] {
            let message = panic_in_half(broken)
                .unwrap_or_else(|| panic!("half {broken} broken: no panic back in 60 s"));
            assert!(message.contains("index out of bounds"), "half {broken}: {message:?}");
            assert!(message.contains("1048576"), "half {broken}: {message:?}");
        }
    }
}
