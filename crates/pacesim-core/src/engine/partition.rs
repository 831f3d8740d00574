//! A network split in two, each half simulated by its own world, on its
//! own thread while the machine has a core for each ([`super::parallel`])
//! (conservative parallel simulation with a fixed lookahead: Chandy and
//! Misra; the halves post their clocks as null messages do).
//!
//! The cut is a set of links (see [`Cut::of`]): in the papers' dumbbells
//! the ingress edge links or the core link, with the senders on one side
//! and the receivers on the other. A packet reaches the other half only
//! across a cut link, and only after its propagation delay: a packet put on
//! a cut link at t arrives at its far end after t + L, L the least delay of
//! the cut links (the lookahead). So each half may simulate every event
//! before the other's clock plus L: nothing the other sends from then on
//! can be due earlier. The halves run freely on those terms, posting the
//! packets that reached the far end of a cut link and their clocks, and
//! take in each other's packets in the order they were sent, as the one
//! world would have: across the cut-through links after the cut at once,
//! or as an arrival event.
//!
//! Those arrival events are queued late, but they keep the time they were
//! scheduled at in the one world (when the packet was sent across), and
//! equal-time events pop in the order of that time, so they take their
//! place among the far half's own whenever they come in. Two events due at
//! the same nanosecond and scheduled at the same nanosecond in different
//! halves pop half 0's first, in one world as in two (`World::origin`), so
//! a run's report does not depend on whether it was split, nor on how the
//! threads were scheduled (tests/split.rs; bench/equivalence/identical.py; on random
//! graphs, bench/fuzz/split_graphs.py and tests/test_split_graphs.py).
//!
//! Runs with short-lived flows are not split: closing a connection at the
//! sender discards its packets at the sink at the same instant, an effect
//! with no delay across the cut.

use crate::net::{LinkId, Packet, TcpOptions};
use crate::scenario::Scenario;
use crate::sim::Time;
use crate::topology::Network;

/// The least lookahead worth splitting a network at all, around its core's
/// near end or at the core: below it the halves' posts cost more than the
/// better balance gains (bench/speed/README.md has the runs that set it).
/// Each half posts a few times a lookahead: a cut at a 1 ns core made a 2 s
/// run take 35 s of CPU split against 0.01 s on one thread (issue 33's
/// fourth review).
const MIN_LOOKAHEAD: Time = 2_000_000;

/// Which half each node is in, by the link whose queue it holds.
#[derive(Debug, Clone)]
pub struct Cut {
    /// Per link: the half of its queue (its near end) and of its far end.
    ends: Vec<[u8; 2]>,
    /// For each half, how far it may run ahead of the other's clock (its
    /// lookahead): the least time from a packet's crossing into it to the
    /// first event the packet makes there, which is the delay of the cut
    /// link plus those of the cut-through links it is then carried across
    /// at once (E-base: ACKs cross the edge links, 5.25 ms, and then an
    /// access link, 1 ms or more, before they reach a sender).
    pub into: [Time; 2],
    /// The links some route crosses the cut on, ascending, each with the
    /// least time from a packet's crossing on it to its first event in
    /// the other half (`into` is their least by half). Only these: a
    /// vector by link would hold 8 B for each of a million flows' access
    /// links in each half.
    across: Vec<(LinkId, Time)>,
}

