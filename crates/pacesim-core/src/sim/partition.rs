//! A network split in two at its core link, each half simulated by its own
//! world, on its own thread when there are two (conservative parallel
//! simulation with a fixed lookahead: Chandy and Misra; Lubachevsky's
//! bounded windows).
//!
//! Cutting both directions of the core link leaves, in the papers'
//! dumbbells, the senders' side (hosts, access and edge links, the core
//! queue) and the receivers' side. A packet can only reach the other half
//! across a cut link, and only after its propagation delay: a packet put on
//! the core link at t arrives at its far end after t + L, with L the smaller
//! of the two directions' delays (E-base: 100 ms). So time is cut into
//! windows of L: each half simulates a window on its own, queueing the
//! packets that reach the far end of a cut link, and when both are done the
//! halves swap them; every one is due after the window that sent it, so
//! nothing arrives late. The other half takes them up before its next
//! window, in the order they were sent, as the one world would have: across
//! the cut-through links after the cut at once, or as an arrival event.
//!
//! Those arrival events are scheduled at the window's end, but they keep
//! the time they were scheduled at in the one world (when the packet was
//! sent across), and equal-time events pop in the order of that time, so
//! they take their place among the far half's own. Two events due at the
//! same nanosecond and scheduled at the same nanosecond in different
//! halves pop half 0's first, in one world as in two (`World::origin`), so
//! a run's report does not depend on whether it was split.
//!
//! Runs with short-lived flows are not split: closing a connection at the
//! sender discards its packets at the sink at the same instant, an effect
//! with no delay across the cut.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::world::World;
use super::Time;
use crate::net::{LinkId, Packet, TcpOptions};
use crate::scenario::Scenario;
use crate::topology::Network;

/// Which half each node is in, by the link whose queue it holds.
#[derive(Debug, Clone)]
pub struct Cut {
    /// Per link: the half of its queue (its near end) and of its far end.
    ends: Vec<[u8; 2]>,
    /// How far each half may run ahead of the other: the least delay of a cut link.
    pub lookahead: Time,
}

impl Cut {
    /// The split of `s`'s network at its core link, if removing both its
    /// directions leaves two parts, its delays are not zero, and the run
    /// has no short-lived flows.
    pub fn of(s: &Scenario, net: &Network) -> Option<Cut> {
        if s.traffic.short.is_some() {
            return None;
        }
        let core = net.core;
        Self::around(net, |l| l / 2 == core / 2, net.router.half_ends(core).1)
    }

    /// The split that puts `pivot` and every node it reaches without
    /// crossing a link in `cut` into half 1, the rest into half 0; `None`
    /// if either half is empty or a link between them has no delay.
    fn around(net: &Network, cut: impl Fn(LinkId) -> bool, pivot: u32) -> Option<Cut> {
        let mut adjacent = vec![Vec::new(); net.nodes.len()];
        for l in (0..net.links.len() as LinkId).filter(|&l| !cut(l)) {
            let (a, b) = net.router.half_ends(l);
            adjacent[a as usize].push(b);
        }
        let mut half = vec![0u8; net.nodes.len()];
        half[pivot as usize] = 1;
        let mut stack = vec![pivot];
        while let Some(n) = stack.pop() {
            for &m in &adjacent[n as usize] {
                if half[m as usize] == 0 {
                    half[m as usize] = 1;
                    stack.push(m);
                }
            }
        }
        let ends: Vec<[u8; 2]> = (0..net.links.len() as LinkId)
            .map(|l| {
                let (a, b) = net.router.half_ends(l);
                [half[a as usize], half[b as usize]]
            })
            .collect();
        let crossing = (0..net.links.len()).filter(|&l| ends[l][0] != ends[l][1]);
        let lookahead = crossing.map(|l| net.links[l].delay).min()?;
        (lookahead > 0 && half.contains(&0)).then_some(Cut { ends, lookahead })
    }

    /// The half that simulates `link` (holds its queue).
    pub fn side(&self, link: LinkId) -> u8 {
        self.ends[link as usize][0]
    }

    /// The half of `link`'s far end.
    pub fn far_side(&self, link: LinkId) -> u8 {
        self.ends[link as usize][1]
    }

    /// Whether `link` leads into the other half.
    pub fn crosses(&self, link: LinkId) -> bool {
        let [near, far] = self.ends[link as usize];
        near != far
    }
}

/// A packet handed to the other half: it reaches the far end of the cut
/// link it is on (`packet.hop`) at `at`; it entered the links that led it
/// there at `sent`, in half `origin`.
#[derive(Debug, Clone, Copy)]
pub struct Crossing {
    pub at: Time,
    pub sent: Time,
    pub packet: Packet,
    /// Index of its TCP options in the outbox, or `NO_OPTIONS`.
    options: u32,
    pub origin: u8,
}

const NO_OPTIONS: u32 = u32::MAX;