impl Cut {
    /// Where `s`'s network splits, if it does and the run has no
    /// short-lived flows nor Tmix clouds: around the core link's near end if the links cut
    /// there leave a lookahead of at least [`MIN_LOOKAHEAD`], else at the
    /// core link if that one does; else nowhere (one thread).
    ///
    /// Around the near end (E-base: at the ingress edge links, lookaheads
    /// of the least edge delay and more, see [`Cut::into`]), half 0 holds the senders, their
    /// access links and the edge routers with their pacers, half 1 the core
    /// queue and everything after it. The senders' TCP and the pacers are
    /// the heaviest work, and this split balances it best (bench/speed/README.md
    /// compares it with the split at the core link).
    pub fn of(s: &Scenario, net: &Network) -> Option<Cut> {
        if s.traffic.short.is_some() || !s.traffic.tmix.is_empty() {
            return None;
        }
        let core = net.core;
        let (near, far) = net.router.half_ends(core);
        let touches_near = |l: LinkId| {
            let (a, b) = net.router.half_ends(l);
            a == near || b == near
        };
        let enough = |cut: &Cut| cut.lookahead() >= MIN_LOOKAHEAD;
        Self::around(net, |l| l / 2 != core / 2 && touches_near(l), near)
            .filter(enough)
            .or_else(|| Self::around(net, |l| l / 2 == core / 2, far).filter(enough))
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
        let crosses = |l: LinkId| ends[l as usize][0] != ends[l as usize][1];
        let mut across = vec![Time::MAX; net.links.len()];
        for r in 0..net.routes.len() as u32 {
            let route = net.route(r);
            for (i, &l) in route.iter().enumerate().filter(|&(_, &l)| crosses(l)) {
                let carried =
                    route[i + 1..].iter().take_while(|&&n| net.cut_through[n as usize] && !crosses(n));
                let first_event =
                    net.links[l as usize].delay + carried.map(|&n| net.links[n as usize].delay).sum::<Time>();
                across[l as usize] = across[l as usize].min(first_event);
            }
        }
        let mut into = [Time::MAX; 2];
        for (l, &t) in across.iter().enumerate() {
            let far = &mut into[ends[l][1] as usize];
            *far = (*far).min(t);
        }
        let across = (across.into_iter().enumerate())
            .filter(|&(_, t)| t < Time::MAX)
            .map(|(l, t)| (l as LinkId, t))
            .collect();
        let cut = Cut { ends, into, across };
        (cut.lookahead() > 0 && cut.lookahead() < Time::MAX && half.contains(&0)).then_some(cut)
    }

    /// The least time from a packet's crossing the cut on `link` to its
    /// first event in the other half; `Time::MAX` for a link no route
    /// crosses the cut on.
    pub fn across(&self, link: LinkId) -> Time {
        self.across.binary_search_by_key(&link, |&(l, _)| l).map_or(Time::MAX, |i| self.across[i].1)
    }

    /// The lesser of the two halves' lookaheads.
    pub fn lookahead(&self) -> Time {
        self.into[0].min(self.into[1])
    }

    /// The half that simulates `link` (holds its queue).
    pub fn side(&self, link: LinkId) -> u8 {
        self.ends[link as usize][0]
    }

    /// The halves of `link`'s two ends, as [`Cut::side`] and [`Cut::far_side`] read them.
    pub fn ends_of(&self, link: LinkId) -> &[u8; 2] {
        &self.ends[link as usize]
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
/// link it is on (`packet.hop`) at `at`; its transmission on that link
/// started at `sent`, `place` packets into the link's train
/// (`net::Passage`), in half `origin`.
#[derive(Debug, Clone, Copy)]
pub struct Crossing {
    pub at: Time,
    pub sent: Time,
    pub packet: Packet,
    /// Index of its TCP options in the outbox, or `NO_OPTIONS`.
    options: u32,
    pub place: u16,
    pub origin: u8,
}

const NO_OPTIONS: u32 = u32::MAX;

/// The packets a half hands to the other, in the order they crossed, with the TCP options of those that carry them kept apart (a
/// crossing is 56 bytes; with its options inline it was 136, and copying
/// them cost more than the packets' passage across the cut links after).
#[derive(Debug, Default)]
pub struct Outbox {
    crossings: Vec<Crossing>,
    options: Vec<TcpOptions>,
}

impl Outbox {
    pub fn push(
        &mut self,
        at: Time,
        (sent, place): (Time, u16),
        origin: u8,
        packet: Packet,
        options: Option<TcpOptions>,
    ) {
        let options = match options {
            Some(o) => {
                self.options.push(o);
                (self.options.len() - 1) as u32
            }
            None => NO_OPTIONS,
        };
        self.crossings.push(Crossing { at, sent, packet, options, place, origin });
    }

    pub fn len(&self) -> usize {
        self.crossings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.crossings.is_empty()
    }

    /// Move `other`'s packets in behind these.
    pub fn append(&mut self, other: &mut Outbox) {
        if self.is_empty() {
            std::mem::swap(self, other);
            return;
        }
        let base = self.options.len() as u32;
        self.crossings.extend(other.crossings.drain(..).map(|mut c| {
            if c.options != NO_OPTIONS {
                c.options += base;
            }
            c
        }));
        self.options.append(&mut other.options);
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