/// The packets a half hands to the other in one window, in the order they
/// crossed, with the TCP options of those that carry them kept apart (a
/// crossing is 56 bytes; with its options inline it was 136, and copying
/// them cost more than the packets' passage across the cut links after).
#[derive(Debug, Default)]
pub struct Outbox {
    crossings: Vec<Crossing>,
    options: Vec<TcpOptions>,
}

impl Outbox {
    pub fn push(&mut self, at: Time, sent: Time, origin: u8, packet: Packet, options: Option<TcpOptions>) {
        let options = match options {
            Some(o) => {
                self.options.push(o);
                (self.options.len() - 1) as u32
            }
            None => NO_OPTIONS,
        };
        self.crossings.push(Crossing { at, sent, packet, options, origin });
    }

    pub fn len(&self) -> usize {
        self.crossings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.crossings.is_empty()
    }

    /// Hand each packet with its options to `f`, in order, and empty the box.
    pub fn drain(&mut self, mut f: impl FnMut(&Crossing, Option<TcpOptions>)) {
        for c in &self.crossings {
            f(c, (c.options != NO_OPTIONS).then(|| self.options[c.options as usize]));
        }
        self.crossings.clear();
        self.options.clear();
    }
}

/// Run the two halves of a split network (`a` simulates half 0, `b` half
/// 1, both with their first events scheduled) to the end, each on its own
/// thread; `progress` hears half 0's simulated time. Packets still on
/// their way across at the end are left in the outboxes.
pub fn run_halves(a: &mut World, b: &mut World, progress: &mut dyn FnMut(Time)) {
    let lookahead = a.cut.as_ref().expect("a split world").lookahead;
    let exchange = Exchange::default();
    std::thread::scope(|scope| {
        scope.spawn(|| exchange.windows(b, 1, lookahead, &mut |_| {}));
        exchange.windows(a, 0, lookahead, progress);
    });
}

/// Where the halves leave each other's packets: a box per receiving half
/// and window parity (a half may post window k + 1's packets while the
/// other still takes window k's), and a barrier between the windows. A half
/// posts by swapping its outbox with the (empty) box, and the receiver
/// puts the box back emptied, so the buffers circulate.
#[derive(Default)]
struct Exchange {
    boxes: [[Mutex<Outbox>; 2]; 2],
    barrier: SpinBarrier,
}

impl Exchange {
    fn windows(&self, w: &mut World, side: usize, lookahead: Time, progress: &mut dyn FnMut(Time)) {
        let mut limit: Time = 0;
        for window in 0usize.. {
            limit = limit.saturating_add(lookahead);
            if w.run_until(limit, progress) {
                return;
            }
            let parity = window % 2;
            let post = &self.boxes[1 - side][parity];
            std::mem::swap(&mut *post.lock().expect("not poisoned"), &mut w.outbox);
            self.barrier.wait();
            let inbox = &self.boxes[side][parity];
            let mut packets = std::mem::take(&mut *inbox.lock().expect("not poisoned"));
            w.receive(&mut packets);
            *inbox.lock().expect("not poisoned") = packets;
        }
    }
}

/// A barrier for the two halves that spins, then yields: windows take
/// about a millisecond (E-base: 4,000 of them), and putting a thread to
/// sleep and waking it costs tens of microseconds each time.
#[derive(Default)]
struct SpinBarrier {
    arrived: AtomicUsize,
    generation: AtomicUsize,
}

impl SpinBarrier {
    fn wait(&self) {
        let generation = self.generation.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) == 1 {
            self.arrived.store(0, Ordering::Relaxed);
            self.generation.fetch_add(1, Ordering::Release);
            return;
        }
        let mut spins = 0u32;
        while self.generation.load(Ordering::Acquire) == generation {
            if spins < 1 << 12 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Fold half 1's results into half 0's world, which then reports for both:
/// each link, pacer, flow end and source from the half that simulated it.
pub fn join(a: &mut World, b: &mut World) {
    let cut = a.cut.clone().expect("a split world");
    for l in (0..a.net.links.len()).filter(|&l| cut.side(l as LinkId) == 1) {
        std::mem::swap(&mut a.net.links[l], &mut b.net.links[l]);
    }
    for (i, &(link, _)) in a.net.pacers.iter().enumerate() {
        if cut.side(link) == 1 {
            std::mem::swap(&mut a.pacers[i], &mut b.pacers[i]);
        }
    }
    for f in 0..a.flows.len() {
        if b.owns_sender(f) {
            a.flows[f].take_sender_half(&mut b.flows[f]);
        }
        if b.owns_sink(f) {
            a.flows[f].take_sink_half(&mut b.flows[f]);
        }
    }
    for (x, y) in a.sources.iter_mut().zip(&b.sources) {
        x.sent += y.sent;
        x.received += y.received;
    }
    if let (Some((_, x)), Some((_, y))) = (&mut a.progress, &b.progress) {
        x.merge(y);
    }
    if let (Some((_, x)), Some((_, y))) = (&mut a.delay, &b.delay) {
        x.merge(y);
    }
}
